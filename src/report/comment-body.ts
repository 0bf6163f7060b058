// The sticky pull-request comments: the flow's verdicts and answers, and the preview of a sync. GitHub
// refuses a comment over 65,536 characters; answers are what gets cut first.
import type { CheckResult, SuiteVerdict } from '../checks/verdict.js'
import { cutText } from '../service/cut.js'
import { renderChecksReport } from './checks-markdown.js'
import { renderIndexSummary } from './index-summary.js'
import type { TextRedaction } from './redact.js'
import { fenced, sizeOf } from './markdown.js'
import type { IndexReport } from './types.js'

export const COMMENT_LIMIT = 65_536
// Room kept for the marker, the footer and rounding.
export const RESERVE = 1_024

/** Where the comment's result comes from. */
export interface CommentFooter {
  commit?: string
  runUrl?: string
}

export function footer({ commit, runUrl }: CommentFooter): string {
  const parts = [
    commit ? `Ran on \`${commit.slice(0, 12).replace(/[^0-9a-f]/gi, '')}\`` : '',
    runUrl ? `[workflow run](${encodeURI(runUrl)})` : '',
  ].filter(Boolean)
  return parts.length > 0 ? `\n_${parts.join(' · ')}_\n` : ''
}

/**
 * The flow's checks (a suite, or the single question as a suite of one), as the job summary shows them;
 * `notes` (markdown: the settle wait, which baseline) above them, as in the summary.
 */
export function renderChecksComment(
  heading: string,
  results: readonly CheckResult[],
  verdict: SuiteVerdict,
  context: CommentFooter,
  limit = COMMENT_LIMIT,
  notes = '',
): string {
  const tail = footer(context)
  const body = renderChecksReport(results, verdict, {
    heading,
    limit: limit - RESERVE - sizeOf(tail) - sizeOf(notes),
    fullResultsAt: 'the job summary and the `results-file` output',
  })
  return `${notes}${body}${tail}`
}

/** A run that could not start (a missing checks file, a refused key): replaces the previous verdict. */
export function renderNotRunComment(
  heading: string,
  reason: string,
  context: CommentFooter,
  limit = COMMENT_LIMIT,
): string {
  const tail = footer(context)
  const why = cutText(reason, Math.max(0, limit - RESERVE - sizeOf(tail) - 200)).text
  return `${heading}\n\n❌ Could not run: no check was judged, so no verdict.\n\n${fenced(why)}\n${tail}`
}

/** On top of the comment of a pull request that changed selected documents at an earlier push and no longer does. */
export const NO_LONGER_CHANGES_NOTE =
  '> **This pull request no longer changes any of the selected documents.** An earlier push did; what ' +
  'this comment showed then no longer applies.'

/**
 * The preview (or result) of a sync as a comment: the summary's reading order, cut to the comment limit.
 * Keys are masked as in the summary: in all of `report`, or all but its items' texts, which `maskItemText`
 * masks as each item is shown (redactForSummary).
 */
export function renderIndexComment(
  report: IndexReport,
  context: CommentFooter,
  limit = COMMENT_LIMIT,
  maskItemText?: TextRedaction,
  note?: string,
): string {
  const top = note === undefined ? '' : `${note}\n\n`
  return `${top}${renderIndexSummary(report, limit - RESERVE - sizeOf(top), maskItemText)}${footer(context)}`
}
