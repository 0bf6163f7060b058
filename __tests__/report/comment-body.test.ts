import { describe, expect, it } from '@jest/globals'
import { suiteVerdict, type CheckResult } from '../../src/checks/verdict.js'
import { renderBaselineSource } from '../../src/report/baseline-source-note.js'
import { COMMENT_LIMIT, renderChecksComment, renderIndexComment } from '../../src/report/comment-body.js'
import { renderSettleNotes } from '../../src/report/settle-note.js'
import type { IndexReport } from '../../src/report/types.js'
import { balanced, structureOf } from './gfm.js'

const footer = { commit: 'a'.repeat(40), runUrl: 'https://github.com/octo-org/docs/actions/runs/42' }

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

describe('checks comment with notes above (settle, which baseline)', () => {
  const answer = 'x'.repeat(200_000)
  const results: CheckResult[] = Array.from({ length: 3 }, (_, i) => ({
    name: `check ${i}`,
    question: 'How long are refunds granted?',
    verdict: 'failed',
    failed: ['contains "14 days": not found'],
    answer,
    seconds: 1,
    runs: [{ run: 1, verdict: 'failed', failed: [], answer, seconds: 1, started: true }],
    minPass: 1,
  }))
  const notes =
    renderBaselineSource({
      kind: 'stored',
      at: '2026-11-28T14:02:31Z',
      commit: 'a'.repeat(40),
      baseRef: 'main',
      runNumber: 41,
    }) +
    '\n' +
    renderSettleNotes(['Waited 3 s (settle) for the knowledge base to take the sync.', 'A second note.']) +
    '\n'

  it('each note a quote of its own above the heading, and the whole within the limit', () => {
    const md = renderChecksComment(
      '### Flow checks',
      results,
      suiteVerdict(results, 100),
      footer,
      COMMENT_LIMIT,
      notes,
    )
    expect(md.length).toBeLessThanOrEqual(COMMENT_LIMIT)
    expect(md.startsWith(notes)).toBe(true)
    const html = structureOf(md).html
    // Three quotes before the heading (the answers below are quotes too).
    expect(html.split('<h3')[0].match(/<blockquote>/g)).toHaveLength(3)
    expect(html).toContain(
      '<strong>Baseline:</strong> stored, measured 2026-11-28 14:02 UTC at main <code>aaaaaaa</code> (run #41); the baseline flow was not run',
    )
    expect(html).toContain('<strong>Settle:</strong> Waited 3 s (settle)')
    expect(structureOf(md).headings[0]).toBe('Flow checks')
  })
})
