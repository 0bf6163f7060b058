// The one failure type of the service client, and the refusal raised before any I/O.

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
  /** Undefined when no answer came (network error, timeout, abort). */
  readonly status?: number
  readonly body: string
  /** 429, 500, 502, 503, 504, network errors and timeouts. */
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
    this.status = fields.status
    this.body = fields.body ?? ''
    this.retryable = fields.retryable
    this.retryAfter = fields.retryAfter
    this.bodySent = fields.bodySent
    this.code = fields.code
  }
}

/** Statuses worth another attempt: rate limiting and the server-side failures that are usually brief. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504])

export const MAX_EXCERPT = 500

/** At most MAX_EXCERPT characters of already scrubbed text, white space runs folded to one space. */
export function excerpt(scrubbed: string): string {
  const folded = scrubbed.replace(/\s+/g, ' ').trim()
  return folded.length <= MAX_EXCERPT ? folded : `${folded.slice(0, MAX_EXCERPT - 1)}…`
}
