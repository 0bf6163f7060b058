// Unpublished pages (skip-drafts): a markdown or MDX file the site does not publish, by its front matter
// (YAML, TOML or JSON at its very top: `draft`, `published: false`, a future publish date, a past expiry
// date — publication.ts), by a Hugo section's `cascade` (its `_index.md`), or by its place (a Jekyll
// `_drafts` folder). Only the files' beginnings are read; front matter that does not parse is not a
// draft, and is reported so the author can fix it.
import path from 'node:path'
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { SelectedFile } from '../../model.js'
import {
  FrontMatterParsers,
  frontMatterOf,
  mayOpenFrontMatter,
  type FrontMatterText,
} from './front-matter.js'
import { paramsOf, unpublishedBecause, type Params } from './publication.js'
import { readHead } from './read-head.js'

export { frontMatterOf } from './front-matter.js'

/** Front matter longer than this is not looked for: the file is not a draft. */
export const FRONT_MATTER_MAX_BYTES = 64 * 1024

const DRAFT_EXTENSIONS = new Set(['.md', '.markdown', '.mdx'])

/** Jekyll's drafts folder: whatever is in it is not published (at any depth: a site may be in a subfolder). */
const DRAFTS_FOLDER = '_drafts'
export const IN_DRAFTS_FOLDER = `it is in a ${DRAFTS_FOLDER} folder (Jekyll's drafts)`

/** The Hugo section files whose `cascade` a section's pages inherit. */
export const SECTION_FILES = ['_index.md', '_index.markdown']

export interface BadFrontMatter {
  name: string
  /** The parser's first error, one line. */
  why: string
}

export interface DraftScan {
  /** The files that are not published, by name, each with why (a sentence part: "its front matter says …"). */
  drafts: Map<string, string>
  /** Files whose front matter does not parse: not drafts. */
  unparsable: BadFrontMatter[]
}

/** Whether skip-drafts looks at this document's front matter (markdown and MDX). */
export function mayBeDraft(name: string): boolean {
  return DRAFT_EXTENSIONS.has(path.posix.extname(name).toLowerCase())
}

function inDraftsFolder(name: string): boolean {
  return name.split('/').slice(0, -1).includes(DRAFTS_FOLDER)
}

/** A front matter that cannot be parsed until its parser is loaded. */
class NeedsParser {
  constructor(readonly matter: FrontMatterText) {}
}

type Parsed = { params: Params } | { why: string }

/** Looks at one file: adds it to the scan's drafts or unparsable files (loads the parsers at need). */
class DraftReader {
  readonly scan: DraftScan = { drafts: new Map(), unparsable: [] }
  private readonly buffer = Buffer.allocUnsafe(FRONT_MATTER_MAX_BYTES)
  private readonly parsers = new FrontMatterParsers()
  /** The cascade each folder's section file gives its pages, by absolute folder (none: no section file). */
  private readonly cascades = new Map<string, Params | undefined>()

  constructor(private readonly now: Date) {}

  /** Whether the file is a draft; a promise only when a parser must be loaded first. */
  read(file: SelectedFile): boolean | Promise<boolean> {
    const verdict = this.attempt(file)
    if (verdict instanceof NeedsParser)
      return this.parsers.load(verdict.matter.format).then(() => this.read(file))
    return verdict
  }

  private attempt(file: SelectedFile): boolean | NeedsParser {
    if (inDraftsFolder(file.name)) return this.found(file.name, IN_DRAFTS_FOLDER)
    if (!mayBeDraft(file.name)) return false
    const own = this.paramsOfFile(file.path, file.size)
    if (own instanceof NeedsParser) return own
    const cascade = this.cascadeOf(file)
    if (cascade instanceof NeedsParser) return cascade
    if (own !== undefined && 'why' in own) {
      this.scan.unparsable.push({ name: file.name, why: own.why })
      return false
    }
    const params = new Map(own?.params)
    const ownWhy = unpublishedBecause(params, this.now)
    if (ownWhy !== undefined) return this.found(file.name, ownWhy)
    if (cascade.length === 0) return false
    for (const inherited of cascade)
      for (const [key, value] of inherited) if (!params.has(key)) params.set(key, value)
    // The page's own keys first, then each cascade (nearest section first) fills the keys it does not set.
    const why = unpublishedBecause(params, this.now, true)
    return why === undefined ? false : this.found(file.name, why)
  }

  private found(name: string, why: string): true {
    this.scan.drafts.set(name, why)
    return true
  }

  /** The parameters of a file's front matter (undefined: it has none). */
  private paramsOfFile(file: string, size: number): Parsed | NeedsParser | undefined {
    const head = readHead(file, this.buffer, size)
    if (!mayOpenFrontMatter(head)) return undefined
    const matter = frontMatterOf(head.toString('utf8'))
    if (matter === undefined) return undefined
    if (!this.parsers.ready(matter.format)) return new NeedsParser(matter)
    try {
      return { params: paramsOf(this.parsers.parse(matter)) }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      return { why: message.split('\n')[0] }
    }
  }

  /**
   * The cascades a page inherits, nearest section first: the `cascade` of the section file in its folder
   * (a section file's own included, as Hugo does) and in each folder above, up to the workspace.
   */
  private cascadeOf(file: SelectedFile): Params[] | NeedsParser {
    if (!file.path.endsWith(file.name)) return []
    const root = file.path.slice(0, file.path.length - file.name.length)
    const found: Params[] = []
    let folder = path.posix.dirname(file.name)
    for (;;) {
      const where = folder === '.' ? root : root + folder
      let cascade = this.cascades.get(where)
      if (!this.cascades.has(where)) {
        const read = this.sectionCascade(where)
        if (read instanceof NeedsParser) return read
        this.cascades.set(where, (cascade = read))
      }
      if (cascade) found.push(cascade)
      if (folder === '.') return found
      folder = path.posix.dirname(folder)
    }
  }

  /**
   * The cascade of a folder's section file: its `cascade` map, or the entries of a `cascade` list that
   * have no `_target` (a targeted entry is not applied: README, Drafts), nearest entry first.
   */
  private sectionCascade(folder: string): Params | NeedsParser | undefined {
    for (const name of SECTION_FILES) {
      const parsed = this.paramsOfFile(path.join(folder, name), FRONT_MATTER_MAX_BYTES)
      if (parsed instanceof NeedsParser) return parsed
      if (parsed === undefined) continue
      // A section file that does not parse gives no cascade (it is reported when it is selected itself).
      if ('why' in parsed) return undefined
      const value = parsed.params.get('cascade')
      const entries = (Array.isArray(value) ? value : [value]).map(paramsOf).filter((p) => !p.has('_target'))
      const cascade = new Map<string, unknown>()
      for (const entry of entries) for (const [key, v] of entry) if (!cascade.has(key)) cascade.set(key, v)
      return cascade.size > 0 ? cascade : undefined
    }
    return undefined
  }
}

/** The drafts among the selected files, and the files whose front matter does not parse. */
export async function findDrafts(files: readonly SelectedFile[], now = new Date()): Promise<DraftScan> {
  const reader = new DraftReader(now)
  for (const file of files) {
    const verdict = reader.read(file)
    if (verdict instanceof Promise) await verdict
  }
  return reader.scan
}

/**
 * Files looked at between two turns of the event loop (~0.1 ms): answers and requests are not held. At
 * 100,000 documents 8–32 measured alike, 64 a little slower, 256 and 1,024 slower still (bench/README.md).
 */
const FILES_PER_TURN = 16

/**
 * The drafts of batches of files, looked at in batch order in the background, a few files per turn of
 * the event loop: a sync sends its first batches while the later ones are still being looked at (the
 * system calls of 100,000 heads take ~0.5 s of a send's idle time instead of delaying its first request).
 * When a batch is waiting for its answer (the send caught up, as it does with a few thousand files),
 * the files up to it are looked at without giving turns.
 */
export class DraftScanner {
  /** Every draft and unparsable file once all batches have been looked at. */
  readonly done: Promise<DraftScan>
  private readonly reader: DraftReader
  private readonly draftsOf = new Map<number, Set<string>>()
  private scanned = 0
  private readonly waiting = new Map<number, { settle: () => void; fail: (error: unknown) => void }[]>()
  private failure: { error: unknown } | undefined

  constructor(
    private readonly batches: readonly (readonly SelectedFile[])[],
    now = new Date(),
  ) {
    this.reader = new DraftReader(now)
    this.done = this.run()
    this.done.catch(() => undefined)
  }

  /** The drafts of batch `index`, once it has been looked at (none beyond the last batch). */
  async drafts(index: number): Promise<ReadonlySet<string>> {
    if (index >= this.scanned && index < this.batches.length) {
      if (this.failure) throw this.failure.error
      await new Promise<void>((settle, fail) => {
        const waiters = this.waiting.get(index) ?? []
        waiters.push({ settle, fail })
        this.waiting.set(index, waiters)
      })
    }
    return this.draftsOf.get(index) ?? NONE
  }

  private async run(): Promise<DraftScan> {
    let sinceTurn = 0
    try {
      for (const [index, files] of this.batches.entries()) {
        for (const file of files) {
          let draft = this.reader.read(file)
          if (draft instanceof Promise) draft = await draft
          if (draft) {
            const found = this.draftsOf.get(index) ?? new Set<string>()
            found.add(file.name)
            this.draftsOf.set(index, found)
          }
          // A batch waiting for its answer cannot be sent before it: no turn is given until it has it.
          if (++sinceTurn >= FILES_PER_TURN && this.waiting.size === 0) {
            sinceTurn = 0
            await nextTurn()
          }
        }
        this.scanned = index + 1
        for (const waiter of this.waiting.get(index) ?? []) waiter.settle()
        this.waiting.delete(index)
      }
    } catch (error) {
      // A bug must not leave a batch waiting forever: it fails with the error (and its items with it).
      this.failure = { error }
      for (const waiters of this.waiting.values()) for (const waiter of waiters) waiter.fail(error)
      this.waiting.clear()
      throw error
    }
    return this.reader.scan
  }
}

const NONE: ReadonlySet<string> = new Set()
