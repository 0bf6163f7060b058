// The index action: read inputs → index pipeline → outputs, summary, exit status. Outputs and the
// summary are written on every way out, a failure included (then with every item the run knew of).
import * as core from '@actions/core'
import { readIndexConfig } from '../config.js'
import { emptyIndexReport, IndexJobFailure, runIndexJob } from '../jobs/index-job.js'
import { actionsSink, Logger } from '../log.js'
import {
  indexOutputs,
  logIndexResult,
  renderIndexSummary,
  writeIndexOutputs,
  type IndexReport,
} from '../report.js'
import { redactDeep } from '../report/redact.js'
import { commentIndexResult } from './index-comment.js'
import {
  cancellationSignal,
  fail,
  maskKeys,
  messageOf,
  readRunnerEnvironment,
  setOutput,
  writeSummary,
} from './runner.js'

export async function runIndexAction(): Promise<void> {
  const log = new Logger(actionsSink)
  maskKeys(log, ['private-key', 'public-key', 'github-token'])
  const signal = cancellationSignal(log)
  let report: IndexReport | undefined
  try {
    const runner = readRunnerEnvironment()
    const config = readIndexConfig((name) => core.getInput(name), { eventName: runner.eventName })
    if (config.skip) {
      log.notice(config.skip)
      report = emptyIndexReport(config.dryRun)
      report.changeSource = 'skipped'
      report.ended = { kind: 'skipped', why: config.skip }
      await finish(report, log)
      return
    }
    report = await runIndexJob(config, { ...runner, log, signal })
    await finish(report, log)
    await commentIndexResult(config, runner, log, report)
    const failed = indexOutputs(report).failed.length
    if (failed > 0) {
      core.setFailed(
        `${failed} item(s) failed to sync: see the "failed" output and the job summary for each error.`,
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
      await finish(known, log).catch((writeError: unknown) =>
        log.warning(`The outputs or the summary could not be written: ${messageOf(writeError)}`),
      )
    }
    fail(log, error)
  }
}

async function finish(report: IndexReport, log: Logger): Promise<void> {
  writeIndexOutputs(report, setOutput(log))
  logIndexResult(report, log)
  // Keys are removed before rendering: markdown escaping would hide them from the log's masking.
  await writeSummary(renderIndexSummary(redactDeep(report, log.secrets)), log)
}
