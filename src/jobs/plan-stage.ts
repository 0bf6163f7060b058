// The plan stage of the index job: what is removed, which selected files are drafts, the sitemaps' pages,
// then the plan (plan.ts) and its log. A dry run and a preview end here.
import type { IndexConfig } from '../config/index-config.js'
import { stagingRemovals } from '../history/staging-removals.js'
import { displayName, type Logger } from '../log.js'
import type {
  ChangeDecision,
  FileSelection,
  ItemOutcome,
  LeftDocument,
  Plan,
  SelectedFile,
} from '../model.js'
import { fallbackNote, planSync, plannedItems, plannedOperation } from '../plan.js'
import { firstNames } from '../report/causes.js'
import { logSkipped } from '../report/index-outputs.js'
import type { IndexReport } from '../report/types.js'
import { findDrafts, type DraftScan } from '../select/document/drafts.js'
import { findLfsPointers, LFS_POINTER_CAUSE } from '../select/document/lfs-pointers.js'
import { inShard } from '../select/shard.js'
import type { SitemapSync } from '../sitemaps/sync.js'
import type { KnowledgeBaseRecord } from '../state/record.js'
import { selectedNames } from './inferred-changes.js'
import type { JobContext } from './job-context.js'
import type { RecordedChanges } from './recorded-state.js'
import { shardUrls, sitemapPages } from './selection-stage.js'

const PLAN_LINES_PER_MESSAGE = 2000

/** What the change set stage handed on. */
export interface PlanInput {
  changes: ChangeDecision
  selection: FileSelection
  /** Set when the change set is the record's difference. */
  fromRecord?: RecordedChanges
  record?: KnowledgeBaseRecord
  /** A staging node's own change set (history/), when it gave the change set. */
  staged: boolean
  /** The commit a history-based change set is measured from, when known. */
  base?: string
}

export interface PlannedSync {
  plan: Plan
  /** Items failed before any request (Git LFS pointers, sitemaps that could not be read). */
  unsent: ItemOutcome[]
  drafts?: ReadonlyMap<string, string>
  /** A sync of every selected file looks for drafts while its first batches are sent. */
  draftsWhileSending: boolean
  sitemaps?: SitemapSync
}

/**
 * The plan, in the report (planned, skipped, left) as soon as it is made: what a job stopped on the way
 * reports. Logged here unless drafts are looked for while sending (then by the send stage, once found).
 */
export async function planStage(
  config: IndexConfig,
  context: JobContext,
  report: IndexReport,
  input: PlanInput,
): Promise<PlannedSync> {
  const { log } = context
  const notices = report.notices
  const { selection, fromRecord } = input
  let changes = input.changes
  // In a staging node a present file that is no longer selected (too large, a link) goes too: listed as
  // removed, the log says why.
  const unselected = changes.kind === 'changes' && input.staged ? stagingRemovals(changes, selection) : []
  const unselectedNames = new Set(unselected)
  for (const item of selection.skipped)
    if (unselectedNames.has(item.name))
      log.info(
        `No longer a document of this checkout, so taken out of the staging node (\`removed\`, or \`left\` ` +
          `when no placeholder fits): ${displayName(item.name)}: ${item.detail}`,
      )
  // The record's removals are the names the node holds (of this shard) that are not selected now, whatever
  // the patterns say today: narrowing `files` takes documents out too.
  const removed = fromRecord
    ? changes.kind === 'all'
      ? (changes.removed ?? [])
      : changes.kind === 'changes'
        ? changes.removed
        : []
    : selectedNames(
        config,
        changes.kind === 'all'
          ? // Every selected file is sent, and the removals known even so (a push's own) are blanked.
            (changes.removed ?? [])
          : changes.kind === 'changes'
            ? [...changes.removed, ...unselected]
            : [],
      ).filter((name) => inShard(name, config.shard))
  // Found before planning, so a dry run and a preview fail on them too, as the sync they show would.
  const pointers = findLfsPointers(selection.files)
  // A sync of every selected file looks for drafts while its first batches are sent: the plan it logs is
  // the same, only its first requests leave before (bench/README.md). A dry run, a preview and a push's
  // changed files look first: a changed draft is blanked, which the plan must know before it sends.
  const draftsWhileSending = config.skipDrafts && changes.kind === 'all' && !config.dryRun && !config.preview
  const drafts =
    fromRecord && changes.kind === 'changes'
      ? reportedDrafts(fromRecord, log, notices)
      : config.skipDrafts && !draftsWhileSending
        ? await draftsOf(selection.files, log, notices)
        : undefined
  // Without the record, a changed draft that was a draft before too is left alone (never published).
  if (!fromRecord && changes.kind === 'changes' && drafts && input.base)
    changes = await withDraftsLeftAlone(changes, drafts, input.base, context)
  const blanking = removed.length > 0 || (changes.kind === 'changes' && (drafts?.size ?? 0) > 0)
  const sitemaps = await sitemapPages(
    config,
    context,
    report.base,
    fromRecord && changes.kind === 'changes' ? input.record?.urls : undefined,
  )
  const plan = planSync({
    selection,
    urls: shardUrls(config, sitemaps ? [...config.urls, ...sitemaps.urls] : config.urls),
    mode: config.mode,
    changes: changes.kind === 'none' ? changes : { ...changes, removed },
    batchSize: config.batchSize,
    refused: new Map(pointers.map((file) => [file.name, LFS_POINTER_CAUSE])),
    removed: config.removed,
    removedBy:
      blanking && config.removed === 'tombstone'
        ? await (
            await import('../select/git/removal-commit.js')
          ).removalCommit(context.workspace, config.files, context.payload)
        : undefined,
    drafts,
  })
  report.planned = plannedItems(plan)
  report.skipped = plan.skipped
  report.left = plan.left
  if (sitemaps) {
    report.sitemaps = sitemaps.counts
    notices.push(...sitemaps.notices)
  }
  const unsent = [...plan.refused, ...(sitemaps?.failures ?? [])]
  report.items = unsent
  if (!draftsWhileSending) await logPlan(plan, config, report, log)
  return { plan, unsent, drafts, draftsWhileSending, sitemaps }
}

/** The plan in the report and the log: what is skipped, what is left, then every planned item. */
export function logPlan(plan: Plan, config: IndexConfig, report: IndexReport, log: Logger): Promise<void> {
  report.planned = plannedItems(plan)
  report.skipped = plan.skipped
  report.left = plan.left
  logSkipped(plan.skipped, log)
  warnLeft(plan.left, log, report.notices)
  return log.group('Plan', async () => {
    // Placeholders are a few hundred bytes: their requests are counted by batch size alone.
    const requests = plan.batches.length + Math.ceil(plan.placeholders.length / config.batchSize)
    const lines = [`${report.planned.length} item(s) in ${requests} request(s).`]
    // A few thousand lines per message: one write to the runner's pipe per message instead of one per
    // item, yet no one string of every item (cleaning it made ~5 copies of ~6 MB at 100,000 documents).
    for (const item of report.planned) {
      lines.push(
        item.removal
          ? `  remove from answers (placeholder, update) document ${displayName(item.name)}`
          : `  ${plannedOperation(item)}${fallbackNote(item)} ${item.kind} ${displayName(item.name)}`,
      )
      if (lines.length === PLAN_LINES_PER_MESSAGE) log.info(lines.splice(0).join('\n'))
    }
    if (lines.length > 0) log.info(lines.join('\n'))
  })
}

/**
 * The change set with each modified draft that was a draft at `base` too moved to the added ones: the
 * plan skips it like a new draft (`skipped`, reason draft) instead of blanking it, as the record's change
 * set does with a draft the node holds no content of. One that cannot be judged there stays modified.
 */
async function withDraftsLeftAlone(
  changes: Extract<ChangeDecision, { kind: 'changes' }>,
  drafts: ReadonlyMap<string, string>,
  base: string,
  context: JobContext,
): Promise<ChangeDecision> {
  const names = changes.modified.filter((name) => drafts.has(name))
  if (names.length === 0) return changes
  const { draftsBefore } = await import('../history/drafts-before.js')
  let before: Set<string>
  try {
    before = await draftsBefore({ workspace: context.workspace, base, names, signal: context.signal })
  } catch (error) {
    context.signal?.throwIfAborted()
    context.log.info(
      `The drafts' versions at ${base} could not be read (${error instanceof Error ? error.message : String(error)}): ` +
        'each changed draft is blanked, in case it was published.',
    )
    return changes
  }
  if (before.size === 0) return changes
  context.log.info(
    `${before.size} changed draft(s) were drafts at ${base} too, so never published: left alone, not ` +
      `blanked: ${firstNames([...before], NAMES_IN_WARNING, displayName)}.`,
  )
  return {
    ...changes,
    added: [...changes.added, ...before],
    modified: changes.modified.filter((name) => !before.has(name)),
  }
}

/** Drafts the record's change set judged: their unparsable front matter is reported like the scan's. */
function reportedDrafts(
  found: RecordedChanges,
  log: Logger,
  notices: string[],
): Map<string, string> | undefined {
  if (found.scan) reportUnparsable(found.scan, log, notices)
  return found.drafts
}

const NAMES_IN_WARNING = 10

/** The drafts among the selected files; front matter that does not parse is one warning naming the files. */
async function draftsOf(
  files: readonly SelectedFile[],
  log: Logger,
  notices: string[],
): Promise<Map<string, string>> {
  const scan = await findDrafts(files)
  reportUnparsable(scan, log, notices)
  return scan.drafts
}

/** Front matter that does not parse: one warning naming the files (they are sent, as not drafts). */
export function reportUnparsable(scan: DraftScan, log: Logger, notices: string[]): void {
  if (scan.unparsable.length > 0) {
    const names = firstNames(
      scan.unparsable.map((bad) => `${displayName(bad.name)} (${bad.why})`),
      NAMES_IN_WARNING,
      (name) => name,
    )
    const message =
      `The front matter of ${scan.unparsable.length} file(s) does not parse, so they are not ` +
      `treated as drafts (skip-drafts) and are sent: ${names}.`
    log.warning(message)
    notices.push(message)
  }
}

/** Removed documents left in the knowledge base: one warning for the formats that cannot be blanked. */
function warnLeft(left: LeftDocument[], log: Logger, notices: string[]): void {
  const unblankable = left.filter((document) => document.reason === 'format').map((d) => d.name)
  const kept = left.filter((document) => document.reason === 'keep').map((d) => d.name)
  const names = (list: string[]) => firstNames(list, NAMES_IN_WARNING, displayName)
  if (unblankable.length > 0) {
    const message =
      `${unblankable.length} removed document(s) stay in the knowledge base and keep being answered: no ` +
      `placeholder can be written in their format (the service has no delete). Remove them in the service ` +
      `by hand: ${names(unblankable)}. The "left" output lists all.`
    log.warning(message)
    notices.push(message)
  }
  if (kept.length > 0)
    log.notice(
      `${kept.length} removed document(s) stay in the knowledge base (removed: keep): ${names(kept)}.`,
    )
}
