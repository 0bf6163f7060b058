// The single question's summary: the verdict line of a suite of one above the question and the answer.
import { describe, expect, it } from '@jest/globals'
import { singleQuestionResult } from '../../src/checks/verdict.js'
import { flowFailure, flowSection } from '../../src/report/flow-section.js'
import { structureOf } from './gfm.js'

const report = { question: 'How long are refunds?', result: 'Within 14 days.', response: {} }

describe('the single question in the summary', () => {
  it('a met expect: ✅ and no failed assertions', () => {
    const { verdict } = singleQuestionResult({ question: report.question, answer: report.result, seconds: 1 })
    const s = structureOf(flowSection(report, verdict))
    expect(s.headings).toEqual(['Flow run'])
    expect(s.html).toContain('<strong>✅ 1 of 1 checks passed (100.0%); threshold 100%.</strong>')
    expect(s.html).not.toContain('Failed assertions')
  })

  it('a missed expect: ❌ counting it, in bold, with the failed assertion', () => {
    const problem = 'The result does not match "expect" (30 days).'
    const { verdict } = singleQuestionResult({ ...report, answer: report.result, problem, seconds: 1 })
    const s = structureOf(flowSection(report, verdict, [problem]))
    expect(s.html).toContain(
      '<strong>❌ 0 of 1 checks passed (0.0%), below the threshold 100%: 1 failed.</strong>',
    )
    expect(s.html).toContain('<li>The result does not match &quot;expect&quot; (30 days).</li>')
  })

  it('a failed run: the same verdict line above the service message', () => {
    const { results, verdict } = singleQuestionResult({
      question: report.question,
      answer: '',
      problem: 'HTTP 500',
      error: true,
      seconds: 1,
    })
    expect(results[0].verdict).toBe('error')
    const s = structureOf(flowFailure(report.question, 'HTTP 500', verdict))
    expect(s.headings).toEqual(['Flow run failed'])
    expect(s.html).toContain(
      '<strong>❌ 0 of 1 checks passed (0.0%), below the threshold 100%: 1 error.</strong>',
    )
  })

  it('the flow run after indexing has no verdict', () => {
    expect(flowSection(report)).not.toMatch(/checks passed/)
  })
})
