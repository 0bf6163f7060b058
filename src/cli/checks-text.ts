// What `kb-sync run --checks` prints on stdout: the checks table (the one the summary and the comment
// show), then each check that did not pass with its question, failed assertions and the beginning of its
// answer (what a person needs to see why), then the verdict and the runs, worded as everywhere else.
import { runsMade, runsPassed, type CheckResult, type SuiteVerdict } from '../checks/verdict.js'
import type { ComparedCheck } from '../checks/baseline.js'
import type { FailOn } from '../config/run-inputs.js'
import { afterText, changeLabel, leadLine, renderComparedTable } from '../report/baseline-markdown.js'
import { checksResultEntries, comparedResultEntries } from '../report/checks-results.js'
import { advisoryLine, renderChecksTable, runsLine, verdictLine } from '../report/checks-markdown.js'
import { formatCount } from '../units.js'
import { displayName, sanitize } from '../log.js'
import { DIFF_CHARS, MIN_SHARED_WORDS, wordDiffOf, type DiffPart } from '../checks/word-diff.js'

const indented = (text: string) => text.replace(/\n/g, '\n    ')

// The diff's beginning printed, like the answers' excerpts: enough to see the change in a terminal.
const DIFF_EXCERPT_CHARS = 1_000
const MARK = { same: ['', ''], removed: ['[-', '-]'], added: ['{+', '+}'] } as const

/** `within [-30-]{+14+} days` (wdiff's marks), its beginning, each mark closed. */
function plainDiff(parts: readonly DiffPart[]): string {
  let text = ''
  for (const part of parts) {
    const [open, close] = MARK[part.change]
    const room = DIFF_EXCERPT_CHARS - text.length
    if (part.text.length > room) return `${text}${open}${part.text.slice(0, Math.max(0, room))}…${close}`
    text += `${open}${part.text}${close}`
  }
  return text
}

/** The word-level diff lines of a changed answer (none when one side has no answer: its line says so). */
function diffLines(check: ComparedCheck): string[] {
  const diff = wordDiffOf(sanitize(check.before.answer), sanitize(check.after.answer))
  if (diff.kind === 'no-answer') return []
  if (diff.kind === 'same-words')
    return [
      diff.partial
        ? `  No word differs in the first ${formatCount(DIFF_CHARS)} characters of the answers.`
        : '  The answers have the same words; only white space differs.',
    ]
  if (diff.kind === 'dissimilar')
    return [
      `  No word-level diff: the answers have less than ${MIN_SHARED_WORDS * 100}% of their words in common.`,
    ]
  return [`  Diff ([-before-]{+after+}, excerpt):\n    ${indented(plainDiff(diff.parts).trimEnd())}`]
}

export function checksText(results: CheckResult[], verdict: SuiteVerdict): string {
  const entries = checksResultEntries(results)
  const notPassed = results.flatMap((result, index) => {
    if (result.verdict === 'passed' && result.failed.length === 0) return []
    const runs = `${runsPassed(result)} of ${runsMade(result)} ${runsMade(result) === 1 ? 'run' : 'runs'} passed`
    const lines = [
      `Check "${displayName(result.name)}" ${result.verdict}${result.advisory ? ' (advisory)' : ''} (${runs}):`,
    ]
    lines.push(`  Question: ${indented(sanitize(result.question).trimEnd())}`)
    lines.push('  Failed assertions:')
    for (const failure of result.failed) lines.push(`  - ${displayName(failure)}`)
    // The answer is the flow's text: control characters and escape sequences removed, line breaks kept.
    const answer = String(entries[index].excerpt)
    lines.push(
      answer === '' ? '  No answer.' : `  Answer (excerpt):\n    ${indented(sanitize(answer).trimEnd())}`,
    )
    return [lines.join('\n')]
  })
  return [
    renderChecksTable(results).trimEnd(),
    ...notPassed,
    verdictLine(verdict),
    ...(advisoryLine(verdict) ? [advisoryLine(verdict)] : []),
    runsLine(verdict),
  ].join('\n\n')
}

/**
 * `kb-sync run --baseline-flow-id`: the change first, the table the summary shows, then each check whose
 * verdict changed or that does not pass, with the beginning of the word-level diff and of both answers, and
 * the after side's verdict.
 */
export function comparedText(compared: ComparedCheck[], verdict: SuiteVerdict, failOn: FailOn): string {
  const entries = comparedResultEntries(compared)
  const excerptOf = (entry: Record<string, unknown> | undefined) =>
    sanitize(String((entry as { excerpt?: unknown } | undefined)?.excerpt ?? '')).trimEnd()
  const answer = (label: string, text: string) =>
    text === '' ? `  ${label}: no answer.` : `  ${label} (excerpt):\n    ${indented(text)}`
  const notable = compared.flatMap((check, index) => {
    if (check.change === 'still-passing') return []
    const entry = entries[index] as { before?: Record<string, unknown>; after?: Record<string, unknown> }
    const lines = [`Check "${displayName(check.name)}": ${changeLabel(check)}`]
    lines.push(`  Question: ${indented(sanitize(check.question).trimEnd())}`)
    for (const failure of check.after.failed) lines.push(`  - after: ${displayName(failure)}`)
    if (check.unchanged) lines.push(answer('Answer, unchanged', excerptOf(entry.after)))
    else {
      lines.push(...diffLines(check))
      lines.push(answer('Before', excerptOf(entry.before)))
      lines.push(answer('After', excerptOf(entry.after)))
    }
    return [lines.join('\n')]
  })
  return [
    leadLine(compared),
    renderComparedTable(compared).trimEnd(),
    ...notable,
    `After: ${failOn === 'threshold' ? verdictLine(verdict) : afterText(verdict, failOn)}`,
    ...(advisoryLine(verdict) ? [advisoryLine(verdict)] : []),
  ].join('\n\n')
}
