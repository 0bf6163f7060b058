// What `kb-sync run --checks` prints on stdout: the verdicts table, then each check that did not pass
// with what failed and the beginning of its answer (what a person needs to see why), then the verdict.
import type { CheckResult, SuiteVerdict } from '../checks/verdict.js'
import { checksResultEntries, renderChecksTable, verdictText } from '../report/checks-results.js'
import { displayName, sanitize } from '../log.js'

const indented = (text: string) => text.replace(/\n/g, '\n    ')

export function checksText(results: CheckResult[], verdict: SuiteVerdict): string {
  const entries = checksResultEntries(results)
  const notPassed = results.flatMap((result, index) => {
    if (result.verdict === 'passed') return []
    const lines = [`Check "${displayName(result.name)}" ${result.verdict}:`]
    for (const failure of result.failed) lines.push(`  - ${displayName(failure)}`)
    // The answer is the flow's text: control characters and escape sequences removed, line breaks kept.
    const answer = String(entries[index].excerpt)
    lines.push(
      answer === '' ? '  No answer.' : `  Answer (excerpt):\n    ${indented(sanitize(answer).trimEnd())}`,
    )
    return [lines.join('\n')]
  })
  return [renderChecksTable(results), ...notPassed, verdictText(verdict)].join('\n\n')
}
