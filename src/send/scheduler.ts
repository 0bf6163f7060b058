// Who may start a request, and when: at most `limit` in flight, none while the service asked everyone to
// pause (Retry-After), none once sending has stopped. One scheduler is shared by every worker of a run,
// so a pause hinted to one worker holds for all of them (no thundering herd).
import type { Clock } from '../service/retry.js'

interface Waiter {
  priority: boolean
  grant: (started: boolean) => void
}

export class RequestScheduler {
  private active = 0
  private currentLimit: number
  private pausedUntil = 0
  private probingOnly = false
  private timerPending = false
  private readonly waiters: Waiter[] = []

  /**
   * @param max the configured concurrency, never exceeded
   * @param stop once aborted, nothing more starts and every waiter is told so
   */
  constructor(
    private readonly max: number,
    private readonly clock: Clock,
    private readonly stop: AbortSignal,
  ) {
    if (!Number.isInteger(max) || max < 1)
      throw new RangeError(`concurrency must be a positive integer, got ${max}`)
    this.currentLimit = max
    stop.addEventListener('abort', () => this.drain(), { once: true })
  }

  /** Requests in flight now allowed (halved on 429, back up by one per success). */
  get limit(): number {
    return this.currentLimit
  }

  /**
   * Waits for a turn to start a request: true when it may start (call `release` after it), false when
   * sending stopped. `priority` puts a request already in progress (a retry) ahead of new ones, so its
   * deadline is not spent queueing behind the rest of the plan.
   */
  acquire(priority = false): Promise<boolean> {
    return new Promise((grant) => {
      const waiter = { priority, grant }
      if (priority) {
        const firstNew = this.waiters.findIndex((w) => !w.priority)
        this.waiters.splice(firstNew === -1 ? this.waiters.length : firstNew, 0, waiter)
      } else {
        this.waiters.push(waiter)
      }
      this.drain()
    })
  }

  release(): void {
    this.active--
    this.drain()
  }

  /** The service asked to wait `ms` (Retry-After): no request starts before then. */
  pause(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.clock.now() + ms)
  }

  /**
   * While the service looks down, one request at a time probes it (retries first); the others wait
   * instead of spending their attempts on a service that is not there.
   */
  set probing(on: boolean) {
    if (this.probingOnly === on) return
    this.probingOnly = on
    if (!on) this.drain()
  }

  rateLimited(): void {
    this.currentLimit = Math.max(1, Math.floor(this.currentLimit / 2))
  }

  succeeded(): void {
    if (this.currentLimit >= this.max) return
    this.currentLimit++
    this.drain()
  }

  private drain(): void {
    if (this.stop.aborted) {
      for (const waiter of this.waiters.splice(0)) waiter.grant(false)
      return
    }
    const wait = this.pausedUntil - this.clock.now()
    if (wait > 0) {
      if (!this.timerPending) {
        this.timerPending = true
        void this.clock.sleep(wait, this.stop).then(() => {
          this.timerPending = false
          this.drain()
        })
      }
      return
    }
    const limit = this.probingOnly ? 1 : this.currentLimit
    while (this.active < limit && this.waiters.length > 0) {
      this.active++
      this.waiters.shift()!.grant(true)
    }
  }
}
