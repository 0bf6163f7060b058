// What the node's answers have said about its documents of this run, and the gate that holds the units
// of unknown state behind the first of them (the pioneer) until the answers say something.
import type { Operation } from '../model.js'

export class NodeEvidence {
  /**
   * The operation the latest upsert request that landed more than the one odd document of a search used:
   * what the node's documents of this run need now (an interrupted sync leaves a node half filled, so
   * the latest answer says more than a count over the run).
   */
  private latestFit: Operation | undefined
  /**
   * Until the node's answers say something, only the first unknown-state unit (the pioneer) is sent: the
   * others would all be sent as the plan's guess, and on a first sync to an empty node each would pay a
   * PATCH answered 404 before its POST. Opens on the first evidence, when the pioneer ends, or on a stop.
   */
  private pioneer: 'none' | 'sent' | 'done' = 'none'
  private openGate!: () => void
  private readonly gate = new Promise<void>((resolve) => (this.openGate = resolve))

  constructor(stop: AbortSignal) {
    stop.addEventListener('abort', () => this.openGate(), { once: true })
  }

  /** What the node's latest answers say documents need (undefined before any landed). */
  get latest(): Operation | undefined {
    return this.latestFit
  }

  /**
   * Before the first request of a unit of unknown state: undefined when it may go now (as the pioneer when
   * it is the first, `role.pioneer` then set), else the gate it waits at.
   */
  turn(role: { pioneer: boolean }): Promise<void> | undefined {
    if (this.pioneer === 'done' || this.latestFit) return undefined
    if (this.pioneer === 'none') {
      this.pioneer = 'sent'
      role.pioneer = true
      return undefined
    }
    return this.gate
  }

  /** An upsert request landed as `operation`: what the node's documents need now. */
  landed(operation: Operation): void {
    this.latestFit = operation
    this.openGate()
  }

  /** The pioneer ended: the units behind it go, as the node's answers (or the plan) say. */
  pioneerEnded(): void {
    this.pioneer = 'done'
    this.openGate()
  }
}
