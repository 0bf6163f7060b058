import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import {
  CutString,
  JsonLimitError,
  JsonSyntaxError,
  StreamJsonReader,
  type StreamJsonOptions,
} from '../../src/service/stream-json.js'

/** Reads `bytes` split at the given cut points. */
function readSplit(bytes: Buffer, cuts: number[], maxStringChars: number, maxDepth?: number): unknown {
  const reader = new StreamJsonReader({ maxStringChars, maxDepth })
  let start = 0
  for (const cut of [...new Set(cuts)].sort((a, b) => a - b)) {
    reader.write(bytes.subarray(start, cut))
    start = cut
  }
  reader.write(bytes.subarray(start))
  return reader.end()
}

const splits = (length: number) => fc.array(fc.integer({ min: 0, max: length }), { maxLength: 12 })

// JSON texts with every kind of value, strings with any code unit (lone surrogates included), and
// formatting whitespace; some escaped so that every escape, \u pairs included, is exercised.
const jsonTexts = fc
  .tuple(
    fc.jsonValue({ maxDepth: 4, stringUnit: 'binary' }),
    fc.constantFrom(undefined, 1, '\t'),
    fc.boolean(),
  )
  .map(([value, indent, ascii]) => {
    const text = JSON.stringify(value, null, indent)
    // Escape everything outside ASCII as \uXXXX, as some services do.
    return ascii
      ? text.replace(/[^\x20-\x7e\n\t]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
      : text
  })

/** The value with every string cut as the reader should cut it, CutStrings described as plain data. */
function expectedCut(value: unknown, cap: number): unknown {
  if (typeof value === 'string')
    return value.length <= cap
      ? value
      : { head: value.slice(0, cap), length: value.length, bytes: Buffer.byteLength(value, 'utf8') }
  if (Array.isArray(value)) return value.map((item) => expectedCut(item, cap))
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key.length <= cap ? key : new CutString(key.slice(0, cap), key.length, 0).toString(),
        expectedCut(item, cap),
      ]),
    )
  return value
}

function described(value: unknown): unknown {
  if (value instanceof CutString) return { head: value.head, length: value.length, bytes: value.bytes }
  if (Array.isArray(value)) return value.map(described)
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, described(item)]))
  return value
}

describe('StreamJsonReader', () => {
  it('builds exactly what JSON.parse builds, however the bytes are split, when no string is over the cap', () => {
    fc.assert(
      fc.property(
        jsonTexts.chain((text) =>
          fc.tuple(fc.constant(Buffer.from(text, 'utf8')), splits(Buffer.byteLength(text))),
        ),
        ([bytes, cuts]) => {
          expect(readSplit(bytes, cuts, Number.MAX_SAFE_INTEGER)).toStrictEqual(
            JSON.parse(bytes.toString('utf8')),
          )
        },
      ),
      { numRuns: 500 },
    )
  })

  it('keeps the beginning of each long string and counts its whole length in characters and UTF-8 bytes', () => {
    fc.assert(
      fc.property(
        jsonTexts.chain((text) =>
          fc.tuple(
            fc.constant(Buffer.from(text, 'utf8')),
            splits(Buffer.byteLength(text)),
            fc.integer({ min: 0, max: 6 }),
          ),
        ),
        ([bytes, cuts, cap]) => {
          const parsed = JSON.parse(bytes.toString('utf8'))
          expect(described(readSplit(bytes, cuts, cap))).toStrictEqual(expectedCut(parsed, cap))
        },
      ),
      { numRuns: 500 },
    )
  })

  it('reads surrogate pairs split anywhere: raw 4-byte characters and \\u escapes', () => {
    const text = '["😀x", "\\ud83d\\ude00", "\\ud83d", "\\ude00\\ud83d"]'
    const bytes = Buffer.from(text, 'utf8')
    for (let cut = 0; cut <= bytes.length; cut++) {
      expect(readSplit(bytes, [cut], 100)).toStrictEqual(JSON.parse(text))
      const cutAll = readSplit(bytes, [cut], 0) as CutString[]
      expect(cutAll.map((s) => s.bytes)).toStrictEqual([5, 4, 3, 6])
    }
  })

  it('counts a 50 MB string without keeping it', () => {
    const reader = new StreamJsonReader({ maxStringChars: 10 })
    reader.write(Buffer.from('{"outputs": {"out-0": "'))
    const block = Buffer.alloc(1024 * 1024, 'é')
    for (let i = 0; i < 25; i++) reader.write(block)
    reader.write(Buffer.from('"}}'))
    const value = reader.end() as { outputs: { 'out-0': CutString } }
    const cut = value.outputs['out-0']
    expect(cut).toBeInstanceOf(CutString)
    expect(cut.head).toBe('é'.repeat(10))
    expect(cut.length).toBe(25 * 512 * 1024)
    expect(cut.bytes).toBe(25 * 1024 * 1024)
    expect(JSON.stringify(value)).toBe(
      `{"outputs":{"out-0":"${'é'.repeat(10)}…[cut by kb-sync: 13,107,190 of 13,107,200 characters removed]"}}`,
    )
  })

  const readWith = (text: string, options: StreamJsonOptions) => {
    const reader = new StreamJsonReader(options)
    reader.write(Buffer.from(text, 'utf8'))
    return reader.end()
  }

  it('keeps at most maxKeptChars per budget: outputs, the rest; the priority path and short root strings on top', () => {
    const text = JSON.stringify({
      outputs: { b: 'b'.repeat(25), 'out-0': 'o'.repeat(25), d: 'd'.repeat(25) },
      citations: ['x'.repeat(25), 'w'.repeat(25)],
      state: 'DONE',
    })
    const value = readWith(text, {
      maxStringChars: 20,
      maxKeptChars: 30,
      priorityPath: ['outputs', 'out-0'],
      ownBudgetUnder: 'outputs',
    }) as { outputs: Record<string, CutString>; citations: CutString[]; state: string }
    const heads = (strings: CutString[]) => strings.map((s) => [s.head.length, s.length])
    expect(heads([value.outputs.b, value.outputs['out-0'], value.outputs.d])).toStrictEqual([
      [20, 25],
      [20, 25],
      [10, 25],
    ])
    expect(heads(value.citations)).toStrictEqual([
      [20, 25],
      [10, 25],
    ])
    expect(value.state).toBe('DONE')
  })

  it('fails when the keys hold more text than the budget, or the answer more values than allowed', () => {
    expect(() => readWith('{"abcdef": 1, "ghijkl": 2}', { maxStringChars: 100, maxKeptChars: 8 })).toThrow(
      new JsonLimitError('the answer has more text in its keys than kb-sync reads'),
    )
    expect(readWith('[1, [2], {"a": 3}]', { maxStringChars: 100, maxValues: 6 })).toStrictEqual([
      1,
      [2],
      { a: 3 },
    ])
    expect(() => readWith('[1, [2], {"a": 3}, 4]', { maxStringChars: 100, maxValues: 6 })).toThrow(
      'the answer holds more than 6 values, more than kb-sync reads',
    )
  })

  it('makes "__proto__" an own property, as JSON.parse does', () => {
    const value = readSplit(Buffer.from('{"__proto__": {"polluted": 1}}'), [], 100) as Record<string, unknown>
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
    expect(Object.keys(value)).toStrictEqual(['__proto__'])
    expect(value).toStrictEqual(JSON.parse('{"__proto__": {"polluted": 1}}'))
  })

  it.each([
    ['', 'the answer is not valid JSON: it is empty'],
    ['   ', 'the answer is not valid JSON: it ends before the JSON is complete'],
    ['{"a": 1', 'it ends before the JSON is complete'],
    ['"abc', 'it ends before the JSON is complete'],
    ['{"a": 1} x', 'unexpected character "x" at position 9'],
    ['{"a": 1}{}', 'unexpected character "{" at position 8'],
    ['[1,]', 'unexpected character "]" at position 3'],
    ['{"a" 1}', 'unexpected character "1" at position 5'],
    ['{a: 1}', 'unexpected character "a" at position 1'],
    ['[01]', '"01" is not a number'],
    ['[1.]', '"1." is not a number'],
    ['[-]', '"-" is not a number'],
    ['[+1]', 'unexpected character "+"'],
    ['tru', 'it ends before the JSON is complete'],
    ['nul1', 'unexpected character "1"'],
    ['"a\tb"', 'unexpected character U+0009 at position 2'],
    ['"\\x"', 'unexpected character "x" at position 2'],
    ['"\\u12g4"', 'unexpected character "g" at position 5'],
    ['\ufeff{}', 'unexpected character "\ufeff" at position 0'],
  ])('refuses %j: %s', (text, message) => {
    expect(() => JSON.parse(text)).toThrow()
    expect(() => readSplit(Buffer.from(text, 'utf8'), [], 100)).toThrow(JsonSyntaxError)
    expect(() => readSplit(Buffer.from(text, 'utf8'), [], 100)).toThrow(message)
  })

  it('refuses a number longer than 4,096 characters (JSON.parse would read it as Infinity)', () => {
    expect(() => readSplit(Buffer.from(`[${'1'.repeat(5000)}]`), [100], 10)).toThrow(
      'the answer is not valid JSON: a number longer than 4,096 characters',
    )
  })

  it('refuses nesting deeper than its limit, and accepts it at the limit', () => {
    expect(readSplit(Buffer.from('[[[]]]'), [], 10, 3)).toStrictEqual([[[]]])
    expect(() => readSplit(Buffer.from('[[[[]]]]'), [], 10, 3)).toThrow('it nests deeper than 3 levels')
    expect(() => readSplit(Buffer.from('['.repeat(100_000)), [], 10)).toThrow(
      'it nests deeper than 512 levels',
    )
  })

  it('reads invalid UTF-8 as JSON.parse of the decoded text does (U+FFFD)', () => {
    const bytes = Buffer.concat([Buffer.from('["a'), Buffer.from([0xff, 0xc3]), Buffer.from('b"]')])
    expect(readSplit(bytes, [4], 100)).toStrictEqual(JSON.parse(bytes.toString('utf8')))
  })
})
