// The suite as data: the `results` output holds excerpts, the results file every run whole.
import { describe, expect, it } from '@jest/globals'
import { suiteVerdict } from '../../src/checks/verdict.js'
import { checksOutputSpecs, checksResultsJson } from '../../src/report/checks-results.js'
import { fileFields } from '../../src/report/output-budget.js'
import { checkResult } from '../helpers/check-results.js'

const long = `Refunds take 14 days. ${'x'.repeat(2000)}`
const results = [
  checkResult({
    name: 'refunds',
    question: 'Refunds?',
    answer: 'Within 14 days.',
    runId: 'r1',
    seconds: 1.2,
  }),
  checkResult({ name: 'long', runs: ['passed', 'failed'], minPass: 1, answer: long, seconds: 0.5 }),
]

describe('checks results', () => {
  it('results: per check the verdict, runs passed of made, failed assertions, an excerpt, and each run', () => {
    const [first, second] = JSON.parse(checksResultsJson(results)) as Record<string, unknown>[]
    expect(first).toEqual({
      name: 'refunds',
      question: 'Refunds?',
      verdict: 'passed',
      runs_passed: 1,
      runs_made: 1,
      min_pass: 1,
      failed: [],
      excerpt: 'Within 14 days.',
      run_id: 'r1',
      seconds: 1.2,
      runs: [
        {
          run: 1,
          verdict: 'passed',
          failed: [],
          excerpt: 'Within 14 days.',
          run_id: 'r1',
          seconds: 1.2,
          started: true,
        },
      ],
    })
    expect(second).toMatchObject({
      verdict: 'passed',
      runs_passed: 1,
      runs_made: 2,
      failed: ['run 2: contains "x": not found'],
    })
    expect(String(second.excerpt)).toHaveLength(501)
  })

  it('the results file holds every run whole: answers, assertions, timings', () => {
    const fields = Object.fromEntries(fileFields(checksOutputSpecs(results, suiteVerdict(results, 100))))
    expect([fields.passed, fields.failed]).toEqual([2, 0])
    const runs = (fields.results as { runs: Record<string, unknown>[] }[])[1].runs
    expect(runs.map((run) => [run.run, run.verdict, run.answer, run.seconds])).toEqual([
      [1, 'passed', long, 0.5],
      [2, 'failed', long, 0.5],
    ])
    expect(runs[1].failed).toEqual(['contains "x": not found'])
  })
})
