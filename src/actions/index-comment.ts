// The index action's sticky comment: the preview of what merging would send (or, with
// `pull-request: index`, what was sent).
import type { IndexConfig } from '../config/index-config.js'
import type { Logger } from '../log.js'
import type { IndexReport } from '../report/types.js'
import { COMMENT_LIMIT, renderIndexComment } from '../report/comment-body.js'
import { redactForSummary } from '../report/redact.js'
import { commentFooter, commentMarker, postStickyComment } from './post-comment.js'
import type { RunnerEnvironment } from './runner.js'

export async function commentIndexResult(
  config: IndexConfig,
  runner: RunnerEnvironment,
  log: Logger,
  report: IndexReport,
): Promise<void> {
  if (!config.comment.enabled) return
  await postStickyComment({
    settings: config.comment,
    runner,
    log,
    marker: commentMarker(['index', config.target.flowId, config.target.nodeId, config.comment.key]),
    body: commentBody(report, log, runner),
  })
}

/** The comment with the keys masked in what it shows (as the job summary). */
function commentBody(report: IndexReport, log: Logger, runner: RunnerEnvironment): string {
  const { report: masked, maskItemText } = redactForSummary(report, log.secrets)
  return renderIndexComment(masked, commentFooter(runner.payload), COMMENT_LIMIT, maskItemText)
}
