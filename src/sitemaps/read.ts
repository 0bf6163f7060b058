// Reads the `sitemaps` input's sitemaps: each fetched and parsed, sitemap indexes followed on the same origin
// up to MAX_NESTING levels below the listed sitemap. A sitemap that cannot be read, for whatever reason, is
// a failure naming it and why; the others are still read.
import type { Dispatcher } from 'undici'
import { quoted, withoutUserInfo } from '../config/errors.js'
import { followProblem } from '../config/sitemap-address.js'
import { fetchSitemap, SitemapError, type SitemapFetchOptions } from './fetch.js'
import { parseSitemap, type SitemapPage } from './parse.js'
import { mapLimited } from '../map-limited.js'

/** Sitemap indexes are followed this many levels below the listed sitemap. */
export const MAX_NESTING = 3
/** Bounds of one run, whatever the indexes list: sitemaps fetched, and pages kept. */
export const MAX_SITEMAPS_PER_RUN = 1000
export const MAX_PAGES_PER_RUN = 200_000
/** All sitemaps of a run together: a host that answers slowly cannot hold the run for hours. */
export const SITEMAPS_DEADLINE_MS = 10 * 60_000
// Sitemaps fetched at once (a large index lists many).
const PARALLEL_FETCHES = 4

export interface SitemapFailure {
  /** The sitemap that could not be read. */
  sitemap: string
  /** The index that listed it, for a nested one. */
  listedBy?: string
  /** Why, as a sentence about the sitemap (its URL is the failed item's name). */
  cause: string
}

export interface SitemapsRead {
  pages: SitemapPage[]
  /** Sitemaps read whole (urlsets and indexes). */
  read: number
  failures: SitemapFailure[]
}

export interface ReadSitemapsOptions extends SitemapFetchOptions {
  agent: Dispatcher
  maxSitemaps?: number
  maxPages?: number
  /** Bound on reading every sitemap of the run. @default SITEMAPS_DEADLINE_MS */
  totalDeadlineMs?: number
  /** After each sitemap read (for the log). */
  onRead?: (sitemap: string, what: string) => void
}

interface Pending {
  sitemap: string
  /** The origin of the listed sitemap this one descends from: every nested one must be on it. */
  origin: string
  depth: number
  listedBy?: string
}

function failure(pending: Pending, why: string): SitemapFailure {
  const by = pending.listedBy ? ` (listed by ${pending.listedBy})` : ''
  return { sitemap: pending.sitemap, listedBy: pending.listedBy, cause: `The sitemap ${why}${by}` }
}

function oneLine(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  return text.split('\n')[0].slice(0, 200)
}

type Outcome = { pending: Pending; parsed: ReturnType<typeof parseSitemap> } | { failure: SitemapFailure }

export async function readSitemaps(sitemaps: string[], options: ReadSitemapsOptions): Promise<SitemapsRead> {
  const maxSitemaps = options.maxSitemaps ?? MAX_SITEMAPS_PER_RUN
  const maxPages = options.maxPages ?? MAX_PAGES_PER_RUN
  const totalDeadlineMs = options.totalDeadlineMs ?? SITEMAPS_DEADLINE_MS
  const overall = AbortSignal.timeout(totalDeadlineMs)
  const signal = options.signal ? AbortSignal.any([options.signal, overall]) : overall
  const lateness = `was not read: reading the sitemaps took longer than ${totalDeadlineMs / 1000} s in all`
  const result: SitemapsRead = { pages: [], read: 0, failures: [] }
  const visited = new Set<string>()
  let fetched = 0
  // Level by level: the listed sitemaps, then what their indexes list, and so on.
  let level: Pending[] = sitemaps.map((sitemap) => ({ sitemap, origin: new URL(sitemap).origin, depth: 0 }))
  while (level.length > 0) {
    const fresh = level.filter((pending) => !visited.has(pending.sitemap) && visited.add(pending.sitemap))
    const room = Math.max(0, maxSitemaps - fetched)
    // Past the run's bound: one failure for each index whose sitemaps were left unread.
    const unread = new Map<string, number>()
    for (const pending of fresh.slice(room)) {
      const by = pending.listedBy ?? pending.sitemap
      unread.set(by, (unread.get(by) ?? 0) + 1)
    }
    for (const [by, count] of unread)
      result.failures.push(
        failure(
          { sitemap: by, origin: '', depth: 0 },
          `lists ${count} sitemap(s) that were not read: the run reads at most ${maxSitemaps} sitemaps`,
        ),
      )
    const now = fresh.slice(0, room)
    fetched += now.length
    const outcomes = await mapLimited(now, PARALLEL_FETCHES, async (pending): Promise<Outcome> => {
      try {
        const bytes = await fetchSitemap(options.agent, pending.sitemap, { ...options, signal })
        return { pending, parsed: parseSitemap(bytes) }
      } catch (error) {
        // Only the run's own cancellation ends the reading; anything else — a parser's throw, a stack
        // overflow on a hostile nesting — is this sitemap's failure, and the others are still read.
        if (options.signal?.aborted) throw error
        if (error instanceof SitemapError) return { failure: failure(pending, error.message) }
        if (overall.aborted) return { failure: failure(pending, lateness) }
        return { failure: failure(pending, `could not be read: ${oneLine(error)}`) }
      }
    })
    const next: Pending[] = []
    for (const outcome of outcomes) {
      if ('failure' in outcome) {
        result.failures.push(outcome.failure)
        continue
      }
      const { pending, parsed } = outcome
      if (parsed.kind === 'urlset') {
        if (result.pages.length + parsed.pages.length > maxPages) {
          result.failures.push(
            failure(
              pending,
              `was not used: its ${parsed.pages.length} pages would pass the run's bound of ${maxPages} pages`,
            ),
          )
          continue
        }
        for (const page of parsed.pages) result.pages.push(page)
        result.read++
        options.onRead?.(pending.sitemap, `${parsed.pages.length} page(s)`)
        continue
      }
      if (pending.depth >= MAX_NESTING) {
        result.failures.push(
          failure(
            pending,
            `is a sitemap index ${MAX_NESTING} levels below the listed sitemap: indexes are followed ${MAX_NESTING} ` +
              `levels deep, so its ${parsed.sitemaps.length} sitemap(s) were not read`,
          ),
        )
        continue
      }
      const checked = parsed.sitemaps.map((listed) => ({
        listed,
        problem: followProblem(listed, pending.origin),
      }))
      const refused = checked.filter((entry) => entry.problem !== undefined)
      if (refused.length > 0)
        result.failures.push(
          failure(
            pending,
            `lists ${refused.length} sitemap(s) that were not read, e.g. ${quoted(withoutUserInfo(refused[0].listed))}: its URL ` +
              `${refused[0].problem}`,
          ),
        )
      result.read++
      options.onRead?.(pending.sitemap, `sitemap index of ${parsed.sitemaps.length} sitemap(s)`)
      for (const { listed, problem } of checked)
        if (problem === undefined)
          next.push({
            sitemap: listed,
            origin: pending.origin,
            depth: pending.depth + 1,
            listedBy: pending.sitemap,
          })
    }
    level = next
  }
  return result
}
