// The emulator's knowledge bases on disk, one per (flow, org, node):
//   <dataDir>/kb/<flow>/<org>/<node>/index.jsonl     journal: one line per applied change, naming the
//                                                    documents (metadata) and URLs it set
//   <dataDir>/kb/<flow>/<org>/<node>/content/<sha256 of the name>
// Document names may hold any character (newlines, quotes, "/", non-ASCII), so a name is never used as
// a path: the content file is named by the hash of the name. Ids are safe path segments (checked by
// the server with the client's own id rule before they get here).
// Every change is all-or-nothing: the whole request is checked against the index first, then applied,
// with one writer per knowledge base at a time. The index lives in memory; each applied change appends
// one journal line (only the entries it set) before the answer, so a request costs what it changed,
// not the size of the node, and a data directory reopened later replays the journal.
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { appendFile, mkdir, rename, rm } from 'node:fs/promises'
import path from 'node:path'

export interface KnowledgeBaseId {
  flowId: string
  orgId: string
  nodeId: string
}

export interface StoredDocument {
  name: string
  size: number
  sha256: string
  contentType: string
  /** How many times the name was created (POST). */
  created: number
  /** How many times it was replaced (PATCH). */
  updated: number
}

export interface StoredUrl {
  url: string
  created: number
  updated: number
}

/** A received document waiting in a temp file for the request to be accepted. */
export interface ReceivedDocument {
  name: string
  size: number
  sha256: string
  contentType: string
  tempPath: string
}

/** One journal line: the entries one applied change set; replayed in order, a later line wins. */
interface JournalEntry {
  documents?: StoredDocument[]
  urls?: StoredUrl[]
}

interface KnowledgeBase {
  documents: Map<string, StoredDocument>
  urls: Map<string, StoredUrl>
  /** Whether the node's folders exist on disk (made once, before the first change). */
  made: boolean
  /** The journal ends in a line cut short: the next line must start with a line break. */
  torn?: boolean
}

function parseJournalLine(line: string): JournalEntry | undefined {
  if (line === '') return undefined
  try {
    return JSON.parse(line) as JournalEntry
  } catch {
    return undefined
  }
}

export type ChangeResult =
  { ok: true; names: string[] } | { ok: false; reason: 'exists' | 'missing'; names: string[] }

export type ChangeMode = 'create' | 'update'

export function contentFileName(name: string): string {
  return createHash('sha256').update(name, 'utf8').digest('hex')
}

export class EmulatorStore {
  private readonly cache = new Map<string, KnowledgeBase>()
  private readonly locks = new Map<string, Promise<unknown>>()

  /**
   * `beforeChange` runs inside the knowledge base's turn, once a change is accepted and before it is
   * applied: it sees the knowledge base exactly as the change found it.
   */
  constructor(
    readonly dataDir: string,
    private readonly beforeChange?: (id: KnowledgeBaseId) => Promise<void>,
  ) {}

  /** Where received uploads wait; same filesystem as the store, so accepting one is a rename. */
  get tempDir(): string {
    return path.join(this.dataDir, 'tmp')
  }

  private kbDir(id: KnowledgeBaseId): string {
    return path.join(this.dataDir, 'kb', id.flowId, id.orgId, id.nodeId)
  }

  private load(id: KnowledgeBaseId): KnowledgeBase {
    const key = this.kbDir(id)
    const cached = this.cache.get(key)
    if (cached) return cached
    const kb: KnowledgeBase = { documents: new Map(), urls: new Map(), made: false }
    const journal = path.join(key, 'index.jsonl')
    if (existsSync(journal)) {
      kb.made = true
      const text = readFileSync(journal, 'utf8')
      // A line cut short by a crash mid-append was never answered as applied: it is skipped, and the next
      // line starts on a line of its own.
      kb.torn = text !== '' && !text.endsWith('\n')
      for (const line of text.split('\n')) {
        const entry = parseJournalLine(line)
        for (const document of entry?.documents ?? []) kb.documents.set(document.name, document)
        for (const url of entry?.urls ?? []) kb.urls.set(url.url, url)
      }
    }
    this.cache.set(key, kb)
    return kb
  }

  private async makeFolders(id: KnowledgeBaseId, kb: KnowledgeBase): Promise<void> {
    if (kb.made) return
    await mkdir(path.join(this.kbDir(id), 'content'), { recursive: true })
    kb.made = true
  }

  /** Durable before the caller answers: the change is applied only once its line is written. */
  private async record(id: KnowledgeBaseId, kb: KnowledgeBase, entry: JournalEntry): Promise<void> {
    const line = `${kb.torn ? '\n' : ''}${JSON.stringify(entry)}\n`
    await appendFile(path.join(this.kbDir(id), 'index.jsonl'), line)
    kb.torn = false
  }

  private async exclusive<T>(id: KnowledgeBaseId, work: () => Promise<T>): Promise<T> {
    const key = this.kbDir(id)
    const previous = this.locks.get(key) ?? Promise.resolve()
    const next = previous.then(work, work)
    const settled = next.catch(() => undefined)
    this.locks.set(key, settled)
    try {
      return await next
    } finally {
      if (this.locks.get(key) === settled) this.locks.delete(key)
    }
  }

  documents(id: KnowledgeBaseId): StoredDocument[] {
    return [...this.load(id).documents.values()]
      .map((document) => ({ ...document }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  }

  urls(id: KnowledgeBaseId): string[] {
    return [...this.load(id).urls.keys()].sort()
  }

  contentPath(id: KnowledgeBaseId, name: string): string {
    return path.join(this.kbDir(id), 'content', contentFileName(name))
  }

  /** Node ids with a knowledge base under (flow, org), sorted. */
  nodeIds(flowId: string, orgId: string): string[] {
    const dir = path.join(this.dataDir, 'kb', flowId, orgId)
    if (!existsSync(dir)) return []
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort()
  }

  /**
   * Creates (POST) or replaces (PATCH) documents, all or none: a create of an existing name or an
   * update of a missing one changes nothing and names the offenders. Temp files of a refused request
   * are left to the caller.
   */
  changeDocuments(
    id: KnowledgeBaseId,
    mode: ChangeMode,
    received: ReceivedDocument[],
  ): Promise<ChangeResult> {
    return this.exclusive(id, async () => {
      const kb = this.load(id)
      const conflict = conflicts(
        kb.documents,
        mode,
        received.map((document) => document.name),
      )
      if (conflict) return conflict
      await this.beforeChange?.(id)
      await this.makeFolders(id, kb)
      const changed: StoredDocument[] = []
      for (const document of received) {
        await rename(document.tempPath, this.contentPath(id, document.name))
        const before = kb.documents.get(document.name)
        changed.push({
          name: document.name,
          size: document.size,
          sha256: document.sha256,
          contentType: document.contentType,
          created: (before?.created ?? 0) + (mode === 'create' ? 1 : 0),
          updated: (before?.updated ?? 0) + (mode === 'update' ? 1 : 0),
        })
      }
      await this.record(id, kb, { documents: changed })
      for (const document of changed) kb.documents.set(document.name, document)
      return { ok: true, names: received.map((document) => document.name) }
    })
  }

  /** Adds (POST) or refreshes (PATCH) URLs, all or none, like documents. */
  changeUrls(id: KnowledgeBaseId, mode: ChangeMode, urls: string[]): Promise<ChangeResult> {
    return this.exclusive(id, async () => {
      const kb = this.load(id)
      const conflict = conflicts(kb.urls, mode, urls)
      if (conflict) return conflict
      await this.beforeChange?.(id)
      await this.makeFolders(id, kb)
      const changed: StoredUrl[] = urls.map((url) => {
        const before = kb.urls.get(url)
        return {
          url,
          created: (before?.created ?? 0) + (mode === 'create' ? 1 : 0),
          updated: (before?.updated ?? 0) + (mode === 'update' ? 1 : 0),
        }
      })
      await this.record(id, kb, { urls: changed })
      for (const entry of changed) kb.urls.set(entry.url, entry)
      return { ok: true, names: urls }
    })
  }

  async discard(received: ReceivedDocument[]): Promise<void> {
    await Promise.all(received.map((document) => rm(document.tempPath, { force: true })))
  }
}

function conflicts(
  existing: Map<string, unknown>,
  mode: ChangeMode,
  keys: string[],
): ChangeResult | undefined {
  if (mode === 'create') {
    const taken = keys.filter((key) => existing.has(key))
    return taken.length > 0 ? { ok: false, reason: 'exists', names: taken } : undefined
  }
  const missing = keys.filter((key) => !existing.has(key))
  return missing.length > 0 ? { ok: false, reason: 'missing', names: missing } : undefined
}
