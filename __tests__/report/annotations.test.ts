import { describe, expect, it } from '@jest/globals'
import type { ItemOutcome, SkippedItem } from '../../src/model.js'
import { logIndexResult, logSkipped } from '../../src/report/index-outputs.js'
import type { IndexReport } from '../../src/report/types.js'
import { recordingLog } from '../helpers/log.js'

const failed = (name: string, error: string): ItemOutcome => ({
  kind: 'document',
  name,
  outcome: 'failed',
  operation: 'upload',
  attempts: 1,
  error,
})

const report = (items: ItemOutcome[]): IndexReport => ({
  dryRun: false,
  changeSource: 'full sync',
  planned: [],
  items,
  skipped: [],
  left: [],
  requests: 1,
  durationMs: 1,
  notices: [],
})

describe('annotations a person can read', () => {
  it('10,000 failures of one cause are one error annotation with the count and a few names', () => {
    const cause = 'HTTP 401: input "private-key" was rejected; indexing needs a private key.'
    const items = Array.from({ length: 10_000 }, (_, i) => failed(`docs/${i}.md`, cause))
    const { log, of } = recordingLog()
    logIndexResult(report(items), log)
    expect(of('error')).toHaveLength(1)
    expect(of('error')[0].message).toBe(
      `10000 item(s) failed: ${cause} (docs/0.md, docs/1.md, docs/2.md, docs/3.md, docs/4.md and 9995 more). ` +
        'The "failed" output and the job summary list all.',
    )
    // Every item is still in the log, as plain lines.
    expect(of('info').filter((l) => l.message.includes('failed after'))).toHaveLength(10_000)
  })

  it('more causes than GitHub shows fold into the tenth annotation', () => {
    const items = Array.from({ length: 15 }, (_, i) => failed(`f${i}.md`, `HTTP 422: reason ${i}`))
    const { log, of } = recordingLog()
    logIndexResult(report(items), log)
    const errors = of('error')
    expect(errors).toHaveLength(10)
    expect(errors[9].message).toMatch(/^6 more item\(s\) failed for 6 other cause\(s\) \(f9\.md, /)
  })

  it('skips that need attention are one warning per reason', () => {
    const skipped: SkippedItem[] = [
      ...Array.from({ length: 30 }, (_, i): SkippedItem => ({
        kind: 'document',
        name: `big${i}.bin`,
        reason: 'too-large',
        detail: 'larger than max-file-size (50 MiB).',
      })),
      {
        kind: 'document',
        name: 'link.md',
        reason: 'outside-workspace',
        detail: 'leads outside the workspace',
      },
      { kind: 'document', name: '.env', reason: 'secret', detail: 'secret file' },
    ]
    const { log, of } = recordingLog()
    logSkipped(skipped, log)
    expect(of('warning').map((w) => w.message)).toEqual([
      'Skipped 30 files (too-large; big0.bin, big1.bin, big2.bin, big3.bin, big4.bin and 25 more), e.g. big0.bin: ' +
        'larger than max-file-size (50 MiB). The "skipped" output and the job summary list all.',
      'Skipped link.md: leads outside the workspace',
    ])
    expect(of('info')).toHaveLength(32)
  })

  it('a few skips that need attention are each a warning with its own reason', () => {
    const skipped: SkippedItem[] = [
      {
        kind: 'document',
        name: 'docs/locked',
        reason: 'unreadable',
        detail: 'folder cannot be read (EACCES)',
      },
      { kind: 'document', name: 'docs/caf\\xe9.md', reason: 'unreadable', detail: 'name is not valid UTF-8' },
      {
        kind: 'document',
        name: 'big.bin',
        reason: 'too-large',
        detail: 'larger than max-file-size (50 MiB)',
      },
    ]
    const { log, of } = recordingLog()
    logSkipped(skipped, log)
    expect(of('warning').map((w) => w.message)).toEqual([
      'Skipped docs/locked: folder cannot be read (EACCES)',
      'Skipped docs/caf\\xe9.md: name is not valid UTF-8',
      'Skipped big.bin: larger than max-file-size (50 MiB)',
    ])
  })
})
