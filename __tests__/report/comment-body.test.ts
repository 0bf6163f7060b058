import { describe, expect, it } from '@jest/globals'
import { COMMENT_LIMIT, renderIndexComment } from '../../src/report/comment-body.js'
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
