import type {
  ChangeBase,
  FlowRunReport,
  IndexTarget,
  ItemOutcome,
  LeftDocument,
  SitemapCounts,
  SkippedItem,
} from '../model.js'
import type { PlannedItems } from '../plan.js'
import type { Shard } from '../select/shard.js'

export interface IndexReport {
  dryRun: boolean
  /** The knowledge base synced (named in the summary's title), once the inputs are read. */
  target?: IndexTarget
  /** Set in a pull request: what merging would send, computed and shown, never sent. */
  preview?: { number?: number; base: string; head: string }
  /**
   * In a pull request: how many selected documents its own change set (base..head) touches; undefined
   * outside pull requests or when that is unknown (the `pull-request-changed` output is then empty).
   */
  pullRequestChanged?: number
  /** Where the change set came from (git diff, compare API, full sync and why, …). */
  changeSource: string
  /** The commit the change set is measured from, when known, and how it was found. */
  changeBase?: { sha: string; source?: string }
  /** The base of `mode: auto`'s change set: the last successful sync, the push's before, or none. */
  base?: ChangeBase
  /** What would be sent (dry run, preview) or was planned. */
  planned: PlannedItems
  items: ItemOutcome[]
  skipped: SkippedItem[]
  /** Removed documents left in the knowledge base (`removed: keep`, or no placeholder for the format). */
  left: LeftDocument[]
  requests: number
  durationMs: number
  notices: string[]
  /** What the `sitemaps` input's sitemaps listed and what of it was synced, when it is set. */
  sitemaps?: SitemapCounts
  flow?: FlowRunReport
  /** Why the flow run after indexing failed. */
  flowError?: string
  /** `shard: I/N`: this job sent only its part of the selection; the summary and outputs name it. */
  shard?: Shard
  /** The knowledge base's record: whether it gave the change set, what the node holds after the run. */
  record?: RecordReport
  /** Set when the run did not finish: skipped on purpose, or stopped by an error (the cause). */
  ended?: { kind: 'skipped' | 'stopped'; why: string }
}

/** What the run did with the knowledge base's record (state/). */
export interface RecordReport {
  /** `state`: the change set is the record's difference; `history`: it was inferred (why says why). */
  source: 'state' | 'history'
  /** The record used: where it was read, and who wrote it. */
  from?: string
  /** Why no record was used. */
  why?: string
  /** Documents the node holds as the checkout has them (nothing to send). */
  unchanged?: number
  /** Settings that shape the selection and changed since the record (input names). */
  settingsChanged?: string[]
  /** What the node holds after the run, as recorded. */
  holds?: { documents: number; blanked: number; unknown: number; pages: number }
  /** Whether the final record was written, and where. */
  written?: { ok: true; where: string } | { ok: false; why: string }
}
