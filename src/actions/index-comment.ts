// The index action's sticky comment: the preview of what merging would send (or, with
// `pull-request: index`, what was sent).
import type { IndexConfig } from '../config/index-config.js'
import type { Logger } from '../log.js'
import type { IndexReport } from '../report/types.js'
import { renderIndexComment } from '../report/comment-body.js'
import { redactDeep } from '../report/redact.js'
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
    body: renderIndexComment(redactDeep(report, log.secrets), commentFooter(runner.payload)),
  })
}
