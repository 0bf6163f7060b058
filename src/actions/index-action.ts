// The index action: read inputs → index pipeline → outputs, summary, exit status.
import * as core from '@actions/core'
import { readIndexConfig } from '../config.js'
import { runIndexJob } from '../jobs/index-job.js'
import { actionsSink, Logger } from '../log.js'
import {
  indexOutputs,
  logIndexResult,
  renderIndexSummary,
  renderStoppedSummary,
  writeIndexOutputs,
} from '../report.js'
import { redactDeep } from '../report/redact.js'
import { commentIndexResult } from './index-comment.js'
import {
  cancellationSignal,
  fail,
  messageOf,
  maskKeys,
  readRunnerEnvironment,
  setOutput,
  writeSummary,
} from './runner.js'

export async function runIndexAction(): Promise<void> {
  const log = new Logger(actionsSink)
  maskKeys(log, ['private-key', 'public-key', 'github-token'])
  try {
    const runner = readRunnerEnvironment()
    const config = readIndexConfig((name) => core.getInput(name), { eventName: runner.eventName })
    if (config.skip) {
      log.notice(config.skip)
      await writeSummary(renderStoppedSummary('Knowledge base sync: nothing ran', config.skip), log)
      return
    }
    const report = await runIndexJob(config, { ...runner, log, signal: cancellationSignal(log) })
    writeIndexOutputs(report, setOutput(log))
    logIndexResult(report, log)
    await writeSummary(renderIndexSummary(redactDeep(report, log.secrets)), log)
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
    fail(log, error)
    await writeSummary(renderStoppedSummary('Knowledge base sync failed', messageOf(error)), log)
  }
}
