// The items of a plan and the units they are sent in: one record per document or URL from the send to
// the report, and the batch of them one request carries.
import { displayName } from '../log.js'
import type { Batch, ItemOutcome, Operation, Outcome, SelectedFile } from '../model.js'

/**
 * One document or URL of the plan, how far it got, and once it ended its outcome: the record the report
 * gets (one object per item from the send to the report, not one while sending and another after). The
 * file is private so that the outcome, spread or written as JSON, shows only what ItemOutcome holds.
 * `kind`, `name` and a document's `size` are read from what the item is about, through getters shared by
 * every item of a kind (own and enumerable, so a copy and JSON have them): 24 bytes less a document
 * (bench/README.md).
 */
export class Item {
  declare readonly kind: ItemOutcome['kind']
  declare readonly name: string
  // Declared, not defined as fields (which come before the constructor's body): the constructor makes
  // every property in the order a plain outcome has them.
  declare outcome: Outcome | undefined
  /** The operation planned, then the one that decided the outcome. */
  declare operation: Operation
  declare attempts: number
  /** Set only on items sent again after a failure (ItemOutcome.retries): one property less on the others. */
  declare retries?: number
  /** Documents: the file as last seen on disk (re-read before every resend); its size is the item's. */
  declare readonly size?: number
  declare error?: string
  declare absent?: boolean
  /** The file of a document, the address of a URL. */
  #about: SelectedFile | string

  // One descriptor object per property, given to defineProperty one by one: V8 then finds the shape it
  // made for the first item (~0.4 µs an item for the three), where defineProperties takes a slow path (~1 µs).
  static readonly #DOCUMENT: PropertyDescriptor = { get: (): 'document' => 'document', enumerable: true }
  static readonly #URL: PropertyDescriptor = { get: (): 'url' => 'url', enumerable: true }
  static readonly #NAME: PropertyDescriptor = {
    get(this: Item): string {
      const about = this.#about
      return typeof about === 'string' ? about : about.name
    },
    enumerable: true,
  }
  static readonly #SIZE: PropertyDescriptor = {
    get(this: Item): number {
      return (this.#about as SelectedFile).size
    },
    enumerable: true,
  }

  constructor(about: SelectedFile | string, operation: Operation) {
    this.#about = about
    const url = typeof about === 'string'
    Object.defineProperty(this, 'kind', url ? Item.#URL : Item.#DOCUMENT)
    Object.defineProperty(this, 'name', Item.#NAME)
    this.outcome = undefined
    this.operation = operation
    this.attempts = 0
    if (!url) Object.defineProperty(this, 'size', Item.#SIZE)
  }

  /** Documents: the file as last seen on disk (re-read before every resend). */
  get file(): SelectedFile | undefined {
    return typeof this.#about === 'string' ? undefined : this.#about
  }

  set file(file: SelectedFile) {
    this.#about = file
  }

  /** Records how the item ended (a document's size is its file's as last seen). */
  end(outcome: Outcome, operation: Operation, details: { error?: string; absent?: boolean } = {}): void {
    this.outcome = outcome
    this.operation = operation
    if (details.error !== undefined) this.error = details.error
    if (details.absent) this.absent = true
  }
}

/** The items, every one of which has ended, as the outcomes they are. */
export function outcomesOf(items: Item[]): ItemOutcome[] {
  for (const item of items) if (item.outcome === undefined) throw new Error(`${item.name} has no outcome`)
  return items as ItemOutcome[]
}

/** Items sent together in one request, and how they are meant to be sent. */
export interface Unit {
  kind: Batch['kind']
  items: Item[]
  operation: Operation
  /** 404 on update → upload, 409 on upload → update. */
  upsert: boolean
  /** Whether the items are in the node is unknown: the first request follows what the node answered so far. */
  stateUnknown?: boolean
  /** Part of a failed unit being searched (UnitState.searching). */
  searching?: boolean
  /** Switches already made (an odd item found by the search starts with the other operation: 1). */
  switches?: number
  /** Told once whether the unit's items landed with `operation` on its first answer (the search's probe). */
  onFirstAnswer?: (landed: boolean) => void
  /** Told once the unit first got its turn to open its files, or ended before: the next batch may start. */
  onAdmitted?: () => void
  /** Placeholders of removed documents: a success is `removed`, and 404 means the document is not there. */
  placeholders?: boolean
  /** Its first request sends again what a failed request sent (each document alone after file changes). */
  resend?: boolean
}

export function documentsOf(items: Item[]): { name: string; path: string; size: number }[] {
  return items.map((item) => ({ name: item.name, path: item.file!.path, size: item.file!.size }))
}

export function unitOf(batch: Batch): Unit {
  const items: Item[] =
    batch.kind === 'documents'
      ? batch.documents.map((file) => new Item(file, batch.operation))
      : batch.urls.map((url) => new Item(url, batch.operation))
  return {
    kind: batch.kind,
    items,
    operation: batch.operation,
    upsert: batch.fallback,
    stateUnknown: batch.stateUnknown ?? false,
    ...(batch.kind === 'documents' && batch.placeholders ? { placeholders: true } : {}),
  }
}

export function kindWord(kind: Unit['kind']): string {
  return kind === 'documents' ? 'document' : 'URL'
}

export function describe(kind: Unit['kind'], items: Item[]): string {
  if (items.length === 1) return `${kindWord(kind)} ${displayName(items[0].name)}`
  return `batch of ${items.length} ${kindWord(kind)}s (${displayName(items[0].name)}, …)`
}
