import { describe, expect, it } from '@jest/globals'
import { marked, type Token, type Tokens } from 'marked'
import { checksResultsJson, renderChecksSummary, renderChecksTable } from '../../src/report/checks-results.js'
import type { CheckResult } from '../../src/checks/verdict.js'
import { suiteVerdict } from '../../src/checks/verdict.js'

const results: CheckResult[] = [
  { name: 'refunds', verdict: 'passed', failed: [], answer: 'Within 14 days.', runId: 'r1', seconds: 1.25 },
  {
    name: 'pipes | and <b>tags</b>',
    verdict: 'failed',
    failed: ['contains "30 days": not found', 'max-length 5: the answer has 15 characters'],
    answer: '\u001b[31mWithin 14 days.',
    runId: 'r2',
    seconds: 0.5,
  },
  { name: 'broken', verdict: 'error', failed: ['HTTP 500: boom'], answer: '', seconds: 0.1 },
]

describe('checks rendering', () => {
  it('renders one table (check, verdict, seconds, failed assertions), then each answer collapsed', () => {
    const markdown = renderChecksSummary(results, suiteVerdict(results, 100))
    const tokens = marked.lexer(markdown, { gfm: true })
    const tables = tokens.filter((t: Token) => t.type === 'table') as Tokens.Table[]
    expect(tables).toHaveLength(1)
    expect(tables[0].header.map((h) => h.text)).toEqual(['Check', 'Verdict', 'Seconds', 'Failed assertions'])
    expect(tables[0].rows).toHaveLength(3)
    expect(tables[0].rows[1][0].text).toBe('pipes &#124; and &lt;b&gt;tags&lt;/b&gt;')
    expect(tables[0].rows[1][3].text).toContain('max-length 5')
    expect(markdown.match(/<details><summary>/g)).toHaveLength(3)
    expect(markdown).toContain('1 of 3 checks passed (33.3%); threshold 100%.')
    expect(markdown).not.toContain('\u001b')
    expect(markdown).toContain('HTTP 500: boom')
  })

  it('the table alone can be embedded elsewhere', () => {
    expect(renderChecksTable(results).split('\n')).toHaveLength(5)
  })

  it('stays under 1 MiB with many large answers', () => {
    const many: CheckResult[] = Array.from({ length: 200 }, (_, i) => ({
      name: `c${i}`,
      verdict: 'passed',
      failed: [],
      answer: 'x'.repeat(900 * 1024),
      seconds: 1,
    }))
    const markdown = renderChecksSummary(many, suiteVerdict(many, 100))
    expect(Buffer.byteLength(markdown)).toBeLessThan(1024 * 1024)
    expect(markdown.match(/<details>/g)).toHaveLength(200)
    expect(Buffer.byteLength(checksResultsJson(many))).toBeLessThan(1024 * 1024)
  })

  it('results: name, verdict, failed assertions, answer excerpt, run id, seconds', () => {
    expect(JSON.parse(checksResultsJson(results))).toEqual([
      {
        name: 'refunds',
        verdict: 'passed',
        failed: [],
        excerpt: 'Within 14 days.',
        run_id: 'r1',
        seconds: 1.25,
      },
      {
        name: 'pipes | and <b>tags</b>',
        verdict: 'failed',
        failed: results[1].failed,
        excerpt: results[1].answer,
        run_id: 'r2',
        seconds: 0.5,
      },
      {
        name: 'broken',
        verdict: 'error',
        failed: ['HTTP 500: boom'],
        excerpt: '',
        run_id: null,
        seconds: 0.1,
      },
    ])
  })
})
