// The typed values handed from one pipeline stage to the next:
// inputs ──► selection ──► plan ──► send ──► report

/** `mode`: upload or update every document, or (auto) decide from what changed. */
export type Mode = 'auto' | 'upload' | 'update'

/** The node whose knowledge base is indexed (path order of the indexing operations). */
export interface IndexTarget {
  flowId: string
  orgId: string
  nodeId: string
}

/** The flow that is run (the run operation puts org before flow). */
export interface FlowTarget {
  orgId: string
  flowId: string
}

/**
 * A file chosen to be sent: its document name and its size when it was selected. (No modification time:
 * 24 bytes a document at 100,000, for a log line when a file of the same size changed before a resend,
 * which sends the file as it is then anyway.)
 */
export interface SelectedFile {
  /** Document name: the path relative to the workspace, with `/`. Sent as the part's filename. */
  name: string
  /** Absolute real path on disk. */
  path: string
  size: number
}

export type SkipReason =
  | 'hidden'
  | 'git-dir'
  | 'secret'
  | 'too-large'
  | 'outside-workspace'
  | 'symlink'
  | 'not-regular'
  | 'unreadable'
  | 'duplicate'
  /** Holds a control character: cannot be sent as written. */
  | 'bad-name'
  /** Reaches the service under the same name as another selected document. */
  | 'name-conflict'
  | 'not-changed'
  /** A file the site does not publish: a draft, a future or expired page (skip-drafts). */
  | 'draft'

export interface SkippedItem {
  kind: 'document' | 'url'
  name: string
  reason: SkipReason
  /** A sentence a user can act on. */
  detail: string
}

export interface FileSelection {
  files: SelectedFile[]
  skipped: SkippedItem[]
}

/** A name git gave that is not valid UTF-8: it cannot be a document, and is reported as skipped. */
export interface UndecodableName {
  /** As the workspace search shows it: the path up to the first undecodable segment, its bytes as `\xNN`. */
  shown: string
  /** The whole name with invalid bytes replaced, for matching against the `files` patterns. */
  lossy: string
  /** The undecodable segment is a folder of the name, not its last segment. */
  isFolder: boolean
}

/** What a push changed, or why everything (or nothing) is synced. Names are document names. */
export type ChangeDecision =
  | {
      kind: 'all'
      source: 'full-sync'
      reason: string
      /**
       * Names known removed even so (a push's own before..after when every selected file is sent): they
       * are blanked. Present only when not empty.
       */
      removed?: string[]
    }
  | { kind: 'none'; reason: string }
  | {
      kind: 'changes'
      source:
        | 'git-diff'
        | 'fetched-before'
        | 'compare-api'
        | 'payload'
        | 'last-success'
        | 'since-ref'
        /** A staging node: every name that can differ from what earlier runs left in it (staging-changes.ts). */
        | 'staging'
        /** The knowledge base's record: what the checkout selects minus what the node holds (state/). */
        | 'state'
      added: string[]
      modified: string[]
      removed: string[]
      /**
       * Folders whose changes could not be read (a submodule whose old commit is missing): every
       * selected file below them is sent, by upsert. Present only when not empty.
       */
      everythingUnder?: string[]
      /** Added or modified names that are not valid UTF-8: skipped as selection skips them. */
      undecodable?: UndecodableName[]
      /** Why parts of the change set are approximate, each naming the fix: shown as warnings. */
      warnings?: string[]
    }

/**
 * The commit a change set is measured from: the last successful sync's (`last-success`), the push's
 * `before` (`push`), a ref given to the CLI (`ref`), or none for a full sync or nothing to index.
 */
export interface ChangeBase {
  source: 'last-success' | 'push' | 'ref' | 'none' | 'state'
  /** The commit id compared against; '' when source is none (for state: the commit the record was written at, if known). */
  sha: string
  /** source state: the run that wrote the record, in words. */
  recordedBy?: string
  /** The workflow run that synced `sha` (last-success only). */
  run?: { id: number; number: number; url: string }
  /** Why mode auto's change set is not measured from the last successful sync: the base used, and why. */
  why?: string
}

/** upload = POST, update = PATCH. */
export type Operation = 'upload' | 'update'

/** `removed`: blank removed documents with a placeholder (tombstone), or leave them (keep). */
export type RemovedPolicy = 'tombstone' | 'keep'

/** A removed document's placeholder: a document of its own format with no words to retrieve (placeholders.ts). */
export interface PlaceholderDocument {
  name: string
  content: string
}

/** A removed document that stays in the knowledge base: `keep` asked for it, or no placeholder fits its format. */
export interface LeftDocument {
  name: string
  reason: 'keep' | 'format'
}

/**
 * One request's worth of work. With `fallback`, an update answered 404 is sent again as an upload and
 * an upload answered 409 again as an update (the upsert rule of `mode: auto`). With `stateUnknown`
 * (a full sync, URLs, a folder whose changes are unknown) nothing says whether the items are in the
 * node: `operation` is only the first guess, and the first request follows what the node answered so far.
 */
export type Batch =
  | {
      kind: 'documents'
      operation: Operation
      fallback: boolean
      stateUnknown?: boolean
      documents: SelectedFile[]
      bytes: number
      /** Placeholders of removed documents: PATCH only, and 404 (not there) is success. */
      placeholders?: boolean
    }
  | { kind: 'urls'; operation: Operation; fallback: boolean; stateUnknown?: boolean; urls: string[] }

/** How a plan shows an item: `upsert` when whether it is in the node is unknown, `remove` for a placeholder. */
export type PlannedOperation = Operation | 'upsert' | 'remove'

export interface Plan {
  batches: Batch[]
  /** Items the plan will not send (selection skips and unchanged files). */
  skipped: SkippedItem[]
  /**
   * Removed documents to blank (`removed: tombstone`, a format with a placeholder): sent as `placeholders`
   * batches once written to disk (sendable by placeholderBatches).
   */
  placeholders: PlaceholderDocument[]
  /** Removed documents left in the knowledge base, never sent. */
  left: LeftDocument[]
  /** Selected documents that are not sent because their content must not be (a Git LFS pointer): failed. */
  refused: ItemOutcome[]
}

/** `removed`: a placeholder replaced the document (or it was not in the knowledge base: `absent`). */
export type Outcome = 'uploaded' | 'updated' | 'removed' | 'failed'

/** How one document or URL ended. Every planned item ends in exactly one. */
export interface ItemOutcome {
  kind: 'document' | 'url'
  name: string
  outcome: Outcome
  /** The operation that decided the outcome (after any upsert switch). */
  operation: Operation
  attempts: number
  /**
   * Times the item was sent again because a request of it failed for a reason the retry rules cover (no
   * answer, 429, 5xx, a file that changed while it was sent). Not the upsert switch, nor the parts of a
   * batch split to find which document it refused: those are no retries. Absent (or 0) when none.
   */
  retries?: number
  size?: number
  /** Last error, keys scrubbed, when failed. */
  error?: string
  /** A placeholder answered 404: the document was not in the knowledge base (nothing to remove). */
  absent?: boolean
}

export interface SendResult {
  items: ItemOutcome[]
  /** Requests sent, including retries. */
  requests: number
  cancelled: boolean
}

/** A flow run's answer as the reports show it: the named output (cut to fit) and the whole response. */
export interface FlowRunReport {
  question: string
  result: string
  /** UTF-8 size of the whole named output, set when `result` holds only its beginning. */
  resultBytes?: number
  response: unknown
}

/** A full commit id: SHA-1 (40 hex digits) or SHA-256 (64). */
export const COMMIT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i

/** A full object id as git and GitHub's API write it: lowercase, SHA-1 or SHA-256. */
export const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/

/** What the `sitemaps` input's sitemaps gave, for the summary. */
export interface SitemapCounts {
  /** Sitemaps (and indexes) read whole. */
  read: number
  /** Sitemaps that could not be read: each a failed item. */
  failed: number
  /** Pages the sitemaps listed. */
  listed: number
  /** Left out by url-include / url-exclude. */
  filtered: number
  /** Left out by lastmod: not after `since`. */
  unchanged: number
  /** Already in `urls`, or listed twice. */
  duplicates: number
  /** Locs that are not usable URLs. */
  invalid: number
  /** Pages synced. */
  synced: number
  /** The base commit's time that lastmod was compared with (ISO 8601), when it was. */
  since?: string
}

/** How far a send got: `done` of `total` batches finished, `bytes` of documents landed. */
export interface SendProgress {
  done: number
  total: number
  bytes: number
}
