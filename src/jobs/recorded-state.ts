// The knowledge base's record in the index job: read before the change set is decided, the change set as
// what the checkout selects minus what the node holds, and the record of what the node holds written
// before the first request (pending) and at the end (final).
import type { IndexConfig } from '../config/index-config.js'
import type { Logger } from '../log.js'
import type { ChangeDecision, FileSelection, ItemOutcome, SelectedFile } from '../model.js'
import type { IndexReport, RecordReport } from '../report/types.js'
import { collectIfGrown } from '../chunk-release.js'
import { findDrafts, type DraftScan } from '../select/document/drafts.js'
import { selectFiles } from '../select/files.js'
import { shardSelection } from '../select/shard.js'
import { changedSections } from '../select/document/section-pages.js'
import { compareNames } from '../plan.js'
import { contentIds } from '../state/content-ids.js'
import { difference } from '../state/difference.js'
import { markPending, nextHeld, nextUrls, settlePending, type PendingHeld } from '../state/next-record.js'
import {
  PLACEHOLDER,
  RECORD_VERSION,
  UNKNOWN,
  type HeldContent,
  type KnowledgeBaseRecord,
  type RecordRead,
  type RecordKeeping,
  type RecordTarget,
  type RecordWriter,
} from '../state/record.js'
import { changedSettings, settingsOf } from '../state/settings.js'
import type { JobContext } from './job-context.js'
import { select, selectionOptions } from './selection-stage.js'

export function recordTargetOf(config: IndexConfig): RecordTarget {
  return {
    host: new URL(config.baseUrl).host,
    ...config.target,
    ...(config.shard ? { shard: { ...config.shard } } : {}),
  }
}

/** Reads the record; what it found is logged, and a record that cannot be used is a warning naming why. */
export async function readRecord(
  keeping: RecordKeeping,
  config: IndexConfig,
  log: Logger,
  notices: string[],
  signal?: AbortSignal,
): Promise<RecordRead> {
  const read = await keeping.store.read(recordTargetOf(config), signal)
  // Decoding leaves its text, the parsed object and its copies behind (~30 MB at 100,000 documents):
  // collected before selection adds its own (bench/README.md).
  collectIfGrown()
  if (read.kind === 'found') {
    log.info(`The knowledge base's record: ${read.from} (${describeWriter(read.record.writtenBy)}).`)
    return read
  }
  const message =
    read.kind === 'missing'
      ? `No record of this knowledge base yet (${read.why}): the change set is inferred from git history this time; this run writes one, so the next one is exact.`
      : `The knowledge base's record is not used (${read.why}): the change set is inferred from git history this time; this run writes a new one.`
  if (read.kind === 'missing') log.notice(message)
  else log.warning(message)
  notices.push(message)
  return read
}

export function describeWriter(writer: RecordWriter): string {
  const run = writer.runId
    ? `run ${writer.runNumber ? `#${writer.runNumber} ` : ''}(id ${writer.runId}${writer.runAttempt && writer.runAttempt > 1 ? `, attempt ${writer.runAttempt}` : ''})`
    : 'a run'
  const where = [
    writer.event,
    writer.pullRequest ? `pull request #${writer.pullRequest}` : undefined,
    writer.commit ? `commit ${writer.commit.slice(0, 12)}` : undefined,
  ].filter(Boolean)
  return `written by ${run}${where.length > 0 ? `, ${where.join(', ')}` : ''} at ${writer.at}`
}

/** What the run knows of the node to record it: what it held, and what the checkout selects. */
export interface RecordBasis {
  keeping: RecordKeeping
  target: RecordTarget
  settings: Record<string, string>
  /** What the record said the node held; undefined when no record was usable (the inference was trusted). */
  previous?: KnowledgeBaseRecord
  /** Every selected, published document of this shard with its content id. */
  desired: Map<string, string>
  /** The sitemap pages' lastmods of this run, by URL. */
  lastmods: Map<string, string>
  pendingWritten?: boolean
  /**
   * The pending record, made in the previous record's own documents; the final record is made from it in
   * place too (no copy of 100,000 entries at the run's peak).
   */
  pending?: PendingHeld
}

/** The files' content ids without the drafts among them. */
export async function desiredOf(
  workspace: string,
  files: readonly SelectedFile[],
  drafts: ReadonlyMap<string, string> | undefined,
  signal?: AbortSignal,
): Promise<Map<string, string>> {
  const ids = await contentIds(workspace, files, signal)
  for (const name of drafts?.keys() ?? []) ids.delete(name)
  return ids
}

export interface RecordedChanges {
  changes: Extract<ChangeDecision, { kind: 'changes' }>
  /** The drafts among the files the change set judges again. */
  drafts?: Map<string, string>
  scan?: DraftScan
  desired: Map<string, string>
  /** Documents the node holds as the checkout has them. */
  unchanged: number
  settingsChanged: string[]
}

/**
 * The change set from the record: documents the node lacks are uploaded, those it holds with other
 * content updated, those it holds that are no longer selected (deleted, excluded, unpublished, another
 * pull request's) blanked. Drafts are judged for the documents that differ, and for every selected one
 * when a setting that shapes the selection changed (turning `skip-drafts` on must blank the drafts the node
 * holds). A draft the node holds as a placeholder already is left alone.
 */
export async function recordedChanges(
  config: IndexConfig,
  record: KnowledgeBaseRecord,
  selection: FileSelection,
  workspace: string,
  signal?: AbortSignal,
): Promise<RecordedChanges> {
  const settingsChanged = changedSettings(record.settings, settingsOf(config))
  const held: Readonly<Record<string, HeldContent>> = record.documents
  const ids = await contentIds(workspace, selection.files, signal, held)
  const differs = (file: SelectedFile) => held[file.name] !== ids.get(file.name)
  let drafts: Map<string, string> | undefined
  let scan: DraftScan | undefined
  if (config.skipDrafts) {
    const judged =
      settingsChanged.length > 0 ? selection.files : withSectionPages(selection.files, differs, held, ids)
    scan = await findDrafts(judged)
    drafts = scan.drafts
  }
  // The ids themselves, not a copy (100,000 entries at scale): nothing reads them after this.
  const desired = ids
  for (const name of drafts?.keys() ?? []) desired.delete(name)
  const found = difference(desired, held)
  const added = found.upload
  const modified = found.update
  // The plan skips an added draft and blanks a modified one (it was published): a draft the node holds
  // with content is "modified", one it lacks or holds as a placeholder is "added" (skipped, not sent).
  for (const name of drafts?.keys() ?? []) {
    const was = held[name]
    if (was === undefined || was === PLACEHOLDER) added.push(name)
    else modified.push(name)
  }
  const blank = found.blank.filter((name) => !drafts?.has(name))
  return {
    changes: {
      kind: 'changes',
      source: 'state',
      added: added.sort(compareNames),
      modified: modified.sort(compareNames),
      removed: blank,
    },
    drafts,
    scan,
    desired,
    unchanged: found.unchanged,
    settingsChanged,
  }
}

/**
 * The files that differ from the record, and every page below a Hugo section whose `_index.md` differs
 * (added, changed or gone): its `cascade` may publish or unpublish them without changing them.
 */
function withSectionPages(
  files: readonly SelectedFile[],
  differs: (file: SelectedFile) => boolean,
  held: Readonly<Record<string, HeldContent>>,
  ids: ReadonlyMap<string, string>,
): SelectedFile[] {
  const differing = files.filter(differs)
  const gone = Object.keys(held).filter((name) => !ids.has(name) && held[name] !== PLACEHOLDER)
  const sections = changedSections({
    kind: 'changes',
    source: 'state',
    added: differing.map((file) => file.name),
    modified: [],
    removed: gone,
  })
  if (sections.length === 0) return differing
  const below = (name: string) => sections.some((folder) => folder === '' || name.startsWith(`${folder}/`))
  return files.filter((file) => differs(file) || below(file.name))
}

function writerNow(keeping: RecordKeeping): RecordWriter {
  return { ...keeping.writer, at: new Date().toISOString() }
}

function recordOf(
  basis: RecordBasis,
  phase: KnowledgeBaseRecord['phase'],
  documents: Record<string, HeldContent>,
  urls: KnowledgeBaseRecord['urls'],
): KnowledgeBaseRecord {
  return {
    version: RECORD_VERSION,
    phase,
    target: basis.target,
    writtenBy: writerNow(basis.keeping),
    settings: basis.settings,
    documents,
    urls,
  }
}

/**
 * Before the first request: every name the run may write is recorded as unknown, so a run killed on the
 * way still leaves the next one every name it may have written.
 */
export async function writePendingRecord(
  basis: RecordBasis,
  plannedDocuments: readonly string[],
  log: Logger,
  signal?: AbortSignal,
): Promise<void> {
  basis.pending = markPending(basis.previous?.documents, basis.desired, plannedDocuments)
  const written = await basis.keeping.store.write(
    recordOf(basis, 'pending', basis.pending.held, basis.previous?.urls ?? {}),
    signal,
  )
  if (written.ok) {
    basis.pendingWritten = true
    log.info(`Recorded the names this run is about to send (${written.where}).`)
  } else
    log.warning(
      `The names this run is about to send could not be recorded (${written.why}); the sync goes on, and the final record is written at its end.`,
    )
}

/** After the run (also when it failed or was cancelled): what the node holds now. */
export async function writeFinalRecord(
  basis: RecordBasis,
  report: IndexReport,
  log: Logger,
  signal?: AbortSignal,
): Promise<RecordReport['written']> {
  const outcomes: readonly ItemOutcome[] = report.items
  const documents = basis.pending
    ? settlePending(basis.pending, basis.desired, outcomes)
    : nextHeld({ previous: basis.previous?.documents, desired: basis.desired, outcomes })
  const urls = nextUrls(basis.previous?.urls, outcomes, basis.lastmods, new Date())
  const record = recordOf(basis, 'final', documents, urls)
  report.record = { source: 'history', ...report.record, holds: holdsOf(record) }
  const written = await basis.keeping.store.write(record, signal)
  if (written.ok) {
    log.info(`Recorded what the knowledge base holds (${written.where}).`)
    return { ok: true, where: written.where }
  }
  const message = `What the knowledge base holds could not be recorded (${written.why}): the next run infers its change set from git history.`
  log.warning(message)
  report.notices.push(message)
  return { ok: false, why: written.why }
}

/** The counts the summary's first line gives. */
export function holdsOf(record: KnowledgeBaseRecord): NonNullable<RecordReport['holds']> {
  let documents = 0
  let blanked = 0
  let unknown = 0
  const held = record.documents
  // Not Object.values: on an object of 100,000 names it made ~7 MB of heap at the run's highest point,
  // a for-in the list of its keys alone (bench/README.md).
  for (const name in held) {
    const content = held[name]
    if (content === PLACEHOLDER) blanked++
    else if (content === UNKNOWN) unknown++
    documents++
  }
  return { documents, blanked, unknown, pages: Object.keys(record.urls).length }
}

/**
 * The record, read where it can decide the change set (mode auto) or is written (not a dry run); a preview
 * neither reads nor writes it (it shows the pull request's own changes). What was read goes in the report.
 */
export async function recordStage(
  config: IndexConfig,
  context: JobContext,
  report: IndexReport,
): Promise<KnowledgeBaseRecord | undefined> {
  const keeping = config.preview ? undefined : context.record
  if (!keeping || (config.mode !== 'auto' && config.dryRun)) return undefined
  const read = await context.log.group('Recorded state', () =>
    readRecord(keeping, config, context.log, report.notices, context.signal),
  )
  report.record =
    read.kind === 'found' ? { source: 'state', from: read.from } : { source: 'history', why: read.why }
  return read.kind === 'found' ? read.record : undefined
}

/**
 * The change set from the knowledge base's record: every selected file of this shard is compared with
 * what the node holds (no git history needed). With `full-sync`, every selected file is sent and the
 * names the node holds that are not selected are blanked.
 */
export async function changesFromRecord(
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
      `Change set: the knowledge base's record: ${added.length} to upload, ${modified.length} to update, ` +
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

/** What the run needs to record the node: the record it read, and every selected, published document. */
export async function basisOf(
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
