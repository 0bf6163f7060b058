// What the answers say about the service, read from every request's outcome: the breaker and the
// scheduler's pace (a pause asked for, the lowered limit, probing), a refusal that stops the run, the first
// refused connection explained; and why a stopped send sent nothing more.
import type { Logger } from '../log.js'
import { ServiceError } from '../service/client.js'
import { refusedConnectionNotice, runRefusal } from '../service/errors.js'
import { parseRetryAfter, retryRuleOf, type Clock, type RetryPolicy } from '../service/retry.js'
import { ACTION_INPUT_NAMES, type SettingNames } from '../setting-names.js'
import { CircuitBreaker } from './breaker.js'
import { errorMessage } from './error-message.js'
import { formatMs } from './next-step.js'
import type { RequestScheduler } from './scheduler.js'
import type { SendStops } from './stops.js'

/** The send's options the watch reads (SendOptions). */
interface WatchOptions {
  retry: RetryPolicy
  signal?: AbortSignal
  breakerWindowMs?: number
  names?: SettingNames
}

export class ServiceWatch {
  private readonly breaker: CircuitBreaker
  /** Set by the first 401/403, or 404 to a document upload: the one cause of every item that did not land. */
  private refusedBy: string | undefined
  /** The first refused connection was explained (refusedConnectionNotice): once a run. */
  private refusalExplained = false

  constructor(
    private readonly scheduler: RequestScheduler,
    private readonly stops: SendStops,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly options: WatchOptions,
  ) {
    this.breaker = new CircuitBreaker(options.breakerWindowMs ?? options.retry.deadlineMs, this.clock)
  }

  get refused(): string | undefined {
    return this.refusedBy
  }

  /** Feeds the outcome of one request to the breaker and the scheduler. */
  observe(failure: unknown): void {
    if (failure === undefined) return this.serviceAnswered()
    if (!(failure instanceof ServiceError) || this.stops.hardStop.signal.aborted) return
    const refusal = runRefusal(failure, this.options.names, this.options.retry)
    if (refusal) {
      // About the key or the ids, not a document: every other request would be refused too.
      this.refusedBy ??= refusal
      this.stops.stop.abort()
      return
    }
    if (failure.retryable) {
      this.breaker.failed(errorMessage(failure))
      this.scheduler.probing = true
      if (this.breaker.open) this.stops.stop.abort()
      else if (failure.code === 'ECONNREFUSED') this.explainRefusal(failure)
    } else if (failure.status !== undefined) {
      this.serviceAnswered()
    }
    const rule = retryRuleOf(failure)
    if (rule?.halvesConcurrency) this.scheduler.rateLimited()
    if (rule?.retryAfter) {
      const hintMs = parseRetryAfter(failure.retryAfter, this.clock.now())
      if (hintMs !== undefined) this.scheduler.pause(Math.min(hintMs, this.options.retry.maxRetryAfterMs))
    }
  }

  /** At the first refused connection, what is retried and until when: a wrong base URL is not a silent wait. */
  private explainRefusal(failure: ServiceError): void {
    if (this.refusalExplained) return
    this.refusalExplained = true
    this.log.warning(
      refusedConnectionNotice(failure, this.options.names ?? ACTION_INPUT_NAMES, {
        what: 'Every request is retried, and the run stops if none connects,',
        until: this.breaker.opensAt ?? this.clock.now() + this.breaker.windowMs,
        bound: 'retry-deadline',
        boundMs: this.breaker.windowMs,
      }),
    )
  }

  private serviceAnswered(): void {
    this.breaker.answered()
    this.scheduler.probing = false
  }

  stoppedReason(lastError: string | undefined): string {
    if (this.options.signal?.aborted) {
      return lastError === undefined
        ? 'cancelled before it was sent'
        : `cancelled before it could be retried; last error: ${lastError}`
    }
    if (this.refusedBy) return this.refusedBy
    const breakerNote = `stopped: every attempt failed for ${formatMs(this.breaker.windowMs)}`
    return lastError === undefined
      ? `not sent (${breakerNote}); last error: ${this.breaker.lastError ?? 'unknown'}`
      : `${lastError} (${breakerNote})`
  }
}
