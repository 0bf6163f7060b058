// The two stops of a send: the first (cancellation, the breaker opening, a refusal) starts nothing new and
// wakes the sleepers; the second (`graceMs` after cancellation, or a second signal) cuts off the requests
// still in flight.
import { setMaxListeners } from 'node:events'
import { cancellationOf } from '../cancellation.js'

export const DEFAULT_GRACE_MS = 3000

export class SendStops {
  /** Aborted on cancellation or when the breaker opens: nothing new starts, sleepers wake. */
  readonly stop = new AbortController()
  /** Aborted `graceMs` after cancellation, or by a second signal: the requests still in flight are cut off. */
  readonly hardStop = new AbortController()
  /** The second signal that ended the grace early, when one did. */
  cutOffBy: string | undefined

  constructor() {
    // Every sleeping retry and every request in flight listens to these: as many as the plan has
    // batches, by design, so Node's leak warning (at 11 listeners) would be noise in a user's log.
    setMaxListeners(0, this.stop.signal, this.hardStop.signal)
  }

  /**
   * Follows the runner's cancellation (`signal`) and second signal (`cutOff`, cancellation.ts `runCutOff`)
   * until the function returned is called, which stops the send.
   */
  follow(signal: AbortSignal | undefined, cutOff: AbortSignal | undefined, graceMs?: number): () => void {
    let graceTimer: NodeJS.Timeout | undefined
    const onCancel = () => {
      this.stop.abort()
      graceTimer = setTimeout(() => this.hardStop.abort(), graceMs ?? DEFAULT_GRACE_MS)
    }
    if (signal?.aborted) onCancel()
    else signal?.addEventListener('abort', onCancel, { once: true })
    const onCutOff = () => {
      if (this.hardStop.signal.aborted) return
      this.cutOffBy = cancellationOf(cutOff)?.signalName ?? 'a second signal'
      this.stop.abort()
      this.hardStop.abort()
    }
    if (cutOff?.aborted) onCutOff()
    else cutOff?.addEventListener('abort', onCutOff, { once: true })

    return () => {
      signal?.removeEventListener('abort', onCancel)
      cutOff?.removeEventListener('abort', onCutOff)
      clearTimeout(graceTimer)
      // Ends a pause the service asked for that outlasts the run: its timer must not hold the process.
      this.stop.abort()
    }
  }
}
