// One cancellation for the whole run. The runner cancels a step with SIGINT, then SIGTERM 7.5 s later,
// then SIGKILL 2.5 s after that (actions/runner, src/Runner.Sdk/ProcessInvoker.cs: `_sigintTimeout`,
// `_sigtermTimeout`, `CancelAndKillProcessTree`); Ctrl-C sends the CLI a SIGINT. Every wait of a run
// (lookups, git, the service, the comment) listens to `runCancellation`, so the run stops within seconds
// and still writes its outputs and summary. The only wait the first signal does not end at once, the
// grace of indexing requests in flight, listens to `runCutOff`: a second signal ends it, whatever is
// left of it. Node ends the process at once on a signal no listener has claimed: the
// entries claim both signals in their first import (./claim-signals.js), before any other module of
// the bundle is evaluated.
import { setMaxListeners } from 'node:events'
import { constants } from 'node:os'

/** The reason of the aborted run signal. */
export class RunCancelled extends Error {
  readonly code = 'CANCELLED'
  constructor(readonly signalName: NodeJS.Signals) {
    super(`The run was cancelled (${signalName} received)`)
    this.name = 'RunCancelled'
  }
}

/** The cause of each item that a cancelled run did not send (as sending itself words it). */
export const NOT_SENT_CANCELLED = 'cancelled before it was sent'

const controller = new AbortController()
// Every wait in flight listens to it; Node's leak warning (at 11 listeners) would be noise in a user's log.
setMaxListeners(0, controller.signal)

/** Aborted, with a RunCancelled reason, on the first SIGINT or SIGTERM once the signals are claimed. */
export const runCancellation: AbortSignal = controller.signal

const cutOffController = new AbortController()
setMaxListeners(0, cutOffController.signal)

/**
 * Aborted, with a RunCancelled reason, on the second signal (the runner's SIGTERM, a second Ctrl-C): what
 * the first signal let finish (requests in flight) is cut off, and the outputs and summary written now.
 */
export const runCutOff: AbortSignal = cutOffController.signal

let claimed = false

export function claimCancellationSignals(): void {
  if (claimed) return
  claimed = true
  const cancel = (signal: NodeJS.Signals): void => {
    if (!controller.signal.aborted) controller.abort(new RunCancelled(signal))
    else if (!cutOffController.signal.aborted) cutOffController.abort(new RunCancelled(signal))
  }
  // The listeners stay for the whole run: the runner's SIGTERM (or a second Ctrl-C) must not end the
  // process while it writes what the first signal left to write.
  process.on('SIGINT', cancel)
  process.on('SIGTERM', cancel)
}

/** The cancellation behind an aborted signal, if that is why it aborted. */
export function cancellationOf(signal: AbortSignal | undefined): RunCancelled | undefined {
  return signal?.aborted && signal.reason instanceof RunCancelled ? signal.reason : undefined
}

/** A wait's own time bound, ended early by the run's cancellation. */
export function withTimeout(cancel: AbortSignal | undefined, timeoutMs: number): AbortSignal {
  const timeout = AbortSignal.timeout(timeoutMs)
  return cancel ? AbortSignal.any([cancel, timeout]) : timeout
}

/** The shell's exit status for a process ended by the signal: 130 for SIGINT, 143 for SIGTERM. */
export function cancelledExitStatus(cancelled: RunCancelled): number {
  return 128 + (constants.signals[cancelled.signalName] ?? 0)
}
