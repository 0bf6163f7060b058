// Keeps what the flow answered small enough for GitHub: one step output may hold at most 1 MiB, and a
// flow can answer far more. Text is cut at the end; JSON is cut inside its long strings so it stays JSON.
// Strings may arrive already cut by the answer's reader (CutString): only their beginning is there, and
// the notes still count what the whole string held.
import { CutString } from './stream-json.js'
import { formatCount } from '../units.js'

/** What one output may hold: under GitHub's 1 MiB per output, with room for the cut notes. */
export const OUTPUT_LIMIT_BYTES = 900 * 1024

// Leaves room for the note appended to a cut text.
const NOTE_RESERVE = 256

export interface CutText {
  text: string
  /** Bytes (UTF-8) removed; 0 when the text fitted. */
  cutBytes: number
  totalBytes: number
}

const count = formatCount

/** The longest prefix of `text` that is at most `maxBytes` in UTF-8, never splitting a character. */
export function utf8Prefix(text: string, maxBytes: number): string {
  let head = text.slice(0, maxBytes)
  if (/[\ud800-\udbff]$/.test(head)) head = head.slice(0, -1)
  const bytes = Buffer.from(head, 'utf8')
  if (bytes.length <= maxBytes) return head
  let end = maxBytes
  // Back up to the first byte of a UTF-8 sequence.
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--
  return bytes.subarray(0, end).toString('utf8')
}

/** `text` when it fits in `maxBytes`, else its beginning and a note saying how much was cut and where. */
export function cutText(text: string | CutString, maxBytes: number = OUTPUT_LIMIT_BYTES): CutText {
  const partial = text instanceof CutString
  const totalBytes = partial ? text.bytes : Buffer.byteLength(text, 'utf8')
  const kept = partial ? text.head : text
  if (totalBytes <= maxBytes && !partial) return { text: kept, cutBytes: 0, totalBytes }
  const head = utf8Prefix(kept, Math.max(0, maxBytes - NOTE_RESERVE))
  const cutBytes = totalBytes - Buffer.byteLength(head, 'utf8')
  const note = `\n…[cut by kb-sync: the last ${count(cutBytes)} of ${count(totalBytes)} bytes were removed]`
  return { text: head + note, cutBytes, totalBytes }
}

export interface CutJson {
  /** The value with its long strings shortened (the same value when nothing was cut). */
  value: unknown
  /** `value` as JSON text, at most the limit. */
  text: string
  /** String values that were shortened, and the characters removed from them. */
  cutStrings: number
  cutChars: number
}

function shortenStrings(
  value: unknown,
  maxChars: number,
  tally: { strings: number; chars: number },
): unknown {
  if (value instanceof CutString) {
    const kept = value.head.slice(0, maxChars)
    tally.strings += 1
    tally.chars += value.length - kept.length
    return `${kept}…[cut by kb-sync: ${count(value.length - kept.length)} of ${count(value.length)} characters removed]`
  }
  if (typeof value === 'string') {
    if (value.length <= maxChars) return value
    tally.strings += 1
    tally.chars += value.length - maxChars
    return `${value.slice(0, maxChars)}…[cut by kb-sync: ${count(value.length - maxChars)} of ${count(value.length)} characters removed]`
  }
  if (Array.isArray(value)) return value.map((item) => shortenStrings(item, maxChars, tally))
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) out[key] = shortenStrings(item, maxChars, tally)
    return out
  }
  return value
}

function attempt(value: unknown, maxChars: number) {
  const tally = { strings: 0, chars: 0 }
  const shortened = shortenStrings(value, maxChars, tally)
  return { value: shortened, text: JSON.stringify(shortened) ?? 'null', tally }
}

/**
 * `value` as JSON of at most `maxBytes`: when too long, every string value is shortened to the longest
 * length that makes the whole fit, each with a note of what was removed. A value too large even with
 * short strings (a huge array) becomes an object that says so and quotes the beginning of its JSON.
 */
export function cutJson(value: unknown, maxBytes: number = OUTPUT_LIMIT_BYTES): CutJson {
  // Never stringify the value whole: strings longer than the limit could never be kept anyway.
  const first = attempt(value, maxBytes)
  const fits = (text: string) => Buffer.byteLength(text, 'utf8') <= maxBytes
  if (fits(first.text))
    return {
      value: first.value,
      text: first.text,
      cutStrings: first.tally.strings,
      cutChars: first.tally.chars,
    }
  let low = 0
  let high = maxBytes
  let best: ReturnType<typeof attempt> | undefined
  while (low <= high) {
    const middle = Math.floor((low + high) / 2)
    const tried = attempt(value, middle)
    if (fits(tried.text)) {
      best = tried
      low = middle + 1
    } else high = middle - 1
  }
  if (best)
    return { value: best.value, text: best.text, cutStrings: best.tally.strings, cutChars: best.tally.chars }
  const whole = attempt(value, 0).text
  // Quoting JSON inside JSON at most doubles it (every quote and backslash escaped).
  const excerpt = cutText(whole, Math.floor(maxBytes / 2) - 1024)
  const replacement = {
    'kb-sync-cut': `The JSON is too large for a step output (${count(excerpt.totalBytes)} bytes even with every string emptied); its beginning is in "excerpt".`,
    excerpt: excerpt.text,
  }
  const text = JSON.stringify(replacement)
  return { value: replacement, text, cutStrings: 0, cutChars: excerpt.cutBytes }
}
