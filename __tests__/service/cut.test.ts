import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { cutJson, cutText, utf8Prefix } from '../../src/service/cut.js'
import { CutString } from '../../src/service/stream-json.js'

describe('utf8Prefix', () => {
  it('never exceeds the byte budget and never splits a character', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme' }).filter((t) => !t.includes('\ufffd')),
        fc.nat(64),
        (text, budget) => {
          const prefix = utf8Prefix(text, budget)
          expect(Buffer.byteLength(prefix)).toBeLessThanOrEqual(budget)
          expect(text.startsWith(prefix)).toBe(true)
          expect(prefix).not.toContain('\ufffd')
        },
      ),
      { numRuns: 1000 },
    )
  })

  it('keeps whole surrogate pairs', () => {
    expect(utf8Prefix('ab😀c', 3)).toBe('ab')
    expect(utf8Prefix('ab😀c', 6)).toBe('ab😀')
  })
})

describe('cutText', () => {
  it('leaves text that fits alone', () => {
    expect(cutText('short', 10)).toEqual({ text: 'short', cutBytes: 0, totalBytes: 5 })
  })

  it('cuts at the end, says how much of how many bytes, and stays under the limit', () => {
    const cut = cutText('é'.repeat(5000), 1000)
    expect(Buffer.byteLength(cut.text)).toBeLessThanOrEqual(1000)
    expect(cut.totalBytes).toBe(10_000)
    expect(cut.text).toMatch(/^é+\n…\[cut by kb-sync: the last 9,\d{3} of 10,000 bytes were removed\]$/)
  })
})

describe('cutJson', () => {
  it('returns the JSON as it is when it fits', () => {
    const value = { outputs: { 'out-0': 'a' }, n: 1 }
    expect(cutJson(value, 1000)).toEqual({ value, text: JSON.stringify(value), cutStrings: 0, cutChars: 0 })
  })

  it('shortens long strings so the whole stays valid JSON under the limit, marking each cut', () => {
    const value = { outputs: { 'out-0': 'x'.repeat(10_000), 'out-1': 'y'.repeat(3000), 'out-2': 'kept' } }
    const cut = cutJson(value, 4000)
    expect(Buffer.byteLength(cut.text)).toBeLessThanOrEqual(4000)
    const parsed = JSON.parse(cut.text) as { outputs: Record<string, string> }
    expect(parsed).toEqual(cut.value)
    expect(parsed.outputs['out-2']).toBe('kept')
    expect(parsed.outputs['out-0']).toMatch(/^x+…\[cut by kb-sync: [\d,]+ of 10,000 characters removed\]$/)
    expect(cut.cutStrings).toBe(2)
  })

  it('stands in for JSON too large even with every string emptied, quoting its beginning', () => {
    const value = Array.from({ length: 5000 }, (_, i) => ({ i }))
    const cut = cutJson(value, 4000)
    expect(Buffer.byteLength(cut.text)).toBeLessThanOrEqual(4000)
    const parsed = JSON.parse(cut.text) as Record<string, string>
    expect(parsed['kb-sync-cut']).toMatch(/too large/)
    expect(parsed.excerpt.startsWith('[{"i":0},{"i":1}')).toBe(true)
  })
})

describe('strings the answer reader kept only in part', () => {
  // The reader keeps at least as many characters as the limit has bytes (OUTPUT_LIMIT_BYTES), as here.
  it('cut the same as the whole string would, counting from its full length', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 200 }),
        fc.integer({ min: 600, max: 2000 }),
        (text, limit) => {
          const whole = text.repeat(Math.ceil(4000 / text.length))
          const partial = new CutString(whole.slice(0, limit), whole.length, Buffer.byteLength(whole))
          expect(cutText(partial, 600)).toStrictEqual(cutText(whole, 600))
          expect(cutJson({ a: partial }, 600)).toStrictEqual(cutJson({ a: whole }, 600))
        },
      ),
    )
  })

  it('say what was removed even when nothing of the string was kept', () => {
    const empty = new CutString('', 5_000_000, 10_000_000)
    expect(cutText(empty).text).toBe(
      '\n…[cut by kb-sync: the last 10,000,000 of 10,000,000 bytes were removed]',
    )
    expect(JSON.parse(cutJson({ a: empty }).text)).toStrictEqual({
      a: '…[cut by kb-sync: 5,000,000 of 5,000,000 characters removed]',
    })
  })
})
