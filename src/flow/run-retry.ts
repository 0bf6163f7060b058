// When a flow run may be sent again. A run costs money and may have side effects, so unlike indexing
// it is retried only when it provably did not start.
import { ServiceError } from '../service/errors.js'

// Failures to reach the service at all; with the body not sent, the service cannot have run anything.
const CONNECTION_FAILURES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
])

// Answers that say the run was not taken on: rate limited, or the service unavailable.
const NOT_STARTED_STATUSES: ReadonlySet<number> = new Set([429, 503])

// Answers after which the run may or may not have happened.
const SERVER_ERROR_STATUSES: ReadonlySet<number> = new Set([500, 502, 504])

export interface RunRetryOptions {
  /** The `retry-on-server-error` input: also retry 500, 502 and 504. */
  retryOnServerError: boolean
}

export function runMayBeRetried(failure: unknown, options: RunRetryOptions): boolean {
  if (!(failure instanceof ServiceError)) return false
  if (failure.status !== undefined) {
    if (NOT_STARTED_STATUSES.has(failure.status)) return true
    return options.retryOnServerError && SERVER_ERROR_STATUSES.has(failure.status)
  }
  // No status: only a connection that failed before the whole request went out. A 2xx whose body
  // stalls, or a sent request that got no answer, may have started a run.
  return !failure.bodySent && failure.code !== undefined && CONNECTION_FAILURES.has(failure.code)
}

/** Why a failure that indexing would retry was not retried here, for the error message. */
export function whyNotRetried(failure: unknown, options: RunRetryOptions): string | undefined {
  if (!(failure instanceof ServiceError) || !failure.retryable || runMayBeRetried(failure, options))
    return undefined
  if (failure.status !== undefined)
    return `not retried: a flow run is not idempotent and HTTP ${failure.status} does not prove it did not start (set "retry-on-server-error" to retry 500, 502 and 504)`
  return 'not retried: a flow run is not idempotent and the request may have reached the service'
}
