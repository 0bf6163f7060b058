// The `expect` check of a flow's answer, with RE2 syntax (re2js): matching takes time linear in the
// answer, so no pattern can hang the step the way a backtracking engine can on `(a+)+$`.
import { RE2JS, RE2JSException } from 're2js'
import { formatCount } from '../units.js'

export type Expectation = RE2JS

/**
 * The most work one match may take, as RE2's program size × the text's length. RE2 is linear in the text,
 * but its automaton may walk its whole program per character: `(\w|\s){1000}\d` (a program of 3,003)
 * against 90,000 characters takes seconds, ~20–25 ns per unit at worst (`npm run bench -- matching`,
 * bench/README.md). 40 million units is at most ~1 s of a blocked thread; common patterns
 * (`(?i)refund.*30 days`: 17) stay far below it even against a 900 KiB answer.
 */
export const MAX_MATCH_WORK = 40_000_000

/** A match refused before it starts, because it could hold the thread for seconds. */
export class MatchTooCostlyError extends Error {
  constructor(pattern: RE2JS, length: number) {
    super(
      `the pattern ${JSON.stringify(pattern.pattern())} (an RE2 program of ${formatCount(pattern.programSize())}) ` +
        `against ${formatCount(length)} characters is more work than one match may take ` +
        `(${formatCount(MAX_MATCH_WORK)} program steps × characters); use a shorter pattern (fewer repeats)`,
    )
    this.name = 'MatchTooCostlyError'
  }
}

/** Whether `pattern` matches somewhere in `text`; throws MatchTooCostlyError instead of a long match. */
export function findBounded(pattern: RE2JS, text: string): boolean {
  if (pattern.programSize() * text.length > MAX_MATCH_WORK)
    throw new MatchTooCostlyError(pattern, text.length)
  return pattern.matcher(text).find()
}

// How much of a non-matching answer the failure quotes; the whole (cut) answer is the `result` output.
const QUOTED_CHARS = 2000

/** The compiled pattern, or why it is not a valid RE2 pattern. */
export function compileExpectation(source: string): { pattern: Expectation } | { problem: string } {
  try {
    return { pattern: RE2JS.compile(source) }
  } catch (error) {
    if (!(error instanceof RE2JSException)) throw error
    return { problem: error.message }
  }
}

export interface ExpectationWording {
  /** How the setting is named: `"expect"` (the action), `--expect` (the CLI). */
  input?: string
  /** The answer is shown next to the failure (the CLI prints it): the failure does not quote it again. */
  answerShown?: boolean
}

/**
 * Why the answer fails `expect` (quoting its beginning, unless it is shown already), or undefined when it
 * matches or nothing is expected.
 */
export function expectationProblem(
  answer: string,
  expect: Expectation | undefined,
  { input = '"expect"', answerShown = false }: ExpectationWording = {},
): string | undefined {
  if (!expect) return undefined
  try {
    if (findBounded(expect, answer)) return undefined
  } catch (error) {
    if (!(error instanceof MatchTooCostlyError)) throw error
    return `The flow's answer could not be matched against ${input}: ${error.message}.`
  }
  if (answerShown)
    return `The flow's answer (printed on stdout) does not match ${input} (${expect.pattern()}).`
  const quoted = answer.length <= QUOTED_CHARS ? answer : answer.slice(0, QUOTED_CHARS)
  const rest =
    answer.length <= QUOTED_CHARS
      ? ''
      : `\n…[${formatCount(answer.length - QUOTED_CHARS)} more characters in the "result" output]`
  return `The flow's answer does not match ${input} (${expect.pattern()}). The answer begins:\n${quoted}${rest}`
}
