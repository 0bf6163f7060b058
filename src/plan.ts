// Config + selection + change set → batches of operations. Pure: no I/O, so every decision about what
// is sent how is unit-tested without a server.
import type {
  Batch,
  ChangeDecision,
  FileSelection,
  ItemOutcome,
  Mode,
  Operation,
  Plan,
  PlannedOperation,
  SelectedFile,
  SkippedItem,
} from './model.js'

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

  let skipped: SkippedItem[] = input.selection.skipped
  let removed: string[] = []
  let fileIntents: { files: SelectedFile[]; intent: Intent }[]

  if (changes.kind === 'none') {
    fileIntents = []
    skipped = []
  } else if (changes.kind === 'all') {
    fileIntents = [{ files: input.selection.files, intent: modeIntent }]
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
    removed = [...new Set(changes.removed)].sort(compareNames)
    fileIntents = [
      {
        files: input.selection.files.filter((f) => added.has(f.name)),
        intent: { operation: 'upload', fallback: true },
      },
      {
        files: input.selection.files.filter((f) => !added.has(f.name) && modified.has(f.name)),
        intent: { operation: 'update', fallback: true },
      },
      {
        files: input.selection.files.filter(
          (f) => !added.has(f.name) && !modified.has(f.name) && inUnknown(f.name),
        ),
        intent: UPSERT,
      },
    ]
  }

  const batches: Batch[] = []
  const refused: ItemOutcome[] = []
  for (const { files, intent } of fileIntents) {
    const sendable = files.filter((file) => {
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
  return { batches, skipped, removed, refused }
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
}

/** What a plan shows for an item: `upsert` when its state is unknown, else the operation sent first. */
export function plannedOperation(item: Pick<PlannedItem, 'operation' | 'stateUnknown'>): PlannedOperation {
  return item.stateUnknown ? 'upsert' : item.operation
}

/** How a planned item whose state the plan believes changes when the node answers otherwise. */
export function fallbackNote(item: Pick<PlannedItem, 'operation' | 'fallback' | 'stateUnknown'>): string {
  if (!item.fallback || item.stateUnknown) return ''
  return item.operation === 'upload' ? ' (409 → update)' : ' (404 → upload)'
}

/** How many planned items show each operation. */
export function plannedCounts(items: PlannedItem[]): Record<PlannedOperation, number> {
  const counts: Record<PlannedOperation, number> = { upload: 0, update: 0, upsert: 0 }
  for (const item of items) counts[plannedOperation(item)]++
  return counts
}

/** Everything the plan will send, for counting and for the dry-run listing. */
export function plannedItems(plan: Plan): PlannedItem[] {
  return plan.batches.flatMap<PlannedItem>((batch) =>
    batch.kind === 'documents'
      ? batch.documents.map((d) => ({
          kind: 'document',
          name: d.name,
          operation: batch.operation,
          fallback: batch.fallback,
          ...(batch.stateUnknown ? { stateUnknown: true } : {}),
          size: d.size,
        }))
      : batch.urls.map((u) => ({
          kind: 'url',
          name: u,
          operation: batch.operation,
          fallback: batch.fallback,
          ...(batch.stateUnknown ? { stateUnknown: true } : {}),
        })),
  )
}
