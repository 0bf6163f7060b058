// Sizes, durations and percentages as people write them in a workflow: `50MB`, `1.5 GB`, `120`, `2m`, `90%`.

const SIZE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  kb: 1024,
  kib: 1024,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  gb: 1024 ** 3,
  gib: 1024 ** 3,
}

/**
 * Bytes in a size such as `50MB` (52428800): units B, KB, MB, GB as binary multiples (KiB, MiB, GiB are
 * accepted too), any case, an optional space; a bare number is bytes. Undefined when not a size.
 */
export function parseSize(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s?([a-z]*)$/i.exec(text.trim())
  if (!match) return undefined
  const unit = SIZE_UNITS[match[2].toLowerCase()]
  if (unit === undefined) return undefined
  const bytes = Math.floor(Number(match[1]) * unit)
  return Number.isSafeInteger(bytes) ? bytes : undefined
}

const DURATION_UNITS: Record<string, number> = { '': 1000, s: 1000, m: 60_000, h: 3_600_000 }

/** Milliseconds in a duration such as `120`, `120s`, `2m` or `1h` (a bare number is seconds). */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s?([a-z]?)$/i.exec(text.trim())
  if (!match) return undefined
  const ms = Math.round(Number(match[1]) * DURATION_UNITS[match[2].toLowerCase()])
  return Number.isSafeInteger(ms) ? ms : undefined
}

/** `100%`, `90%`, `90` or `87.5%` → a percentage from 0 to 100, or undefined when not one. */
export function parseThreshold(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*%?$/.exec(text.trim())
  if (!match) return undefined
  const percent = Number(match[1])
  return percent >= 0 && percent <= 100 ? percent : undefined
}

/** A size for people to read: `512 B`, `1.5 MiB`. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB']
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(1)} ${units[unit]}`
}

/**
 * A count with commas between thousands, as `n.toLocaleString('en-US')` writes a whole number, without
 * ICU's number formatting: its first use costs ~12 ms and ~7 MiB of RSS, at every run (bench/README.md).
 */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US')
  const digits = String(Math.abs(n))
  let grouped = digits.slice(0, digits.length % 3 || 3)
  for (let at = grouped.length; at < digits.length; at += 3) grouped += `,${digits.slice(at, at + 3)}`
  return n < 0 || Object.is(n, -0) ? `-${grouped}` : grouped
}
