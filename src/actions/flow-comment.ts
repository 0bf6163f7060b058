// The run-flow action's sticky comment: today's single question as one verdict row.
import type { CheckResult } from '../checks/verdict.js'
import type { RunConfig } from '../config/run.js'
import type { Logger } from '../log.js'
import type { FlowRunReport } from '../model.js'
import { renderFlowComment, type VerdictRow } from '../report/comment-body.js'
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

export function flowVerdictRow(outcome: FlowOutcome): VerdictRow {
  return {
    name: outcome.question,
    verdict: outcome.error ? 'error' : outcome.problem ? 'failed' : 'passed',
    seconds: outcome.seconds,
    problem: outcome.problem,
    answer: outcome.report?.result,
  }
}

export async function commentFlowResult(
  config: RunConfig,
  runner: RunnerEnvironment,
  log: Logger,
  outcome: FlowOutcome,
): Promise<void> {
  if (!config.comment.enabled) return
  const rows = redactDeep([flowVerdictRow(outcome)], log.secrets)
  await postStickyComment({
    settings: config.comment,
    runner,
    log,
    marker: commentMarker(['run-flow', config.target.flowId, config.comment.key]),
    body: renderFlowComment('Flow check', rows, commentFooter(runner.payload)),
  })
}

/** A suite of checks: one row per check, in the suite's order. */
export async function commentChecksResult(
  config: RunConfig,
  runner: RunnerEnvironment,
  log: Logger,
  results: readonly CheckResult[],
): Promise<void> {
  if (!config.comment.enabled) return
  const rows: VerdictRow[] = results.map((result) => ({
    name: result.name,
    verdict: result.verdict,
    seconds: result.seconds,
    problem: result.failed.length > 0 ? result.failed.join('; ') : undefined,
    answer: result.answer,
  }))
  await postStickyComment({
    settings: config.comment,
    runner,
    log,
    marker: commentMarker(['run-flow', config.target.flowId, config.comment.key]),
    body: renderFlowComment('Flow checks', redactDeep(rows, log.secrets), commentFooter(runner.payload)),
  })
}
