// The checks as people read them, in the job summary and the pull-request comment alike: the verdict
// line (bold, with the counts), the runs, one table row per check, failed first (its question, verdict,
// runs passed of runs made, seconds, the first failed assertion), then each check's question, answer and
// failed assertions collapsed, the question and answer as quotes (they wrap). The two
// differ only in their heading, their size limit and where they send the reader for what was cut.
import { runsMade, runsPassed, outcomeOf, type CheckResult, type SuiteVerdict } from '../checks/verdict.js'
import { scoreText } from '../checks/judge-flow.js'
import { cutText } from '../service/cut.js'
import { CutString } from '../service/stream-json.js'
import { details, inline, inlineFlowText, inlineHtml, quoted, shortLine, sizeOf, table } from './markdown.js'

// One sign, one meaning, wherever checks are shown: ✅ passed, ❌ failed (below the threshold), ⚠️ the
// threshold met with failed checks (a warning), 💥 a run that errored (no answer to judge).
export const ERROR_SIGN = '💥'

export const VERDICT_LABEL: Record<CheckResult['verdict'], string> = {
  passed: '✅ passed',
  failed: '❌ failed',
  error: `${ERROR_SIGN} error`,
}

const OUTCOME_ICON = { passed: '✅', warning: '⚠️', failed: '❌' } as const

// Failed checks named in the log's and the terminal's verdict line (verdictText); the table names them all.
const NAMED_CHECKS = 10
const QUESTION_CELL = 100
const ASSERTION_CELL = 160
// A failed assertion in a collapsed block, and how many a block lists; the results file holds all.
const ASSERTION_LINE = 500
const LISTED_ASSERTIONS = 20

/** `2/3`, and which runs failed when the check ran more than once: `2/3 (run 3 failed)`. */
export function runsText(result: CheckResult): string {
  const made = runsMade(result)
  const missed = result.runs.filter((run) => run.started && run.verdict !== 'passed').map((run) => run.run)
  const which =
    made > 1 && missed.length > 0
      ? ` (${missed.length === 1 ? 'run' : 'runs'} ${missed.join(', ')} failed)`
      : ''
  return `${runsPassed(result)}/${made}${which}`
}

function namesOf(names: readonly string[], quote: (name: string) => string): string {
  const shown = names.slice(0, NAMED_CHECKS).map(quote).join(', ')
  return names.length > NAMED_CHECKS ? `${shown} and ${names.length - NAMED_CHECKS} more` : shown
}

/**
 * The verdict in words, the same in the summary, the comment and the CLI:
 * `2 of 3 checks passed (66.7%); threshold 60% met with failed checks: "b".`
 */
export function verdictText(verdict: SuiteVerdict, quote = (name: string) => JSON.stringify(name)): string {
  const total = verdict.passed + verdict.failed
  const counts = `${verdict.passed} of ${total} checks passed (${verdict.percent.toFixed(1)}%)`
  const failed = namesOf(verdict.failedNames, quote)
  switch (outcomeOf(verdict)) {
    case 'passed':
      return `${counts}; threshold ${verdict.threshold}%.`
    case 'warning':
      return `${counts}; threshold ${verdict.threshold}% met with failed checks: ${failed}.`
    case 'failed':
      return `${counts}, below the threshold ${verdict.threshold}%. Failed checks: ${failed}.`
  }
}

/** The verdict with its icon: ✅ all passed, ⚠️ threshold met with failures, ❌ below it. */
export function verdictLine(verdict: SuiteVerdict, quote?: (name: string) => string): string {
  return `${OUTCOME_ICON[outcomeOf(verdict)]} ${verdictText(verdict, quote)}`
}

/** `3 runs made; median 1.2 s, slowest 3.4 s.` (`, and 3 judge runs` with a judge flow). */
export function runsLine(verdict: SuiteVerdict): string {
  const judge =
    verdict.judgeRuns > 0
      ? ` (and ${verdict.judgeRuns} judge ${verdict.judgeRuns === 1 ? 'run' : 'runs'})`
      : ''
  return (
    `${verdict.runs} ${verdict.runs === 1 ? 'run' : 'runs'} made${judge}; median ${verdict.medianSeconds.toFixed(1)} s, ` +
    `slowest ${verdict.slowestSeconds.toFixed(1)} s.`
  )
}

/** `1 failed, 2 errors`: the checks that did not pass, by verdict. */
function missedCounts(failed: number, errors: number): string {
  const parts = [
    failed > 0 ? `${failed} failed` : '',
    errors > 0 ? `${errors} ${errors === 1 ? 'error' : 'errors'}` : '',
  ]
  return parts.filter((part) => part !== '').join(', ')
}

/**
 * The verdict in the summary and the comment, with its sign and counts; the checks that did not pass are
 * in the table, first, not named here (a long list of names buried the verdict). `errors`: how many of
 * the checks that did not pass are errors.
 * `❌ 1 of 3 checks passed (33.3%), below the threshold 100%: 1 failed, 1 error.`
 */
export function markdownVerdictLine(verdict: SuiteVerdict, errors: number): string {
  const counts = `${verdict.passed} of ${verdict.passed + verdict.failed} checks passed (${verdict.percent.toFixed(1)}%)`
  const missed = missedCounts(verdict.failed - errors, errors)
  switch (outcomeOf(verdict)) {
    case 'passed':
      return `${OUTCOME_ICON.passed} ${counts}; threshold ${verdict.threshold}%.`
    case 'warning':
      return `${OUTCOME_ICON.warning} ${counts}; threshold ${verdict.threshold}% met, ${missed}.`
    case 'failed':
      return `${OUTCOME_ICON.failed} ${counts}, below the threshold ${verdict.threshold}%: ${missed}.`
  }
}

/** Checks that errored. */
export const errorsOf = (results: readonly Pick<CheckResult, 'verdict'>[]) =>
  results.filter((result) => result.verdict === 'error').length

// The order a reviewer reads the rows in: what failed first, then what could not be judged, then the rest.
const VERDICT_ORDER: Record<CheckResult['verdict'], number> = { failed: 0, error: 1, passed: 2 }

/** The checks in reading order: failed, errors, then passed; the suite's order within each. */
export const inReadingOrder = (results: readonly CheckResult[]): CheckResult[] =>
  [...results].sort((a, b) => VERDICT_ORDER[a.verdict] - VERDICT_ORDER[b.verdict])

/**
 * The advisory checks, apart from the verdict: `Advisory: 2 failed ("a", "b"), 1 passed; not counted
 * toward the threshold.`; '' without advisory checks.
 */
export function advisoryLine(verdict: SuiteVerdict, quote = (name: string) => JSON.stringify(name)): string {
  const { passed, failed, failedNames } = verdict.advisory
  if (passed + failed === 0) return ''
  const parts = [
    ...(failed > 0 ? [`${failed} failed (${namesOf(failedNames, quote)})`] : []),
    ...(passed > 0 ? [`${passed} passed`] : []),
  ]
  return `Advisory: ${parts.join(', ')}; not counted toward the threshold nor failing the step.`
}

/** The advisory line in markdown (a line of its own under the verdict), or ''. */
export const markdownAdvisoryLine = (verdict: SuiteVerdict) => {
  const line = advisoryLine(verdict, (name) => `"${inline(shortLine(name, 80))}"`)
  return line === ''
    ? ''
    : `${line}

`
}

// The judge's score and reason in a table cell.
const JUDGE_CELL = 120

/** `0.85 · the answer gives the 14 days`: the judge's grade of the run shown, '' without one. */
export const judgeCell = (result: CheckResult) =>
  result.judge
    ? inlineFlowText(shortLine(`${scoreText(result.judge.score)} · ${result.judge.reason}`, JUDGE_CELL))
    : ''

/** Whether any check was graded by the judge flow (the tables then have a Judge column). */
export const anyJudged = (results: readonly CheckResult[]) =>
  results.some((result) => result.runs.some((run) => run.judgeSent))

/**
 * One row per check: check, question, verdict, runs, seconds, (the judge's grade,) first failed
 * assertion; advisory checks in a table of their own below.
 */
export function renderChecksTable(results: readonly CheckResult[]): string {
  const judged = anyJudged(results)
  const tableOf = (rows: readonly CheckResult[]) =>
    table(
      [
        'Check',
        'Question',
        'Verdict',
        'Runs',
        'Seconds',
        ...(judged ? ['Judge'] : []),
        'First failed assertion',
      ],
      rows.map((result) => [
        inline(shortLine(result.name, 80)),
        inline(shortLine(result.question, QUESTION_CELL)),
        VERDICT_LABEL[result.verdict],
        runsText(result),
        result.seconds.toFixed(1),
        ...(judged ? [judgeCell(result)] : []),
        result.failed.length > 0 ? inlineFlowText(shortLine(result.failed[0], ASSERTION_CELL)) : '',
      ]),
    )
  const blocking = results.filter((result) => !result.advisory)
  const advisory = results.filter((result) => result.advisory)
  if (advisory.length === 0) return tableOf(blocking)
  const advisoryTable = `**Advisory checks** (not counted toward the threshold)\n\n${tableOf(advisory)}`
  return blocking.length === 0 ? advisoryTable : `${tableOf(blocking)}\n${advisoryTable}`
}

export interface ChecksReportOptions {
  /** `### Flow checks` */
  heading: string
  /** Size limit of the whole text, in UTF-8 bytes. */
  limit: number
  /** Where the reader finds what was cut: "the file named by the `results-file` output". */
  fullResultsAt: string
}

const blockTitle = (result: CheckResult) =>
  `${inlineHtml(shortLine(result.name, 80))} — ${VERDICT_LABEL[result.verdict]} · ${runsText(result)}` +
  (result.advisory ? ' · advisory' : '')

// Below this, a cut text would be its note alone.
export const MIN_CUT_BYTES = 256

/** A text's quote when it may fit in `room` (its text at most twice that), and the room it takes. */
export interface QuoteNeed {
  whole?: string
  /** The quote's size, or the text's when it was not quoted (then more than `room`). */
  need: number
}

export function quoteNeed(text: string, room: number): QuoteNeed {
  if (sizeOf(text) > 2 * room) return { need: sizeOf(text) }
  const whole = quoted(text)
  return { whole, need: sizeOf(whole) }
}

/**
 * `text` as a quote block (markdown.ts `quoted`) of at most `bytes`: whole when it fits, else the quote of
 * a beginning that does (a note at its end), '' when too little room for one. Escapes make a quote longer
 * than its text, by a share that depends on the text: a beginning is tried, then scaled by how far its
 * quote missed (2% short of it), a few quotes of at most `bytes` each; a huge answer is never quoted whole.
 * `known`: the text's quoteNeed, when worked out already.
 */
export function quotedWithin(text: string, bytes: number, known = quoteNeed(text, bytes)): string {
  if (known.whole !== undefined && known.need <= bytes) return known.whole
  if (bytes < MIN_CUT_BYTES) return ''
  // Only a beginning of `bytes` can be kept: no try measures the rest again.
  const head = new CutString(text.slice(0, bytes), text.length, sizeOf(text))
  const growth = known.whole === undefined ? 1 : known.need / Math.max(1, sizeOf(text))
  let keep = Math.min(bytes, Math.floor(bytes / growth))
  for (let tries = 0; tries < 20 && keep > 0; tries++) {
    const tried = quoted(cutText(head, keep).text)
    const size = sizeOf(tried)
    if (size <= bytes) return tried
    keep = Math.min(keep - 1, Math.floor(keep * (bytes / size) * 0.98))
  }
  const note = quoted(cutText(head, 0).text)
  return sizeOf(note) <= bytes ? note : ''
}

/** One check collapsed: its question, the answer shown (of the first run that did not pass), its failed assertions. */
function checkBlock(result: CheckResult, room: number): string {
  const failures = result.failed
    .slice(0, LISTED_ASSERTIONS)
    .map((failure) => `- ${inlineFlowText(shortLine(failure, ASSERTION_LINE))}`)
  if (result.failed.length > LISTED_ASSERTIONS)
    failures.push(`- _and ${result.failed.length - LISTED_ASSERTIONS} more; the results file lists all_`)
  const assertions = failures.length > 0 ? `\n\n**Failed assertions**\n\n${failures.join('\n')}` : ''
  const shownRun = result.runs.find((run) => run.verdict !== 'passed') ?? result.runs[result.runs.length - 1]
  const answerTitle = result.runs.length > 1 && shownRun ? `**Answer** (run ${shownRun.run})` : '**Answer**'
  const block = (question: string, answer: string) =>
    details(blockTitle(result), `**Question**\n\n${question}\n\n${answerTitle}\n\n${answer}${assertions}`)
  // The question is short in practice: it gets what it needs up to a quarter; the answer the rest.
  const textRoom = Math.max(0, room - sizeOf(block('', '')))
  const question = quotedWithin(result.question, Math.floor(textRoom / 4))
  const answer =
    result.answer === '' ? '_No answer._' : quotedWithin(result.answer, textRoom - sizeOf(question))
  return block(question, answer)
}

/** The smallest block a check can have (its answer and question empty): below that it is left out. */
const emptyBlockSize = (result: CheckResult) =>
  sizeOf(checkBlock({ ...result, question: '', answer: '' }, 0)) + MIN_CUT_BYTES

function hiddenNote(count: number, what: string, options: ChecksReportOptions): string {
  return `_${count} more ${what} not shown (to stay within GitHub's size limit); ${options.fullResultsAt} lists all._`
}

/** How a report lays out its items: the table of some, and each item's collapsed block. */
export interface ReportParts<T, P> {
  table: (items: readonly T[]) => string
  /** What the item's block needs, worked out once, and the size of its block with no text in it. */
  prepare: (item: T) => { prepared: P; empty: number }
  /** The block within `room` bytes (its empty size plus its share of what is left). */
  block: (item: T, prepared: P, room: number) => string
}

/**
 * A report within `options.limit` bytes: the head, the table (at most half: rows past it are counted in
 * a note), then the blocks. Blocks whose empty form does not fit are left out; the others share the
 * rest equally, so the answers are what is cut first.
 */
export function layoutReport<T, P>(
  items: readonly T[],
  head: string,
  parts: ReportParts<T, P>,
  options: ChecksReportOptions,
): string {
  let shown = items
  let table = parts.table(items)
  if (sizeOf(head + table) > options.limit / 2) {
    let size = sizeOf(head + parts.table([]))
    let kept = 0
    for (const item of items) {
      size += sizeOf(parts.table([item])) - sizeOf(parts.table([]))
      if (size > options.limit / 2) break
      kept += 1
    }
    shown = items.slice(0, kept)
    table = `${parts.table(shown)}\n${hiddenNote(items.length - kept, 'checks', options)}\n`
  }
  const top = `${head}\n${table}`
  let room = options.limit - sizeOf(top) - 512
  const blocked: { item: T; prepared: P; empty: number }[] = []
  for (const item of shown) {
    const { prepared, empty } = parts.prepare(item)
    if (empty > room) break
    blocked.push({ item, prepared, empty })
    room -= empty
  }
  const extra = Math.floor(room / Math.max(1, blocked.length))
  const blocks = blocked.map(({ item, prepared, empty }) => parts.block(item, prepared, empty + extra))
  const note =
    blocked.length < items.length
      ? `\n${hiddenNote(items.length - blocked.length, 'answers', options)}\n`
      : ''
  return `${top}\n${blocks.join('\n')}${note}`
}

/**
 * The whole report within `options.limit` bytes: the verdict in one bold line, the table before the
 * answers (rows and blocks in reading order), answers cut first.
 */
export function renderChecksReport(
  results: readonly CheckResult[],
  verdict: SuiteVerdict,
  options: ChecksReportOptions,
): string {
  const head = `${options.heading}\n\n**${markdownVerdictLine(verdict, errorsOf(results))}**\n\n${markdownAdvisoryLine(verdict)}${runsLine(verdict)}\n`
  return layoutReport(
    inReadingOrder(results),
    head,
    {
      table: renderChecksTable,
      prepare: (result) => ({ prepared: undefined, empty: emptyBlockSize(result) }),
      block: (result, _, room) => checkBlock(result, room - MIN_CUT_BYTES),
    },
    options,
  )
}

/** The job summary of a suite: within GitHub's 1 MiB per step, answers included. */
export const SUMMARY_LIMIT = 900 * 1024

export function renderChecksSummary(results: readonly CheckResult[], verdict: SuiteVerdict): string {
  return renderChecksReport(results, verdict, {
    heading: '### Flow checks',
    limit: SUMMARY_LIMIT,
    fullResultsAt: 'the file named by the `results-file` output',
  })
}
