import { describe, expect, it } from '@jest/globals'
import { progressReporter } from '../../src/cli/progress.js'
import { failureCause } from '../../src/cli/summary.js'

function stream(isTTY: boolean) {
  const written: string[] = []
  return { isTTY, written, write: (text: string) => written.push(text) }
}

describe('progressReporter', () => {
  it('without a terminal: one line per tenth of the batches, none for a short run', () => {
    const out = stream(false)
    const report = progressReporter(out)
    for (let done = 1; done <= 40; done++) report({ done, total: 40, bytes: done * 1024 })
    expect(out.written).toHaveLength(10)
    expect(out.written[0]).toBe('progress: 4/40 batches (10%), 4.0 KiB sent\n')
    expect(out.written[9]).toBe('progress: 40/40 batches (100%), 40.0 KiB sent\n')

    const short = stream(false)
    const reportShort = progressReporter(short)
    for (let done = 1; done <= 9; done++) reportShort({ done, total: 9, bytes: 0 })
    expect(short.written).toEqual([])
  })

  it('on a terminal: a bar redrawn in place, ended by a line break when done', () => {
    const out = stream(true)
    const report = progressReporter(out)
    report({ done: 1, total: 12, bytes: 10 })
    report({ done: 12, total: 12, bytes: 120 })
    expect(out.written[0]).toMatch(/^\r\[##-{22}\] 1\/12 batches \(8%\), 10 B sent/)
    expect(out.written.at(-1)).toBe(`\r[${'#'.repeat(24)}] 12/12 batches (100%), 120 B sent\u001b[K\n`)
  })
})

describe('failureCause', () => {
  it.each([
    ['uploadDocuments POST /indexing/v0/documents/f/o/n failed: HTTP 422: {"detail": "x"}', 'HTTP 422'],
    ['updateUrls PATCH /indexing/v0/urls/f/o/n failed: ECONNRESET: socket hang up', 'ECONNRESET'],
    ['cancelled before it could be sent', 'cancelled before it could be sent'],
    ['not sent (20 failed attempts in a row); last error: HTTP 503', 'HTTP 503'],
    [undefined, 'unknown error'],
  ])('%s → %s', (error, cause) => {
    expect(failureCause(error)).toBe(cause)
  })
})
