import { describe, expect, it } from '@jest/globals'
import {
  COMMENT_LIMIT,
  renderFlowComment,
  renderIndexComment,
  verdictTable,
} from '../../src/report/comment-body.js'
import type { IndexReport } from '../../src/report/types.js'
import { balanced, OUR_TAGS, structureOf, tagsOf } from './gfm.js'

const footer = { commit: 'a'.repeat(40), runUrl: 'https://github.com/octo-org/docs/actions/runs/42' }

describe('flow comment (rendered as GFM)', () => {
  it('one question: verdict heading, one-row table, the answer collapsed, commit and run link', () => {
    const md = renderFlowComment(
      'Flow check',
      [{ name: 'How long are refunds?', verdict: 'passed', seconds: 1.25, answer: '14 days.' }],
      footer,
    )
    const s = structureOf(md)
    expect(s.headings).toEqual(['✅ Flow check: passed'])
    expect(s.tables).toEqual([
      {
        header: ['Check', 'Verdict', 'Seconds', 'Failed assertion'],
        rows: [['How long are refunds?', '✅ passed', '1.3', '']],
      },
    ])
    expect(s.summaries).toEqual(['How long are refunds?: passed'])
    expect(s.html).toContain('14 days.')
    expect(s.html).toContain('<code>aaaaaaaaaaaa</code>')
    expect(s.html).toContain('href="https://github.com/octo-org/docs/actions/runs/42"')
  })

  it('a verdicts table takes any number of rows (the checks suite slots in here)', () => {
    const rows = Array.from({ length: 3 }, (_, i) => ({
      name: `check ${i}`,
      verdict: i === 1 ? ('failed' as const) : ('passed' as const),
      problem: i === 1 ? 'contains "14 days"' : undefined,
      answer: `answer ${i}`,
    }))
    const s = structureOf(renderFlowComment('Flow checks', rows, {}))
    expect(s.headings).toEqual(['❌ Flow checks: 1 of 3 failed'])
    expect(s.tables[0].rows.map((r) => r[1])).toEqual(['✅ passed', '❌ failed', '✅ passed'])
    expect(s.summaries).toHaveLength(3)
    expect(structureOf(verdictTable(rows)).tables).toHaveLength(1)
  })

  it('cuts answers first and says so, staying under 65,536 characters', () => {
    const rows = Array.from({ length: 5 }, (_, i) => ({
      name: `c${i}`,
      verdict: 'passed' as const,
      answer: `é${'x'.repeat(40_000)}😀`,
    }))
    const md = renderFlowComment('Flow checks', rows, footer)
    expect(md.length).toBeLessThanOrEqual(COMMENT_LIMIT)
    const s = structureOf(md)
    expect(s.tables[0].rows).toHaveLength(5)
    expect(s.summaries).toHaveLength(5)
    expect(balanced(s.html, 'details')).toBe(true)
    expect(md).toContain('Answers were cut to keep this comment under GitHub’s 65,536-character limit')
    expect(md.match(/_Cut to [\d,]+ of 40,003 characters\._/g)).toHaveLength(5)
  })

  it('a huge suite keeps the table within the limit too', () => {
    const rows = Array.from({ length: 5_000 }, (_, i) => ({
      name: `check number ${i} ${'n'.repeat(60)}`,
      verdict: 'failed' as const,
      problem: 'x'.repeat(200),
      answer: 'a',
    }))
    const md = renderFlowComment('Flow checks', rows, footer)
    expect(md.length).toBeLessThanOrEqual(COMMENT_LIMIT)
    expect(md).toMatch(/\d+ more checks not shown/)
  })

  it('neutralises mentions and HTML from the answer and the names', () => {
    const md = renderFlowComment(
      'Flow check',
      [
        {
          name: '@octocat <img src=x>',
          verdict: 'failed',
          problem: '@org/team </details><script>',
          answer: 'ask @octocat ``` <script>alert(1)</script>',
        },
      ],
      {},
    )
    const s = structureOf(md)
    expect([...tagsOf(s.html)].filter((t) => !OUR_TAGS.has(t))).toEqual([])
    expect(balanced(s.html, 'details')).toBe(true)
    expect(md).not.toMatch(/@(octocat|org)/)
  })
})

describe('index comment', () => {
  const report = (count: number): IndexReport => ({
    dryRun: true,
    preview: { number: 7, base: 'b'.repeat(40), head: 'c'.repeat(40) },
    changeSource: 'git diff of the pull request (base..head)',
    planned: Array.from({ length: count }, (_, i) => ({
      kind: 'document' as const,
      name: `docs/${i}-${'n'.repeat(60)}.md`,
      operation: i % 2 ? ('update' as const) : ('upload' as const),
      fallback: true,
      size: 1,
    })),
    items: [],
    skipped: [],
    left: [{ name: 'docs/old.pdf', reason: 'format' }],
    requests: 0,
    durationMs: 0,
    notices: [],
  })
  for (const count of [3, 333, 20_000]) {
    it(`a preview of ${count} files stays under the limit with the plan collapsed`, () => {
      const md = renderIndexComment(report(count), footer)
      expect(md.length).toBeLessThanOrEqual(COMMENT_LIMIT)
      const s = structureOf(md)
      expect(s.headings[0]).toBe('Knowledge base sync: preview')
      expect(s.summaries).toEqual(
        expect.arrayContaining([
          `Would upload (${Math.ceil(count / 2)})`,
          `Would update (${Math.floor(count / 2)})`,
        ]),
      )
      expect(balanced(s.html, 'details')).toBe(true)
      if (count === 20_000) expect(md).toMatch(/more not shown/)
    })
  }
})
