import { sanitize } from '../log.js'
// The index job's summary, in the order a reader needs it: the verdict and counts on the first line,
// the flow's answer, the failures grouped by cause, then everything else collapsed by outcome.
import type { ChangeBase, ItemOutcome, LeftDocument, PlannedOperation, SkippedItem } from '../model.js'
import { plannedCounts, plannedOperation, type PlannedItem } from '../plan.js'
import { itemsByOutcome } from './by-outcome.js'
import { firstNames, groupFailures } from './causes.js'
import {
  BudgetedDocument,
  collapsedList,
  type CollapsedList,
  inline,
  inlineHtml,
  shortLine,
  table,
} from './markdown.js'
import type { IndexReport } from './types.js'
import type { TextRedaction } from './redact.js'
import { shardLabel } from '../select/shard.js'
import { flowSection } from './flow-section.js'
import { sitemapCountsLine } from './sitemap-line.js'
import { formatCount } from '../units.js'

/** GitHub refuses a step summary over 1 MiB; we stay clearly under it. */
export const SUMMARY_LIMIT = 1_000_000
/** A cause is cut to this many characters in the table so it never widens it past the page. */
export const CAUSE_WIDTH = 120
const FIRST_NAMES = 3
const MAX_CAUSE_ROWS = 50

/** ✅/❌ and the counts, one line. */
export function verdictLine(report: IndexReport, outcomes = itemsByOutcome(report.items)): string {
  const base = report.changeBase
    ? `, base \`${report.changeBase.sha.slice(0, 12)}\`${report.changeBase.source ? ` (${inline(report.changeBase.source)})` : ''}`
    : ''
  // A change set not measured from the last successful sync says so first: which base, and why.
  const changeSet = report.base?.why
    ? `base: ${inline(shortLine(report.base.why, 300))}`
    : `change set: ${inline(report.changeSource)}${base}`
  const skipped = report.skipped.length
  // Never a bare "removed": it reads as deleted, and the service cannot delete.
  const left = report.left.length > 0 ? ` · ⚠️ left in the knowledge base ${report.left.length}` : ''
  if (report.preview || report.dryRun) {
    const counts = plannedCounts(report.planned)
    const what = report.preview
      ? `**Preview of pull request${report.preview.number ? ` #${report.preview.number}` : ''}: nothing sent.**`
      : '**Dry run: nothing sent.**'
    // Documents that cannot be sent as they are (Git LFS pointers) fail in a dry run as in the sync.
    const failed = outcomes.failed.length
    return (
      `${what} Would upload ${counts.upload} · update ${counts.update}` +
      `${counts.upsert > 0 ? ` · upsert ${counts.upsert}` : ''} · remove from answers ${counts.remove} · ` +
      `unchanged/skipped ${skipped}${left}${failed > 0 ? ` · failed ${failed}` : ''} — ${changeSet}`
    )
  }
  const failed = outcomes.failed.length
  const total = report.items.length
  if (report.ended?.kind === 'skipped') return `**Nothing ran:** ${inline(shortLine(report.ended.why, 2000))}`
  const verdict = report.ended
    ? `❌ **Stopped:** ${inline(shortLine(report.ended.why, 2000))}`
    : failed > 0
      ? `❌ **${failed} of ${total} failed.**`
      : report.flowError
        ? '❌ **Synced; the flow run failed.**'
        : '✅ **Synced.**'
  return (
    `${verdict}${holdsSentence(report)} Uploaded ${outcomes.uploaded.length} · updated ${outcomes.updated.length} · ` +
    `removed from answers ${outcomes.removed.length} · unchanged/skipped ${skipped}${left} · ` +
    `failed ${failed} — ${changeSet} ` +
    `(${report.requests} ${report.requests === 1 ? 'request' : 'requests'}, ${(report.durationMs / 1000).toFixed(1)} s)`
  )
}

/** What the knowledge base holds after the run, by its record: " The knowledge base holds …". */
export function holdsSentence(report: IndexReport): string {
  const holds = report.record?.holds
  if (!holds) return ''
  const blanked = holds.blanked > 0 ? ` (${formatCount(holds.blanked)} blanked)` : ''
  const unknown = holds.unknown > 0 ? `, ${formatCount(holds.unknown)} of them to send again` : ''
  return (
    ` The knowledge base holds ${formatCount(holds.documents)} document(s)${blanked}${unknown} and ` +
    `${formatCount(holds.pages)} page(s).`
  )
}

/** Where the change set came from when a record was involved, and whether this run's record was written. */
export function recordLines(report: IndexReport): string[] {
  const record = report.record
  if (!record) return []
  const lines: string[] = []
  if (record.source === 'history' && record.why)
    lines.push(
      `Record: none used (${inline(shortLine(record.why, 300))}); the change set was inferred from git history.`,
    )
  if (record.settingsChanged?.length)
    lines.push(
      `Settings changed since the record: ${record.settingsChanged.map((name) => `\`${name}\``).join(', ')}.`,
    )
  if (record.written && !record.written.ok)
    lines.push(`⚠️ The record of this run was not written: ${inline(shortLine(record.written.why, 300))}.`)
  return lines
}

// Only a real retry is an attempt people read of: the upsert switch and the parts of a split batch are
// the service saying where a document is, not a failure (the log keeps every request and its status).
const attemptsNote = (item: ItemOutcome) =>
  item.retries !== undefined && item.retries > 0 ? ` (${item.retries + 1} attempts)` : ''
/** The lines of the lists of items, each text of an item masked by `mask` before it is escaped. */
function listLines(mask: TextRedaction) {
  const item = (item: ItemOutcome) => `${inline(mask(item.name))}${attemptsNote(item)}`
  return {
    item,
    removed: (removed: ItemOutcome) =>
      `${item(removed)}${removed.absent ? ': was not in the knowledge base, so there was nothing to remove' : ''}`,
    left: (document: LeftDocument) =>
      `${inline(mask(document.name))}: ${document.reason === 'keep' ? 'removed: keep' : 'no placeholder for its format'}`,
    skipped: (skipped: SkippedItem) =>
      `${inline(mask(skipped.name))}: ${inline(shortLine(mask(skipped.detail), 200))}`,
  }
}
const plannedLine = (item: PlannedItem) => `${inline(item.name)}${fallbackWords(item)}`

/**
 * What happens to a planned document when the knowledge base answers otherwise than the plan believes, in
 * the reader's words (the log's plan says it with the status codes: fallbackNote).
 */
export function fallbackWords(item: Pick<PlannedItem, 'operation' | 'fallback' | 'stateUnknown'>): string {
  if (!item.fallback || item.stateUnknown) return ''
  return item.operation === 'upload'
    ? ' — updated instead if it is already in the knowledge base'
    : ' — uploaded instead if it is not there yet'
}
// The outputs may be cut too (outputs budget): the report file is the one place that lists all.
const cutNote = (output: string) => (missing: number) =>
  `_${missing} more not shown (to stay within GitHub's size limit); the file named by the \`report-file\` output lists all (key \`${output}\`)._`

// Nothing planned is an output (a dry run sends nothing): the log's Plan group lists every item.
const planCutNote = (missing: number) =>
  `_${missing} more not shown (to stay within GitHub's size limit); the log's "Plan" group lists all._`

/** Which commit the change set was measured from, with a link to the run that synced it. */
export function renderBaseLine(base: ChangeBase): string {
  const commit = `\`${base.sha.slice(0, 12)}\``
  if (base.source === 'last-success' && base.run)
    return `Base: ${commit}, synced by the last successful run [#${base.run.number}](${base.run.url})`
  if (base.source === 'push') return `Base: ${commit}, the push's before commit`
  if (base.source === 'state') return `Base: the knowledge base's record, ${inline(base.recordedBy ?? '')}`
  return `Base: ${commit}`
}

function summaryTitle(report: IndexReport): string {
  // Two steps or two workflows syncing different knowledge bases are told apart by their ids, and a
  // matrix job's summaries, which sit side by side in the run, by their shard.
  const target = report.target
    ? ` — org ${inline(report.target.orgId)} · flow ${inline(report.target.flowId)} · node ${inline(report.target.nodeId)}`
    : ''
  const name = report.shard ? `Knowledge base sync, shard ${shardLabel(report.shard)}` : 'Knowledge base sync'
  if (report.preview) return `${name}: preview${target}`
  if (report.ended?.kind === 'skipped') return `${name}: nothing ran${target}`
  if (report.ended?.kind === 'stopped') return `${name} failed${target}`
  return `${name}${target}`
}

/**
 * The summary of `report`, whose keys are masked before it is rendered (escaping would hide them from
 * the last masking): all of it, or all but the texts of its lists' items (`items`, `skipped`, `left`),
 * which `maskItemText` masks as each item is shown.
 */
export function renderIndexSummary(
  report: IndexReport,
  limit = SUMMARY_LIMIT,
  maskItemText: TextRedaction = (text) => text,
): string {
  const doc = new BudgetedDocument(limit - 1024)
  // Outcomes are the code's own words, read as they are; the texts of an item are masked when it is shown.
  const { uploaded, updated, removed, failed } = itemsByOutcome(report.items)
  const lines = listLines(maskItemText)
  doc.add(`## ${summaryTitle(report)}\n`)
  doc.add(`${verdictLine(report, { uploaded, updated, removed, failed })}\n`)
  if (report.base?.sha || report.base?.source === 'state') doc.add(`${renderBaseLine(report.base)}\n`)
  for (const line of recordLines(report)) doc.add(`${line}\n`)
  if (report.pullRequestChanged === 0) doc.add('This pull request changes none of the selected documents.\n')
  if (report.sitemaps) doc.add(`${inline(sitemapCountsLine(report.sitemaps))}\n`)
  for (const notice of report.notices) doc.add(`> ${inline(notice)}\n`)
  if (report.flow) doc.add(flowSection(report.flow))
  if (report.flowError)
    doc.add(`### Flow run failed\n\n${inline(shortLine(sanitize(report.flowError), 2000))}\n`)

  // Failures are grouped by their masked text, so every failed item is masked here.
  const failures = groupFailures(
    failed.map((item) => ({
      ...item,
      name: maskItemText(item.name),
      error: item.error === undefined ? undefined : maskItemText(item.error),
    })),
  )
  const parts: (string | CollapsedList)[] = []
  if (failures.length > 0) {
    const failed = failures.reduce((n, f) => n + f.items.length, 0)
    parts.push(`### Failed (${failed})\n`)
    const rows = failures.slice(0, MAX_CAUSE_ROWS).map((f) => [
      inline(shortLine(f.cause, CAUSE_WIDTH)),
      String(f.items.length),
      firstNames(
        f.items.map((i) => i.name),
        FIRST_NAMES,
        inline,
      ),
    ])
    parts.push(table(['Cause', 'Count', 'First names'], rows))
    if (failures.length > MAX_CAUSE_ROWS)
      parts.push(`_${failures.length - MAX_CAUSE_ROWS} more causes below._\n`)
    for (const failure of failures) {
      parts.push(
        collapsedList(
          `${inlineHtml(shortLine(failure.cause, CAUSE_WIDTH))}: ${failure.items.length}`,
          failure.items,
          listLines((text) => text).item,
          cutNote('failed'),
        ),
      )
    }
  }

  if (report.preview || report.dryRun) {
    // The planned items by operation, in one pass over the plan (its items are made as they are listed).
    const byOperation: Record<PlannedOperation, PlannedItem[]> = {
      upload: [],
      update: [],
      upsert: [],
      remove: [],
    }
    for (const item of report.planned) byOperation[plannedOperation(item)].push(item)
    const { upload: uploads, update: updates, upsert: upserts, remove: removals } = byOperation
    if (report.planned.length > 0) parts.push('### Plan\n')
    // The plan is masked as it is listed (redactDeep), not by `maskItemText`.
    parts.push(collapsedList(`Would upload (${uploads.length})`, uploads, plannedLine, planCutNote))
    parts.push(collapsedList(`Would update (${updates.length})`, updates, plannedLine, planCutNote))
    // Whether these are in the node is unknown: each is updated, or uploaded when the node lacks it.
    if (upserts.length > 0)
      parts.push(collapsedList(`Would upsert (${upserts.length})`, upserts, plannedLine, planCutNote))
    parts.push(
      collapsedList(
        `Would remove from answers: a placeholder replaces each (${removals.length})`,
        removals,
        (item) => inline(item.name),
        planCutNote,
      ),
    )
  }
  const others =
    uploaded.length + updated.length + removed.length + report.skipped.length + report.left.length
  if (others > 0 && !report.preview && !report.dryRun) parts.push('### Everything else\n')
  parts.push(
    collapsedList(`Uploaded (${uploaded.length})`, uploaded, lines.item, cutNote('uploaded')),
    collapsedList(`Updated (${updated.length})`, updated, lines.item, cutNote('updated')),
    collapsedList(
      `Unchanged or skipped (${report.skipped.length})`,
      report.skipped,
      lines.skipped,
      cutNote('skipped'),
    ),
    collapsedList(
      `Removed from answers: a placeholder replaced each (${removed.length})`,
      removed,
      lines.removed,
      cutNote('removed'),
    ),
    collapsedList(
      `Left in the knowledge base: remove them in the service by hand (${report.left.length})`,
      report.left,
      lines.left,
      cutNote('left'),
    ),
  )
  doc.addAll(parts)
  return doc.toString()
}

/** The summary of a run that stopped before a result: why nothing (or not everything) ran. */
export function renderStoppedSummary(title: string, why: string): string {
  return `## ${inline(title)}\n\n${inline(shortLine(why, 4000))}\n`
}
