// The checks suite as the user reads it: the `results` output (JSON), and markdown (one table, then
// each answer collapsed) for the job summary and, later, a pull-request comment.
import { cutJson, cutText, OUTPUT_LIMIT_BYTES } from '../service/cut.js'
import { displayName, sanitize } from '../log.js'
import { fenced } from './markdown.js'
import type { CheckResult } from '../checks/verdict.js'
import type { SuiteVerdict } from '../checks/verdict.js'

// The answer's beginning kept in the `results` output and the table.
const EXCERPT_CHARS = 500
// The summary stays under GitHub's 1 MiB per step, answers included.
const SUMMARY_BUDGET_BYTES = 900 * 1024
const ANSWER_MAX_BYTES = 64 * 1024

const VERDICT_LABEL: Record<CheckResult['verdict'], string> = {
  passed: '✅ passed',
  failed: '❌ failed',
  error: '⚠️ error',
}

function excerpt(answer: string): string {
  return answer.length <= EXCERPT_CHARS ? answer : `${answer.slice(0, EXCERPT_CHARS)}…`
}

/** One entry per check: what the `results` output and the results file hold. */
export function checksResultEntries(results: CheckResult[]): Record<string, unknown>[] {
  return results.map((result) => ({
    name: result.name,
    verdict: result.verdict,
    failed: result.failed,
    excerpt: excerpt(result.answer),
    run_id: result.runId ?? null,
    seconds: result.seconds,
  }))
}

/** The results as one JSON text under 1 MiB (`kb-sync run --json`). */
export function checksResultsJson(results: CheckResult[]): string {
  return cutJson(checksResultEntries(results), OUTPUT_LIMIT_BYTES).text
}

/** One table cell: one line, no HTML, no column break. */
function tableCell(text: string): string {
  return displayName(sanitize(text))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '&#124;')
    .replace(/`/g, '&#96;')
}

function shortened(text: string, max = 200): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`
}

/** The verdicts table (check, verdict, seconds, failed assertions); embeddable in a comment. */
export function renderChecksTable(results: CheckResult[]): string {
  const rows = results.map(
    (result) =>
      `| ${tableCell(result.name)} | ${VERDICT_LABEL[result.verdict]} | ${result.seconds.toFixed(1)} | ` +
      `${result.failed.map((failure) => tableCell(shortened(failure))).join('<br>')} |`,
  )
  return ['| Check | Verdict | Seconds | Failed assertions |', '|---|---|---:|---|', ...rows].join('\n')
}

/** The verdict in words: `2 of 3 checks passed (66.7%); threshold 100%.` */
export function verdictText(verdict: SuiteVerdict): string {
  const total = verdict.passed + verdict.failed
  return `${verdict.passed} of ${total} checks passed (${verdict.percent.toFixed(1)}%); threshold ${verdict.threshold}%.`
}

export function renderVerdictLine(verdict: SuiteVerdict): string {
  return `${verdict.ok ? '✅' : '❌'} ${verdictText(verdict)}`
}

/** The job summary: heading, verdict, the table, then each answer in a collapsed block; within the budget. */
export function renderChecksSummary(results: CheckResult[], verdict: SuiteVerdict): string {
  const rows = renderChecksTable(results).split('\n')
  // The table takes at most half: rows past it are counted in a note (the results file has them all).
  let tableBytes = 0
  let shownRows = 0
  for (const row of rows) {
    if (tableBytes + Buffer.byteLength(row) + 1 > SUMMARY_BUDGET_BYTES / 2) break
    tableBytes += Buffer.byteLength(row) + 1
    shownRows += 1
  }
  const hiddenChecks = rows.length - shownRows
  const table =
    rows.slice(0, shownRows).join('\n') + (hiddenChecks > 0 ? `\n\n${hiddenNote(hiddenChecks)}` : '')
  const head = `### Flow checks\n\n${renderVerdictLine(verdict)}\n\n${table}\n`
  let room = Math.max(0, SUMMARY_BUDGET_BYTES - Buffer.byteLength(head))
  // Each answer gets an equal share of what is left (the details markup included in the reserve).
  const perAnswer = Math.min(ANSWER_MAX_BYTES, Math.floor(room / Math.max(1, results.length)) - 512)
  const blocks: string[] = []
  for (const result of results) {
    const title = `${tableCell(shortened(result.name, 120))} — ${VERDICT_LABEL[result.verdict]}`
    const shown = result.answer === '' ? result.failed.join('\n') : result.answer
    const body =
      perAnswer > 0 ? fenced(cutText(sanitize(shown), perAnswer).text) : '_Not shown: too many checks._'
    const block = `<details><summary>${title}</summary>\n\n${body}\n\n</details>`
    // Room for the note that says how many answers are left out.
    if (Buffer.byteLength(block) + 1 > room - 256) break
    blocks.push(block)
    room -= Buffer.byteLength(block) + 1
  }
  if (blocks.length < results.length) blocks.push(hiddenNote(results.length - blocks.length, 'answers'))
  return `${head}\n${blocks.join('\n')}\n`
}

function hiddenNote(count: number, what = 'checks'): string {
  return `_${count} more ${what} not shown (GitHub's summary size limit); the file named by the \`results-file\` output lists all._`
}
