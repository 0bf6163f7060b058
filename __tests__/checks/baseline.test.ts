// Before and after: the change of each check from its two verdicts, the pairing of the two sides, and the
// sentence the summary, the comment and the CLI lead with.
import { describe, expect, it } from '@jest/globals'
import { changeOf, changeSentence, changeSummary, compareResults } from '../../src/checks/baseline.js'
import { checkResult } from '../helpers/check-results.js'

describe('changeOf', () => {
  it.each([
    ['failed', 'passed', 'fixed'],
    ['passed', 'failed', 'regressed'],
    ['passed', 'passed', 'still-passing'],
    ['failed', 'failed', 'still-failing'],
    ['error', 'passed', 'error'],
    ['passed', 'error', 'error'],
    ['error', 'failed', 'error'],
  ] as const)('%s before, %s after: %s', (before, after, change) => {
    expect(changeOf(before, after)).toBe(change)
  })
})

describe('compareResults', () => {
  const before = [
    checkResult({ name: 'a', verdict: 'failed', answer: 'Refunds within 30 days.' }),
    checkResult({ name: 'b', verdict: 'passed', answer: 'Same text' }),
    checkResult({ name: 'c', verdict: 'passed', answer: 'Refunds within 14 days.' }),
  ]
  const after = [
    checkResult({ name: 'a', verdict: 'passed', answer: 'Refunds within 14 days.' }),
    checkResult({ name: 'b', verdict: 'passed', answer: '  Same text\n' }),
    checkResult({ name: 'c', verdict: 'failed', answer: 'Nothing matched.' }),
  ]
  const compared = compareResults(before, after)

  it('pairs the sides by position, with the change and the similarity of the answers', () => {
    expect(compared.map((c) => [c.name, c.change, c.unchanged])).toEqual([
      ['a', 'fixed', false],
      ['b', 'still-passing', true],
      ['c', 'regressed', false],
    ])
    // "30" against "14": two characters of 23 differ.
    expect(compared[0].similarity).toBeCloseTo(1 - 2 / 23, 10)
    expect(compared[1].similarity).toBe(1)
    expect(compared[2].similarity).toBeLessThan(0.5)
  })

  it('refuses sides of different lengths', () => {
    expect(() => compareResults(before.slice(1), after)).toThrow('2 results before against 3 after')
  })

  it('names the checks fixed and regressed, in suite order', () => {
    expect(changeSummary(compared)).toEqual({
      fixed: ['a'],
      regressed: ['c'],
      advisoryRegressed: [],
      stillPassing: 1,
      stillFailing: 0,
      errors: 0,
    })
  })
})

describe('changeSentence', () => {
  const summary = (fixed: number, regressed: number, errors = 0, advisory = 0) => ({
    fixed: Array.from({ length: fixed }, (_, i) => `f${i}`),
    regressed: Array.from({ length: regressed }, (_, i) => `r${i}`),
    advisoryRegressed: Array.from({ length: advisory }, (_, i) => `r${i}`),
    stillPassing: 0,
    stillFailing: 0,
    errors,
  })
  it.each([
    [2, 1, 0, 'This pull request fixes 2 checks and breaks 1.'],
    [1, 0, 0, 'This pull request fixes 1 check and breaks none.'],
    [0, 3, 0, 'This pull request breaks 3 checks and fixes none.'],
    [0, 0, 0, "This pull request changes no check's verdict."],
    [
      0,
      0,
      1,
      "This pull request changes no check's verdict. 1 check could not be compared (a run failed on one side).",
    ],
  ])('%i fixed, %i regressed, %i errors', (fixed, regressed, errors, sentence) => {
    expect(changeSentence(summary(fixed, regressed, errors))).toBe(sentence)
  })
  it.each([
    [1, 2, 1, 'This pull request fixes 1 check and breaks 2 (1 advisory).'],
    [0, 1, 1, 'This pull request breaks 1 check (advisory) and fixes none.'],
    [0, 2, 2, 'This pull request breaks 2 checks (all advisory) and fixes none.'],
  ])('%i fixed, %i regressed, %i of them advisory', (fixed, regressed, advisory, sentence) => {
    expect(changeSentence(summary(fixed, regressed, 0, advisory))).toBe(sentence)
  })
})
