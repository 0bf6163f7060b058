import { describe, expect, it } from '@jest/globals'
import { Secrets } from '../../src/log.js'
import { renderIndexSummary } from '../../src/report/index-summary.js'
import type { IndexReport } from '../../src/report/types.js'
import { renderIndexComment } from '../../src/report/comment-body.js'
import { redactDeep } from '../../src/report/redact.js'
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
    const report: IndexReport = {
      dryRun: true,
      changeSource: 'full sync',
      planned: plannedItems(plan),
      items: [],
      skipped: [],
      left: [],
      requests: 0,
      durationMs: 1,
      notices: [],
    }
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
