// The run-flow action's sticky comment: the suite's verdicts, the single question as a suite of one, or
// why nothing could run (so an old verdict never stays in place).
import { singleQuestionResult, type CheckResult, type SuiteVerdict } from '../checks/verdict.js'
import type { CommentTarget, RunConfig } from '../config/run.js'
import type { Logger } from '../log.js'
import type { FlowRunReport } from '../model.js'
import type { ComparedCheck } from '../checks/baseline.js'
import type { StickyComment } from '../github/sticky-comment.js'
import { renderChecksComment, renderNotRunComment, type CommentFooter } from '../report/comment-body.js'
import { renderComparedComment } from '../report/compared-comment.js'
import { notRerunNote, withNotRerunNote } from '../report/not-rerun-note.js'
import { redactDeep } from '../report/redact.js'
import { commentFooter, commentMarker, postStickyComment, pullRequestOf } from './post-comment.js'
import type { RunnerEnvironment } from './runner.js'

export interface FlowOutcome {
  question: string
  report?: FlowRunReport
  /** Why the answer fails `expect`, or why the run failed. */
  problem?: string
  error?: boolean
  seconds: number
}

/** The single question as a suite of one, judged like any check. */
export const singleCheckResult = (outcome: FlowOutcome) =>
  singleQuestionResult({ ...outcome, answer: outcome.report?.result ?? '' })

const markerOf = (flowId: string, key: string) => commentMarker(['run-flow', flowId, key])

/**
 * Posts, or updates, the flow's sticky comment; `body` gets the footer that names this run, and gives the
 * body or builds it from the comment found (see StickyComment).
 */
async function postFlowComment(
  where: Pick<CommentTarget, 'comment' | 'flowId'>,
  runner: RunnerEnvironment,
  log: Logger,
  body: (footer: CommentFooter) => StickyComment['body'],
): Promise<void> {
  if (!where.comment.enabled) return
  await postStickyComment({
    settings: where.comment,
    runner,
    log,
    marker: markerOf(where.flowId, where.comment.key),
    body: body(commentFooter(runner)),
  })
}

const checksBody =
  (heading: string, results: readonly CheckResult[], verdict: SuiteVerdict, log: Logger, notes = '') =>
  (footer: CommentFooter) =>
    renderChecksComment(
      heading,
      redactDeep(results, log.secrets),
      redactDeep(verdict, log.secrets),
      footer,
      undefined,
      log.secrets.redact(notes),
    )

const whereOf = (config: RunConfig) => ({ comment: config.comment, flowId: config.target.flowId })

export async function commentFlowResult(
  config: RunConfig,
  runner: RunnerEnvironment,
  log: Logger,
  outcome: FlowOutcome,
): Promise<void> {
  const { results, verdict } = singleCheckResult(outcome)
  await postFlowComment(whereOf(config), runner, log, checksBody('### Flow check', results, verdict, log))
}

/**
 * A suite of checks: the verdict in one bold line, one row per check, failed first. `notes`: markdown
 * above it (the settle wait's notes, which baseline), as the job summary shows them.
 */
export async function commentChecksResult(
  config: RunConfig,
  runner: RunnerEnvironment,
  log: Logger,
  results: readonly CheckResult[],
  verdict: SuiteVerdict,
  notes = '',
): Promise<void> {
  await postFlowComment(
    whereOf(config),
    runner,
    log,
    checksBody('### Flow checks', results, verdict, log, notes),
  )
}

/** A suite compared with its baseline flow: the change first, one row per check. */
export async function commentComparedResult(
  config: RunConfig,
  runner: RunnerEnvironment,
  log: Logger,
  compared: readonly ComparedCheck[],
  verdict: SuiteVerdict,
  notes = '',
): Promise<void> {
  await postFlowComment(whereOf(config), runner, log, (footer) =>
    renderComparedComment(
      '### Flow checks: before and after',
      redactDeep(compared, log.secrets),
      redactDeep(verdict, log.secrets),
      config.failOn,
      footer,
      undefined,
      log.secrets.redact(notes),
    ),
  )
}

/** Nothing could run (a checks file missing or invalid, a refused key): the comment says so and why. */
export async function commentNotRun(
  target: CommentTarget,
  runner: RunnerEnvironment,
  log: Logger,
  reason: string,
): Promise<void> {
  await postFlowComment(target, runner, log, (footer) =>
    renderNotRunComment(target.heading, log.secrets.redact(reason), footer),
  )
}

/**
 * Nothing ran under the skip rule: the comment this step posted before (if any) gets a note on top that
 * its result still holds (replacing an earlier such note); none is created.
 */
export async function commentNotRerun(
  config: RunConfig,
  runner: RunnerEnvironment,
  log: Logger,
): Promise<void> {
  const note = notRerunNote(pullRequestOf(runner.payload)?.headSha, config.checksFile)
  await postFlowComment(
    whereOf(config),
    runner,
    log,
    () => (existing) => (existing === undefined ? undefined : withNotRerunNote(existing, note)),
  )
}
