// npm run bench -- matching: what one RE2 match costs per unit of program size × text length, the basis of
// MAX_MATCH_WORK (src/flow/expect.ts): the patterns that walk most of their program per character.
import { RE2JS } from 're2js'

const CASES = [
  ['(?i)refund.*30 days', 900_000],
  ['[a-z]+@[a-z]+\\.com', 900_000],
  ['(\\w|\\s){30}\\d', 900_000],
  ['(\\w|\\s){100}\\d', 90_000],
  ['(\\w|\\s){1000}\\d', 90_000],
  ['(?:[a-z ]x?){200}\\d', 90_000],
]

export async function benchMatching({ row, work }) {
  for (const [source, length] of CASES) {
    const pattern = RE2JS.compile(source)
    const text = 'lorem ipsum dolor sit amet '.repeat(Math.ceil(length / 27)).slice(0, length)
    const start = performance.now()
    pattern.matcher(text).find()
    const ms = performance.now() - start
    const units = pattern.programSize() * length
    row(
      `RE2 \`${source}\` (program ${pattern.programSize()}) on ${length.toLocaleString('en-US')} characters`,
      `${ms.toFixed(0)} ms`,
      `${((ms * 1e6) / units).toFixed(1)} ns per unit; ${units > work ? 'refused' : 'allowed'} by MAX_MATCH_WORK`,
    )
  }
}
