// Waiting for the knowledge base to answer from the sync before the checks run (#36 §4). The service
// indexes when it indexes and has no status call, so the wait is either a fixed time (`settle`) or one
// check, named by `settle-check`, run until it passes — a check the change must make pass — for at most
// `settle`. Each of its runs is a billed run: they count in `max-runs`, after the suite's own runs.
import type { Logger } from '../log.js'
import { systemClock, type Clock } from '../service/retry.js'
import { plannedRuns, type SuiteRepeats } from './repeats.js'
import type { Check } from './schema.js'
import type { CheckResult } from './verdict.js'

/** The settle inputs, as readRunConfig reads them. */
export interface SettleSettings {
  /** The longest wait (0: none). */
  settleMs: number
  /** The check run until it passes; unset: a fixed wait of `settleMs`. */
  settleCheck?: string
  /** Runs the settle check may make (what `max-runs` leaves after the suite's runs). */
  runs: number
}

/** What settleSettingsOf reads of the run-flow inputs (RunConfig has it). */
export interface SettleInputs {
  settleMs: number
  settleCheck?: string
  repeats: SuiteRepeats
  baseline?: unknown
  maxRuns: number
}

/** The settle settings of the run-flow inputs; the settle check's runs are what the suite leaves of max-runs. */
export function settleSettingsOf(config: SettleInputs, checks: readonly Check[]): SettleSettings {
  const suiteRuns = plannedRuns(checks, config.repeats) * (config.baseline ? 2 : 1)
  return {
    settleMs: config.settleMs,
    ...(config.settleCheck !== undefined ? { settleCheck: config.settleCheck } : {}),
    runs: Math.max(0, config.maxRuns - suiteRuns),
  }
}

export interface SettleOutcome {
  /** One sentence for the log, the summary and the comment. */
  note: string
  /** The wait ended without the settle check passing: the answers may still be the old documents'. */
  unsettled: boolean
  /** Runs of the settle check made. */
  polls: number
  /** Seconds waited, polls included. */
  seconds: number
}

// The first poll is at once; then 2, 4, 8, 16 s apart, and every 30 s after: a sync that indexes in
// seconds is seen in seconds, and a ten-minute wait costs about 25 runs, not hundreds.
export const FIRST_POLL_GAP_MS = 2_000
export const LONGEST_POLL_GAP_MS = 30_000

const secondsOf = (ms: number) => Math.round(ms / 100) / 10

/**
 * Waits as the settings say, before the checks run on `target`. Never throws for a poll that failed: the
 * wait ends unsettled with why, and the checks run anyway (their result says what they saw).
 */
/** One run of the settle check, stopped when `signal` aborts; `stopped`: the service refused the key. */
export type SettlePoll = (
  check: Check,
  run: number,
  signal: AbortSignal,
) => Promise<{ result: CheckResult; stopped?: string }>

export async function settle(
  checks: readonly Check[],
  settings: SettleSettings,
  poll: SettlePoll,
  options: { log: Logger; signal?: AbortSignal },
  clock: Clock = systemClock,
): Promise<SettleOutcome | undefined> {
  if (settings.settleMs <= 0) return undefined
  const { log, signal } = options
  const started = clock.now()
  const deadline = started + settings.settleMs
  const elapsed = () => secondsOf(clock.now() - started)
  if (settings.settleCheck === undefined) {
    log.info(`Settle: waiting ${secondsOf(settings.settleMs)} s for the knowledge base to take the sync.`)
    await clock.sleep(settings.settleMs, signal)
    const cancelled = signal?.aborted === true
    return {
      note: cancelled
        ? `The wait for the knowledge base (settle) was cancelled after ${elapsed()} s.`
        : `Waited ${elapsed()} s (settle) for the knowledge base to take the sync; nothing tells whether it did.`,
      unsettled: cancelled,
      polls: 0,
      seconds: elapsed(),
    }
  }
  const name = settings.settleCheck
  const found = checks.find((check) => check.name === name)
  if (!found) throw new Error(`settle-check ${JSON.stringify(name)} is not a check of the suite`)
  // One run per poll, judged by every assertion: the check's own repeat and min-pass are for the suite.
  const check: Check = { ...found, repeat: undefined, minPass: undefined }
  let polls = 0
  let gap = FIRST_POLL_GAP_MS
  const ended = (why: string, unsettled: boolean): SettleOutcome => ({
    note: why,
    unsettled,
    polls,
    seconds: elapsed(),
  })
  const runs = (n: number) => `${n} ${n === 1 ? 'run' : 'runs'}`
  for (;;) {
    if (signal?.aborted) return ended(`The settle check "${name}" was cancelled after ${runs(polls)}.`, true)
    if (polls >= settings.runs)
      return ended(
        `The settle check "${name}" did not pass in ${runs(polls)}, all that max-runs leaves after the checks ` +
          `(${elapsed()} s): the checks may still see the old documents.`,
        true,
      )
    polls++
    // A poll still running at the deadline is stopped there: the deadline bounds the whole wait.
    const cut = AbortSignal.timeout(Math.max(1, deadline - clock.now()))
    const outcome = await poll(check, polls, signal ? AbortSignal.any([signal, cut]) : cut)
    const { result } = outcome
    if (result.verdict === 'passed')
      return ended(
        `The settle check "${name}" passed after ${elapsed()} s (${runs(polls)}): the knowledge base answers ` +
          'from the sync, as far as that check can tell.',
        false,
      )
    if (outcome.stopped !== undefined)
      return ended(`The settle check "${name}" stopped: ${outcome.stopped}`, true)
    const left = deadline - clock.now()
    if (left <= 0)
      return ended(
        `The settle check "${name}" did not pass within settle (${secondsOf(settings.settleMs)} s, ` +
          `${runs(polls)}): the checks may still see the old documents.`,
        true,
      )
    log.info(
      `Settle: "${name}" ${result.verdict} (${result.runs[0]?.failed.join('; ') || 'no answer'}); next run in ` +
        `${secondsOf(Math.min(gap, left))} s.`,
    )
    await clock.sleep(Math.min(gap, left), signal)
    gap = Math.min(gap * 2, LONGEST_POLL_GAP_MS)
  }
}

/**
 * With a baseline: a settle check that passes on the baseline flow too tells nothing about the sync (it
 * passed on the old documents as well), so its passing may have come before the sync was answerable.
 */
export function settleCaveat(
  settleCheck: string | undefined,
  before: readonly CheckResult[] | undefined,
): string | undefined {
  if (settleCheck === undefined || !before) return undefined
  const baseline = before.find((result) => result.name === settleCheck)
  if (baseline?.verdict !== 'passed') return undefined
  return (
    `The settle check "${settleCheck}" passes on the baseline flow too: its passing cannot tell the new ` +
    'documents from the old, so the checks may have run before the sync was answerable. Name a check this ' +
    'change makes pass.'
  )
}
