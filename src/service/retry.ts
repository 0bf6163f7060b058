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
 * A `Retry-After` on 429/503 replaces the backoff (capped at `maxRetryAfterMs`).
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
  const hinted =
    failure.status === 429 || failure.status === 503 ? parseRetryAfter(failure.retryAfter, now) : undefined
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
 * For a single request (the flow run). Sending a plan has its own loop in send.ts (upsert switch,
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
