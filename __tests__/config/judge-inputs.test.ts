// The judge and advisory inputs: `judge-flow-id`, `judge-org-id` (the run's org by default),
// `judge-min-score` (0–1, default 0.5) and `advisory-checks` (names or * patterns), each refused by name
// when misused, before any run.
import { describe, expect, it } from '@jest/globals'
import type { InputReader } from '../../src/config/fields.js'
import { readRunConfig } from '../../src/config/run.js'
import { configProblems } from '../helpers/config-problems.js'

const SUITE = [
  '- {name: refunds, inputs: {in-0: refunds?}, rubric: Says 14 days.}',
  '- {name: shipping time, inputs: {in-0: shipping?}, contains: 3 days}',
  '- {name: shipping cost, inputs: {in-0: shipping?}, contains: free, advisory: true}',
].join('\n')
const BASE = { 'org-id': 'org-1', 'flow-id': 'flow-1', 'public-key': 'pk-public-Canary0123456789' }

const reader =
  (inputs: Record<string, string>): InputReader =>
  (name) =>
    (inputs[name] ?? '').trim()

const read = (inputs: Record<string, string>) =>
  readRunConfig(reader({ ...BASE, ...inputs }), { eventName: 'push' })

function problems(inputs: Record<string, string>): { input: string; message: string }[] {
  return configProblems(() => read(inputs))
}

describe('judge inputs', () => {
  it('a judge flow in the run org by default, judge-min-score 0.5 by default', () => {
    expect(read({ checks: SUITE, 'judge-flow-id': 'judge-1' }).judge).toEqual({
      target: { orgId: 'org-1', flowId: 'judge-1' },
      minScore: 0.5,
    })
    expect(
      read({ checks: SUITE, 'judge-flow-id': 'judge-1', 'judge-org-id': 'org-2', 'judge-min-score': '.75' })
        .judge,
    ).toEqual({ target: { orgId: 'org-2', flowId: 'judge-1' }, minScore: 0.75 })
  })

  it.each([
    [
      'a rubric without a judge flow',
      { checks: SUITE },
      'judge-flow-id',
      'Input "judge-flow-id" is required: check "refunds" has a rubric, which a judge flow grades.',
    ],
    [
      'judge-min-score above 1',
      { checks: SUITE, 'judge-flow-id': 'judge-1', 'judge-min-score': '1.5' },
      'judge-min-score',
      'Input "judge-min-score" must be a number from 0 to 1, such as 0.7 (got "1.5").',
    ],
    [
      'judge-min-score as a percentage',
      { checks: SUITE, 'judge-flow-id': 'judge-1', 'judge-min-score': '70%' },
      'judge-min-score',
      'Input "judge-min-score" must be a number from 0 to 1, such as 0.7 (got "70%").',
    ],
    [
      'judge-org-id without judge-flow-id',
      { checks: SUITE.split('\n').slice(1).join('\n'), 'judge-org-id': 'org-2' },
      'judge-org-id',
      'Input "judge-org-id" needs "judge-flow-id": it names the judge flow\'s organization.',
    ],
    [
      'the flow under test as its own judge',
      { checks: SUITE, 'judge-flow-id': 'flow-1' },
      'judge-flow-id',
      'Input "judge-flow-id" names the flow of "flow-id" itself: a judge flow is a flow of its own that grades answers (see the README, "Judge flow").',
    ],
    [
      'judge-flow-id with a single question',
      { inputs: '{"in-0": "q"}', 'judge-flow-id': 'judge-1' },
      'judge-flow-id',
      'Input "judge-flow-id" applies to "checks" only: it grades the checks\' rubrics.',
    ],
  ])('%s is refused naming the input', (_, inputs, input, message) => {
    expect(problems(inputs)).toContainEqual({ input, message })
  })
})

describe('advisory-checks', () => {
  it('marks the checks it names (names or * patterns, lines or commas) advisory, beside the field', () => {
    const advisory = (value: string) =>
      read({ checks: SUITE, 'judge-flow-id': 'judge-1', 'advisory-checks': value })
        .checks!.filter((check) => check.advisory)
        .map((check) => check.name)
    expect(advisory('')).toEqual(['shipping cost'])
    expect(advisory('refunds')).toEqual(['refunds', 'shipping cost'])
    expect(advisory('ship*')).toEqual(['shipping time', 'shipping cost'])
    expect(advisory('refunds,\nshipping time')).toEqual(['refunds', 'shipping time', 'shipping cost'])
  })

  it('an entry that names no check is refused, listing the names and the nearest one', () => {
    expect(
      problems({ checks: SUITE, 'judge-flow-id': 'judge-1', 'advisory-checks': 'refund, ship*' }),
    ).toContainEqual({
      input: 'advisory-checks',
      message:
        'Input "advisory-checks" names no check with "refund" (check names: "refunds", "shipping time", "shipping cost"; "*" matches any characters). Did you mean "refunds"?',
    })
  })
})
