// Stops a run against a service that is down: after `threshold` failed attempts in a row (across all
// workers) nothing new is started, so a dead service costs one short wait, not every request's deadline.
export class CircuitBreaker {
  private consecutive = 0
  private last: string | undefined

  constructor(readonly threshold = 20) {}

  get open(): boolean {
    return this.consecutive >= this.threshold
  }

  /** The message of the failure that opened the breaker (or the latest one). */
  get lastError(): string | undefined {
    return this.last
  }

  /** An attempt failed without an answer worth trusting (5xx, 429, connection error, timeout). */
  failed(message: string): void {
    this.consecutive++
    this.last = message
  }

  /** The service answered (2xx, or a 4xx about the request itself): it is up. Open stays open. */
  answered(): void {
    if (!this.open) this.consecutive = 0
  }
}
