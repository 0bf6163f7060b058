// How many times each check runs and how many of its runs must pass: the check's own `repeat` and
// `min-pass`, else the suite's inputs. Every run costs money, so the total is bounded by `max-runs`.
import type { Check } from './schema.js'

export interface SuiteRepeats {
  /** The `repeat` input (1–10). */
  repeat: number
  /** The `min-pass` input; unset means every run must pass. */
  minPass?: number
}

export interface CheckRepeats {
  repeat: number
  minPass: number
}

/**
 * A check that sets its own `repeat` is judged on its own terms (its `min-pass`, else all its runs);
 * the suite's `min-pass` applies to the checks that take the suite's `repeat`.
 */
export function repeatsOf(check: Check, suite: SuiteRepeats): CheckRepeats {
  const repeat = check.repeat ?? suite.repeat
  const minPass = check.minPass ?? (check.repeat !== undefined ? check.repeat : (suite.minPass ?? repeat))
  return { repeat, minPass }
}

/** Every run the suite would start, repeats included, and with a judge flow one judge run per run of a check with a rubric. */
export function plannedRuns(checks: readonly Check[], suite: SuiteRepeats, judged = false): number {
  return checks.reduce(
    (total, check) => total + repeatsOf(check, suite).repeat * (judged && check.rubric !== undefined ? 2 : 1),
    0,
  )
}

/**
 * Checks whose own `min-pass` exceeds the suite's `repeat` they take, each naming the check and the field
 * (a check's `min-pass` above its own `repeat` is refused by the schema, the suite's inputs by the config).
 */
export function repeatProblems(checks: readonly Check[], suite: SuiteRepeats): string[] {
  return checks.flatMap((check, index) => {
    const { repeat, minPass } = repeatsOf(check, suite)
    if (check.minPass === undefined || minPass <= repeat) return []
    return [
      `check "${check.name}" (#${index + 1}), field "min-pass": ${minPass} is more than the ${repeat} run(s) ` +
        "the check gets from the repeat input; set the check's repeat too",
    ]
  })
}
