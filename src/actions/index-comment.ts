// The index action's sticky comment: the preview of what merging would send (or, with
// `pull-request: index`, what was sent).
import type { IndexConfig } from '../config/index-config.js'
import type { Logger } from '../log.js'
import type { IndexReport } from '../report/types.js'
import { COMMENT_LIMIT, NO_LONGER_CHANGES_NOTE, renderIndexComment } from '../report/comment-body.js'
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
  const marker = commentMarker(['index', config.target.flowId, config.target.nodeId, config.comment.key])
  if (!nothingToShow(report)) {
    await postStickyComment({
      settings: config.comment,
      runner,
      log,
      marker,
      body: commentBody(report, log, runner),
    })
    return
  }
  // A code-only pull request gets no comment; one whose earlier push changed documents keeps its comment,
  // updated to say that it no longer does, so no stale preview stays on it.
  log.info(
    'comment: this pull request changes none of the selected documents; a comment is updated if an ' +
      'earlier push posted one, none is created.',
  )
  const updated = commentBody(report, log, runner, NO_LONGER_CHANGES_NOTE)
  await postStickyComment({
    settings: config.comment,
    runner,
    log,
    marker,
    body: (existing) => (existing === undefined ? undefined : updated),
  })
}

/**
 * The pull request changes none of the selected documents and the run has nothing else to tell its
 * reviewers (no failure, no flow answer): the job summary says it, a comment would be noise.
 */
export function nothingToShow(report: IndexReport): boolean {
  return (
    report.pullRequestChanged === 0 &&
    report.ended === undefined &&
    report.flow === undefined &&
    report.flowError === undefined &&
    !report.items.some((item) => item.outcome === 'failed')
  )
}

/** The comment with the keys masked in what it shows (as the job summary). */
function commentBody(report: IndexReport, log: Logger, runner: RunnerEnvironment, note?: string): string {
  const { report: masked, maskItemText } = redactForSummary(report, log.secrets)
  return renderIndexComment(masked, commentFooter(runner), COMMENT_LIMIT, maskItemText, note)
}
