// A check's verdict from its runs (at least `min-pass` of them pass every assertion), and the suite's
// verdict: the share of checks that passed against the `threshold` input (advisory checks counted apart).
import type { JudgeGrade } from './judge-flow.js'

export type CheckVerdict = 'passed' | 'failed' | 'error'

/** One run of a check. */
export interface RunResult {
  /** 1-based, in the order the runs started. */
  run: number
  /** `error`: the run itself failed (no answer to judge). */
  verdict: CheckVerdict
  /** Each failed assertion, or the run's error. */
  failed: string[]
  /** The judged output (already cut under 1 MiB), '' without an answer. */
  answer: string
  runId?: string
  seconds: number
  /** False when the run was never sent (the step was cancelled first). */
  started: boolean
  /** The judge flow's grade of the answer (a check with a rubric whose judge answered in shape). */
  judge?: JudgeGrade
  /** A judge flow run was sent for this run (whatever it answered). */
  judgeSent?: boolean
}

export interface CheckResult {
  name: string
  /** What the flow was asked: the inputs as one text. */
  question: string
  verdict: CheckVerdict
  /**
   * Each failed assertion (or error) of the runs that did not pass, in run order; prefixed with the run
   * ("run 2: …") when the check ran more than once. A passed check may list some (its failed runs).
   */
  failed: string[]
  /** The answer shown: of the first run that did not pass, else of the last run. */
  answer: string
  runId?: string
  /** The median of the check's runs. */
  seconds: number
  runs: RunResult[]
  /** Runs that had to pass. */
  minPass: number
  /** The judge's grade of the run shown (a check with a rubric). */
  judge?: JudgeGrade
  /** Reported, never counted toward the threshold nor failing the step. */
  advisory?: boolean
}

const median = (values: readonly number[]): number => {
  if (values.length === 0) return 0
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1
    ? sorted[middle]
    : Math.round(((sorted[middle - 1] + sorted[middle]) / 2) * 10) / 10
}

/** Runs that passed every assertion. */
export const runsPassed = (result: Pick<CheckResult, 'runs'>): number =>
  result.runs.filter((run) => run.verdict === 'passed').length

/** Runs that were sent (a cancelled step leaves some unsent). */
export const runsMade = (result: Pick<CheckResult, 'runs'>): number =>
  result.runs.filter((run) => run.started).length

/** A check judged from its runs: passed when at least `minPass` passed; else failed, or error when no run that missed had an answer. */
export function checkResultOf(
  check: { name: string; question: string; minPass: number; advisory?: boolean },
  runs: RunResult[],
): CheckResult {
  const missed = runs.filter((run) => run.verdict !== 'passed')
  const verdict: CheckVerdict =
    runsPassed({ runs }) >= check.minPass
      ? 'passed'
      : missed.some((run) => run.verdict === 'failed')
        ? 'failed'
        : 'error'
  const prefix = (run: RunResult) => (runs.length > 1 ? `run ${run.run}: ` : '')
  const shown = missed[0] ?? runs[runs.length - 1]
  return {
    name: check.name,
    question: check.question,
    verdict,
    failed: missed.flatMap((run) => run.failed.map((failure) => `${prefix(run)}${failure}`)),
    answer: shown?.answer ?? '',
    runId: shown?.runId,
    seconds: median(runs.filter((run) => run.started).map((run) => run.seconds)),
    runs,
    minPass: check.minPass,
    ...(shown?.judge ? { judge: shown.judge } : {}),
    ...(check.advisory ? { advisory: true } : {}),
  }
}

export interface SuiteVerdict {
  passed: number
  failed: number
  /** Share of checks that passed, 0–100. */
  percent: number
  threshold: number
  ok: boolean
  /** Names of the checks that did not pass, in suite order. */
  failedNames: string[]
  /** Runs sent, repeats included (judge runs apart). */
  runs: number
  /** Judge flow runs sent. */
  judgeRuns: number
  /** Advisory checks: reported apart, never counted in passed, failed, percent nor ok. */
  advisory: { passed: number; failed: number; failedNames: string[] }
  medianSeconds: number
  slowestSeconds: number
}

/** How the suite reads: all passed, the threshold met with failures (a warning), or below it. */
export type SuiteOutcome = 'passed' | 'warning' | 'failed'

export const outcomeOf = (verdict: SuiteVerdict): SuiteOutcome =>
  !verdict.ok ? 'failed' : verdict.failed > 0 ? 'warning' : 'passed'

export function suiteVerdict(all: CheckResult[], threshold: number): SuiteVerdict {
  const results = all.filter((result) => !result.advisory)
  const advisory = all.filter((result) => result.advisory)
  const passed = results.filter((result) => result.verdict === 'passed').length
  const failed = results.length - passed
  const percent = results.length === 0 ? 100 : (passed / results.length) * 100
  // passed/total ≥ threshold/100, compared in integers so 2/3 against 66.67% is not a rounding accident.
  const ok = passed * 100 >= threshold * results.length
  const seconds = all.flatMap((result) => result.runs.filter((run) => run.started).map((run) => run.seconds))
  return {
    passed,
    failed,
    percent,
    threshold,
    ok,
    failedNames: results.filter((result) => result.verdict !== 'passed').map((result) => result.name),
    runs: seconds.length,
    judgeRuns: all.reduce((sum, result) => sum + result.runs.filter((run) => run.judgeSent).length, 0),
    advisory: {
      passed: advisory.filter((result) => result.verdict === 'passed').length,
      failed: advisory.filter((result) => result.verdict !== 'passed').length,
      failedNames: advisory.filter((result) => result.verdict !== 'passed').map((result) => result.name),
    },
    medianSeconds: median(seconds),
    slowestSeconds: seconds.length === 0 ? 0 : Math.max(...seconds),
  }
}

/** The name of the single question's one check (`inputs` + `expect`) in the table. */
export const SINGLE_CHECK_NAME = 'flow run'

/** The single question (`inputs` + `expect`) as a suite of one at a threshold of 100%. */
export function singleQuestionResult(run: {
  question: string
  answer: string
  /** Why the answer fails `expect`, or why the run failed. */
  problem?: string
  error?: boolean
  seconds: number
}): { results: CheckResult[]; verdict: SuiteVerdict } {
  const result = checkResultOf({ name: SINGLE_CHECK_NAME, question: run.question, minPass: 1 }, [
    {
      run: 1,
      verdict: run.error ? 'error' : run.problem ? 'failed' : 'passed',
      failed: run.problem ? [run.problem] : [],
      answer: run.answer,
      seconds: Math.round(run.seconds * 10) / 10,
      started: true,
    },
  ])
  return { results: [result], verdict: suiteVerdict([result], 100) }
}
