// The run-flow action: read inputs → run the flow once → outputs, summary, exit status.
import * as core from '@actions/core'
import { runCheckSuite } from '../jobs/checks-suite.js'
import { blockingRegressions, changeSentence, changeSummary, compareResults } from '../checks/baseline.js'
import { afterText, renderComparedSummary } from '../report/baseline-markdown.js'
import { checksOutputSpecs, comparedOutputSpecs, NOT_SKIPPED } from '../report/checks-results.js'
import { advisoryLine, renderChecksSummary, verdictText } from '../report/checks-markdown.js'
import type { Check } from '../checks/schema.js'
import { ConfigError } from '../config/errors.js'
import { readCommentTarget, readRunConfig, type RunConfig } from '../config/run.js'
import { cutText } from '../service/cut.js'
import { FlowRunError, questionOf } from '../flow/run.js'
import { runFlowJob, type FlowJobOutcome } from '../jobs/flow-run.js'
import { actionsSink, Logger } from '../log.js'
import { flowFailure, flowSection } from '../report/flow-section.js'
import { renderStoppedSummary } from '../report/index-summary.js'
import { failedFlowOutputSpecs, flowOutputSpecs } from '../report/index-outputs.js'
import { redactDeep } from '../report/redact.js'
import { cancellationOf, type RunCancelled } from '../cancellation.js'
import {
  commentChecksResult,
  commentComparedResult,
  commentFlowResult,
  commentNotRun,
  singleCheckResult,
  type FlowOutcome,
} from './flow-comment.js'
import {
  cancellationSignal,
  fail,
  maskKeys,
  messageOf,
  readRunnerEnvironment,
  writeSummary,
  type RunnerEnvironment,
} from './runner.js'
import { skipDecision, skipStep } from './skip-unchanged.js'
import { checkedOutCommit, commentTriggerRefusal } from './comment-trigger.js'
import { StepOutputsError, writeStepOutputs } from './step-outputs.js'
import { writeJUnitStep } from './junit-step.js'
import { junitTargetsOf } from '../report/junit-file.js'
import { formatCount } from '../units.js'
import { settleCaveat } from '../checks/settle.js'
import { renderSettleNotes } from '../report/settle-note.js'
import { renderBaselineSource } from '../report/baseline-source-note.js'
import { planBaseline } from './stored-baseline.js'

const CHECKS_CANCELLED = (cancelled: RunCancelled) =>
  `${cancelled.message}: checks that had not answered are reported as errors.`

// The answer printed in the log; the `result` output and the summary hold more.
const LOGGED_ANSWER_BYTES = 64 * 1024

export async function runFlowAction(): Promise<void> {
  const log = new Logger(actionsSink)
  maskKeys(log, ['public-key', 'github-token'])
  const signal = cancellationSignal(log)
  try {
    const environment = readRunnerEnvironment()
    const read = (name: string) => core.getInput(name)
    const event = { eventName: environment.eventName, workspace: environment.workspace }
    let config: RunConfig
    try {
      config = readRunConfig(read, event)
    } catch (error) {
      const target = error instanceof ConfigError ? readCommentTarget(read, event) : undefined
      // A comment trigger's commenter is asked first: a reader's comment never makes the bot comment.
      const token = target?.comment.githubToken ?? read('github-token')
      const refused = await commentTriggerRefusal(environment, token, log)
      if (refused) return await refuseRun(refused, log)
      // Nothing runs: the comment says why instead of keeping the previous verdict.
      if (target) await commentNotRun(target, environment, log, messageOf(error))
      throw error
    }
    // A run asked for in a comment (#36 §6): only for commenters with write access, before anything runs.
    const refused = await commentTriggerRefusal(environment, config.comment.githubToken, log)
    if (refused) return await refuseRun(refused, log)
    const runner = { ...environment, checkedCommit: await checkedOutCommit(environment, log) }
    if (config.skip) {
      log.notice(config.skip)
      await writeSummary(renderStoppedSummary('Flow run: nothing ran', config.skip), log)
      return
    }
    const skip = await skipDecision(config, runner, log)
    if (skip?.skip) {
      await skipStep(config, skip.reason, runner, log)
      return
    }
    if (skip?.unknown) log.warning(skip.why)
    else if (skip) log.info(skip.why)
    if (config.checks) {
      await runChecksStep(config, config.checks, runner, log, signal)
      return
    }
    const question = questionOf(config.inputs)
    const started = Date.now()
    const outcome = (extra: Partial<FlowOutcome>): FlowOutcome => ({
      question,
      seconds: (Date.now() - started) / 1000,
      ...extra,
    })
    const outputs = { budget: config.outputsBudget, fileOutput: 'results-file' } as const
    let run: FlowJobOutcome
    try {
      run = await runFlowJob(config, log, signal)
    } catch (error) {
      await commentFlowResult(config, runner, log, outcome({ problem: messageOf(error), error: true }))
      throw error
    }
    if (!run.ok) {
      const { error } = run
      await commentFlowResult(config, runner, log, outcome({ problem: messageOf(error), error: true }))
      const done = 'the flow run failed'
      const file = await writeStepOutputs([...failedFlowOutputSpecs(error.response), NOT_SKIPPED], log, {
        ...outputs,
        done,
      }).catch((writeError: unknown) => {
        log.error(messageOf(writeError))
        return ''
      })
      const { verdict } = singleCheckResult(outcome({ problem: error.message, error: true }))
      const summary = flowFailure(log.secrets.redact(question), log.secrets.redact(error.message), verdict)
      await writeSummary(summary, log, {
        pointer: pointerTo(file),
        done,
      })
      throw error
    }
    const { report, problem } = run
    const done = `the flow run completed (an answer of ${formatCount(report.result.length)} characters)`
    // Outputs that cannot be written fail the step, after the summary and the comment are written.
    let outputsError: unknown
    const file = await writeStepOutputs([...flowOutputSpecs(report), NOT_SKIPPED], log, {
      ...outputs,
      done,
    }).catch((error: unknown) => {
      outputsError = error
      return ''
    })
    const logged = cutText(log.secrets.redact(report.result), LOGGED_ANSWER_BYTES)
    log.info(
      `Answer (${config.outputKey}):\n${logged.text}` +
        (logged.cutBytes > 0 ? '\n(cut in the log; the "result" output and the job summary hold more)' : ''),
    )
    const { verdict } = singleCheckResult(outcome({ report, problem }))
    await writeSummary(
      flowSection(redactDeep(report, log.secrets), verdict, problem ? [log.secrets.redact(problem)] : []),
      log,
      { pointer: pointerTo(file), done },
    )
    await commentFlowResult(config, runner, log, outcome({ report, problem }))
    if (problem) core.setFailed(log.clean(problem))
    if (outputsError !== undefined) throw outputsError
  } catch (error) {
    fail(log, error)
    // A failed run, or outputs that could not be written, come after a summary; anything else stopped
    // before there was one.
    if (!(error instanceof FlowRunError) && !(error instanceof StepOutputsError))
      await writeSummary(renderStoppedSummary('Flow run failed', messageOf(error)), log)
  }
}

/**
 * A suite of checks: outputs `passed`, `failed`, `results`; the step fails below `threshold`. With a
 * baseline flow also `fixed` and `regressed`, and (`fail-on: regression`) the step fails for a regression.
 */
/** A comment-triggered run its commenter may not start: failed, summarised, nothing posted. */
async function refuseRun(refused: string, log: Logger): Promise<void> {
  await writeSummary(renderStoppedSummary('Flow checks: not run', refused), log)
  core.setFailed(log.clean(refused))
}

async function runChecksStep(
  config: RunConfig,
  checks: Check[],
  runner: RunnerEnvironment,
  log: Logger,
  signal: AbortSignal,
): Promise<void> {
  const startedAt = new Date()
  // The baseline flow's results stored for this key, or a live run of it (#36 §5).
  const baseline = await planBaseline(config, checks, runner, log, signal)
  const { results, verdict, stopped, before, settled } = await runCheckSuite(config, checks, log, signal, {
    ...(baseline?.stored ? { storedBefore: baseline.stored } : {}),
  })
  // settle (#36 §4): what the wait for the sync saw, in the log and above the results.
  const caveat = settleCaveat(config.settleCheck, before)
  if (settled?.unsettled) log.warning(settled.note)
  else if (settled) log.info(settled.note)
  if (caveat) log.warning(caveat)
  const settleNotes = [settled?.note, caveat].filter((note): note is string => note !== undefined)
  const cancelled = cancellationOf(signal)
  if (baseline?.save && before && !baseline.stored && !cancelled && !stopped)
    await baseline.save(before, signal)
  // Above the results, in the summary and the comment alike: which baseline, and what the wait saw.
  const notes = [renderBaselineSource(before ? baseline?.used : undefined), renderSettleNotes(settleNotes)]
    .filter((note) => note !== '')
    .map((note) => `${note}\n`)
    .join('')
  const compared = before ? compareResults(before, results) : undefined
  const change = compared ? changeSummary(compared) : undefined
  const done = change ? changeSentence(change) : verdictText(verdict)
  const line = change
    ? `${changeSentence(change)} After: ${afterText(verdict, config.failOn)}`
    : verdictText(verdict)
  // junit-file (#36 §3): written before the outputs, which name it.
  const junit = await writeJUnitStep(config, log, {
    kind: 'checks',
    input: {
      ...junitTargetsOf(config),
      results,
      ...(compared ? { compared } : {}),
      verdictLine: line,
      startedAt,
    },
  })
  let outputsError: unknown
  const specs = compared ? comparedOutputSpecs(compared, verdict) : checksOutputSpecs(results, verdict)
  const file = await writeStepOutputs([...specs, ...junit.specs, NOT_SKIPPED], log, {
    budget: config.outputsBudget,
    fileOutput: 'results-file',
    done,
  }).catch((error: unknown) => {
    outputsError = error
    return ''
  })
  const summary = compared
    ? renderComparedSummary(
        redactDeep(compared, log.secrets),
        redactDeep(verdict, log.secrets),
        config.failOn,
      )
    : renderChecksSummary(redactDeep(results, log.secrets), redactDeep(verdict, log.secrets))
  const notice = cancelled
    ? renderStoppedSummary('Flow checks cancelled', CHECKS_CANCELLED(cancelled))
    : stopped
      ? renderStoppedSummary('Flow checks stopped', keyRefused(stopped))
      : ''
  await writeSummary(`${notice ? `${notice}\n` : ''}${notes}${summary}`, log, {
    pointer: pointerTo(file),
    done,
  })
  if (stopped) await commentNotRun(commentTargetOf(config), runner, log, keyRefused(stopped))
  else if (compared) await commentComparedResult(config, runner, log, compared, verdict, notes)
  else await commentChecksResult(config, runner, log, results, verdict, notes)
  const failed = results.filter((result) => result.verdict !== 'passed')
  for (const result of failed)
    log.info(
      `Check "${result.name}" ${result.verdict}${result.advisory ? ' (advisory)' : ''}: ${result.failed.join('; ')}`,
    )
  const failing = config.failOn === 'regression' && change ? blockingRegressions(change) > 0 : !verdict.ok
  if (cancelled) core.setFailed(CHECKS_CANCELLED(cancelled))
  else if (stopped) core.setFailed(log.clean(keyRefused(stopped)))
  else if (failing) core.setFailed(log.clean(`Flow checks: ${line}`))
  else if (failed.some((result) => !result.advisory)) log.warning(log.clean(`Flow checks: ${line}`))
  else log.info(`Flow checks: ${line}`)
  // Advisory checks inform: a notice, never a warning nor a failure.
  if (advisoryLine(verdict) !== '') log.notice(log.clean(`Flow checks: ${advisoryLine(verdict)}`))
  if (outputsError !== undefined) {
    if (junit.error !== undefined) log.error(junit.error.message)
    throw outputsError
  }
  if (junit.error !== undefined) throw junit.error
}

/** The first refusal's message (it names the key's input), and that the suite stopped there. */
const keyRefused = (message: string) => `${message} No further run of the suite was sent.`

const commentTargetOf = (config: RunConfig) => ({
  comment: config.comment,
  flowId: config.target.flowId,
  heading: '### Flow checks',
})

/** Where a cut summary sends the reader. */
function pointerTo(file: string): string {
  return file
    ? `the file named by the \`results-file\` output (${file}) holds everything`
    : 'the outputs hold the rest (the results file could not be written)'
}
