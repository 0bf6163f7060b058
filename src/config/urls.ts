// The `urls` input: websites for the service to fetch, one per line. Checked here so that a typo fails the
// step before anything is sent, and so that a credential in a URL never reaches the knowledge base.
import { quoted, withoutUserInfo } from './errors.js'

export const MAX_URL_LENGTH = 2048

// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\s\u0000-\u001f\u007f-\u009f]/

/** Why one (trimmed, non-empty) URL entry is refused, or undefined when it is fine. */
export function urlEntryProblem(entry: string): string | undefined {
  if (entry.length > MAX_URL_LENGTH) return `is longer than ${MAX_URL_LENGTH} characters`
  if (INVISIBLE.test(entry)) return 'contains white space or control characters'
  let url: URL
  try {
    url = new URL(entry)
  } catch {
    return 'is not a valid URL'
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must start with http:// or https://'
  if (url.username !== '' || url.password !== '' || /^[a-z][a-z0-9+.-]*:\/*[^/?#]*@/i.test(entry))
    return 'must not contain user info (user:password@)'
  if (url.hostname === '') return 'has no host'
  return undefined
}

export interface UrlEntries {
  /** Valid entries, trimmed, in order, each once (the first occurrence wins). */
  urls: string[]
  /** One sentence per refused entry, with its line number; user info is never shown. */
  problems: string[]
}

/** Reads the `urls` input: one entry per line, blank lines ignored. */
export function parseUrlEntries(text: string): UrlEntries {
  const urls: string[] = []
  const seen = new Set<string>()
  const problems: string[] = []
  text.split(/\r?\n/).forEach((line, index) => {
    const entry = line.trim()
    if (entry === '') return
    const problem = urlEntryProblem(entry)
    if (problem) {
      problems.push(`line ${index + 1}: ${quoted(withoutUserInfo(entry))} ${problem}`)
    } else if (!seen.has(entry)) {
      seen.add(entry)
      urls.push(entry)
    }
  })
  return { urls, problems }
}
