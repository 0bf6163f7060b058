// The `expect` check of a flow's answer, with RE2 syntax (re2js): matching takes time linear in the
// answer, so no pattern can hang the step the way a backtracking engine can on `(a+)+$`.
import { RE2JS, RE2JSException } from 're2js'
import { formatCount } from '../config/units.js'

export type Expectation = RE2JS

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

/** Why the answer fails `expect` (quoting its beginning), or undefined when it matches or nothing is expected. */
export function expectationProblem(
  answer: string,
  expect: Expectation | undefined,
  input = 'expect',
): string | undefined {
  if (!expect || expect.matcher(answer).find()) return undefined
  const quoted = answer.length <= QUOTED_CHARS ? answer : answer.slice(0, QUOTED_CHARS)
  const rest =
    answer.length <= QUOTED_CHARS
      ? ''
      : `\n…[${formatCount(answer.length - QUOTED_CHARS)} more characters in the "result" output]`
  return `The flow's answer does not match "${input}" (${expect.pattern()}). The answer begins:\n${quoted}${rest}`
}
