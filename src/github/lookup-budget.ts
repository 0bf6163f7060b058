// One time budget for all of a run's GitHub requests (the runs lookups, the compare API, the pull
// request comment), made once per run and handed down. A GitHub API that accepts connections and never
// answers would otherwise cost each request its own timeout, one after the other (2.5 minutes and more
// before the sync went on). Every request waits at most what is left of the budget (and at most its own
// timeout); the first one that gets no answer in time ends the budget: later requests are not sent, and
// each caller goes straight on with its fallback.
import { withTimeout } from '../cancellation.js'

/** All GitHub requests of a run together wait at most this long by default. */
export const DEFAULT_GITHUB_DEADLINE_MS = 45_000
/**
 * One request waits at most this long by default. GitHub itself ends a REST request after 10 s, so an
 * answer still missing after 20 s is not coming.
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 20_000
/** The variable that sets the budget (seconds): a smaller one for tests, a larger one for a slow server. */
export const DEADLINE_VARIABLE = 'KB_SYNC_GITHUB_DEADLINE_SECONDS'
const MAX_DEADLINE_SECONDS = 600

/** The request was not sent, or got no answer in time: GitHub's API is not asked again in this run. */
export class GitHubUnanswered extends Error {
  readonly code = 'GITHUB_UNANSWERED'
  constructor(message: string) {
    super(message)
    this.name = 'GitHubUnanswered'
  }
}

export interface LookupBudgetOptions {
  /** All requests together. */
  deadlineMs?: number
  /** One request. */
  requestTimeoutMs?: number
  /** The run's cancellation: a request in flight stops, and rejects with its reason. */
  cancel?: AbortSignal
}

export class LookupBudget {
  readonly deadlineMs: number
  private readonly requestTimeoutMs: number
  private readonly cancel?: AbortSignal
  /** Time spent with at least one request in flight, not counting the requests in flight now. */
  private spentMs = 0
  private inFlight = 0
  private busySince = 0
  private unanswered?: string

  constructor(options: LookupBudgetOptions = {}) {
    this.deadlineMs = options.deadlineMs ?? DEFAULT_GITHUB_DEADLINE_MS
    this.requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS
    this.cancel = options.cancel
  }

  /** Why GitHub's API is not asked any more in this run; undefined while it may be. */
  get gaveUp(): string | undefined {
    return this.unanswered
  }

  /** Rethrows the run's cancellation, if it came: a request it stopped is no failure of GitHub's. */
  throwIfCancelled(): void {
    this.cancel?.throwIfAborted()
  }

  /** Time spent waiting for GitHub so far (requests in flight at once count once). */
  spent(): number {
    return this.spentMs + (this.inFlight > 0 ? Date.now() - this.busySince : 0)
  }

  /**
   * Sends one request under the budget: `send` gets the signal to pass to it. Rejects with
   * GitHubUnanswered when the API was given up before (nothing is sent) or this request got no answer
   * in time (the API is given up), with the cancellation's reason when the run is cancelled, and with
   * the request's own error otherwise.
   */
  async request<T>(send: (signal: AbortSignal) => Promise<T>): Promise<T> {
    this.cancel?.throwIfAborted()
    if (this.unanswered) throw new GitHubUnanswered(this.unanswered)
    const left = this.deadlineMs - this.spent()
    if (left <= 0)
      throw this.giveUp(`GitHub's API used up the ${seconds(this.deadlineMs)} s this run gives its requests`)
    const timeoutMs = Math.min(this.requestTimeoutMs, left)
    const signal = withTimeout(this.cancel, timeoutMs)
    if (this.inFlight++ === 0) this.busySince = Date.now()
    try {
      return await send(signal)
    } catch (error) {
      this.cancel?.throwIfAborted()
      if (signal.aborted) throw this.giveUp(`GitHub's API did not answer within ${seconds(timeoutMs)} s`)
      throw error
    } finally {
      if (--this.inFlight === 0) this.spentMs += Date.now() - this.busySince
    }
  }

  private giveUp(why: string): GitHubUnanswered {
    this.unanswered ??= `${why}; it is not asked again in this run`
    return new GitHubUnanswered(this.unanswered)
  }
}

const seconds = (ms: number): string => String(Math.round(ms / 100) / 10)

/**
 * The budget's length from KB_SYNC_GITHUB_DEADLINE_SECONDS (whole or decimal seconds, above 0, at most
 * 600); the default when it is unset or empty.
 */
export function readGitHubDeadline(
  env: NodeJS.ProcessEnv = process.env,
): { ok: true; deadlineMs: number } | { ok: false; why: string } {
  const text = env[DEADLINE_VARIABLE]?.trim()
  if (!text) return { ok: true, deadlineMs: DEFAULT_GITHUB_DEADLINE_MS }
  const value = /^\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN
  if (!(value > 0 && value <= MAX_DEADLINE_SECONDS))
    return {
      ok: false,
      why:
        `The variable ${DEADLINE_VARIABLE} must be a number of seconds above 0 and at most ` +
        `${MAX_DEADLINE_SECONDS} (got ${JSON.stringify(text.slice(0, 40))}).`,
    }
  return { ok: true, deadlineMs: Math.round(value * 1000) }
}

/** Why a GitHub request failed, in one line: its HTTP status when it had one, and its message's first line. */
export function requestFailure(error: unknown): string {
  const status = (error as { status?: unknown })?.status
  const message = error instanceof Error ? error.message.split('\n', 1)[0] : String(error)
  return typeof status === 'number' ? `HTTP ${status}: ${message}` : message
}
