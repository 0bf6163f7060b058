// The retry rules of the service layer: which failures are retried, how long to wait, when to give up.
// One layer above undici, whose own retry does not replay POST/PATCH or streamed bodies.

export interface RetryPolicy {
  /** Tries per request, the first included. */
  attempts: number
  /** No retry is started (nor waited for) past this many ms after the request's first attempt. */
  deadlineMs: number
  baseDelayMs: number
  maxDelayMs: number
  /** A longer `Retry-After` hint is cut down to this. */
  maxRetryAfterMs: number
  /**
   * Retry a connection refused by a service on this machine (localhost, 127.0.0.0/8, [::1]) like any
   * refused connection. Default false: it ends the run at once (`nothingListening`, errors.ts), since
   * nothing listens at that port and waiting out retry-deadline only hides a wrong port or an emulator
   * not started. Tests that stand a local server in for a remote one turn it on.
   */
  retryLocalRefusal?: boolean
}

/**
 * How one kind of failure is retried. Failures absent from RETRY_RULES are never retried.
 *
 * - `send`: what bounds the retries when sending a plan. `attempts`: each failure uses up one of
 *   `retries`. `deadline`: only `retry-deadline` bounds them (the service, or a gateway in front of it,
 *   is unavailable or did not answer: an outage shorter than the deadline costs time, not documents;
 *   the circuit breaker ends one that lasts).
 * - `retryAfter`: the answer's `Retry-After` replaces the backoff and pauses every worker of the run.
 * - `halvesConcurrency`: every worker's share of `concurrency` is halved (back up by one per success).
 * - `flowRun`: a flow run costs money and may have side effects, so it is retried only when it provably
 *   did not start. `retried`: the answer says it was not taken on. `with-retry-on-server-error`: only
 *   when that input is set (it may or may not have run). `before-body-sent`: a connection that failed
 *   before the whole request went out. `never`: it may have started.
 */
export interface RetryRule {
  send: 'attempts' | 'deadline'
  retryAfter: boolean
  halvesConcurrency: boolean
  flowRun: 'retried' | 'with-retry-on-server-error' | 'before-body-sent' | 'never'
}

const ANSWERED = { send: 'attempts', retryAfter: false, halvesConcurrency: false } as const
const UNAVAILABLE = { send: 'deadline', retryAfter: false, halvesConcurrency: false } as const
const UNANSWERED = { send: 'deadline', retryAfter: false, halvesConcurrency: false } as const
const CONNECTION_FAILED = { ...UNANSWERED, flowRun: 'before-body-sent' } as const
const NO_ANSWER = { ...UNANSWERED, flowRun: 'never' } as const

/** Every retry rule, per HTTP status and per transport error code (a failure with no answer). */
export const RETRY_RULES: {
  readonly statuses: Readonly<Record<number, RetryRule>>
  readonly errorCodes: Readonly<Record<string, RetryRule>>
} = Object.freeze({
  statuses: Object.freeze<Record<number, RetryRule>>({
    429: { ...ANSWERED, retryAfter: true, halvesConcurrency: true, flowRun: 'retried' },
    500: { ...ANSWERED, flowRun: 'with-retry-on-server-error' },
    502: { ...UNAVAILABLE, flowRun: 'with-retry-on-server-error' },
    503: { ...UNAVAILABLE, retryAfter: true, flowRun: 'retried' },
    504: { ...UNAVAILABLE, flowRun: 'with-retry-on-server-error' },
  }),
  errorCodes: Object.freeze<Record<string, RetryRule>>({
    ECONNREFUSED: CONNECTION_FAILED,
    ECONNRESET: CONNECTION_FAILED,
    EPIPE: CONNECTION_FAILED,
    EHOSTUNREACH: CONNECTION_FAILED,
    ENETUNREACH: CONNECTION_FAILED,
    ENETDOWN: CONNECTION_FAILED,
    EAI_AGAIN: CONNECTION_FAILED,
    UND_ERR_SOCKET: CONNECTION_FAILED,
    UND_ERR_CONNECT_TIMEOUT: CONNECTION_FAILED,
    ECONNABORTED: NO_ANSWER,
    ETIMEDOUT: NO_ANSWER,
    UND_ERR_HEADERS_TIMEOUT: NO_ANSWER,
    UND_ERR_BODY_TIMEOUT: NO_ANSWER,
    // kb-sync's own watchdog: the request body stopped moving.
    BODY_IDLE_TIMEOUT: NO_ANSWER,
  }),
})

/** The rule for a failure: by its status when the service answered, else by its error code. */
export function retryRuleOf(failure: { status?: number; code?: string }): RetryRule | undefined {
  if (failure.status !== undefined)
    return Object.hasOwn(RETRY_RULES.statuses, failure.status)
      ? RETRY_RULES.statuses[failure.status]
      : undefined
  if (failure.code !== undefined && Object.hasOwn(RETRY_RULES.errorCodes, failure.code))
    return RETRY_RULES.errorCodes[failure.code]
  return undefined
}

/** Whether sending retries the failure (a flow run retries fewer: see `flowRun`). */
export function isRetried(failure: { status?: number; code?: string }): boolean {
  return retryRuleOf(failure) !== undefined
}

/** Whether the answer's `Retry-After` is honoured (replaces the backoff, pauses every worker). */
export function honoursRetryAfter(status: number | undefined): boolean {
  return status !== undefined && retryRuleOf({ status })?.retryAfter === true
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = Object.freeze({
  attempts: 10,
  deadlineMs: 120_000,
  baseDelayMs: 500,
  maxDelayMs: 20_000,
  maxRetryAfterMs: 60_000,
})

/** Time as the retry loops see it; tests inject one that does not really wait. */
export interface Clock {
  now(): number
  /** Resolves after `ms`, or early (without throwing) when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted || ms <= 0) return resolve()
      const done = () => {
        clearTimeout(timer)
        signal?.removeEventListener('abort', done)
        resolve()
      }
      const timer = setTimeout(done, ms)
      signal?.addEventListener('abort', done, { once: true })
    }),
}

/**
 * Full jitter (a random wait between 0 and the exponential ceiling), so workers that failed together
 * do not come back together. `attempt` is the 1-based number of the attempt that just failed.
 */
export function backoffDelay(
  attempt: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1))
  return Math.floor(random() * ceiling)
}

// IMF-fixdate, the obsolete RFC 850 form and asctime (RFC 9110 §5.6.7).
const HTTP_DATE = [
  /^[a-z]{3}, \d{2} [a-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/i,
  /^[a-z]{6,9}, \d{2}-[a-z]{3}-\d{2} \d{2}:\d{2}:\d{2} GMT$/i,
  /^[a-z]{3} [a-z]{3} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/i,
]

/**
 * `Retry-After` as milliseconds from `now`: delay-seconds or an HTTP date (RFC 9110 §10.2.3).
 * Fractional seconds are accepted too (harmless leniency); anything unparseable is undefined.
 */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined
  const text = value.trim()
  if (text === '') return undefined
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000)
  // Only the three HTTP-date forms: Date.parse also reads "-1", "12" or "in 10" as dates.
  if (!HTTP_DATE.some((form) => form.test(text))) return undefined
  const date = Date.parse(text)
  if (Number.isNaN(date)) return undefined
  return Math.max(0, date - now)
}

/** What a failed attempt carries that matters to the retry rules (ServiceError has all of it). */
export interface FailureInfo {
  retryable?: boolean
  status?: number
  retryAfter?: string
}

export type RetryDecision =
  | {
      retry: true
      delayMs: number
      /** set when the wait comes from the service's Retry-After */ hintMs?: number
    }
  | { retry: false; reason: 'not-retryable' | 'attempts' | 'deadline' }

/**
 * Whether and when to try again after attempt number `attempt` (1-based) failed with `failure`.
 * A `Retry-After` the rules honour replaces the backoff (capped at `maxRetryAfterMs`).
 */
export function decideRetry(
  failure: FailureInfo,
  attempt: number,
  firstAttemptAt: number,
  policy: RetryPolicy,
  clock: Pick<Clock, 'now'> = systemClock,
  random: () => number = Math.random,
): RetryDecision {
  if (!failure.retryable) return { retry: false, reason: 'not-retryable' }
  if (attempt >= policy.attempts) return { retry: false, reason: 'attempts' }
  const now = clock.now()
  const hinted = honoursRetryAfter(failure.status) ? parseRetryAfter(failure.retryAfter, now) : undefined
  // A hint of 0 (`Retry-After: 0`, or a date already past, as from a service whose clock is behind) would
  // make every retry immediate, using up the attempts in a moment: the backoff applies instead.
  const hintMs = !hinted ? undefined : Math.min(hinted, policy.maxRetryAfterMs)
  const delayMs = hintMs ?? backoffDelay(attempt, policy, random)
  if (now + delayMs >= firstAttemptAt + policy.deadlineMs) return { retry: false, reason: 'deadline' }
  return hintMs === undefined ? { retry: true, delayMs } : { retry: true, delayMs, hintMs }
}

export interface CallWithRetryOptions {
  policy: RetryPolicy
  /** Aborts the attempt in flight and stops retrying. */
  signal?: AbortSignal
  clock?: Clock
  random?: () => number
  /**
   * Which failures may be tried again, instead of the failure's own `retryable` (the flow run is not
   * idempotent and retries only what provably did not start).
   */
  retryable?: (failure: unknown) => boolean
  /** Told before each wait, e.g. to log it. */
  onRetry?: (failure: unknown, attempt: number, delayMs: number) => void
}

/**
 * Calls `call` until it succeeds, fails for good, or the policy runs out; throws the last failure.
 * For a single request (the flow run). Sending a plan has its own loop in send/send-plan.ts (upsert switch,
 * splitting, shared pause), built on `decideRetry`.
 */
export async function callWithRetry<T>(
  call: (signal?: AbortSignal) => Promise<T>,
  options: CallWithRetryOptions,
): Promise<T> {
  const clock = options.clock ?? systemClock
  const firstAttemptAt = clock.now()
  for (let attempt = 1; ; attempt++) {
    try {
      return await call(options.signal)
    } catch (failure) {
      const info = asFailureInfo(failure)
      if (options.retryable) info.retryable = options.retryable(failure)
      const decision = decideRetry(info, attempt, firstAttemptAt, options.policy, clock, options.random)
      if (!decision.retry || options.signal?.aborted) throw failure
      options.onRetry?.(failure, attempt, decision.delayMs)
      await clock.sleep(decision.delayMs, options.signal)
      if (options.signal?.aborted) throw failure
    }
  }
}

export function asFailureInfo(failure: unknown): FailureInfo {
  if (typeof failure !== 'object' || failure === null) return {}
  const { retryable, status, retryAfter } = failure as Record<string, unknown>
  return {
    retryable: retryable === true,
    status: typeof status === 'number' ? status : undefined,
    retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined,
  }
}
