// `<lastmod>` in W3C Datetime (YYYY, YYYY-MM, YYYY-MM-DD, or a date with a time and a time zone). A page
// is left out only when it certainly did not change after the base: a value is taken at the latest
// instant it can mean (the end of its year, month, day or minute; without a time zone, as if in the
// westernmost one), and a value that cannot be read counts as no lastmod: the page is sent.

const W3C_DATETIME =
  /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:?\d{2})?)?)?)?$/

// UTC−12 is the westernmost zone: a date there ends 12 hours after it ends in UTC.
const UNKNOWN_ZONE_MS = 12 * 3_600_000

/** The latest instant (ms since the epoch) `lastmod` can mean, or undefined when it is not W3C Datetime. */
export function lastmodLatest(lastmod: string): number | undefined {
  const match = W3C_DATETIME.exec(lastmod.trim())
  if (!match) return undefined
  const [, year, month, day, hour, minute, second, fraction, zone] = match
  const y = Number(year)
  const mo = month === undefined ? undefined : Number(month) - 1
  const d = day === undefined ? undefined : Number(day)
  if (mo !== undefined && (mo < 0 || mo > 11)) return undefined
  if (d !== undefined && (d < 1 || d > new Date(Date.UTC(y, mo! + 1, 0)).getUTCDate())) return undefined
  if (hour === undefined) {
    // The start of the next year, month or day in UTC, then as late as a time zone can make it.
    const end =
      mo === undefined
        ? Date.UTC(y + 1, 0, 1)
        : d === undefined
          ? Date.UTC(y, mo + 1, 1)
          : Date.UTC(y, mo, d + 1)
    return end - 1 + UNKNOWN_ZONE_MS
  }
  const h = Number(hour)
  const mi = Number(minute)
  const s = second === undefined ? 59 : Number(second)
  if (h > 23 || mi > 59 || s > 60) return undefined
  const ms = second === undefined ? 999 : fraction === undefined ? 999 : Number(`0.${fraction}`) * 1000
  const local = Date.UTC(y, mo!, d!, h, mi, Math.min(s, 59), ms)
  if (zone === undefined) return local + UNKNOWN_ZONE_MS
  if (zone === 'Z') return local
  const sign = zone.startsWith('-') ? -1 : 1
  const digits = zone.slice(1).replace(':', '')
  const offsetMs = (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000
  // 10:00+02:00 is 08:00 UTC.
  return local - sign * offsetMs
}
