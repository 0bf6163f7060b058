// How the runner cancels a step: SIGINT, then SIGTERM 7.5 s later, then SIGKILL 2.5 s after that. A step
// that honours the cancellation has exited on its own before the SIGKILL, so `sent` never holds it.
import type { ChildProcess } from 'node:child_process'

export const RUNNER_SIGTERM_AFTER_MS = 7500
export const RUNNER_SIGKILL_AFTER_MS = RUNNER_SIGTERM_AFTER_MS + 2500

export interface RunnerCancellation {
  /** The signals sent, in order, until the process exited. */
  sent: NodeJS.Signals[]
}

const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null

/** Starts the runner's cancellation sequence now. */
export function cancelLikeTheRunner(child: ChildProcess): RunnerCancellation {
  const cancellation: RunnerCancellation = { sent: [] }
  const send = (signal: NodeJS.Signals) => {
    if (!running(child)) return
    child.kill(signal)
    cancellation.sent.push(signal)
  }
  send('SIGINT')
  if (!running(child)) return cancellation
  const timers = [
    setTimeout(() => send('SIGTERM'), RUNNER_SIGTERM_AFTER_MS),
    setTimeout(() => send('SIGKILL'), RUNNER_SIGKILL_AFTER_MS),
  ]
  child.once('exit', () => timers.forEach(clearTimeout))
  return cancellation
}
