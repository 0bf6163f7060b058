// The index pipeline, shared by the index action and `kb-sync index`:
// change set ──► selection ──► plan ──► send ──► (flow run) ──► report
import { cancellationOf, NOT_SENT_CANCELLED } from '../cancellation.js'
import { ConfigError } from '../config/errors.js'
import type { IndexConfig } from '../config/index-config.js'
import type { LookupBudget } from '../github/lookup-budget.js'
import type { WorkflowRunOutcome } from '../github/workflow.js'
import { displayName, type Logger } from '../log.js'
import type {
  ChangeBase,
  ChangeDecision,
  FileSelection,
  ItemOutcome,
  LeftDocument,
  Operation,
  PlaceholderDocument,
  SelectedFile,
  SkippedItem,
} from '../model.js'
import {
  fallbackNote,
  placeholderBatches,
  planSync,
  plannedItems,
  plannedOperation,
  withDraftsFound,
} from '../plan.js'
import { heldProgress, logSkipped, startProgress } from '../report/index-outputs.js'
import type { IndexReport } from '../report/types.js'
import { ServiceClient } from '../service/client.js'
import type { ChangeBaseDecision } from '../history/change-base.js'
import type { PullRequestChanges } from '../history/pull-request-changes.js'
import type { StagingChanges } from '../history/staging-changes.js'
import { stagingRemovals } from '../history/staging-removals.js'
import {
  hasSelectableFile,
  nameIsSelectable,
  selectFiles,
  selectNamedFiles,
  type FileSelectionOptions,
} from '../select/files.js'
import { undecodableSkip } from '../select/byte-names.js'
import { findLfsPointers, LFS_POINTER_CAUSE } from '../select/lfs-pointers.js'
import { nameMatcher } from '../select/match.js'
import { inShard, shardLabel, shardSelection } from '../select/shard.js'
import { collectIfGrown, holdYoungGeneration } from '../select/chunk-release.js'
import {
  PlaceholderFilesError,
  writePlaceholderFiles,
  type PlaceholderFiles,
} from '../send/placeholder-files.js'
import { sendPlan, type SendProgress } from '../send/send-plan.js'
import { DraftScanner, findDrafts, type DraftScan } from '../select/drafts.js'
import { withSectionPages } from '../select/section-pages.js'
import { firstNames } from '../report/causes.js'
import type { SitemapSync } from '../sitemaps/sync.js'
import { retryPolicyOf } from '../config/shared-inputs.js'
import type { KnowledgeBaseRecord } from '../state/record.js'
import {
  describeWriter,
  desiredOf,
  readRecord,
  recordedChanges,
  recordTargetOf,
  writeFinalRecord,
  writePendingRecord,
  type RecordBasis,
  type RecordedChanges,
  type RecordKeeping,
} from './recorded-state.js'
import { settingsOf } from '../state/settings.js'

export interface JobContext {
  /** Files are selected below this folder and named relative to it (GITHUB_WORKSPACE, or the CLI's cwd). */
  workspace: string
  eventName: string
  payload: Record<string, unknown>
  repository?: { owner: string; repo: string }
  apiUrl?: string
  /** This workflow run, for the last successful sync (undefined off a runner). */
  workflow?: WorkflowRunOutcome
  /** The CLI's --since: a commit or ref, or last-success. */
  since?: string
  log: Logger
  /** The run's cancellation: every wait stops, and the job ends with an IndexJobFailure. */
  signal?: AbortSignal
  /** The run's one budget for all its GitHub requests (runs, compare, comment), made with its cancellation. */
  github: LookupBudget
  /** The run's second signal: indexing requests in flight are cut off without waiting out their grace. */
  cutOff?: AbortSignal
  /** After each completed request (the CLI draws its progress from it). */
  onProgress?: (progress: SendProgress) => void
  /** Where the knowledge base's record is kept (an artifact on a runner, the CLI's --state-file); none: not kept. */
  record?: RecordKeeping
}

/** A failure of the job as a whole (not of one document), with a message a user can act on. */
export class JobError extends Error {}

/**
 * The job stopped before its end. `report` holds what it knew, with every item it knew of that has no
 * outcome failed with the cause, so the outputs and the summary are still written.
 */
export class IndexJobFailure extends Error {
  constructor(
    message: string,
    readonly report: IndexReport,
  ) {
    super(message)
    this.name = 'IndexJobFailure'
  }
}

/** The report of a job that has not started (yet): nothing known but the inputs. */
export function emptyIndexReport(dryRun: boolean): IndexReport {
  return {
    dryRun,
    changeSource: 'not decided',
    planned: [],
    items: [],
    skipped: [],
    left: [],
    requests: 0,
    durationMs: 0,
    notices: [],
  }
}

/**
 * Every item the job knew of without an outcome fails with `cause`: the planned ones, else the URLs of
 * the inputs and the selected files.
 */
function failUnfinished(
  report: IndexReport,
  config: IndexConfig,
  files: readonly SelectedFile[],
  cause: string,
): void {
  const done = new Set(report.items.map((item) => `${item.kind}\0${item.name}`))
  const fallbackOperation: Operation = config.mode === 'upload' ? 'upload' : 'update'
  const known =
    report.planned.length > 0
      ? Array.from(report.planned, (item) => ({
          kind: item.kind,
          name: item.name,
          operation: item.operation,
        }))
      : [
          ...files.map(({ name }) => ({ kind: 'document' as const, name, operation: fallbackOperation })),
          ...shardUrls(config).map((name) => ({ kind: 'url' as const, name, operation: fallbackOperation })),
        ]
  for (const item of known) {
    if (done.has(`${item.kind}\0${item.name}`)) continue
    report.items.push({ ...item, outcome: 'failed', attempts: 0, error: cause })
  }
}

const SOURCE_TEXT = {
  'git-diff': 'git diff of the push (before..after)',
  'fetched-before': 'git diff of the push, after fetching the before commit',
  'compare-api': 'GitHub compare API',
  payload: 'commit lists of the push payload',
  'last-success': 'git diff since the last successful sync',
  'since-ref': 'git diff since the --since commit',
  staging: 'the names that can differ from what earlier runs left in the staging node',
  state: "the knowledge base's record: what the checkout selects minus what the node holds",
} as const

export function describeChanges(changes: ChangeDecision): string {
  if (changes.kind === 'changes') return SOURCE_TEXT[changes.source]
  if (changes.kind === 'all')
    return `full sync (${changes.reason})${changes.removed ? ", and the push's own removals (before..after)" : ''}`
  return `nothing to index (${changes.reason})`
}

/** One line naming the base commit and, for the last successful sync, its run. */
export function describeBase(base: ChangeBase): string {
  if (base.source === 'none') return 'none (full sync)'
  if (base.source === 'push') return `the push's before commit ${base.sha}`
  if (base.source === 'ref') return `--since commit ${base.sha}`
  if (base.source === 'state') return `the knowledge base's record, ${base.recordedBy ?? 'of an earlier run'}`
  return `the last successful sync, run #${base.run?.number ?? '?'} at commit ${base.sha}`
}

async function decideChanges(config: IndexConfig, context: JobContext): Promise<ChangeBaseDecision> {
  // `--since` with another mode is refused when the CLI reads its config.
  if (config.mode !== 'auto') {
    return {
      decision: { kind: 'all', source: 'full-sync', reason: `mode ${config.mode}: every selected file` },
      base: { source: 'none', sha: '' },
      notices: [],
    }
  }
  // Loaded only when a change set is computed: change detection brings git and @actions/github
  // (octokit). As its own chunk file (dist/<id>.index.js), not "eager" in index.js: V8 compiles all of a
  // file it loads, evaluated or not. With this and the other seams (sitemaps, octokit, undici's fetch,
  // YAML, form-data) as chunks, index.js went 2.43 -> 1.20 MB, its compile at start ~50 -> ~32 ms, and a
  // small upload's start to its first log group 127 -> 84 ms (median of 9, shared 2-core machine).
  // scripts/bundle.mjs fails if index.js holds that code again (LAZY_IN_INDEX_ACTION).
  const { decideChangeBase } = await import('../history/change-base.js')
  return decideChangeBase({
    ...context,
    patterns: config.files,
    githubToken: config.githubToken,
    fullSync: config.fullSync,
  })
}

/**
 * The pull request's own change set (base..head): what a preview shows, and in a staging sync only what
 * `pull-request-changed` counts (`quiet`: its own warning says why the count is unknown).
 */
async function pullRequestChanges(
  config: IndexConfig,
  context: JobContext,
  options: { quiet?: boolean } = {},
): Promise<PullRequestChanges> {
  const { detectPullRequestChanges } = await import('../history/pull-request-changes.js')
  const changes = await detectPullRequestChanges(
    { ...context, patterns: config.files, githubToken: config.githubToken },
    options,
  )
  context.log.info(
    `${options.quiet ? "The pull request's own changes" : 'Change set'}: ${changes.description}`,
  )
  return changes
}

async function stagingChanges(config: IndexConfig, context: JobContext): Promise<StagingChanges> {
  const { detectStagingChanges } = await import('../history/staging-changes.js')
  const changes = await detectStagingChanges({
    ...context,
    patterns: config.files,
    githubToken: config.githubToken,
    fullSync: config.fullSync,
  })
  context.log.info(`Change set: ${changes.description}`)
  return changes
}

function selectionOptions(config: IndexConfig, context: JobContext): FileSelectionOptions {
  return {
    patterns: config.files,
    workspace: context.workspace,
    includeHidden: config.includeHiddenFiles,
    maxFileSize: config.maxFileSize,
    followSymlinks: config.followSymlinks,
  }
}

/** Pages below a Hugo section whose `_index.md` changed are judged again (select/section-pages.ts). */
async function withChangedSections(
  config: IndexConfig,
  context: JobContext,
  changes: Extract<ChangeDecision, { kind: 'changes' }>,
): Promise<ChangeDecision> {
  if (config.files.length === 0) return changes
  const found = await withSectionPages(changes, selectionOptions(config, context))
  if (found.pages > 0)
    context.log.info(
      `A section's _index.md changed (its cascade applies to the pages below it): ${found.pages} page(s) ` +
        `below ${found.sections.map((folder) => (folder === '' ? '.' : folder)).join(', ')} are judged again, ` +
        'sent if published and blanked if not.',
    )
  return found.changes
}

async function select(
  config: IndexConfig,
  context: JobContext,
  changes: ChangeDecision,
): Promise<FileSelection> {
  if (config.files.length === 0) return { files: [], skipped: [] }
  const options = selectionOptions(config, context)
  // A push sends only what it changed: only those paths are checked on disk, not the whole workspace.
  // Folders whose changes are unknown need the search (the plan keeps only what lies below them).
  const selection =
    changes.kind === 'changes' && !changes.everythingUnder
      ? await selectNamedFiles(options, [...changes.added, ...changes.modified])
      : await selectFiles(options)
  if (changes.kind === 'changes') selection.skipped.push(...undecodableSkips(config, changes, selection))
  const none =
    selection.files.length === 0 && (changes.kind !== 'changes' || !(await hasSelectableFile(options)))
  if (none) {
    const message = `No files were found with the "files" patterns (${config.files.join(', ')}) in ${context.workspace}.`
    if (config.ifNoFilesFound === 'error')
      throw new JobError(`${message} Set "if-no-files-found" to warn or ignore to allow this.`)
    if (config.ifNoFilesFound === 'warn') context.log.warning(message)
  }
  return selection
}

/**
 * Changed names that are not valid UTF-8 and that the patterns select: skipped as the workspace search
 * skips them (the search reports them itself when it ran).
 */
function undecodableSkips(
  config: IndexConfig,
  changes: Extract<ChangeDecision, { kind: 'changes' }>,
  selection: FileSelection,
): SkippedItem[] {
  const matches = nameMatcher(config.files)
  const reported = new Set(selection.skipped.map((item) => item.name))
  return (changes.undecodable ?? [])
    .filter((name) => !reported.has(name.shown) && matches(name.lossy))
    .map((name) => undecodableSkip(name.shown, name.isFolder))
}

/** The URLs (of the inputs, of sitemaps) that this job's shard sends (all without a shard). */
function shardUrls(config: IndexConfig, urls = config.urls): string[] {
  return config.shard ? urls.filter((url) => inShard(url, config.shard)) : urls
}

/**
 * The names the selection would send, by name (patterns, hidden files): removed names that were never
 * in the knowledge base drop out, and a pull request's changes are counted among these.
 */
function selectedNames(config: IndexConfig, names: string[]): string[] {
  const matches = nameMatcher(config.files)
  const options = { patterns: config.files, includeHidden: config.includeHiddenFiles }
  return names.filter((name) => matches(name) && nameIsSelectable(name, options))
}

/**
 * The `pull-request-changed` output: how many selected documents the pull request's own change set
 * (base..head) adds, modifies or removes, or why that is unknown.
 */
function pullRequestChangedCount(
  config: IndexConfig,
  own: PullRequestChanges,
): { count: number } | { unknown: string } {
  const { decision } = own
  if (decision.kind === 'none') return { count: 0 }
  if (decision.kind === 'all') return { unknown: decision.reason }
  if (decision.everythingUnder)
    return {
      unknown: `the changes below ${decision.everythingUnder.map(displayName).join(', ')} are not known one by one`,
    }
  return {
    count: selectedNames(config, [...decision.added, ...decision.modified, ...decision.removed]).length,
  }
}

/**
 * The pages of the `sitemaps` input; in mode auto only those changed since the base commit (lastmod), or
 * with the record (`sent`), those never sent or changed since they were sent.
 */
async function sitemapPages(
  config: IndexConfig,
  context: JobContext,
  base: ChangeBase | undefined,
  sent: KnowledgeBaseRecord['urls'] | undefined,
): Promise<SitemapSync | undefined> {
  if (config.sitemaps.length === 0) return undefined
  // Loaded only when there are sitemaps, from its own chunks: the XML parser (~280 KB with the sitemap
  // code) is not compiled at every run's start-up (see decideChanges).
  const { syncSitemaps } = await import('../sitemaps/sync.js')
  return context.log.group('Sitemaps', () =>
    syncSitemaps({
      sitemaps: config.sitemaps,
      include: config.urlInclude,
      exclude: config.urlExclude,
      known: config.urls,
      operation: config.mode === 'upload' ? 'upload' : 'update',
      base: config.mode === 'auto' && !sent ? base : undefined,
      sent,
      workspace: context.workspace,
      log: context.log,
      signal: context.signal,
    }),
  )
}

/**
 * The change set from the knowledge base's record: every selected file of this shard is compared with
 * what the node holds (no git history needed). With `full-sync`, every selected file is sent and the
 * names the node holds that are not selected are blanked.
 */
async function changesFromRecord(
  config: IndexConfig,
  context: JobContext,
  record: KnowledgeBaseRecord,
  report: IndexReport,
): Promise<{ changes: ChangeDecision; selection: FileSelection; found: RecordedChanges }> {
  const { log } = context
  const selection = await log.group('Selection', async () => {
    const found = shardSelection(
      await select(config, context, { kind: 'all', source: 'full-sync', reason: '' }),
      config.shard,
    )
    log.info(`${found.files.length} file(s) selected, ${found.skipped.length} skipped.`)
    return found
  })
  collectIfGrown()
  return log.group('Change detection', async () => {
    const found = await recordedChanges(config, record, selection, context.workspace, context.signal)
    const { added, modified, removed } = found.changes
    report.base = {
      source: 'state',
      sha: record.writtenBy.commit ?? '',
      recordedBy: describeWriter(record.writtenBy),
    }
    report.record = { ...report.record!, unchanged: found.unchanged }
    if (found.settingsChanged.length > 0) {
      const message = `Settings that shape the selection changed since the record: ${found.settingsChanged.join(', ')}; every selected document was compared with what the node holds.`
      log.notice(message)
      report.notices.push(message)
      report.record = { ...report.record!, settingsChanged: found.settingsChanged }
    }
    log.info(
      `Change set: ${describeChanges(found.changes)}: ${added.length} to upload, ${modified.length} to update, ` +
        `${removed.length} held but no longer selected, ${found.unchanged} unchanged.`,
    )
    const changes: ChangeDecision = config.fullSync
      ? {
          kind: 'all',
          source: 'full-sync',
          reason: 'full-sync: true',
          ...(removed.length > 0 ? { removed } : {}),
        }
      : found.changes
    return { changes, selection, found }
  })
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

/** What the run needs to record the node: the record it read, and every selected, published document. */
async function basisOf(
  keeping: RecordKeeping,
  config: IndexConfig,
  context: JobContext,
  known: {
    previous?: KnowledgeBaseRecord
    desired?: Map<string, string>
    changes: ChangeDecision
    selection: FileSelection
    drafts?: ReadonlyMap<string, string>
    lastmods?: Map<string, string>
  },
): Promise<RecordBasis> {
  const basis = {
    keeping,
    target: recordTargetOf(config),
    settings: settingsOf(config),
    previous: known.previous,
    lastmods: known.lastmods ?? new Map<string, string>(),
  }
  if (known.desired) return { ...basis, desired: known.desired }
  if (known.changes.kind !== 'changes')
    // Every selected file (drafts found while sending leave the map when they are known).
    return {
      ...basis,
      desired: await desiredOf(context.workspace, known.selection.files, known.drafts, context.signal),
    }
  // A change set from history names only what changed: the first record needs every selected document.
  const all = shardSelection(await selectFiles(selectionOptions(config, context)), config.shard)
  const drafts = config.skipDrafts ? (await findDrafts(all.files)).drafts : undefined
  return { ...basis, desired: await desiredOf(context.workspace, all.files, drafts, context.signal) }
}

/**
 * Runs the pipeline. Never ends without a report: a failure on the way throws an IndexJobFailure that
 * carries the report so far, with every item known then failed with the cause.
 */
export async function runIndexJob(config: IndexConfig, context: JobContext): Promise<IndexReport> {
  const started = Date.now()
  holdYoungGeneration()
  const report = emptyIndexReport(config.dryRun)
  report.target = config.target
  if (config.shard) report.shard = config.shard
  // The selection's own list once it is made (no list of its names beside it), and what the record needs.
  const selected: PipelineState = { files: [] }
  try {
    const finished = await indexPipeline(config, context, report, selected)
    await recordFinal(selected, report, context)
    // Cancelled on the way (items not sent are failed already): the run is no base for the next one.
    context.signal?.throwIfAborted()
    return finished
  } catch (error) {
    // A bad input found on the way (e.g. --since naming no commit) is still an input error: nothing was sent.
    if (error instanceof ConfigError) throw error
    const cancelled = cancellationOf(context.signal)
    const cause = context.log.clean(
      cancelled
        ? `${cancelled.message}: nothing new was started; every item not sent is listed as failed.`
        : error instanceof Error
          ? error.message
          : String(error),
    )
    failUnfinished(report, config, selected.files, cancelled ? NOT_SENT_CANCELLED : cause)
    report.ended = { kind: 'stopped', why: cause }
    // What the node holds is recorded on every way out once something may have been sent.
    if (selected.basis?.pendingWritten && report.record?.written === undefined)
      await recordFinal(selected, report, context)
    report.durationMs = Date.now() - started
    throw new IndexJobFailure(cause, report)
  }
}

interface PipelineState {
  files: readonly SelectedFile[]
  /** Set when the run records what the node holds (not a dry run or a preview, a store given). */
  basis?: RecordBasis
}

/**
 * The final record. After the run's cancellation it is still written, until the second signal (cutOff)
 * ends the grace the runner gives.
 */
async function recordFinal(state: PipelineState, report: IndexReport, context: JobContext): Promise<void> {
  if (!state.basis || report.record?.written !== undefined) return
  const written = await context.log.group('Record', () =>
    writeFinalRecord(state.basis!, report, context.log, context.cutOff),
  )
  report.record = { ...(report.record ?? { source: 'history' }), written }
}

const PLAN_LINES_PER_MESSAGE = 2000

async function indexPipeline(
  config: IndexConfig,
  context: JobContext,
  report: IndexReport,
  selected: PipelineState,
): Promise<IndexReport> {
  const { log } = context
  const started = Date.now()
  const notices = report.notices
  context.signal?.throwIfAborted()
  // The record is read where it can decide the change set (mode auto) or is written (not a dry run);
  // a preview neither reads nor writes it: it shows the pull request's own changes.
  const keeping = config.preview ? undefined : context.record
  const read =
    keeping && (config.mode === 'auto' || !config.dryRun)
      ? await log.group('Recorded state', () => readRecord(keeping, config, log, notices, context.signal))
      : undefined
  const record = read?.kind === 'found' ? read.record : undefined
  if (read)
    report.record =
      read.kind === 'found' ? { source: 'state', from: read.from } : { source: 'history', why: read.why }
  const fromRecord =
    record && config.mode === 'auto' ? await changesFromRecord(config, context, record, report) : undefined
  // In a pull request, what merging would change is previewed.
  const pullRequest = config.preview
    ? await log.group('Change detection', () => pullRequestChanges(config, context))
    : undefined
  // `pull-request: index` makes the node a staging node: it ends equal to this checkout. With mode
  // upload/update it sends every selected file: no change set is needed.
  const staged =
    !fromRecord &&
    !config.preview &&
    config.pullRequest === 'index' &&
    'pull_request' in context.payload &&
    config.mode === 'auto'
      ? await log.group('Change detection', () => stagingChanges(config, context))
      : undefined
  // What the pull request itself changes (not the staging node's wider change set) is counted for the
  // run-flow action's skip rule. The sync is never skipped: see the `pull-request-changed` output.
  const ownChanges =
    pullRequest ??
    (config.pullRequest === 'index' && 'pull_request' in context.payload
      ? await log.group('Pull request changes', () => pullRequestChanges(config, context, { quiet: true }))
      : undefined)
  if (ownChanges) {
    const changed = pullRequestChangedCount(config, ownChanges)
    if ('count' in changed) report.pullRequestChanged = changed.count
    else
      log.warning(
        `The output "pull-request-changed" is empty: the pull request's own change set is unknown (${changed.unknown}).`,
      )
  }
  // upload/update send every selected file whatever changed; only auto previews the pull request's changes.
  const previewed = config.mode === 'auto' ? pullRequest : undefined
  const detected =
    previewed?.decision ??
    fromRecord?.changes ??
    staged?.decision ??
    (await log.group('Change detection', async () => {
      const decided = await decideChanges(config, context)
      log.info(`Change set: ${describeChanges(decided.decision)}`)
      if (decided.base.sha) log.info(`Base: ${describeBase(decided.base)}`)
      notices.push(...decided.notices)
      report.base = decided.base
      return decided.decision
    }))
  const changes =
    config.skipDrafts && detected.kind === 'changes' && !fromRecord
      ? await withChangedSections(config, context, detected)
      : detected
  if (changes.kind === 'changes')
    for (const warning of changes.warnings ?? []) {
      log.warning(`Change detection: ${warning}.`)
      notices.push(`Change detection: ${warning}.`)
    }
  if (config.preview && pullRequest)
    report.preview = {
      number: pullRequest.number,
      base: pullRequest.base ?? '',
      head: pullRequest.head ?? '',
    }
  if (pullRequest?.base) report.changeBase = { sha: pullRequest.base, source: 'pull request base' }
  // Cancelled during change detection: nothing is selected or sent.
  context.signal?.throwIfAborted()
  report.changeSource = previewed?.description ?? describeChanges(changes)
  if (staged) {
    const { orgId, flowId, nodeId } = config.target
    report.changeSource = `staging knowledge base ${orgId}/${flowId}/${nodeId}: ${staged.description}`
    if (changes.kind === 'all') notices.push(`Change detection: ${staged.description}.`)
  }
  if (changes.kind === 'none') {
    log.notice(`Nothing to index: ${changes.reason}.`)
    notices.push(`Nothing to index: ${changes.reason}.`)
    return report
  }

  const selection =
    fromRecord?.selection ??
    (await log.group('Selection', async () => {
      const all = await select(config, context, changes)
      const found = shardSelection(all, config.shard)
      const which = changes.kind === 'changes' ? 'changed file(s)' : 'file(s)'
      const part = config.shard
        ? ` in shard ${shardLabel(config.shard)} (${all.files.length} in all shards)`
        : ''
      log.info(`${found.files.length} ${which} selected${part}, ${found.skipped.length} skipped.`)
      return found
    }))
  // Selection's garbage (~35 MiB at 100,000 files) is collected before the plan and the send add theirs.
  collectIfGrown()
  selected.files = selection.files
  // In a staging node a present file that is no longer selected (too large, a link) goes too: listed as
  // removed, the log says why.
  const unselected = changes.kind === 'changes' && staged ? stagingRemovals(changes, selection) : []
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
          : [...changes.removed, ...unselected],
      ).filter((name) => inShard(name, config.shard))
  // Found before planning, so a dry run and a preview fail on them too, as the sync they show would.
  const pointers = findLfsPointers(selection.files)
  // A sync of every selected file looks for drafts while its first batches are sent: the plan it logs is
  // the same, only its first requests leave before (bench/README.md). A dry run, a preview and a push's
  // changed files look first: a changed draft is blanked, which the plan must know before it sends.
  const draftsWhileSending = config.skipDrafts && changes.kind === 'all' && !config.dryRun && !config.preview
  const drafts =
    fromRecord && changes.kind === 'changes'
      ? reportedDrafts(fromRecord.found, log, notices)
      : config.skipDrafts && !draftsWhileSending
        ? await draftsOf(selection.files, log, notices)
        : undefined
  const blanking = removed.length > 0 || (changes.kind === 'changes' && (drafts?.size ?? 0) > 0)
  const sitemaps = await sitemapPages(
    config,
    context,
    report.base,
    fromRecord && changes.kind === 'changes' ? record?.urls : undefined,
  )
  let plan = planSync({
    selection,
    urls: shardUrls(config, sitemaps ? [...config.urls, ...sitemaps.urls] : config.urls),
    mode: config.mode,
    changes: { ...changes, removed },
    batchSize: config.batchSize,
    refused: new Map(pointers.map((file) => [file.name, LFS_POINTER_CAUSE])),
    removed: config.removed,
    removedBy:
      blanking && config.removed === 'tombstone'
        ? await (
            await import('../select/removal-commit.js')
          ).removalCommit(context.workspace, config.files, context.payload)
        : undefined,
    drafts,
  })
  // Until drafts found while sending complete it: what a job stopped on the way reports.
  report.planned = plannedItems(plan)
  report.skipped = plan.skipped
  report.left = plan.left
  const unreadSitemaps = sitemaps?.failures ?? []
  if (sitemaps) {
    report.sitemaps = sitemaps.counts
    notices.push(...sitemaps.notices)
  }
  const unsent = [...plan.refused, ...unreadSitemaps]
  report.items = unsent
  const logPlan = () => {
    report.planned = plannedItems(plan)
    report.skipped = plan.skipped
    report.left = plan.left
    logSkipped(plan.skipped, log)
    warnLeft(plan.left, log, notices)
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

  if (!draftsWhileSending) await logPlan()
  if (keeping && !config.dryRun)
    selected.basis = await basisOf(keeping, config, context, {
      previous: record,
      desired: fromRecord?.found.desired,
      changes,
      selection,
      drafts,
      lastmods: sitemaps?.lastmods,
    })
  if (config.dryRun || config.preview) {
    log.notice(
      config.preview
        ? 'Pull request preview: nothing was sent (set "pull-request: index" to send a pull request\'s files).'
        : 'Dry run: nothing was sent.',
    )
    report.durationMs = Date.now() - started
    return report
  }

  const client = new ServiceClient({
    baseUrl: config.baseUrl,
    privateKey: config.privateKey,
    publicKey: config.flowRun?.publicKey,
    connections: config.concurrency,
  })
  let placeholders: PlaceholderFiles | undefined
  try {
    // Nothing to send (the record says the node is in step): no pending record, only the final one.
    if (selected.basis && (plan.batches.length > 0 || plan.placeholders.length > 0))
      await log.group('Record', () =>
        writePendingRecord(
          selected.basis!,
          Array.from(plannedItems(plan))
            .filter((item) => item.kind === 'document')
            .map((item) => item.name),
          log,
          context.cutOff,
        ),
      )
    placeholders = await placeholdersOrFailed(plan.placeholders, unsent)
    const placeholderRequests = placeholderBatches(placeholders.files, config.batchSize)
    const batches = [...plan.batches, ...placeholderRequests]
    const scanner = draftsWhileSending
      ? new DraftScanner(plan.batches.map((batch) => (batch.kind === 'documents' ? batch.documents : [])))
      : undefined
    // The send's lines follow the plan in the log, even when its first requests leave before the plan is
    // complete.
    const held = log.held()
    let progress: ReturnType<typeof startProgress> | undefined
    // Progress, as the log's lines, follows the plan (the CLI draws its own from it).
    const shown = heldProgress((p) => {
      progress?.update(p)
      context.onProgress?.(p)
    })
    const sending =
      batches.length === 0
        ? undefined
        : sendPlan({ ...plan, batches }, client, config.target, {
            concurrency: config.concurrency,
            maxFileSize: config.maxFileSize,
            names: config.names,
            retry: retryPolicyOf(config),
            log: held.log,
            signal: context.signal,
            cutOff: context.cutOff,
            withhold: scanner && ((index) => scanner.drafts(index)),
            onProgress: (p) => shown.update(p),
          })
    // Awaited below; a failure of the send itself must not go unhandled while the drafts are looked for.
    sending?.catch(() => undefined)
    if (scanner) {
      let scan: DraftScan
      try {
        scan = await scanner.done
      } catch (error) {
        // Every batch still waiting for the drafts failed with the error: the report has each outcome.
        const result = await sending
        if (result) report.items = [...unsent, ...result.items]
        held.release()
        throw error
      }
      reportUnparsable(scan, log, notices)
      plan = withDraftsFound(plan, selection, scan.drafts)
      for (const name of scan.drafts.keys()) selected.basis?.desired.delete(name)
      await logPlan()
    }
    if (sending) {
      const result = await log.group('Send', async () => {
        held.release()
        progress = startProgress(log, plan.batches.length + placeholderRequests.length)
        shown.show()
        try {
          return await sending
        } finally {
          progress.stop()
        }
      })
      // The send's list is the report's when nothing precedes it (not a copy of 100,000 entries).
      report.items = unsent.length === 0 ? result.items : [...unsent, ...result.items]
      report.requests = result.requests
      if (result.cancelled) notices.push('The run was cancelled: unsent items are reported as failed.')
    } else held.release()
    const failed = report.items.some((item) => item.outcome === 'failed')
    if (config.flowRun && !context.signal?.aborted) {
      if (failed)
        log.warning('Some items failed to sync; the flow runs anyway on what the knowledge base holds.')
      try {
        // From its own chunk: only a sync with `flow-inputs` runs a flow (see decideChanges).
        const { runFlow } = await import('./flow-run.js')
        report.flow = await log.group('Flow run', () =>
          runFlow(
            client,
            {
              target: { orgId: config.target.orgId, flowId: config.target.flowId },
              inputs: config.flowRun!.inputs,
              outputKey: 'out-0',
            },
            {
              log,
              retry: retryPolicyOf(config),
              timeoutMs: config.flowRun!.timeoutMs,
              signal: context.signal,
              names: config.names,
            },
          ),
        )
      } catch (error) {
        // The sync results stay reported; the step fails on the flow error.
        report.flowError = error instanceof Error ? error.message : String(error)
      }
    }
  } finally {
    await Promise.all([client.close(), placeholders?.remove()])
    report.durationMs = Date.now() - started
  }
  return report
}

/**
 * The placeholders' files; when they cannot be written, each removal is failed with the cause (in
 * `failed`) and every other document is sent as planned.
 */
async function placeholdersOrFailed(
  placeholders: readonly PlaceholderDocument[],
  failed: ItemOutcome[],
): Promise<PlaceholderFiles> {
  try {
    return await writePlaceholderFiles(placeholders)
  } catch (error) {
    if (!(error instanceof PlaceholderFilesError)) throw error
    for (const { name } of placeholders)
      failed.push({
        kind: 'document',
        name,
        outcome: 'failed',
        operation: 'update',
        attempts: 0,
        error: error.message,
      })
    return { files: [], remove: () => Promise.resolve() }
  }
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
function reportUnparsable(scan: DraftScan, log: Logger, notices: string[]): void {
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
