// The `sitemaps` input as selection: the pages to sync like `urls`, what was left out and why, and one
// failed item per sitemap that could not be read (the run fails; everything else still syncs).
import { quoted } from '../config/errors.js'
import type { Logger } from '../log.js'
import type { ChangeBase, ItemOutcome, Operation } from '../model.js'
import type { SitemapCounts } from '../model.js'
import { Git } from '../git.js'
import { locateRepository } from '../select/git/repository-location.js'
import { sitemapAgent, type SitemapFetchOptions } from './fetch.js'
import { readSitemaps } from './read.js'
import { selectPages } from './select.js'
import type { HeldUrl } from '../state/record.js'

export interface SitemapSync {
  urls: string[]
  failures: ItemOutcome[]
  counts: SitemapCounts
  /** Warnings for the summary (why lastmod was not compared, unusable page URLs). */
  notices: string[]
  /** The lastmod of each page to sync that has one (recorded with the time it is sent). */
  lastmods: Map<string, string>
}

export interface SitemapSyncRequest {
  sitemaps: string[]
  include: string[]
  exclude: string[]
  /** The `urls` input. */
  known: string[]
  /** The operation a failed sitemap's item is reported with. */
  operation: Operation
  /** Mode auto's base, when the change set is measured from one: pages are compared with its commit time. */
  base?: ChangeBase
  /** The knowledge base's record of the pages it holds (instead of `base`): URL → when it was sent. */
  sent?: Readonly<Record<string, HeldUrl>>
  workspace: string
  log: Logger
  signal?: AbortSignal
  /** Fetch bounds (tests shorten them). */
  fetch?: Omit<SitemapFetchOptions, 'signal'>
}

/** The committer time of the base commit, or why it is unknown. */
async function baseTime(
  workspace: string,
  sha: string,
): Promise<{ ok: true; time: Date } | { ok: false; why: string }> {
  const located = await locateRepository(workspace, [])
  if (!located.ok) return { ok: false, why: located.why }
  const time = await new Git(located.location.root).commitTime(sha)
  return time
    ? { ok: true, time }
    : { ok: false, why: `the commit ${sha.slice(0, 12)} is not in the checkout` }
}

export async function syncSitemaps(request: SitemapSyncRequest): Promise<SitemapSync> {
  const { log } = request
  const notices: string[] = []
  let since: Date | undefined
  if (request.base && request.base.source !== 'none' && request.base.sha) {
    const found = await baseTime(request.workspace, request.base.sha)
    if (found.ok) since = found.time
    else {
      const message = `Sitemaps: every listed page is synced, lastmod is not compared: the base commit's time is unknown (${found.why}).`
      log.warning(message)
      notices.push(message)
    }
  }
  if (since)
    log.info(`Pages are synced when their lastmod is after ${since.toISOString()} (the base commit's time).`)

  const agent = sitemapAgent()
  const read = await readSitemaps(request.sitemaps, {
    ...request.fetch,
    agent,
    signal: request.signal,
    onRead: (sitemap, what) => log.info(`${sitemap}: ${what}`),
  }).finally(() => agent.close())
  const pages = selectPages(read.pages, {
    include: request.include,
    exclude: request.exclude,
    known: request.known,
    changedAfter: since?.getTime(),
    held: request.sent,
  })
  if (pages.invalidCount > 0) {
    const message =
      `Sitemaps: ${pages.invalidCount} listed page(s) are not usable URLs (http or https, no user info, ` +
      `no white space) and were left out, e.g. ${pages.invalid.map(quoted).join(', ')}.`
    log.warning(message)
    notices.push(message)
  }
  const failures: ItemOutcome[] = read.failures.map((failure) => {
    // Annotated with the other failures when the run ends.
    log.info(`${failure.sitemap}: ${failure.cause}`)
    return {
      kind: 'url',
      name: failure.sitemap,
      outcome: 'failed',
      operation: request.operation,
      attempts: 0,
      error: failure.cause,
    }
  })
  const counts: SitemapCounts = {
    read: read.read,
    failed: failures.length,
    listed: pages.listed,
    filtered: pages.filtered,
    unchanged: pages.unchanged,
    duplicates: pages.duplicates,
    invalid: pages.invalidCount,
    synced: pages.urls.length,
    ...(since ? { since: since.toISOString() } : {}),
  }
  return { urls: pages.urls, failures, counts, notices, lastmods: pages.lastmods }
}
