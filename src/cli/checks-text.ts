// What `kb-sync run --checks` prints on stdout: the checks table (the one the summary and the comment
// show), then each check that did not pass with its question, failed assertions and the beginning of its
// answer (what a person needs to see why), then the verdict and the runs, worded as everywhere else.
import { runsMade, runsPassed, type CheckResult, type SuiteVerdict } from '../checks/verdict.js'
import { checksResultEntries } from '../report/checks-results.js'
import { renderChecksTable, runsLine, verdictLine } from '../report/checks-markdown.js'
import { displayName, sanitize } from '../log.js'

const indented = (text: string) => text.replace(/\n/g, '\n    ')

export function checksText(results: CheckResult[], verdict: SuiteVerdict): string {
  const entries = checksResultEntries(results)
  const notPassed = results.flatMap((result, index) => {
    if (result.verdict === 'passed' && result.failed.length === 0) return []
    const runs = `${runsPassed(result)} of ${runsMade(result)} ${runsMade(result) === 1 ? 'run' : 'runs'} passed`
    const lines = [`Check "${displayName(result.name)}" ${result.verdict} (${runs}):`]
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
  return [renderChecksTable(results).trimEnd(), ...notPassed, verdictLine(verdict), runsLine(verdict)].join(
    '\n\n',
  )
}
