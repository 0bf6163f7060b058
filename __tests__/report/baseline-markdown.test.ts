// The before/after report within GitHub's limits: huge answers and many checks still leave a comment
// under 65,536 characters that leads with the change and keeps the table before the answers.
import { describe, expect, it } from '@jest/globals'
import { compareResults } from '../../src/checks/baseline.js'
import { suiteVerdict } from '../../src/checks/verdict.js'
import { renderComparedComment } from '../../src/report/compared-comment.js'
import { COMMENT_LIMIT } from '../../src/report/comment-body.js'
import { sizeOf } from '../../src/report/markdown.js'
import { checkResult } from '../helpers/check-results.js'
import { structureOf } from './gfm.js'

function sides(count: number, answerChars: number) {
  const before = Array.from({ length: count }, (_, i) =>
    checkResult({
      name: `c${i}`,
      verdict: i % 2 === 0 ? 'failed' : 'passed',
      answer: 'b'.repeat(answerChars),
    }),
  )
  const after = Array.from({ length: count }, (_, i) =>
    checkResult({ name: `c${i}`, verdict: 'passed', answer: 'a'.repeat(answerChars) }),
  )
  return { compared: compareResults(before, after), verdict: suiteVerdict(after, 100) }
}

describe('renderComparedComment', () => {
  it('shows both answers of each check whole when they fit', () => {
    const { compared, verdict } = sides(2, 50)
    const body = renderComparedComment(
      '### Flow checks: before and after',
      compared,
      verdict,
      'regression',
      {},
    )
    const s = structureOf(body)
    expect(s.html).toContain('<strong>🟢 This pull request fixes 1 check and breaks none.</strong>')
    expect(s.tables[0].rows.map((row) => [row[0], row[2], row[5]])).toEqual([
      ['c0', '🟢 fixed', '0.00'],
      ['c1', '✅ still passing', '0.00'],
    ])
    expect(s.html).toContain('b'.repeat(50))
    expect(s.html).toContain('a'.repeat(50))
  })

  it('answers of a megabyte: cut to fit, each side keeping its beginning', () => {
    const { compared, verdict } = sides(3, 1_000_000)
    const body = renderComparedComment(
      '### Flow checks: before and after',
      compared,
      verdict,
      'regression',
      {},
    )
    expect(sizeOf(body)).toBeLessThanOrEqual(COMMENT_LIMIT)
    const s = structureOf(body)
    expect(body).toContain('This pull request fixes 2 checks and breaks none.')
    expect(s.summaries).toHaveLength(3)
    expect(s.html).toMatch(/b{5000}/)
    expect(s.html).toMatch(/a{5000}/)
  })

  it('400 checks: the table first, what does not fit counted in a note', () => {
    const { compared, verdict } = sides(400, 2_000)
    const body = renderComparedComment(
      '### Flow checks: before and after',
      compared,
      verdict,
      'regression',
      {},
    )
    expect(sizeOf(body)).toBeLessThanOrEqual(COMMENT_LIMIT)
    expect(body).toContain('This pull request fixes 200 checks and breaks none.')
    expect(structureOf(body).tables[0].rows[0][0]).toBe('c0')
    expect(body).toMatch(/_\d+ more checks not shown \(to stay within GitHub's size limit\); the job summary/)
    const hidden = Number(/_(\d+) more answers not shown/.exec(body)?.[1])
    expect(structureOf(body).summaries.length + hidden).toBe(400)
  })
})
