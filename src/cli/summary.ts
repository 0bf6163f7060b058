// What `kb-sync index` prints on stdout by default: a few lines a person reads at a glance. The markdown
// summary (--summary-file) and the per-file lines (--verbose) carry the detail.
import { displayName } from '../log.js'
import { indexOutputs } from '../report/index-outputs.js'
import { plannedCounts } from '../plan.js'
import { shardLabel } from '../select/shard.js'
import type { IndexReport } from '../report/types.js'
import { groupFailures } from '../report/causes.js'
import { sitemapCountsLine } from '../report/sitemap-line.js'
import { excerpt } from '../service/errors.js'

/** The kind of a failure, for counting: the HTTP status or error code, else the message's first part. */
export function failureCause(error: string | undefined): string {
  if (!error) return 'unknown error'
  const status = /\bHTTP (\d{3})\b/.exec(error)
  if (status) return `HTTP ${status[1]}`
  const code = /\b(E[A-Z]{3,}|UND_ERR_[A-Z_]+)\b/.exec(error)
  if (code) return code[1]
  const head = error.split(/[:;]/)[0].trim()
  return head.length > 80 ? `${head.slice(0, 79)}…` : head
}

const SHOWN_CAUSES = 3
const CAUSE_CHARS = 400

/** `3 × HTTP 422, 1 × ECONNRESET`, most frequent first. */
function counted(values: string[]): string {
  const counts = new Map<string, number>()
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1)
  return [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([value, count]) => `${count} × ${displayName(value)}`)
    .join(', ')
}

export function indexSummaryText(report: IndexReport, options: { verbose: boolean }): string {
  const outputs = indexOutputs(report)
  const lines = [`Change set: ${displayName(report.changeSource)}`]
  if (report.shard)
    lines.unshift(`Shard ${shardLabel(report.shard)}: only the documents and URLs whose names hash to it.`)
  if (report.sitemaps) lines.push(sitemapCountsLine(report.sitemaps))
  if (report.dryRun) {
    const counts = plannedCounts(report.planned)
    lines.push(
      `Dry run: ${report.planned.length} planned (${counts.upload} upload, ${counts.update} update` +
        `${counts.upsert > 0 ? `, ${counts.upsert} upsert` : ''}, ${counts.remove} remove from answers), ` +
        `${outputs.skipped.length} skipped, ${outputs.left.length} left in the knowledge base; nothing sent.`,
    )
  } else {
    lines.push(
      `Uploaded ${outputs.uploaded.length}, updated ${outputs.updated.length}, skipped ${outputs.skipped.length}, ` +
        `failed ${outputs.failed.length}, removed from answers ${outputs.removed.length}, ` +
        `left in the knowledge base ${outputs.left.length} ` +
        `(${report.requests} ${report.requests === 1 ? 'request' : 'requests'}, ${(report.durationMs / 1000).toFixed(1)} s).`,
    )
  }
  const failed = report.items.filter((item) => item.outcome === 'failed')
  if (failed.length > 0) {
    lines.push(`Failed by cause: ${counted(failed.map((item) => failureCause(item.error)))}.`)
    // What to do about it is in the cause's text (a refused key names the input to check): the
    // first few causes, one line each, without --verbose.
    const causes = groupFailures(report.items)
    for (const { cause, items } of causes.slice(0, SHOWN_CAUSES))
      lines.push(`  ${items.length} × ${displayName(excerpt(cause, CAUSE_CHARS))}`)
    if (causes.length > SHOWN_CAUSES) lines.push(`  and ${causes.length - SHOWN_CAUSES} more causes.`)
  }
  if (report.skipped.length > 0)
    lines.push(`Skipped by reason: ${counted(report.skipped.map((item) => item.reason))}.`)
  for (const notice of report.notices) lines.push(displayName(notice))
  if (report.flowError) lines.push(`Flow run failed: ${displayName(report.flowError)}`)
  if (report.flow) lines.push(`Flow answer:\n${report.flow.result}`)
  if (!options.verbose && (failed.length > 0 || report.skipped.length > 0 || report.dryRun))
    lines.push('Each file: --verbose; the markdown summary: --summary-file PATH.')
  return lines.join('\n')
}
