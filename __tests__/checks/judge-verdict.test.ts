import { describe, expect, it } from '@jest/globals'
import { failedAssertions, type JudgedRun } from '../../src/checks/judge.js'
import type { CheckResult } from '../../src/checks/verdict.js'
import { parseChecks } from '../../src/checks/schema.js'
import { parseThreshold } from '../../src/units.js'
import { suiteVerdict } from '../../src/checks/verdict.js'
import { checkResult } from '../helpers/check-results.js'

const check = (fields: string) => parseChecks(`- name: c\n  inputs: {in-0: q}\n${fields}`)[0]
const ANSWER = 'Refunds are granted within 14 days.'
const RUN: JudgedRun = { answer: ANSWER, outputs: { 'out-0': ANSWER }, seconds: 1, response: {} }

describe('failedAssertions', () => {
  it('passes an answer that meets every assertion', () => {
    const all = check(
      '  expect: "\\\\d+ days"\n  contains: [Refunds, "14 days"]\n  not-contains: "30 days"\n  min-length: 10\n  max-length: 100',
    )
    expect(failedAssertions(all, RUN)).toEqual([])
  })

  it.each([
    ['expect', '  expect: "^30"', ['expect "^30": no match']],
    ['contains (one string)', '  contains: "30 days"', ['contains "30 days": not found']],
    ['contains (a list, one missing)', '  contains: [Refunds, never]', ['contains "never": not found']],
    ['contains is case-sensitive by default', '  contains: refunds', ['contains "refunds": not found']],
    ['not-contains', '  not-contains: [granted, nope]', ['not-contains "granted": found']],
    ['min-length', '  min-length: 100', [`min-length 100: the answer has ${ANSWER.length} characters`]],
    ['max-length', '  max-length: 5', [`max-length 5: the answer has ${ANSWER.length} characters`]],
  ])('names a failed %s', (_, fields, failed) => {
    expect(failedAssertions(check(fields), RUN)).toEqual(failed)
  })

  it('case-insensitive applies to contains and not-contains', () => {
    expect(failedAssertions(check('  contains: REFUNDS\n  case-insensitive: true'), RUN)).toEqual([])
    expect(failedAssertions(check('  not-contains: GRANTED\n  case-insensitive: true'), RUN)).toEqual([
      'not-contains "GRANTED": found',
    ])
  })

  it('lists every failed assertion', () => {
    expect(failedAssertions(check('  contains: x\n  max-length: 1'), RUN)).toHaveLength(2)
  })
})

describe('threshold', () => {
  it.each([
    ['100%', 100],
    ['90%', 90],
    ['87.5%', 87.5],
    ['90', 90],
    ['0%', 0],
  ])('parses %s', (text, percent) => expect(parseThreshold(text)).toBe(percent))

  it.each(['101%', '-5%', 'most', '0.9.1', ''])('refuses %j', (text) =>
    expect(parseThreshold(text)).toBeUndefined(),
  )

  const results = (verdicts: CheckResult['verdict'][]): CheckResult[] =>
    verdicts.map((verdict, i) => checkResult({ name: `c${i}`, verdict }))

  it.each([
    [['passed', 'passed', 'failed'], 66, true],
    [['passed', 'passed', 'failed'], 66.66, true],
    [['passed', 'passed', 'failed'], 66.67, false],
    [['passed', 'passed', 'failed'], 100, false],
    [['passed', 'passed', 'passed'], 100, true],
    [['failed', 'error'], 0, true],
    [['passed', 'error'], 50, true],
    [['passed', 'error'], 51, false],
  ] as [CheckResult['verdict'][], number, boolean][])(
    '%j against %d%% → ok %s',
    (verdicts, threshold, ok) => {
      const verdict = suiteVerdict(results(verdicts), threshold)
      expect(verdict.ok).toBe(ok)
      expect(verdict.passed + verdict.failed).toBe(verdicts.length)
    },
  )
})

describe('a check of several runs', () => {
  it.each([
    // [each run's verdict, min-pass, the check's verdict]
    [['passed', 'failed', 'passed'], 2, 'passed'],
    [['passed', 'failed', 'error'], 2, 'failed'],
    [['error', 'error', 'passed'], 2, 'error'],
    [['failed', 'failed', 'failed'], 1, 'failed'],
    [['passed', 'passed', 'passed'], 3, 'passed'],
    [['passed', 'passed', 'failed'], 3, 'failed'],
  ] as [CheckResult['verdict'][], number, CheckResult['verdict']][])(
    'runs %j with min-pass %d → %s',
    (runs, minPass, verdict) => expect(checkResult({ name: 'c', runs, minPass }).verdict).toBe(verdict),
  )

  it('the suite counts the runs sent, with their median and slowest seconds', () => {
    const results = [
      checkResult({ name: 'a', runs: ['passed', 'failed', 'passed'], minPass: 2, seconds: 2 }),
      checkResult({ name: 'b', seconds: 7 }),
      checkResult({ name: 'c', seconds: 1 }),
    ]
    results[2].runs[0].started = false
    expect(suiteVerdict(results, 100)).toMatchObject({
      passed: 3,
      runs: 4,
      medianSeconds: 2,
      slowestSeconds: 7,
      failedNames: [],
    })
  })
})
