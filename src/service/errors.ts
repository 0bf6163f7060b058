// The one failure type of the service client, and the refusal raised before any I/O.
import { ACTION_INPUT_NAMES, type SettingNames } from '../setting-names.js'
import { isLoopbackHost } from '../net/loopback.js'

export type OperationName = 'uploadUrls' | 'updateUrls' | 'uploadDocuments' | 'updateDocuments' | 'runFlow'

export type HttpMethod = 'POST' | 'PATCH'

/** The caller asked for something the client will not send (a missing key, a bad id): nothing was sent. */
export class ClientUsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ClientUsageError'
  }
}

export interface ServiceErrorFields {
  operation: OperationName
  method: HttpMethod
  /** The contract path with the ids, without the base URL (never a key). */
  path: string
  /** Where the request went: the base URL the client was made with (it holds no key: base-url.ts). */
  baseUrl?: string
  status?: number
  /** Excerpt of the answer, keys already scrubbed. */
  body?: string
  retryable: boolean
  retryAfter?: string
  bodySent: boolean
  code?: string
  /** What went wrong, keys already scrubbed: `HTTP 422: …`, `ECONNRESET: …`. */
  reason: string
}

/** A call that did not succeed: answered with an error status, or no usable answer at all. */
export class ServiceError extends Error {
  readonly operation: OperationName
  readonly method: HttpMethod
  readonly path: string
  readonly baseUrl?: string
  /** Undefined when no answer came (network error, timeout, abort). */
  readonly status?: number
  readonly body: string
  /** Sending retries it: the failure has a row in RETRY_RULES (service/retry.ts). */
  readonly retryable: boolean
  /** The raw `Retry-After` header of the answer, if any. */
  readonly retryAfter?: string
  /** The whole request body went out before the failure: without an answer the call may have been applied. */
  readonly bodySent: boolean
  readonly code?: string

  constructor(fields: ServiceErrorFields) {
    super(`${fields.operation} ${fields.method} ${fields.path} failed: ${fields.reason}`)
    this.name = 'ServiceError'
    this.operation = fields.operation
    this.method = fields.method
    this.path = fields.path
    this.baseUrl = fields.baseUrl
    this.status = fields.status
    this.body = fields.body ?? ''
    this.retryable = fields.retryable
    this.retryAfter = fields.retryAfter
    this.bodySent = fields.bodySent
    this.code = fields.code
  }
}

export const MAX_EXCERPT = 500

/** At most `limit` characters of already scrubbed text, white space runs folded to one space. */
export function excerpt(scrubbed: string, limit = MAX_EXCERPT): string {
  const folded = scrubbed.replace(/\s+/g, ' ').trim()
  return folded.length <= limit ? folded : `${folded.slice(0, limit - 1)}…`
}

/** Statuses that refuse the key, not the request: no other request with the same key can succeed. */
export const KEY_REFUSED_STATUSES: ReadonlySet<number> = new Set([401, 403])

/**
 * The one cause given to every item when no other request of the run can succeed, or undefined when
 * only this request failed: the service refused the key, has no knowledge base where the ids point, or
 * nothing listens at a base URL on this machine (unless `retryLocalRefusal`: RetryPolicy, retry.ts).
 */
export function runRefusal(
  error: ServiceError,
  names = ACTION_INPUT_NAMES,
  policy: { retryLocalRefusal?: boolean } = {},
): string | undefined {
  return (
    keyRefusal(error, names) ??
    missingKnowledgeBase(error, names) ??
    (policy.retryLocalRefusal ? undefined : nothingListening(error, names))
  )
}

/** A connection refused by a service on this machine (localhost, 127.0.0.0/8, [::1]). */
export function refusedLocally(error: ServiceError): boolean {
  return error.code === 'ECONNREFUSED' && error.baseUrl !== undefined && isLoopbackHost(hostOf(error.baseUrl))
}

/**
 * A refused connection to this machine: nothing listens at that port, and waiting for one would only
 * hide the cause for the whole retry-deadline (a wrong port in base-url, the emulator not started).
 */
export function nothingListening(error: ServiceError, { ref }: SettingNames): string | undefined {
  if (!refusedLocally(error)) return undefined
  // What to check first: a summary's table cuts a long cause.
  return (
    `Nothing is listening at ${error.baseUrl} (ECONNREFUSED): check ${ref('base-url')} (its port), or ` +
    'start the local service with `kb-sync serve`. A refused connection on this machine is not retried; ' +
    'nothing more was sent.'
  )
}

/**
 * Told once, at the first refused connection: what is retried, until when, and what to check, so that
 * a wrong base URL does not look like a silent wait. `bound` is the setting whose time ends the retries.
 */
export function refusedConnectionNotice(
  error: ServiceError,
  names: SettingNames,
  retries: { what: string; until: number; bound: string; boundMs: number },
): string {
  const where = error.baseUrl === undefined ? 'The service' : `The service at ${error.baseUrl}`
  return (
    `${where} refused the connection (ECONNREFUSED). ${retries.what} until ${clockTime(retries.until)} ` +
    `(${names.ref(retries.bound)}, ${Math.round(retries.boundMs / 1000)} s). Check ${names.ref('base-url')}, ` +
    'and that the service is running there (the local emulator: `kb-sync serve`).'
  )
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname
  } catch {
    return ''
  }
}

/** `12:49:03 UTC`: a moment a person compares with the clock of the log. */
function clockTime(at: number): string {
  return `${new Date(at).toISOString().slice(11, 19)} UTC`
}

/**
 * A 404 to a document upload: an upload adds documents, so it cannot be missing one; what is missing is
 * the path, the flow, organization and node the ids name (or the service at base-url). Every request of
 * the run goes to the same ids. Not for website uploads, where a service may answer 404 for a website.
 */
function missingKnowledgeBase(error: ServiceError, { ref }: SettingNames): string | undefined {
  if (error.status !== 404 || error.operation !== 'uploadDocuments') return undefined
  return (
    `The service has no knowledge base at ${error.path} (HTTP 404 to an upload). Check ` +
    `${ref('flow-id')}, ${ref('org-id')} and ${ref('node-id')} (and ${ref('base-url')}). Nothing more was ` +
    `sent. First answer: ${error.message}`
  )
}

/**
 * The one cause given to every item when the service refuses the key (401/403), or undefined for any
 * other failure. It names the input that holds the key and the kind of key the operation needs, and is
 * the same text for every item so reports can group by it.
 */
export function keyRefusal(error: ServiceError, names = ACTION_INPUT_NAMES): string | undefined {
  if (error.status === undefined || !KEY_REFUSED_STATUSES.has(error.status)) return undefined
  const run = error.operation === 'runFlow'
  const input = run ? 'public-key' : 'private-key'
  const kind = run ? 'public' : 'private'
  const other = run ? 'private' : 'public'
  const what = run ? 'Running a flow' : 'Indexing'
  return (
    `The service refused the key in ${names.the(input)} (HTTP ${error.status}). ${what} needs the ` +
    `organization's ${kind} key (not the ${other} one); check the secret behind ${names.ref(input)}. ` +
    `Nothing more was sent. First refusal: ${error.message}`
  )
}
