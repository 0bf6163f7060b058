// Config + selection + change set → batches of operations. Pure: no I/O, so every decision about what
// is sent how is unit-tested without a server.
import type {
  Batch,
  ChangeDecision,
  FileSelection,
  ItemOutcome,
  LeftDocument,
  Mode,
  Operation,
  PlaceholderDocument,
  Plan,
  PlannedOperation,
  RemovedPolicy,
  SelectedFile,
  SkippedItem,
} from './model.js'
import { placeholderFor } from './placeholders.js'

/** A request stays under this many bytes of file content unless one file alone is larger. */
export const MAX_BATCH_BYTES = 32 * 1024 * 1024

export interface PlanInput {
  selection: FileSelection
  urls: string[]
  mode: Mode
  /** What a push changed; `{kind: 'all'}` for every other event and for `mode: upload|update`. */
  changes: ChangeDecision
  batchSize: number
  maxBatchBytes?: number
  /**
   * Selected documents that must not be sent as they are on disk (e.g. Git LFS pointers), by name, with
   * the cause they fail with: they get the operation they were planned for, and no batch.
   */
  refused?: ReadonlyMap<string, string>
  /** What happens to removed documents (default tombstone: a placeholder replaces each). */
  removed?: RemovedPolicy
  /** The commit the removals are synced at, named in each placeholder (undefined: not named). */
  removedBy?: string
  /**
   * Selected files the site does not publish (skip-drafts), by name, each with why: skipped, and one a
   * push changed (published before) is blanked like a removed one.
   */
  drafts?: ReadonlyMap<string, string>
}

/** The skip detail of a file the site does not publish, from why (select/document/drafts.ts). */
export function draftDetail(why: string): string {
  return `${why}, so the site does not publish it; not sent (skip-drafts).`
}

interface Intent {
  operation: Operation
  fallback: boolean
  stateUnknown?: boolean
}

/** `upload`/`update` send what they say; `auto` syncs everything by upsert (update first, 404 → upload). */
function intentForMode(mode: Mode): Intent {
  if (mode === 'upload') return { operation: 'upload', fallback: false }
  if (mode === 'update') return { operation: 'update', fallback: false }
  return UPSERT
}

/** Whether the item is in the node is unknown: update or upload, whichever the node's answers call for. */
const UPSERT: Intent = { operation: 'update', fallback: true, stateUnknown: true }

export function planSync(input: PlanInput): Plan {
  const maxBatchBytes = input.maxBatchBytes ?? MAX_BATCH_BYTES
  const modeIntent = intentForMode(input.mode)
  const changes = input.mode === 'auto' ? input.changes : ({ kind: 'all' } as const)

  const drafts = input.drafts ?? new Map<string, string>()
  const isDraft = (file: SelectedFile) => drafts.has(file.name)
  const draftSkips = (files: readonly SelectedFile[]) => draftSkipsOf(files, drafts)
  let skipped: SkippedItem[] = input.selection.skipped
  let removed: string[] = []
  let fileIntents: { files: SelectedFile[]; intent: Intent }[]

  if (changes.kind === 'none') {
    fileIntents = []
    skipped = []
  } else if (changes.kind === 'all') {
    skipped = [...skipped, ...draftSkips(input.selection.files)]
    fileIntents = [{ files: input.selection.files, intent: modeIntent }]
    // Known removals (a push's own) are blanked; a name selected again is sent, not blanked.
    const known = 'removed' in changes ? (changes.removed ?? []) : []
    if (known.length > 0) {
      const selected = new Set(input.selection.files.map((file) => file.name))
      removed = known.filter((name) => !selected.has(name)).sort(compareNames)
    }
  } else {
    // Only what the push changed: added → upload (409 → update), modified → update (404 → upload).
    // Below a folder whose changes are unknown, every file is sent like a modified one: by upsert.
    const added = new Set(changes.added)
    const modified = new Set(changes.modified)
    const inUnknown = inFolders(changes.everythingUnder ?? [])
    const undecodable = new Set((changes.undecodable ?? []).map((name) => name.shown))
    const changed = (name: string) => added.has(name) || modified.has(name) || inUnknown(name)
    skipped = skipped.filter(
      (item) => item.kind === 'url' || changed(item.name) || undecodable.has(item.name),
    )
    const addedFiles = input.selection.files.filter((f) => added.has(f.name))
    const changedFiles = input.selection.files.filter(
      (f) => !added.has(f.name) && (modified.has(f.name) || inUnknown(f.name)),
    )
    // A modified file that is a draft now was published before: its old content must stop answering.
    // Below a folder whose changes are unknown nothing says it changed: it is skipped like an added one.
    const unpublished = changedFiles.filter((f) => isDraft(f) && modified.has(f.name))
    skipped = [
      ...skipped,
      ...draftSkips([...addedFiles, ...changedFiles.filter((f) => !modified.has(f.name))]),
    ]
    removed = [...new Set([...changes.removed, ...unpublished.map((f) => f.name)])].sort(compareNames)
    // A present file removed from the node (a staging node's file that is no longer a document of the
    // checkout) ends in one output list, `removed` or `left`, not in `skipped` too.
    if (removed.length > 0) {
      const removing = new Set(removed)
      skipped = skipped.filter((item) => item.kind === 'url' || !removing.has(item.name))
    }
    fileIntents = [
      { files: addedFiles, intent: { operation: 'upload', fallback: true } },
      {
        files: changedFiles.filter((f) => modified.has(f.name)),
        intent: { operation: 'update', fallback: true },
      },
      // Below a folder whose changes are unknown: whether they are in the node is unknown too.
      { files: changedFiles.filter((f) => !modified.has(f.name)), intent: UPSERT },
    ]
  }
  const { placeholders, left } = removals(removed, input.removed ?? 'tombstone', input.removedBy)

  const batches: Batch[] = []
  const refused: ItemOutcome[] = []
  for (const { files, intent } of fileIntents) {
    // Without refused files (no Git LFS pointers), the files as they are: no copy of 100,000 of them.
    const sendable = !input.refused?.size
      ? files
      : files.filter((file) => {
          const cause = input.refused?.get(file.name)
          if (cause === undefined) return true
          refused.push({
            kind: 'document',
            name: file.name,
            outcome: 'failed',
            operation: intent.operation,
            attempts: 0,
            size: file.size,
            error: cause,
          })
          return false
        })
    for (const chunk of chunkFiles(sendable, input.batchSize, maxBatchBytes)) {
      batches.push({ kind: 'documents', ...intent, documents: chunk, bytes: totalBytes(chunk) })
    }
  }
  // URLs are not files of the push: websites change outside the repository, so they are synced on
  // every run that lists them.
  const urls = changes.kind === 'none' ? [] : input.urls
  for (let i = 0; i < urls.length; i += input.batchSize) {
    batches.push({ kind: 'urls', ...modeIntent, urls: urls.slice(i, i + input.batchSize) })
  }
  // Drafts leave their batches after chunking: a full sync finds them while its first batches are
  // already being sent (DraftScanner in select/document/drafts.ts), and the batches it sends are the ones a dry
  // run shows.
  const sent = drafts.size > 0 ? withoutDocuments(batches, drafts) : batches
  return { batches: sent, skipped, placeholders, left, refused }
}

function draftSkipsOf(files: readonly SelectedFile[], drafts: ReadonlyMap<string, string>): SkippedItem[] {
  return files
    .filter((file) => drafts.has(file.name))
    .map((file) => ({
      kind: 'document',
      name: file.name,
      reason: 'draft',
      detail: draftDetail(drafts.get(file.name)!),
    }))
}

/**
 * The plan of a sync of every selected file (changes `all`, or mode upload/update), planned without its
 * drafts, once they are known: what planSync gives with them (each skipped, then taken out of its batch),
 * made from that plan instead of planning again (the same plan when there are none).
 */
export function withDraftsFound(
  plan: Plan,
  selection: FileSelection,
  drafts: ReadonlyMap<string, string>,
): Plan {
  if (drafts.size === 0) return plan
  return {
    ...plan,
    skipped: [...plan.skipped, ...draftSkipsOf(selection.files, drafts)],
    batches: withoutDocuments(plan.batches, drafts),
  }
}

/**
 * The batches without the named documents: each keeps its other documents (one fewer in a batch that
 * held a draft), and a batch left empty is not sent.
 */
export function withoutDocuments(
  batches: readonly Batch[],
  names: Pick<ReadonlySet<string>, 'has'>,
): Batch[] {
  const kept: Batch[] = []
  for (const batch of batches) {
    if (batch.kind !== 'documents' || !batch.documents.some((file) => names.has(file.name))) {
      kept.push(batch)
      continue
    }
    const documents = batch.documents.filter((file) => !names.has(file.name))
    if (documents.length > 0) kept.push({ ...batch, documents, bytes: totalBytes(documents) })
  }
  return kept
}

/** Each removed name blanked by a placeholder of its format, or left (keep, or no placeholder fits). */
function removals(
  names: string[],
  policy: RemovedPolicy,
  commit: string | undefined,
): { placeholders: PlaceholderDocument[]; left: LeftDocument[] } {
  const placeholders: PlaceholderDocument[] = []
  const left: LeftDocument[] = []
  for (const name of names) {
    const content = policy === 'tombstone' ? placeholderFor(name, commit) : undefined
    if (content !== undefined) placeholders.push({ name, content })
    else left.push({ name, reason: policy === 'keep' ? 'keep' : 'format' })
  }
  return { placeholders, left }
}

/** The placeholders, written to disk as `files` (in plan order), as PATCH batches where 404 is success. */
export function placeholderBatches(
  files: SelectedFile[],
  batchSize: number,
  maxBatchBytes = MAX_BATCH_BYTES,
): Batch[] {
  return chunkFiles(files, batchSize, maxBatchBytes).map((chunk) => ({
    kind: 'documents',
    operation: 'update',
    fallback: false,
    documents: chunk,
    bytes: totalBytes(chunk),
    placeholders: true,
  }))
}

/** Whether a document name lies below one of the folders ('' is the whole workspace). */
export function inFolders(folders: string[]): (name: string) => boolean {
  if (folders.includes('')) return () => true
  const prefixes = folders.map((folder) => `${folder}/`)
  return (name) => prefixes.some((prefix) => name.startsWith(prefix))
}

/** Consecutive chunks of at most `batchSize` files and `maxBytes` bytes; a larger file goes alone. */
export function chunkFiles(files: SelectedFile[], batchSize: number, maxBytes: number): SelectedFile[][] {
  const chunks: SelectedFile[][] = []
  let current: SelectedFile[] = []
  let bytes = 0
  for (const file of files) {
    const full = current.length >= batchSize || (current.length > 0 && bytes + file.size > maxBytes)
    if (full) {
      chunks.push(current)
      current = []
      bytes = 0
    }
    current.push(file)
    bytes += file.size
  }
  if (current.length > 0) chunks.push(current)
  return chunks
}

function totalBytes(files: SelectedFile[]): number {
  return files.reduce((sum, file) => sum + file.size, 0)
}

/** Code-unit order: the same on every machine and locale. */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

export interface PlannedItem {
  kind: 'document' | 'url'
  name: string
  operation: Operation
  fallback: boolean
  /** Whether it is in the node is unknown: shown as `upsert` (plannedOperation). */
  stateUnknown?: boolean
  size?: number
  /** A placeholder that blanks a removed document (sent by PATCH; 404 means it is not there). */
  removal?: boolean
}

/** What a plan shows for an item: `remove` for a placeholder, `upsert` when its state is unknown, else the operation sent first. */
export function plannedOperation(
  item: Pick<PlannedItem, 'operation' | 'stateUnknown' | 'removal'>,
): PlannedOperation {
  if (item.removal) return 'remove'
  return item.stateUnknown ? 'upsert' : item.operation
}

/** How a planned item whose state the plan believes changes when the node answers otherwise. */
export function fallbackNote(item: Pick<PlannedItem, 'operation' | 'fallback' | 'stateUnknown'>): string {
  if (!item.fallback || item.stateUnknown) return ''
  return item.operation === 'upload' ? ' (409 → update)' : ' (404 → upload)'
}

/** How many planned items show each operation. */
export function plannedCounts(items: Iterable<PlannedItem>): Record<PlannedOperation, number> {
  const counts: Record<PlannedOperation, number> = { upload: 0, update: 0, upsert: 0, remove: 0 }
  for (const item of items) counts[plannedOperation(item)]++
  return counts
}

/**
 * The planned items, each made when it is listed. The plan's batches already hold every selected file;
 * a list of copies (one object per document, ~7 MB at 100,000) would be a second record of each.
 */
export interface PlannedItems extends Iterable<PlannedItem> {
  readonly length: number
}

/** Everything the plan will send, for counting and for the dry-run listing; placeholders last. */
export function plannedItems(plan: Plan): PlannedItems {
  let length = plan.placeholders.length
  for (const batch of plan.batches)
    length += batch.kind === 'documents' ? batch.documents.length : batch.urls.length
  return { length, [Symbol.iterator]: () => eachPlanned(plan) }
}

function* eachPlanned(plan: Plan): Generator<PlannedItem> {
  for (const batch of plan.batches) {
    const { operation, fallback } = batch
    if (batch.kind === 'documents')
      for (const d of batch.documents)
        yield batch.stateUnknown
          ? { kind: 'document', name: d.name, operation, fallback, stateUnknown: true, size: d.size }
          : { kind: 'document', name: d.name, operation, fallback, size: d.size }
    else
      for (const u of batch.urls)
        yield batch.stateUnknown
          ? { kind: 'url', name: u, operation, fallback, stateUnknown: true }
          : { kind: 'url', name: u, operation, fallback }
  }
  for (const placeholder of plan.placeholders)
    yield {
      kind: 'document',
      name: placeholder.name,
      operation: 'update',
      fallback: false,
      size: Buffer.byteLength(placeholder.content),
      removal: true,
    }
}
