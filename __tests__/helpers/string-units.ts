// fast-check string units that generate and shrink exactly as the built-in ones, only cheaper to set up.
import fc from 'fast-check'

const SURROGATES = 0xe000 - 0xd800

function codePointIndex(value: unknown): number {
  if (typeof value !== 'string') throw new Error('not a string')
  const point = value.codePointAt(0)
  if (point === undefined || String.fromCodePoint(point) !== value || (point >= 0xd800 && point < 0xe000))
    throw new Error('not one code point outside the surrogates')
  return point < 0xd800 ? point : point - SURROGATES
}

/**
 * The unit of `fc.string({ unit: 'binary' })`: fast-check 4 builds it as `mapToConstant` over the code
 * points 0–0xD7FF and 0xE000–0x10FFFF, i.e. `nat` over their 1,112,064 indexes mapped in order — as here.
 * Its unmapper (used to tokenize the strings fast-check slips into generated ones, `__proto__` and the
 * like) first builds a Map of all 1.1 million code points, ~1 s of CPU in every test file that uses the
 * unit; this one computes the index.
 */
export const binaryUnit: fc.Arbitrary<string> = fc
  .nat({ max: 0x10ffff - SURROGATES })
  .map((index) => String.fromCodePoint(index < 0xd800 ? index : index + SURROGATES), codePointIndex)
