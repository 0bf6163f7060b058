// The run-flow action's sticky comment: the suite's verdicts, the single question as a suite of one, or
// why nothing could run (so an old verdict never stays in place).
import { singleQuestionResult, type CheckResult, type SuiteVerdict } from '../checks/verdict.js'
import type { CommentTarget, RunConfig } from '../config/run.js'
import type { Logger } from '../log.js'
import type { FlowRunReport } from '../model.js'
import type { ComparedCheck } from '../checks/baseline.js'
import { renderChecksComment, renderNotRunComment } from '../report/comment-body.js'
import { renderComparedComment } from '../report/compared-comment.js'
import { redactDeep } from '../report/redact.js'
import { commentFooter, commentMarker, postStickyComment } from './post-comment.js'
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

export async function commentFlowResult(
  config: RunConfig,
  runner: RunnerEnvironment,
  log: Logger,
  outcome: FlowOutcome,
): Promise<void> {
  if (!config.comment.enabled) return
  const { results, verdict } = singleCheckResult(outcome)
  await postStickyComment({
    settings: config.comment,
    runner,
    log,
    marker: markerOf(config.target.flowId, config.comment.key),
    body: renderChecksComment(
      '### Flow check',
      redactDeep(results, log.secrets),
      redactDeep(verdict, log.secrets),
      commentFooter(runner.payload),
    ),
  })
}

/** A suite of checks: one row per check, in the suite's order. */
export async function commentChecksResult(
  config: RunConfig,
  runner: RunnerEnvironment,
  log: Logger,
  results: readonly CheckResult[],
  verdict: SuiteVerdict,
): Promise<void> {
  if (!config.comment.enabled) return
  await postStickyComment({
    settings: config.comment,
    runner,
    log,
    marker: markerOf(config.target.flowId, config.comment.key),
    body: renderChecksComment(
      '### Flow checks',
      redactDeep(results, log.secrets),
      redactDeep(verdict, log.secrets),
      commentFooter(runner.payload),
    ),
  })
}

/** A suite compared with its baseline flow: the change first, one row per check. */
export async function commentComparedResult(
  config: RunConfig,
  runner: RunnerEnvironment,
  log: Logger,
  compared: readonly ComparedCheck[],
  verdict: SuiteVerdict,
): Promise<void> {
  if (!config.comment.enabled) return
  await postStickyComment({
    settings: config.comment,
    runner,
    log,
    marker: markerOf(config.target.flowId, config.comment.key),
    body: renderComparedComment(
      '### Flow checks: before and after',
      redactDeep(compared, log.secrets),
      redactDeep(verdict, log.secrets),
      config.failOn,
      commentFooter(runner.payload),
    ),
  })
}

/** Nothing could run (a checks file missing or invalid, a refused key): the comment says so and why. */
export async function commentNotRun(
  target: CommentTarget,
  runner: RunnerEnvironment,
  log: Logger,
  reason: string,
): Promise<void> {
  if (!target.comment.enabled) return
  await postStickyComment({
    settings: target.comment,
    runner,
    log,
    marker: markerOf(target.flowId, target.comment.key),
    body: renderNotRunComment(target.heading, log.secrets.redact(reason), commentFooter(runner.payload)),
  })
}
