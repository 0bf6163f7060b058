import { describe, expect, test } from '@jest/globals'
import { formatCount, parseDuration, parseSize } from '../src/units.js'

describe('parseSize', () => {
  test.each([
    ['50MB', 52_428_800],
    ['50mb', 52_428_800],
    ['50 MB', 52_428_800],
    ['1KB', 1024],
    ['1kib', 1024],
    ['2GB', 2 * 1024 ** 3],
    ['1.5KB', 1536],
    ['100B', 100],
    ['100', 100],
    [' 7 kb ', 7168],
    ['0', 0],
  ])('%s is %d bytes', (text, bytes) => {
    expect(parseSize(text)).toBe(bytes)
  })

  test.each(['', 'MB', '-1MB', '5TB', '5 M B', '5  MB', '1e3', '0x10', 'fifty', '1,000', '9'.repeat(30)])(
    '%j is not a size',
    (text) => {
      expect(parseSize(text)).toBeUndefined()
    },
  )
})

describe('parseDuration', () => {
  test.each([
    ['120', 120_000],
    ['120s', 120_000],
    ['120 S', 120_000],
    ['2m', 120_000],
    ['1h', 3_600_000],
    ['0.5', 500],
  ])('%s is %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms)
  })

  test.each(['', 's', '-5', '2 min', '5d', '1e2', 'two'])('%j is not a duration', (text) => {
    expect(parseDuration(text)).toBeUndefined()
  })
})

describe('formatCount', () => {
  test('writes a whole number as toLocaleString("en-US") does', () => {
    for (const n of [
      0,
      -0,
      7,
      999,
      1000,
      12_345,
      100_000,
      1_234_567,
      -1000,
      -123_456,
      Number.MAX_SAFE_INTEGER,
    ])
      expect(formatCount(n)).toBe(n.toLocaleString('en-US'))
  })
})
