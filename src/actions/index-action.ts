// The index action: read inputs → index pipeline → outputs, summary, exit status. Outputs and the
// summary are written on every way out, a failure included (then with every item the run knew of).
import * as core from '@actions/core'
import { readIndexConfig } from '../config/index-config.js'
import { runIndexJob } from '../jobs/index-job.js'
import { emptyIndexReport, IndexJobFailure } from '../jobs/job-context.js'
import { actionsSink, Logger } from '../log.js'
import { renderIndexSummary, SUMMARY_LIMIT } from '../report/index-summary.js'
import {
  indexCountsLine,
  indexOutputs,
  indexOutputSpecs,
  logIndexResult,
  type IndexOutputs,
} from '../report/index-outputs.js'
import type { IndexReport } from '../report/types.js'
import { DEFAULT_OUTPUTS_BUDGET } from '../config/outputs-budget.js'
import { redactForSummary } from '../report/redact.js'
import { collectIfGrown } from '../chunk-release.js'
import { commentIndexResult } from './index-comment.js'
import { actionRecordKeeping } from './record-keeping.js'
import {
  cancellationSignal,
  fail,
  maskKeys,
  messageOf,
  readRunnerEnvironment,
  writeSummary,
} from './runner.js'
import { writeStepOutputs } from './step-outputs.js'

export async function runIndexAction(): Promise<void> {
  const log = new Logger(actionsSink)
  maskKeys(log, ['private-key', 'public-key', 'github-token'])
  const signal = cancellationSignal(log)
  let report: IndexReport | undefined
  let budget = DEFAULT_OUTPUTS_BUDGET
  try {
    const runner = readRunnerEnvironment()
    const config = readIndexConfig((name) => core.getInput(name), {
      eventName: runner.eventName,
      payload: runner.payload,
    })
    budget = config.outputsBudget
    if (config.skip) {
      log.notice(config.skip)
      report = emptyIndexReport(config.dryRun)
      report.changeSource = 'skipped'
      report.ended = { kind: 'skipped', why: config.skip }
      await reportIndexResult(report, log, budget)
      return
    }
    const record = await actionRecordKeeping(config, runner, log)
    report = await runIndexJob(config, { ...runner, log, signal, record })
    const { failed } = await reportIndexResult(report, log, budget)
    await commentIndexResult(config, runner, log, report)
    if (failed.length > 0) {
      core.setFailed(
        `${failed.length} item(s) failed to sync: see the "failed" output and the job summary for each error.`,
      )
    } else if (report.flowError) {
      core.setFailed(log.clean(`The flow run after indexing failed: ${report.flowError}`))
    }
  } catch (error) {
    if (report === undefined) {
      // Stopped before or inside the pipeline: write what is known, then fail with the cause.
      const known = error instanceof IndexJobFailure ? error.report : emptyIndexReport(false)
      if (!(error instanceof IndexJobFailure)) known.changeSource = 'not started'
      known.ended = { kind: 'stopped', why: log.clean(messageOf(error)) }
      await reportIndexResult(known, log, budget).catch((writeError: unknown) =>
        log.error(messageOf(writeError)),
      )
    }
    fail(log, error)
  }
}

/**
 * Outputs (within the budget, the report file holding them whole), log lines and the summary; returns the
 * outputs' lists (made once). An output that cannot be written fails the step, after the summary is written.
 */
export async function reportIndexResult(
  report: IndexReport,
  log: Logger,
  budget: number,
): Promise<IndexOutputs> {
  const outputs = indexOutputs(report)
  const done = indexCountsLine(report, outputs)
  let outputsError: unknown
  let file = ''
  try {
    file = await writeStepOutputs(indexOutputSpecs(report, outputs), log, {
      budget,
      fileOutput: 'report-file',
      done,
    })
  } catch (error) {
    outputsError = error
  }
  logIndexResult(report, log, outputs)
  // The report file's text (every name) is garbage once written: collected before the summary adds its
  // own, the run's last allocations (a sync of 100,000 documents peaked here, bench/README.md); a small
  // run's report is too small to pay for a collection.
  collectIfGrown(2 * 1024 * 1024)
  const pointer = file
    ? `the file named by the \`report-file\` output (${file}) lists every name`
    : 'the outputs list the names (the report file could not be written)'
  // Keys are removed before rendering: markdown escaping would hide them from the log's masking.
  const summary = redactForSummary(report, log.secrets)
  await writeSummary(renderIndexSummary(summary.report, SUMMARY_LIMIT, summary.maskItemText), log, {
    pointer,
    done,
  })
  if (outputsError !== undefined) throw outputsError
  return outputs
}
