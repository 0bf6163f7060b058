// The sticky comment of a suite compared with its baseline flow, in a module of its own so the index
// action's bundle does not carry the comparison.
import type { ComparedCheck } from '../checks/baseline.js'
import type { SuiteVerdict } from '../checks/verdict.js'
import type { FailOn } from '../config/run-inputs.js'
import { renderComparedReport } from './baseline-markdown.js'
import { COMMENT_LIMIT, footer, RESERVE, type CommentFooter } from './comment-body.js'
import { sizeOf } from './markdown.js'

/** A suite compared with its baseline flow, as the job summary shows it; `notes` above it, as there. */
export function renderComparedComment(
  heading: string,
  compared: readonly ComparedCheck[],
  verdict: SuiteVerdict,
  failOn: FailOn,
  context: CommentFooter,
  limit = COMMENT_LIMIT,
  notes = '',
): string {
  const tail = footer(context)
  const body = renderComparedReport(compared, verdict, failOn, {
    heading,
    limit: limit - RESERVE - sizeOf(tail) - sizeOf(notes),
    fullResultsAt: 'the job summary and the `results-file` output',
  })
  return `${notes}${body}${tail}`
}
