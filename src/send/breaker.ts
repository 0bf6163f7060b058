// Stops a run against a service that stays down, decided by time, not by a count: several workers burn
// through any count of failed attempts in well under a second, so a service that comes back two seconds
// later would still fail the whole run. The breaker opens only when every attempt over `windowMs` (the
// retry deadline) failed; until then an outage costs time, not documents. While the service looks down
// the sender probes it with one request at a time (see RequestScheduler.probing).
import type { Clock } from '../service/retry.js'

export class CircuitBreaker {
  /** When the current run of failed attempts began; undefined while the service answers. */
  private downSince: number | undefined
  private last: string | undefined
  private tripped = false

  constructor(
    readonly windowMs: number,
    private readonly clock: Pick<Clock, 'now'>,
  ) {}

  get open(): boolean {
    return this.tripped
  }

  /** Some attempt failed without a trustworthy answer and none has been answered since. */
  get down(): boolean {
    return this.downSince !== undefined
  }

  /** When the breaker opens if no attempt is answered before (undefined while the service answers). */
  get opensAt(): number | undefined {
    return this.downSince === undefined ? undefined : this.downSince + this.windowMs
  }

  /** The message of the failure that opened the breaker (or the latest one). */
  get lastError(): string | undefined {
    return this.last
  }

  /** An attempt failed without an answer worth trusting (5xx, 429, connection error, timeout). */
  failed(message: string): void {
    // Once open, the cause stays the one that opened it: every unsent item is reported with one text.
    if (this.tripped) return
    this.last = message
    const now = this.clock.now()
    this.downSince ??= now
    if (now - this.downSince >= this.windowMs) this.tripped = true
  }

  /** The service answered (2xx, or a 4xx about the request itself): it is up. Open stays open. */
  answered(): void {
    if (!this.tripped) this.downSince = undefined
  }
}
