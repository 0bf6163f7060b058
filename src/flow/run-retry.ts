// When a flow run may be sent again. A run costs money and may have side effects, so unlike indexing
// it is retried only when it provably did not start: the `flowRun` column of RETRY_RULES.
import { ServiceError } from '../service/errors.js'
import { RETRY_RULES, retryRuleOf } from '../service/retry.js'

export interface RunRetryOptions {
  /** The `retry-on-server-error` input: also retry what may or may not have run (500, 502, 504). */
  retryOnServerError: boolean
}

export function runMayBeRetried(failure: unknown, options: RunRetryOptions): boolean {
  if (!(failure instanceof ServiceError)) return false
  switch (retryRuleOf(failure)?.flowRun) {
    case 'retried':
      return true
    case 'with-retry-on-server-error':
      return options.retryOnServerError
    case 'before-body-sent':
      // A 2xx whose body stalls, or a sent request that got no answer, may have started a run.
      return failure.status === undefined && !failure.bodySent
    default:
      return false
  }
}

/** Why a failure that indexing would retry was not retried here, for the error message. */
export function whyNotRetried(failure: unknown, options: RunRetryOptions): string | undefined {
  if (!(failure instanceof ServiceError) || !failure.retryable || runMayBeRetried(failure, options))
    return undefined
  if (failure.status !== undefined)
    return `not retried: a flow run is not idempotent and HTTP ${failure.status} does not prove it did not start (set "retry-on-server-error" to retry ${serverErrorStatuses()})`
  return 'not retried: a flow run is not idempotent and the request may have reached the service'
}

function serverErrorStatuses(): string {
  const statuses = Object.entries(RETRY_RULES.statuses)
    .filter(([, rule]) => rule.flowRun === 'with-retry-on-server-error')
    .map(([status]) => status)
  return `${statuses.slice(0, -1).join(', ')} and ${statuses.at(-1)}`
}
