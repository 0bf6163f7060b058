import { describe, expect, it } from '@jest/globals'
import { Secrets } from '../../src/log.js'
import type { ItemOutcome } from '../../src/model.js'
import { renderIndexSummary, SUMMARY_LIMIT } from '../../src/report/index-summary.js'
import type { IndexReport } from '../../src/report/types.js'
import { COMMENT_LIMIT, renderIndexComment } from '../../src/report/comment-body.js'
import { redactDeep, redactForSummary } from '../../src/report/redact.js'
import { planSync, plannedItems } from '../../src/plan.js'

// Markdown escaping would turn `_` and `*` into `\_` and `\*`: after rendering the key is no longer
// found, which is why keys are removed from the report before it is rendered.
const KEY = 'sk_live*Key_0123456789'

describe('keys never reach a rendered summary or comment', () => {
  it('masks the key in every string of the report before rendering', () => {
    const secrets = new Secrets()
    secrets.add(KEY)
    const report: IndexReport = {
      dryRun: false,
      changeSource: `full sync (${KEY})`,
      planned: [],
      items: [
        {
          kind: 'document',
          name: `docs/${KEY}.md`,
          outcome: 'failed',
          operation: 'upload',
          attempts: 1,
          error: `HTTP 401: bad token ${KEY}`,
        },
      ],
      skipped: [],
      left: [],
      requests: 1,
      durationMs: 1,
      notices: [`notice ${KEY}`],
      flow: { question: KEY, result: `answer ${encodeURIComponent(KEY)}`, response: {} },
    }
    const unescaped = (text: string) => text.replace(/\\(.)/g, '$1').replace(/&#96;/g, '`')
    const raw = renderIndexSummary(report)
    expect(unescaped(raw)).toContain(KEY) // the renderer itself does not know the key
    for (const text of [
      renderIndexSummary(redactDeep(report, secrets)),
      renderIndexComment(redactDeep(report, secrets), {}),
    ]) {
      expect(unescaped(text)).not.toContain(KEY)
      expect(text).not.toContain(encodeURIComponent(KEY))
      expect(text).not.toContain('Key_0123456789')
    }
  })
})

describe('redactDeep copies only what it changes', () => {
  it('masks a key deep inside and keeps the lists and objects without one as they are', () => {
    const secrets = new Secrets()
    secrets.add(KEY)
    const clean = Array.from({ length: 1000 }, (_, index) => ({ name: `docs/page-${index}.md`, size: index }))
    const dirty = [{ name: 'docs/a.md', error: `HTTP 401: ${KEY}` }, { name: 'docs/b.md' }]
    const value = { clean, dirty, count: 3 }
    const redacted = redactDeep(value, secrets)
    expect(redacted).not.toBe(value)
    expect(redacted.clean).toBe(clean)
    expect(redacted.dirty).not.toBe(dirty)
    expect(redacted.dirty[0].error).not.toContain(KEY)
    expect(redacted.dirty[1]).toBe(dirty[1])
    // The input is left as it was.
    expect(dirty[0].error).toContain(KEY)
    expect(redacted).toEqual({
      clean,
      dirty: [{ ...dirty[0], error: redacted.dirty[0].error }, dirty[1]],
      count: 3,
    })
  })
})

describe('redactDeep and the plan listed item by item', () => {
  it('masks a key in a planned name of a dry run, made when the summary lists it', () => {
    const secrets = new Secrets()
    secrets.add(KEY)
    const plan = planSync({
      selection: { files: [{ name: 'docs/a.md', path: '/w/docs/a.md', size: 5 }], skipped: [] },
      urls: [`https://example.com/?token=${KEY}`],
      mode: 'auto',
      changes: { kind: 'all', source: 'full-sync', reason: 'test' },
      batchSize: 10,
    })
    const report: IndexReport = { ...emptyReport(), dryRun: true, planned: plannedItems(plan) }
    const redacted = redactDeep(report, secrets)
    expect(redacted.planned.length).toBe(2)
    expect([...redacted.planned].map((item) => item.name)).toEqual([
      'docs/a.md',
      expect.not.stringContaining('Key_0123456789'),
    ])
    expect(renderIndexSummary(report)).toContain('Key\\_0123456789') // the renderer itself does not mask
    expect(renderIndexSummary(redacted)).not.toContain('0123456789')
    // The plan's own items are left as they were.
    expect([...report.planned][1].name).toContain(KEY)
  })
})

describe('the summary masks the keys of the items it shows', () => {
  const secrets = new Secrets()
  secrets.add(KEY)
  const item = (
    name: string,
    outcome: ItemOutcome['outcome'],
    extra: Partial<ItemOutcome> = {},
  ): ItemOutcome => ({
    kind: 'document',
    name,
    outcome,
    operation: 'upload',
    attempts: 1,
    ...extra,
  })

  it('renders the same summary as a report masked whole, a key in every text of every list', () => {
    const report: IndexReport = {
      dryRun: false,
      changeSource: `full sync (${KEY})`,
      planned: [],
      items: [
        item(`docs/${KEY}/up.md`, 'uploaded', { attempts: 3 }),
        item(`docs/${KEY}.md`, 'updated'),
        item(`docs/gone-${KEY}.md`, 'removed', { absent: true }),
        item(`docs/bad-${KEY}.md`, 'failed', { error: `HTTP 401: bad token ${KEY}` }),
        item('docs/bad-2.md', 'failed', { error: `HTTP 401: bad token ${KEY.replace('0', '1')}` }),
      ],
      skipped: [{ kind: 'document', name: `.env-${KEY}`, reason: 'secret', detail: `holds ${KEY}` }],
      left: [{ name: `docs/${KEY}.pdf`, reason: 'format' }],
      requests: 1,
      durationMs: 1,
      notices: [`notice ${KEY}`],
    }
    const { report: masked, maskItemText } = redactForSummary(report, secrets)
    const lazy = renderIndexSummary(masked, SUMMARY_LIMIT, maskItemText)
    expect(lazy).toBe(renderIndexSummary(redactDeep(report, secrets)))
    expect(renderIndexComment(masked, {}, COMMENT_LIMIT, maskItemText)).toBe(
      renderIndexComment(redactDeep(report, secrets), {}),
    )
    const unescaped = lazy.replace(/\\(.)/g, '$1')
    expect(unescaped).not.toContain(KEY)
    expect(lazy).not.toContain('0123456789')
    // Every list is there, each item masked.
    for (const heading of [
      'Uploaded (1)',
      'Updated (1)',
      'Unchanged or skipped (1)',
      'Left in the knowledge base',
    ])
      expect(lazy).toContain(heading)
  })

  it('masks only the items it shows of a long list', () => {
    const items = Array.from({ length: 100_000 }, (_, i) => item(`docs/${i}-${KEY}.md`, 'uploaded'))
    let masked = 0
    const summary = redactForSummary({ ...emptyReport(), items }, secrets)
    const md = renderIndexSummary(summary.report, 60_000, (text) => {
      masked++
      return summary.maskItemText(text)
    })
    const shown = md.split('\n').filter((line) => line.startsWith('- ')).length
    expect(Number(/_(\d+) more not shown/.exec(md)![1])).toBe(100_000 - shown)
    expect(md).not.toContain('0123456789')
    expect(masked).toBeLessThanOrEqual(shown + 1)
  })
})

function emptyReport(): IndexReport {
  return {
    dryRun: false,
    changeSource: 'full sync',
    planned: [],
    items: [],
    skipped: [],
    left: [],
    requests: 0,
    durationMs: 1,
    notices: [],
  }
}
