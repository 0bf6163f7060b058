// The summary's first line: which base the change set was measured from and why, when it is not the last
// successful sync; and, in a dry run, the documents that fail without being sent (Git LFS pointers).
import { describe, expect, it } from '@jest/globals'
import { renderIndexSummary } from '../../src/report/index-summary.js'
import type { IndexReport } from '../../src/report/types.js'

function report(overrides: Partial<IndexReport> = {}): IndexReport {
  return {
    dryRun: false,
    changeSource: 'git diff of the push (before..after)',
    planned: [],
    items: [],
    skipped: [],
    removed: [],
    requests: 1,
    durationMs: 1000,
    notices: [],
    ...overrides,
  }
}

const firstLine = (md: string) => md.split('\n').find((line) => line.trim() !== '' && !line.startsWith('#'))!

describe('the first line of the index summary', () => {
  it('names the base and why when the last successful sync was not used', () => {
    const line = firstLine(
      renderIndexSummary(
        report({
          changeSource:
            'full sync (the workflow runs API refused (HTTP 403), grant actions: read: every selected file)',
          base: {
            source: 'none',
            sha: '',
            why: 'every selected file — the workflow runs API refused (HTTP 403), grant actions: read',
          },
        }),
      ),
    )
    expect(line).toMatch(
      /^✅ \*\*Synced\.\*\* .* — base: every selected file — the workflow runs API refused \(HTTP 403\), grant actions: read \(1 requests/,
    )
    expect(line).not.toContain('change set:')
  })

  it('names the change set as before when the base is the last successful sync', () => {
    const line = firstLine(
      renderIndexSummary(
        report({
          changeSource: 'git diff since the last successful sync',
          base: { source: 'last-success', sha: 'a'.repeat(40) },
        }),
      ),
    )
    expect(line).toContain('— change set: git diff since the last successful sync (1 requests')
    expect(line).not.toContain('base:')
  })

  it('counts in a dry run the documents that fail without being sent', () => {
    const failed = (name: string) => ({
      kind: 'document' as const,
      name,
      outcome: 'failed' as const,
      operation: 'update' as const,
      attempts: 0,
      error: 'Git LFS pointer, not the file',
    })
    const dry = report({
      dryRun: true,
      planned: [{ kind: 'document', name: 'a.md', operation: 'update', fallback: true }],
      items: [failed('manual.pdf'), failed('slides.pptx')],
    })
    expect(firstLine(renderIndexSummary(dry))).toMatch(/Would upload 0 · update 1 · .* · failed 2 — /)
    expect(firstLine(renderIndexSummary({ ...dry, items: [] }))).not.toContain('failed')
  })
})
