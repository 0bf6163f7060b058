// The suite's verdict: the share of checks that passed against the `threshold` input.
export type CheckVerdict = 'passed' | 'failed' | 'error'

export interface CheckResult {
  name: string
  /** `error`: the run itself failed (no answer to judge). */
  verdict: CheckVerdict
  /** Each failed assertion, or the run's error. */
  failed: string[]
  /** The judged output (already cut under 1 MiB), '' without an answer. */
  answer: string
  runId?: string
  seconds: number
}

export interface SuiteVerdict {
  passed: number
  failed: number
  /** Share of checks that passed, 0–100. */
  percent: number
  threshold: number
  ok: boolean
}

export function suiteVerdict(results: CheckResult[], threshold: number): SuiteVerdict {
  const passed = results.filter((result) => result.verdict === 'passed').length
  const failed = results.length - passed
  const percent = results.length === 0 ? 100 : (passed / results.length) * 100
  // passed/total ≥ threshold/100, compared in integers so 2/3 against 66.67% is not a rounding accident.
  const ok = passed * 100 >= threshold * results.length
  return { passed, failed, percent, threshold, ok }
}
