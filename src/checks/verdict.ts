// The suite's verdict: the share of checks that passed against the `threshold` input.
import type { CheckResult } from './run.js'

/** `100%`, `90%`, `90` or `87.5%` → a percentage from 0 to 100, or undefined when not one. */
export function parseThreshold(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*%?$/.exec(text.trim())
  if (!match) return undefined
  const percent = Number(match[1])
  return percent >= 0 && percent <= 100 ? percent : undefined
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
