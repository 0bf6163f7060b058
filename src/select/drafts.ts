// Drafts (skip-drafts): a markdown or MDX file whose front matter — YAML between `---` lines at its very
// top — says `draft: true` is not published. Only the file's beginning is read; front matter that does
// not parse is not a draft, and is reported so the author can fix it.
import path from 'node:path'
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { SelectedFile } from '../model.js'
import { readHead } from './read-head.js'

/** Front matter longer than this is not looked for: the file is not a draft. */
export const FRONT_MATTER_MAX_BYTES = 64 * 1024

const DRAFT_EXTENSIONS = new Set(['.md', '.markdown', '.mdx'])

export interface BadFrontMatter {
  name: string
  /** The YAML parser's first error, one line. */
  why: string
}

export interface DraftScan {
  /** Names of the files that are drafts. */
  drafts: Set<string>
  /** Files whose front matter does not parse: not drafts. */
  unparsable: BadFrontMatter[]
}

/** Whether skip-drafts looks at this document (markdown and MDX). */
export function mayBeDraft(name: string): boolean {
  return DRAFT_EXTENSIONS.has(path.posix.extname(name).toLowerCase())
}

/** The YAML text of the front matter at the top of `text`, or undefined when it has none. */
export function frontMatterOf(text: string): string | undefined {
  const body = text.startsWith('\ufeff') ? text.slice(1) : text
  const opening = /^---[ \t]*\r?\n/.exec(body)
  if (!opening) return undefined
  const rest = body.slice(opening[0].length)
  // The closing line: `---` (or YAML's document end `...`), alone on its line.
  const closing = /^(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/m.exec(rest)
  return closing ? rest.slice(0, closing.index) : undefined
}

const DASHES = Buffer.from('---')
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf])

/** What front matter starts with: most documents have none, and are not decoded at all. */
function opensWithDashes(head: Buffer): boolean {
  const start = head.subarray(0, UTF8_BOM.length).equals(UTF8_BOM) ? UTF8_BOM.length : 0
  return head.subarray(start, start + DASHES.length).equals(DASHES)
}

type ParseYaml = (typeof import('yaml'))['parse']

/** Whether the front matter says `draft: true`; throws the YAML parser's error when it does not parse. */
function isDraftFrontMatter(yaml: string, parse: ParseYaml): boolean {
  const data: unknown = parse(yaml)
  return typeof data === 'object' && data !== null && (data as Record<string, unknown>).draft === true
}

/** Looks at one file: adds it to the scan's drafts or unparsable files (loads the YAML parser at need). */
class DraftReader {
  readonly scan: DraftScan = { drafts: new Set(), unparsable: [] }
  private readonly buffer = Buffer.allocUnsafe(FRONT_MATTER_MAX_BYTES)
  private parse: ParseYaml | undefined

  /** Whether the file is a draft; a promise only when the YAML parser must be loaded first. */
  read(file: SelectedFile): boolean | Promise<boolean> {
    if (!mayBeDraft(file.name)) return false
    const head = readHead(file.path, this.buffer, file.size)
    if (!opensWithDashes(head)) return false
    const yaml = frontMatterOf(head.toString('utf8'))
    if (yaml === undefined) return false
    // The YAML parser (~290 KB, its own chunk in the bundles) is loaded at the first front matter: most
    // syncs have none, and kept in the action's main file it would be compiled at every start.
    if (this.parse === undefined)
      return import('yaml').then(({ parse }) => {
        this.parse = parse
        return this.judge(file.name, yaml, parse)
      })
    return this.judge(file.name, yaml, this.parse)
  }

  private judge(name: string, yaml: string, parse: ParseYaml): boolean {
    try {
      if (!isDraftFrontMatter(yaml, parse)) return false
      this.scan.drafts.add(name)
      return true
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      this.scan.unparsable.push({ name, why: message.split('\n')[0] })
      return false
    }
  }
}

/** The drafts among the selected files, and the files whose front matter does not parse. */
export async function findDrafts(files: readonly SelectedFile[]): Promise<DraftScan> {
  const reader = new DraftReader()
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
  private readonly reader = new DraftReader()
  private readonly draftsOf = new Map<number, Set<string>>()
  private scanned = 0
  private readonly waiting = new Map<number, { settle: () => void; fail: (error: unknown) => void }[]>()
  private failure: { error: unknown } | undefined

  constructor(private readonly batches: readonly (readonly SelectedFile[])[]) {
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
