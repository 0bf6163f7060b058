// The knowledge base's record: what one node (or one shard of it) holds after a run, written by the run
// that wrote the node and read by the next one, so that its change set is what the checkout selects
// minus what the node holds, instead of a guess from git history. It holds names and ids, never content,
// keys, tokens or URLs' credentials.
import { createHash } from 'node:crypto'
import type { IndexTarget } from '../model.js'

/** The record's format; a record of another version is not used (the run falls back, and writes this one). */
export const RECORD_VERSION = 1

/** A document that holds a removed or unpublished document's placeholder. */
export const PLACEHOLDER = 'placeholder'
/**
 * A document whose content in the node is not known: a request for it was sent (or was about to be) and
 * its answer is not known, or it failed. The next run sends it again (or blanks it).
 */
export const UNKNOWN = 'unknown'

/** A document's content id (git's blob id: 40 or 64 hex digits), or one of the two marks. */
export type HeldContent = string

export interface RecordTarget extends IndexTarget {
  /** The service root's host (and port): another service is another node. */
  host: string
  /** `shard: I/N`: the record covers exactly the names of this part. */
  shard?: { index: number; count: number }
}

/** The run that wrote the record (what a runner knows; the CLI fills what it can). */
export interface RecordWriter {
  /** ISO time the record was written. */
  at: string
  repository?: string
  workflow?: string
  runId?: number
  runAttempt?: number
  runNumber?: number
  event?: string
  commit?: string
  pullRequest?: number
}

/** A URL the node holds: when it was last sent, and the sitemap `lastmod` it had then (ISO). */
export interface HeldUrl {
  sentAt: string
  lastmod?: string
}

export interface KnowledgeBaseRecord {
  version: typeof RECORD_VERSION
  /**
   * `pending`: written before the run's first request (every name it may write is UNKNOWN); `final`:
   * what the node holds after the run, also when it failed or was cancelled.
   */
  phase: 'pending' | 'final'
  target: RecordTarget
  writtenBy: RecordWriter
  /**
   * The settings that shape the selection, each as a short hash of its value (files, urls, sitemaps,
   * url-include, url-exclude, include-hidden-files, max-file-size, follow-symlinks, skip-drafts, removed,
   * shard): which ones changed since the record can be named without storing their values.
   */
  settings: Record<string, string>
  /** Every document name the node holds → its content id, PLACEHOLDER or UNKNOWN. */
  documents: Record<string, HeldContent>
  /** Every URL the node holds (credentials never stored) → when it was sent. */
  urls: Record<string, HeldUrl>
}

/**
 * The record's key: one per target and shard, the same on every runner and branch, safe as an artifact
 * name and a file name (no id of the target is shown: they are not secret, but a key need not say them).
 */
export function recordKeyOf(target: RecordTarget): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([target.host.toLowerCase(), target.flowId, target.orgId, target.nodeId]))
    .digest('hex')
    .slice(0, 16)
  const shard =
    target.shard && target.shard.count > 1 ? `-shard-${target.shard.index}-of-${target.shard.count}` : ''
  return `kb-sync-state-${digest}${shard}`
}

/** What reading a record found. */
export type RecordRead =
  | {
      kind: 'found'
      record: KnowledgeBaseRecord
      /** e.g. "artifact kb-sync-… of run #12", or a path */ from: string
    }
  /** No record exists: the first run with this version, an expired artifact, a new --state-file. */
  | { kind: 'missing'; why: string }
  /** A record exists or may exist but cannot be used: garbled, too large, another target, no permission, a hung service. */
  | { kind: 'unusable'; why: string }

/** What writing a record did: a failure is a warning of the run, never its failure. */
export type RecordWrite = { ok: true; where: string } | { ok: false; why: string }

/** Where records are kept: GitHub Actions artifacts on a runner, a file for the CLI. */
export interface RecordStore {
  /** How the summary names the store ("GitHub Actions artifact", "file state.json.gz"). */
  readonly description: string
  /** The newest record of the target (and shard); never throws but for the run's cancellation. */
  read(target: RecordTarget, signal?: AbortSignal): Promise<RecordRead>
  /**
   * Writes the record (pending or final). Never throws but for the run's cancellation. A store may be
   * written twice in a run (pending, then final): the later write is what the next read finds.
   */
  write(record: KnowledgeBaseRecord, signal?: AbortSignal): Promise<RecordWrite>
}

/** What reading a stored record's bytes found (a store of bytes; state/stores.ts turns them into records). */
export type StoredBytes =
  | { kind: 'found'; bytes: Buffer; from: string }
  | { kind: 'missing'; why: string }
  | { kind: 'unusable'; why: string }

/**
 * Where the encoded records are kept, by key (recordKeyOf). Never throws but for the run's cancellation:
 * every other failure is `unusable` (read) or `{ok: false}` (write) with a reason a user can act on.
 */
export interface BytesStore {
  readonly description: string
  readNewest(key: string, signal?: AbortSignal): Promise<StoredBytes>
  /** Called at most twice per run for one key (pending, then final); the later one is what is read next. */
  write(key: string, bytes: Buffer, signal?: AbortSignal): Promise<RecordWrite>
}

/** Where a run keeps the record, and who it says wrote it: given by the action (artifact) or the CLI (file). */
export interface RecordKeeping {
  store: RecordStore
  writer: Omit<RecordWriter, 'at'>
}
