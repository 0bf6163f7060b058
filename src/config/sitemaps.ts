// The `sitemaps`, `url-include` and `url-exclude` inputs: checked here, before any request, so that a typo
// fails the step with the input's name.
import { sitemapUrlProblem } from './sitemap-address.js'
import { quoted, withoutUserInfo } from './errors.js'

export interface LineEntries {
  /** Valid entries, trimmed, in order, each once. */
  values: string[]
  /** One sentence per refused line, with its line number. */
  problems: string[]
}

function readLines(text: string, problemOf: (entry: string) => string | undefined): LineEntries {
  const values: string[] = []
  const problems: string[] = []
  text.split(/\r?\n/).forEach((line, index) => {
    const entry = line.trim()
    if (entry === '') return
    const problem = problemOf(entry)
    if (problem) problems.push(`line ${index + 1}: ${quoted(withoutUserInfo(entry))} ${problem}`)
    else if (!values.includes(entry)) values.push(entry)
  })
  return { values, problems }
}

/** At most this many lines in `sitemaps` (an index lists more). */
export const MAX_LISTED_SITEMAPS = 100

/** The `sitemaps` input: one sitemap (or sitemap index) URL per line. */
export function parseSitemapEntries(text: string): LineEntries {
  const entries = readLines(text, sitemapUrlProblem)
  if (entries.values.length > MAX_LISTED_SITEMAPS)
    entries.problems.push(
      `${entries.values.length} sitemaps: at most ${MAX_LISTED_SITEMAPS} (list more in a sitemap index)`,
    )
  return entries
}

// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\s\u0000-\u001f\u007f-\u009f]/
// A pattern is matched against whole URLs: one that cannot match a URL's beginning is a mistake
// (`docs.example.com/**` misses the scheme), so it is refused instead of silently matching nothing.
const URL_START = /^(?:https?:\/\/|[*?[{])/i

/** Why a `url-include` / `url-exclude` pattern is refused, or undefined. */
export function urlPatternProblem(pattern: string): string | undefined {
  if (pattern.length > 2048) return 'is longer than 2048 characters'
  if (INVISIBLE.test(pattern)) return 'contains white space or control characters'
  if (pattern.startsWith('!')) return 'starts with "!": list exclusions in url-exclude instead'
  if (!URL_START.test(pattern))
    return 'must match whole URLs: start it with https://, http:// or a wildcard (e.g. **/blog/**)'
  return undefined
}

/** The `url-include` or `url-exclude` input: one glob pattern per line. */
export function parseUrlPatterns(text: string): LineEntries {
  return readLines(text, urlPatternProblem)
}
