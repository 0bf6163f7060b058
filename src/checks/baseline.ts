// Before and after: each check run on the baseline flow (before) and on the flow (after), and what the
// pull request changed — a check fixed, regressed, still passing, still failing, or an error on a side.
import { similarity } from './similarity.js'
import type { CheckResult } from './verdict.js'

// The ratio is of the answers' beginnings: Levenshtein is quadratic, and two answers of a megabyte
// would take minutes. Which answers are the same is judged on the whole text.
export const SIMILARITY_CHARS = 10_000

export type ChangeVerdict = 'fixed' | 'regressed' | 'still-passing' | 'still-failing' | 'error'

export interface ComparedCheck {
  name: string
  question: string
  before: CheckResult
  after: CheckResult
  change: ChangeVerdict
  /** The normalised Levenshtein ratio of the two answers shown (their first SIMILARITY_CHARS), 0–1. */
  similarity: number
  /** The two answers are the same text (trimmed). */
  unchanged: boolean
}

export interface ChangeSummary {
  /** Names, in suite order. */
  fixed: string[]
  /** Every check that regressed, advisory ones included. */
  regressed: string[]
  /** The advisory checks among `regressed`: shown as regressed, never failing `fail-on: regression`. */
  advisoryRegressed: string[]
  stillPassing: number
  stillFailing: number
  errors: number
}

/** A run that errored on either side says nothing about the change: the verdict is an error, not a guess. */
export function changeOf(before: CheckResult['verdict'], after: CheckResult['verdict']): ChangeVerdict {
  if (before === 'error' || after === 'error') return 'error'
  if (before === after) return after === 'passed' ? 'still-passing' : 'still-failing'
  return after === 'passed' ? 'fixed' : 'regressed'
}

/** The two sides paired by position (both ran the same checks in the same order). */
export function compareResults(
  before: readonly CheckResult[],
  after: readonly CheckResult[],
): ComparedCheck[] {
  if (before.length !== after.length)
    throw new Error(`${before.length} results before against ${after.length} after`)
  return after.map((result, index) => ({
    name: result.name,
    question: result.question,
    before: before[index],
    after: result,
    change: changeOf(before[index].verdict, result.verdict),
    similarity: similarity(
      before[index].answer.slice(0, SIMILARITY_CHARS),
      result.answer.slice(0, SIMILARITY_CHARS),
    ),
    unchanged: before[index].answer.trim() === result.answer.trim(),
  }))
}

export function changeSummary(compared: readonly ComparedCheck[]): ChangeSummary {
  const named = (change: ChangeVerdict) => compared.filter((c) => c.change === change).map((c) => c.name)
  return {
    fixed: named('fixed'),
    regressed: named('regressed'),
    advisoryRegressed: compared
      .filter((c) => c.change === 'regressed' && c.after.advisory)
      .map((c) => c.name),
    stillPassing: named('still-passing').length,
    stillFailing: named('still-failing').length,
    errors: named('error').length,
  }
}

/** The regressions that fail `fail-on: regression`: advisory checks never do. */
export const blockingRegressions = (summary: ChangeSummary): number =>
  summary.regressed.length - summary.advisoryRegressed.length

const checks = (n: number) => `${n} ${n === 1 ? 'check' : 'checks'}`

/** "This pull request fixes 2 checks and breaks 1 (advisory).", or that no verdict changed. */
export function changeSentence(summary: ChangeSummary): string {
  const fixed = summary.fixed.length
  const broken = summary.regressed.length
  const advisory = summary.advisoryRegressed.length
  const which =
    advisory === 0
      ? ''
      : advisory < broken
        ? ` (${advisory} advisory)`
        : ` (${broken === 1 ? 'advisory' : 'all advisory'})`
  const errors =
    summary.errors > 0 ? ` ${checks(summary.errors)} could not be compared (a run failed on one side).` : ''
  if (fixed > 0 && broken > 0)
    return `This pull request fixes ${checks(fixed)} and breaks ${broken}${which}.${errors}`
  if (fixed > 0) return `This pull request fixes ${checks(fixed)} and breaks none.${errors}`
  if (broken > 0) return `This pull request breaks ${checks(broken)}${which} and fixes none.${errors}`
  return `This pull request changes no check's verdict.${errors}`
}
