// The sitemaps' counts as one line, for the log and the job summary.
import type { SitemapCounts } from '../model.js'

/** What the sitemaps listed, what was left out and why, and what is synced. */
export function sitemapCountsLine(counts: SitemapCounts): string {
  const parts = [
    `${counts.read} sitemap(s) read`,
    ...(counts.failed > 0 ? [`${counts.failed} failed`] : []),
    `${counts.listed} page(s) listed`,
    `${counts.filtered} filtered out`,
    `${counts.unchanged} unchanged by lastmod${counts.since ? ` (not after ${counts.since})` : ''}`,
    ...(counts.duplicates > 0 ? [`${counts.duplicates} already listed`] : []),
    ...(counts.invalid > 0 ? [`${counts.invalid} not usable URLs`] : []),
    `${counts.synced} to sync`,
  ]
  return `Sitemaps: ${parts.join(' · ')}`
}
