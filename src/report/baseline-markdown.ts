// A suite compared with its baseline flow, as people read it in the job summary, the pull-request comment
// and the CLI alike: the change in one bold sentence, one row per check, regressed first (question, change,
// before, after, how similar the two answers are), then each check collapsed: the word-level diff of its
// two answers (or why there is none), then the two answers one after the other, as quotes (they wrap).
import {
  blockingRegressions,
  changeSentence,
  changeSummary,
  type ChangeSummary,
  type ChangeVerdict,
  type ComparedCheck,
} from '../checks/baseline.js'
import { formatRatio } from '../checks/similarity.js'
import { wordDiffOf, type WordDiff } from '../checks/word-diff.js'
import { sanitize } from '../log.js'
import { suiteVerdict, type CheckResult, type SuiteVerdict } from '../checks/verdict.js'
import type { FailOn } from '../config/run-inputs.js'
import { scoreText } from '../checks/judge-flow.js'
import {
  anyJudged,
  markdownAdvisoryLine,
  ERROR_SIGN,
  errorsOf,
  markdownVerdictLine,
  MIN_CUT_BYTES,
  runsLine,
  runsText,
  SUMMARY_LIMIT,
  VERDICT_LABEL,
  verdictText,
  layoutReport,
  quoteNeed,
  quotedWithin,
  type ChecksReportOptions,
} from './checks-markdown.js'
import { details, inline, inlineFlowText, inlineHtml, shortLine, sizeOf, table } from './markdown.js'
import { wordDiffSection } from './word-diff-html.js'

export const CHANGE_LABEL: Record<ChangeVerdict, string> = {
  fixed: '🟢 fixed',
  regressed: '🔴 regressed',
  'still-passing': '✅ still passing',
  'still-failing': '❌ still failing',
  error: `${ERROR_SIGN} error`,
}

// The order a reviewer reads the rows in: what this pull request broke, what still fails, what could not
// be compared, then what it fixed and what still passes.
const CHANGE_ORDER: Record<ChangeVerdict, number> = {
  regressed: 0,
  'still-failing': 1,
  error: 2,
  fixed: 3,
  'still-passing': 4,
}

/** The checks in reading order (CHANGE_ORDER); the suite's order within each. */
const inReadingOrder = (compared: readonly ComparedCheck[]): ComparedCheck[] =>
  [...compared].sort((a, b) => CHANGE_ORDER[a.change] - CHANGE_ORDER[b.change])

const QUESTION_CELL = 100
const ASSERTION_LINE = 300
// Failed assertions listed per side in a collapsed block; the results file holds all.
const LISTED_ASSERTIONS = 5

function leadIcon(summary: ChangeSummary): string {
  if (blockingRegressions(summary) > 0) return '🔴'
  if (summary.regressed.length > 0) return '⚠️'
  if (summary.fixed.length > 0) return '🟢'
  if (summary.errors > 0) return ERROR_SIGN
  return summary.stillFailing > 0 ? '❌' : '✅'
}

/** "🔴 This pull request fixes 2 checks and breaks 1." */
export function leadLine(compared: readonly ComparedCheck[]): string {
  const summary = changeSummary(compared)
  return `${leadIcon(summary)} ${changeSentence(summary)}`
}

/**
 * The after side's verdict: judged against the threshold when that is what fails the step, else only
 * counted (a threshold that does not decide should not read as a failure).
 */
export function afterText(verdict: SuiteVerdict, failOn: FailOn): string {
  if (failOn === 'threshold') return verdictText(verdict)
  return `${verdict.passed} of ${verdict.passed + verdict.failed} checks pass (${verdict.percent.toFixed(1)}%).`
}

const sideText = (result: CheckResult) => `${VERDICT_LABEL[result.verdict]} · ${runsText(result)}`

/** `0.42`, or that the answer did not change. */
export const similarityText = (check: ComparedCheck) =>
  check.unchanged ? 'answer unchanged' : formatRatio(check.similarity)

/** The change, and that an advisory check's change never fails the step: `🔴 regressed · advisory`. */
export const changeLabel = (check: ComparedCheck) =>
  `${CHANGE_LABEL[check.change]}${check.after.advisory ? ' · advisory' : ''}`

const JUDGE_CELL = 120

/** The judge's scores before and after, and its reason after: `0.20 → 0.85 · gives the 14 days`. */
function comparedJudgeCell(check: ComparedCheck): string {
  const score = (result: CheckResult) => (result.judge ? scoreText(result.judge.score) : '–')
  const reason = check.after.judge ? ` · ${check.after.judge.reason}` : ''
  return inlineFlowText(shortLine(`${score(check.before)} → ${score(check.after)}${reason}`, JUDGE_CELL))
}

/** One row per check: check, question, change, before, after, (the judge's grades,) similarity of the two answers. */
export function renderComparedTable(compared: readonly ComparedCheck[]): string {
  const judged = anyJudged(compared.flatMap((check) => [check.before, check.after]))
  return table(
    ['Check', 'Question', 'Change', 'Before', 'After', ...(judged ? ['Judge'] : []), 'Similarity'],
    compared.map((check) => [
      inline(shortLine(check.name, 80)),
      inline(shortLine(check.question, QUESTION_CELL)),
      changeLabel(check),
      sideText(check.before),
      sideText(check.after),
      ...(judged ? [comparedJudgeCell(check)] : []),
      similarityText(check),
    ]),
  )
}

/** Runs of both flows together (the verdict of each side is in the table). */
function bothSidesRunsLine(compared: readonly ComparedCheck[]): string {
  const all = suiteVerdict(
    compared.flatMap((check) => [check.before, check.after]),
    0,
  )
  return runsLine(all).replace(/ made\b/, ' made on both flows')
}

const blockTitle = (check: ComparedCheck) =>
  `${inlineHtml(shortLine(check.name, 80))} — ${changeLabel(check)}`

function failures(result: CheckResult): string {
  if (result.failed.length === 0) return ''
  const lines = result.failed
    .slice(0, LISTED_ASSERTIONS)
    .map((failure) => `- ${inlineFlowText(shortLine(failure, ASSERTION_LINE))}`)
  if (result.failed.length > LISTED_ASSERTIONS)
    lines.push(`- _and ${result.failed.length - LISTED_ASSERTIONS} more; the results file lists all_`)
  return `\n\n${lines.join('\n')}`
}

/** An answer's quote as shown, or that there was none. */
const answerPart = (answer: string, shown: string) => (answer === '' ? '_No answer._' : shown)

// The summary and the comment render the same checks: each diff is worked out once (tens of
// milliseconds for two long answers in different words).
const diffs = new WeakMap<ComparedCheck, WordDiff>()

/** The diff shown for a check: none when its answer did not change (the block says so in one line). */
function diffOf(check: ComparedCheck): WordDiff | undefined {
  if (check.unchanged) return undefined
  const diff = diffs.get(check) ?? wordDiffOf(sanitize(check.before.answer), sanitize(check.after.answer))
  diffs.set(check, diff)
  return diff
}

/**
 * One check collapsed: the question, then the word-level diff (or why there is none) and the two answers,
 * or the one answer when it did not change. Within `room` bytes, or its smallest form (`room` 0). The
 * question and the answers are quotes (quotedWithin), cut to their share.
 */
function comparedBlock(check: ComparedCheck, diff: WordDiff | undefined, room: number): string {
  const build = (question: string, diffSection: string, before: string, after: string) => {
    const sides = check.unchanged
      ? `_The answer did not change._\n\n**Answer** (before and after)\n\n${answerPart(check.after.answer, after)}`
      : `${diffSection}\n\n**Before** — ${sideText(check.before)}\n\n${answerPart(check.before.answer, before)}` +
        `${failures(check.before)}\n\n**After** — ${sideText(check.after)}\n\n${answerPart(check.after.answer, after)}`
    // The after side's failed assertions close the block, under its answer.
    return details(blockTitle(check), `**Question**\n\n${question}\n\n${sides}${failures(check.after)}`)
  }
  // The smallest diff section: one line (why there is none, or that it was left out).
  const diffFloor = diff ? wordDiffSection(diff, 0) : ''
  // The question gets what it needs up to a quarter; the diff and the answers share the rest.
  const textRoom = Math.max(0, room - sizeOf(build('', diffFloor, '', '')))
  const question = quotedWithin(check.question, Math.floor(textRoom / 4))
  let answersRoom = textRoom - sizeOf(question)
  if (!diff) return build(question, '', '', quotedWithin(check.after.answer, answersRoom))
  // Room split: the diff (it holds the words of both answers) gets up to half, the two answers the
  // rest; what one does not need goes to the other. The diff comes first, so it is what a reader sees.
  const diffNeed = sizeOf(wordDiffSection(diff, Infinity)) - sizeOf(diffFloor)
  const beforeNeed = quoteNeed(check.before.answer, answersRoom)
  const afterNeed = quoteNeed(check.after.answer, answersRoom)
  const diffRoom = Math.min(
    diffNeed,
    Math.max(Math.floor(answersRoom / 2), answersRoom - beforeNeed.need - afterNeed.need),
  )
  const diffSection = wordDiffSection(diff, sizeOf(diffFloor) + Math.max(0, diffRoom))
  answersRoom -= sizeOf(diffSection) - sizeOf(diffFloor)
  const half = Math.floor(answersRoom / 2)
  // What one answer does not need goes to the other.
  const before = quotedWithin(
    check.before.answer,
    Math.min(beforeNeed.need, Math.max(half, answersRoom - afterNeed.need)),
    beforeNeed,
  )
  const after = quotedWithin(check.after.answer, answersRoom - sizeOf(before), afterNeed)
  return build(question, diffSection, before, after)
}

/** A block's smallest size with the room to show a cut question and cut answers. */
const emptyBlockSize = (check: ComparedCheck, diff: WordDiff | undefined) =>
  sizeOf(comparedBlock(check, diff, 0)) + 2 * MIN_CUT_BYTES

/**
 * The whole comparison within `options.limit` bytes: the lead, the table (rows in reading order), then the
 * answers (cut first).
 */
export function renderComparedReport(
  compared: readonly ComparedCheck[],
  verdict: SuiteVerdict,
  failOn: FailOn,
  options: ChecksReportOptions,
): string {
  const errors = errorsOf(compared.map((check) => check.after))
  const after = failOn === 'threshold' ? markdownVerdictLine(verdict, errors) : afterText(verdict, failOn)
  const head =
    `${options.heading}\n\n**${leadLine(compared)}**\n\n` +
    `After: ${after}\n\n${markdownAdvisoryLine(verdict)}${bothSidesRunsLine(compared)}\n`
  return layoutReport(
    inReadingOrder(compared),
    head,
    {
      table: renderComparedTable,
      prepare: (check) => {
        const diff = diffOf(check)
        return { prepared: diff, empty: emptyBlockSize(check, diff) }
      },
      block: (check, diff, room) => comparedBlock(check, diff, room - 2 * MIN_CUT_BYTES),
    },
    options,
  )
}

export function renderComparedSummary(
  compared: readonly ComparedCheck[],
  verdict: SuiteVerdict,
  failOn: FailOn,
): string {
  return renderComparedReport(compared, verdict, failOn, {
    heading: '### Flow checks: before and after',
    limit: SUMMARY_LIMIT,
    fullResultsAt: 'the file named by the `results-file` output',
  })
}
