// The before/after inputs: `baseline-flow-id`, `baseline-org-id` (the run's org by default) and `fail-on`
// (regression by default with a baseline, threshold without), each refused by name when misused.
import { describe, expect, it } from '@jest/globals'
import type { InputReader } from '../../src/config/fields.js'
import { readRunConfig } from '../../src/config/run.js'
import { configProblems } from '../helpers/config-problems.js'

const SUITE = '- name: refunds\n  inputs: {in-0: refunds?}\n  contains: 14 days\n'
const BASE = { 'org-id': 'org-1', 'flow-id': 'flow-1', 'public-key': 'pk-public-Canary0123456789' }
const PUSH = { eventName: 'push' }

const reader =
  (inputs: Record<string, string>): InputReader =>
  (name) =>
    (inputs[name] ?? '').trim()

const read = (inputs: Record<string, string>) => readRunConfig(reader({ ...BASE, ...inputs }), PUSH)

function problems(inputs: Record<string, string>): { input: string; message: string }[] {
  return configProblems(() => read(inputs))
}

describe('baseline inputs', () => {
  it('a baseline in the same org by default, and fail-on regression', () => {
    const config = read({ checks: SUITE, 'baseline-flow-id': 'flow-0' })
    expect(config.baseline).toEqual({ orgId: 'org-1', flowId: 'flow-0' })
    expect(config.failOn).toBe('regression')
  })

  it('baseline-org-id names another org; fail-on threshold keeps the threshold', () => {
    const config = read({
      checks: SUITE,
      'baseline-flow-id': 'flow-0',
      'baseline-org-id': 'org-0',
      'fail-on': 'threshold',
    })
    expect(config.baseline).toEqual({ orgId: 'org-0', flowId: 'flow-0' })
    expect(config.failOn).toBe('threshold')
  })

  it('without a baseline: no baseline, fail-on threshold', () => {
    const config = read({ checks: SUITE })
    expect(config.baseline).toBeUndefined()
    expect(config.failOn).toBe('threshold')
  })

  it.each([
    [
      'fail-on not a known word',
      { checks: SUITE, 'baseline-flow-id': 'flow-0', 'fail-on': 'regresion' },
      'fail-on',
      'Input "fail-on" must be "regression" or "threshold" (got "regresion").',
    ],
    [
      'fail-on regression without a baseline',
      { checks: SUITE, 'fail-on': 'regression' },
      'fail-on',
      'Input "fail-on" "regression" needs "baseline-flow-id": without a baseline no check can regress.',
    ],
    [
      'a baseline without checks',
      { inputs: '{"in-0": "q"}', 'baseline-flow-id': 'flow-0' },
      'baseline-flow-id',
      'Input "baseline-flow-id" applies to "checks" only: a suite is compared, not one question.',
    ],
    [
      'baseline-org-id alone',
      { checks: SUITE, 'baseline-org-id': 'org-0' },
      'baseline-org-id',
      'Input "baseline-org-id" needs "baseline-flow-id": it names the baseline flow\'s organization.',
    ],
  ])('%s is refused naming the input', (_, inputs, input, message) => {
    expect(problems(inputs)).toEqual([{ input, message }])
  })

  it('a baseline that is the flow itself is refused; the same flow id in another org is not', () => {
    expect(problems({ checks: SUITE, 'baseline-flow-id': 'flow-1' })).toEqual([
      {
        input: 'baseline-flow-id',
        message:
          'Input "baseline-flow-id" names the flow of "flow-id" itself: compare with another flow (e.g. production, while flow-id is the staging flow).',
      },
    ])
    expect(
      read({ checks: SUITE, 'baseline-flow-id': 'flow-1', 'baseline-org-id': 'org-0' }).baseline,
    ).toEqual({
      orgId: 'org-0',
      flowId: 'flow-1',
    })
  })

  it('a baseline id is checked like flow-id', () => {
    expect(problems({ checks: SUITE, 'baseline-flow-id': 'a/b' }).map((p) => p.input)).toEqual([
      'baseline-flow-id',
    ])
  })

  it('max-runs counts the runs on both flows', () => {
    expect(read({ checks: SUITE, 'baseline-flow-id': 'flow-0', 'max-runs': '2' }).maxRuns).toBe(2)
    expect(problems({ checks: SUITE, 'baseline-flow-id': 'flow-0', 'max-runs': '1' })).toEqual([
      {
        input: 'max-runs',
        message: expect.stringContaining(
          'would start 2 runs (1 check, repeats and the baseline flow included)',
        ),
      },
    ])
  })
})
