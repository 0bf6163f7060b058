import { describe, expect, it } from '@jest/globals'
import type { ItemOutcome } from '../../src/model.js'
import { renderIndexSummary, SUMMARY_LIMIT } from '../../src/report/index-summary.js'
import type { IndexReport } from '../../src/report/types.js'
import { balanced, OUR_TAGS, structureOf, tagsOf } from './gfm.js'

const KEY_CAUSE =
  'HTTP 401: the service rejected the key; input "private-key" must be a private key (indexing operations need one).'
const CAUSES = [
  KEY_CAUSE,
  'HTTP 500: internal error after 10 attempts',
  `HTTP 422: ${'field required '.repeat(40)}`,
]

function report(overrides: Partial<IndexReport> = {}): IndexReport {
  return {
    dryRun: false,
    changeSource: 'git diff of the push (before..after)',
    planned: [],
    items: [],
    skipped: [],
    left: [],
    requests: 0,
    durationMs: 1234,
    notices: [],
    ...overrides,
  }
}

/** `count` documents; every third fails (causes in turn) when `failures` is set; some were retried. */
function items(count: number, failures: boolean, nameLength = 40): ItemOutcome[] {
  return Array.from({ length: count }, (_, i) => {
    const name = `docs/${String(i).padStart(6, '0')}-${'n'.repeat(nameLength)}.md`
    const failed = failures && i % 3 === 0
    return {
      kind: 'document',
      name,
      outcome: failed ? 'failed' : i % 2 ? 'updated' : 'uploaded',
      operation: i % 2 ? 'update' : 'upload',
      // Every 7th was retried twice; every 5th was also in a batch split to find a refused document
      // (two requests, no retry).
      attempts: i % 7 === 0 ? 3 : i % 5 === 0 ? 2 : 1,
      ...(i % 7 === 0 ? { retries: 2 } : {}),
      size: 100,
      error: failed ? CAUSES[(i / 3) % CAUSES.length] : undefined,
    }
  })
}

describe('index summary structure (rendered as GFM)', () => {
  for (const count of [3, 333, 20_000]) {
    for (const failures of [false, true]) {
      it(`${count} files, ${failures ? 'with' : 'without'} failures: verdict first, failures by cause, the rest collapsed, under 1 MiB`, () => {
        const all = items(count, failures)
        const md = renderIndexSummary(
          report({
            items: all,
            left: [{ name: 'docs/gone.pdf', reason: 'format' }],
            skipped: [{ kind: 'document', name: '.env', reason: 'secret', detail: 'secret file' }],
            changeBase: { sha: 'a'.repeat(40), source: 'last successful run' },
            flow: { question: 'What changed?', result: 'The refund window is 14 days.', response: {} },
          }),
        )
        expect(Buffer.byteLength(md)).toBeLessThan(SUMMARY_LIMIT)
        const s = structureOf(md)
        const failed = all.filter((i) => i.outcome === 'failed')
        const firstLine = md.split('\n').find((line) => line.trim() !== '' && !line.startsWith('#'))!
        expect(firstLine).toContain(
          failures ? `❌ **${failed.length} of ${count} failed.**` : '✅ **Synced.**',
        )
        expect(firstLine).toMatch(
          /Uploaded \d+ · updated \d+ · removed from answers 0 · unchanged\/skipped 1 · ⚠️ left in the knowledge base 1 · failed \d+/,
        )
        expect(firstLine).toContain('base `aaaaaaaaaaaa` (last successful run)')
        // The answer comes before any list of files.
        expect(md.indexOf('The refund window')).toBeLessThan(md.indexOf('<details>'))
        expect(balanced(s.html, 'details')).toBe(true)
        expect([...tagsOf(s.html)].filter((t) => !OUR_TAGS.has(t))).toEqual([])
        if (failures) {
          expect(s.headings).toContain(`Failed (${failed.length})`)
          const causes = s.tables.find((t) => t.header[0] === 'Cause')!
          expect(causes.rows).toHaveLength(Math.min(CAUSES.length, failed.length))
          const counted = causes.rows.reduce((n, row) => n + Number(row[1]), 0)
          expect(counted).toBe(failed.length)
          // Short causes: the table never widens with a long error.
          for (const row of causes.rows) expect(row[0].length).toBeLessThanOrEqual(130)
          expect(s.summaries.some((text) => text.startsWith('HTTP 401'))).toBe(true)
        } else {
          expect(s.headings.some((h) => h.startsWith('Failed'))).toBe(false)
        }
        expect(s.summaries.some((text) => /^Uploaded \(\d+\)$/.test(text))).toBe(true)
        expect(s.summaries).toContain('Unchanged or skipped (1)')
        if (count === 20_000) expect(md).toMatch(/_\d+ more not shown \(to stay within GitHub's size limit\)/)
        else expect(md).not.toContain('more not shown')
      })
    }
  }

  it('shows attempts only where a retry happened, not for a split batch', () => {
    const md = renderIndexSummary(report({ items: items(6, false) }))
    expect(md).toContain('docs/000000-') // first item, retried
    expect(md.match(/\(3 attempts\)/g)).toHaveLength(1)
    // docs/000005 was sent twice, in a batch and in its part: no retry, so no attempts shown.
    expect(md).toMatch(/docs\/000005-n+\.md\n/)
    expect(md).not.toMatch(/[12] attempt/)
  })

  it('says in words that a removed document was not there, and what a plan falls back to', () => {
    const removed: ItemOutcome = {
      kind: 'document',
      name: 'docs/gone.md',
      outcome: 'removed',
      operation: 'update',
      attempts: 2,
      absent: true,
    }
    const synced = renderIndexSummary(report({ items: [removed] }))
    expect(synced).toContain('docs/gone.md: was not in the knowledge base, so there was nothing to remove')
    const planned = [
      { kind: 'document' as const, name: 'docs/new.md', operation: 'upload' as const, fallback: true },
      { kind: 'document' as const, name: 'docs/old.md', operation: 'update' as const, fallback: true },
    ]
    const preview = renderIndexSummary(
      report({ preview: { number: 7, base: 'a'.repeat(40), head: 'b'.repeat(40) }, planned }),
    )
    expect(preview).toContain('- docs/new.md — updated instead if it is already in the knowledge base')
    expect(preview).toContain('- docs/old.md — uploaded instead if it is not there yet')
    for (const md of [synced, preview]) {
      expect(md).not.toMatch(/\b(404|409|PATCH|POST)\b|→|attempt/)
    }
  })

  it('stays under 1 MiB with 20,000 failures of long names and distinct causes', () => {
    const all = items(20_000, true, 200).map((item, i) => ({
      ...item,
      error: `HTTP 422: bad file ${i} ${'x'.repeat(300)}`,
    }))
    const md = renderIndexSummary(report({ items: all }))
    expect(Buffer.byteLength(md)).toBeLessThan(SUMMARY_LIMIT)
    const s = structureOf(md)
    expect(balanced(s.html, 'details')).toBe(true)
    expect(md).toContain('more causes below')
  })

  it('escapes hostile names and causes: no HTML, no mentions, no broken table', () => {
    const hostile: ItemOutcome = {
      kind: 'document',
      name: 'a|b<img src=x onerror=alert(1)>@octocat`x`.md',
      outcome: 'failed',
      operation: 'upload',
      attempts: 1,
      error: '</details><script>alert(1)</script> | @org/team\nline two',
    }
    const md = renderIndexSummary(report({ items: [hostile] }))
    const s = structureOf(md)
    expect([...tagsOf(s.html)].filter((t) => !OUR_TAGS.has(t))).toEqual([])
    expect(balanced(s.html, 'details')).toBe(true)
    expect(s.html).not.toMatch(/@octocat|@org/)
    const causes = s.tables.find((t) => t.header[0] === 'Cause')!
    expect(causes.rows[0]).toHaveLength(3)
  })

  it('a dry run and a preview list the plan and say nothing was sent', () => {
    const planned = [
      {
        kind: 'document' as const,
        name: 'docs/new.md',
        operation: 'upload' as const,
        fallback: true,
        size: 1,
      },
      {
        kind: 'document' as const,
        name: 'docs/old.md',
        operation: 'update' as const,
        fallback: true,
        size: 1,
      },
      {
        kind: 'document' as const,
        name: 'docs/gone.md',
        operation: 'update' as const,
        fallback: false,
        size: 1,
        removal: true,
      },
    ]
    const preview = renderIndexSummary(
      report({
        dryRun: true,
        planned,
        left: [{ name: 'docs/gone.pdf', reason: 'format' }],
        preview: { number: 7, base: 'b'.repeat(40), head: 'c'.repeat(40) },
      }),
    )
    expect(preview).toContain(
      '**Preview of pull request #7: nothing sent.** Would upload 1 · update 1 · remove from answers 1 · ' +
        'unchanged/skipped 0 · ⚠️ left in the knowledge base 1',
    )
    expect(preview).not.toMatch(/\bremoved \d/)
    const s = structureOf(preview)
    expect(s.summaries).toEqual(
      expect.arrayContaining([
        'Would upload (1)',
        'Would update (1)',
        'Would remove from answers: a placeholder replaces each (1)',
        'Left in the knowledge base: remove them in the service by hand (1)',
      ]),
    )
  })
})

// The first line: which base the change set was measured from and why, when it is not the last successful
// sync; and, in a dry run, the documents that fail without being sent (Git LFS pointers).
const verdictReport = (overrides: Partial<IndexReport> = {}) =>
  report({ requests: 1, durationMs: 1000, ...overrides })
const firstLine = (md: string) => md.split('\n').find((line) => line.trim() !== '' && !line.startsWith('#'))!

describe('the first line of the index summary', () => {
  it('names the base and why when the last successful sync was not used', () => {
    const line = firstLine(
      renderIndexSummary(
        verdictReport({
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
      /^✅ \*\*Synced\.\*\* .* — base: every selected file — the workflow runs API refused \(HTTP 403\), grant actions: read \(1 request,/,
    )
    expect(line).not.toContain('change set:')
  })

  it('names the change set as before when the base is the last successful sync', () => {
    const line = firstLine(
      renderIndexSummary(
        verdictReport({
          changeSource: 'git diff since the last successful sync',
          base: { source: 'last-success', sha: 'a'.repeat(40) },
        }),
      ),
    )
    expect(line).toContain('— change set: git diff since the last successful sync (1 request,')
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
    const dry = verdictReport({
      dryRun: true,
      planned: [{ kind: 'document', name: 'a.md', operation: 'update', fallback: true }],
      items: [failed('manual.pdf'), failed('slides.pptx')],
    })
    expect(firstLine(renderIndexSummary(dry))).toMatch(/Would upload 0 · update 1 · .* · failed 2 — /)
    expect(firstLine(renderIndexSummary({ ...dry, items: [] }))).not.toContain('failed')
  })
})

describe('the summary with the knowledge base record', () => {
  const written = { ok: true as const, where: 'artifact kb-sync-state-0123456789abcdef' }
  it('says on its first line what the knowledge base holds after the run', () => {
    const md = renderIndexSummary(
      report({
        items: items(3, false),
        record: {
          source: 'state',
          from: 'artifact kb-sync-state-0123456789abcdef of run 7',
          holds: { documents: 1204, blanked: 12, unknown: 0, pages: 35 },
          written,
        },
        base: {
          source: 'state',
          sha: '',
          recordedBy: 'written by run #7 (id 7), push at 2026-11-28T10:00:00Z',
        },
      }),
    )
    expect(firstLine(md)).toContain('The knowledge base holds 1,204 document(s) (12 blanked) and 35 page(s).')
    expect(md).toContain("Base: the knowledge base's record, written by run \\#7 (id 7), push")
  })

  it('names the documents to send again, the settings changed, why no record was used, a record not written', () => {
    const md = renderIndexSummary(
      report({
        record: {
          source: 'history',
          why: 'no record yet, or it expired',
          settingsChanged: ['files', 'skip-drafts'],
          holds: { documents: 5, blanked: 0, unknown: 2, pages: 0 },
          written: { ok: false, why: 'HTTP 403 from the artifact service' },
        },
      }),
    )
    expect(firstLine(md)).toContain('holds 5 document(s), 2 of them to send again and 0 page(s)')
    expect(md).toContain('Record: none used (no record yet, or it expired)')
    expect(md).toContain('Settings changed since the record: `files`, `skip-drafts`.')
    expect(md).toContain('⚠️ The record of this run was not written: HTTP 403 from the artifact service.')
  })

  it('says nothing of a record when none is kept', () => {
    const md = renderIndexSummary(report({ items: items(3, false) }))
    expect(md).not.toMatch(/record|holds/i)
  })
})
