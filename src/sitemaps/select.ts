// Which of the sitemaps' pages are synced: valid URLs, kept by `url-include` / `url-exclude`, not already
// in `urls` (nor listed twice), and, when a base is known, changed after it by their `<lastmod>`. Pure.
import { Minimatch } from 'minimatch'
import { withoutUserInfo } from '../config/errors.js'
import { urlEntryProblem } from '../config/urls.js'
import { lastmodLatest } from './lastmod.js'
import type { SitemapPage } from './parse.js'
import { unchangedSinceSent } from '../state/difference.js'
import type { HeldUrl } from '../state/record.js'

export interface PageSelection {
  /** The pages to sync, in the order listed, each once. */
  urls: string[]
  /** How many pages the sitemaps listed (every `<url>` with a `<loc>`). */
  listed: number
  /** Left out by url-include / url-exclude. */
  filtered: number
  /** Left out because their lastmod is not after the base. */
  unchanged: number
  /** Already in `urls`, or listed more than once. */
  duplicates: number
  /** The lastmod of each page to sync that has one, as the sitemap wrote it. */
  lastmods: Map<string, string>
  /** Locs that are not usable URLs (not http or https, user info, white space, too long): the first few, without their user info. */
  invalid: string[]
  invalidCount: number
}

export interface PageRules {
  include: string[]
  exclude: string[]
  /** The `urls` input: these pages are synced already. */
  known: string[]
  /** When set (ms since the epoch): only pages whose lastmod is after it, or without one, are synced. */
  changedAfter?: number
  /**
   * The knowledge base's record of the pages it holds, by URL: when set, a page is synced unless it is the
   * one the node got (state/difference.ts `unchangedSinceSent`); `changedAfter` is not used.
   */
  held?: Readonly<Record<string, HeldUrl>>
}

const SHOWN_INVALID = 5

/**
 * Whether a URL matches one of the glob patterns (minimatch, `*` stops at `/`, `**` crosses it). As for
 * `files`, a pattern also matches everything below what it matches: `https://x.com/blog` takes its pages.
 */
export function urlMatcher(patterns: string[]): (url: string) => boolean {
  const options = { dot: true, nocomment: true, nonegate: true }
  const matchers = patterns.flatMap((pattern) => {
    const bare = pattern.replace(/\/+$/, '')
    return [new Minimatch(bare, options), new Minimatch(`${bare}/**`, options)]
  })
  return (url) => matchers.some((matcher) => matcher.match(url))
}

/** A URL's identity for deduplication: as the URL parser writes it (host case, default port, `%` case). */
function identity(url: string): string {
  return new URL(url).href
}

export function selectPages(pages: Iterable<SitemapPage>, rules: PageRules): PageSelection {
  const included = rules.include.length > 0 ? urlMatcher(rules.include) : () => true
  const excluded = urlMatcher(rules.exclude)
  const seen = new Set(rules.known.map(identity))
  const selection: PageSelection = {
    urls: [],
    listed: 0,
    filtered: 0,
    unchanged: 0,
    duplicates: 0,
    lastmods: new Map(),
    invalid: [],
    invalidCount: 0,
  }
  for (const page of pages) {
    selection.listed++
    if (urlEntryProblem(page.loc)) {
      selection.invalidCount++
      if (selection.invalid.length < SHOWN_INVALID) selection.invalid.push(withoutUserInfo(page.loc))
      continue
    }
    if (!included(page.loc) || excluded(page.loc)) {
      selection.filtered++
      continue
    }
    const id = identity(page.loc)
    if (seen.has(id)) {
      selection.duplicates++
      continue
    }
    seen.add(id)
    const latest = page.lastmod === undefined ? undefined : lastmodLatest(page.lastmod)
    const unchanged = rules.held
      ? unchangedSinceSent({ url: page.loc, lastmod: page.lastmod }, rules.held)
      : rules.changedAfter !== undefined && latest !== undefined && latest <= rules.changedAfter
    if (unchanged) {
      selection.unchanged++
      continue
    }
    selection.urls.push(page.loc)
    if (page.lastmod !== undefined) selection.lastmods.set(page.loc, page.lastmod)
  }
  return selection
}
