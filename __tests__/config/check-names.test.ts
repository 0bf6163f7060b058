// Inputs that name checks (`settle-check`, `advisory-checks`) and name none: refused by name before any
// run, with the check names and the one most likely meant.
import { describe, expect, it } from '@jest/globals'
import type { InputReader } from '../../src/config/fields.js'
import { readRunConfig } from '../../src/config/run.js'
import { configProblems } from '../helpers/config-problems.js'

const SUITE = [
  '- {name: refund window, inputs: {in-0: refunds?}, contains: 14 days}',
  '- {name: support hours, inputs: {in-0: hours?}, contains: 9am}',
  '- {name: shipping time, inputs: {in-0: shipping?}, contains: 3 days}',
].join('\n')
const BASE = {
  'org-id': 'org-1',
  'flow-id': 'flow-1',
  'public-key': 'pk-public-Canary0123456789',
  checks: SUITE,
}

function problems(inputs: Record<string, string>) {
  const read: InputReader = (name) => (({ ...BASE, ...inputs }) as Record<string, string>)[name]?.trim() ?? ''
  return configProblems(() => readRunConfig(read, { eventName: 'push' }))
}

describe('settle-check naming no check', () => {
  it('is refused with the check names and the nearest one', () => {
    expect(problems({ settle: '30', 'settle-check': 'refund windw' })).toEqual([
      {
        input: 'settle-check',
        message:
          'Input "settle-check" names no check of "checks" (got "refund windw"; the checks are "refund window", ' +
          '"support hours", "shipping time"). Did you mean "refund window"?',
      },
    ])
  })

  it('guesses nothing when no name is close', () => {
    const [problem] = problems({ settle: '30', 'settle-check': 'latency' })
    expect(problem.message).toMatch(/\(got "latency"; the checks are [^)]*\)\.$/)
  })
})

describe('advisory-checks naming no check', () => {
  it('is refused with the nearest name of each entry that has one', () => {
    expect(problems({ 'advisory-checks': 'Support_Hours, shipping tme, latency, ship*x' })).toEqual([
      {
        input: 'advisory-checks',
        message:
          'Input "advisory-checks" names no check with "Support_Hours", "shipping tme", "latency", "ship*x" ' +
          '(check names: "refund window", "support hours", "shipping time"; "*" matches any characters). ' +
          'For "Support_Hours", did you mean "support hours"? For "shipping tme", did you mean "shipping time"?',
      },
    ])
  })

  it('one entry: one question', () => {
    const [problem] = problems({ 'advisory-checks': 'suport hours' })
    expect(problem.message).toMatch(/ Did you mean "support hours"\?$/)
  })
})
