import { describe, expect, it } from '@jest/globals'
import { Secrets } from '../../src/log.js'
import { renderIndexSummary } from '../../src/report/index-summary.js'
import type { IndexReport } from '../../src/report/types.js'
import { renderIndexComment } from '../../src/report/comment-body.js'
import { redactDeep } from '../../src/report/redact.js'

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
