// The run-flow action: read inputs → run the flow once → outputs, summary, exit status.
import * as core from '@actions/core'
import { readRunConfig } from '../config.js'
import { expectationProblem, questionOf, retryPolicyOf, runFlow } from '../jobs/flow-run.js'
import { actionsSink, Logger } from '../log.js'
import { renderFlowSection, renderStoppedSummary, writeFlowOutputs } from '../report.js'
import { ServiceClient } from '../service/client.js'
import { commentFlowResult, type FlowOutcome } from './flow-comment.js'
import {
  cancellationSignal,
  fail,
  messageOf,
  maskKeys,
  readRunnerEnvironment,
  setOutput,
  writeSummary,
} from './runner.js'

export async function runFlowAction(): Promise<void> {
  const log = new Logger(actionsSink)
  maskKeys(log, ['public-key', 'github-token'])
  try {
    const runner = readRunnerEnvironment()
    const config = readRunConfig((name) => core.getInput(name), { eventName: runner.eventName })
    if (config.skip) {
      log.notice(config.skip)
      await writeSummary(renderStoppedSummary('Flow run: nothing ran', config.skip), log)
      return
    }
    const client = new ServiceClient({ baseUrl: config.baseUrl, publicKey: config.publicKey, connections: 1 })
    const started = Date.now()
    const outcome = (extra: Partial<FlowOutcome>): FlowOutcome => ({
      question: questionOf(config.inputs),
      seconds: (Date.now() - started) / 1000,
      ...extra,
    })
    try {
      let report
      try {
        report = await runFlow(
          client,
          { target: config.target, inputs: config.inputs, outputKey: config.outputKey },
          { log, retry: retryPolicyOf(config), signal: cancellationSignal(log) },
        )
      } catch (error) {
        await commentFlowResult(config, runner, log, outcome({ problem: messageOf(error), error: true }))
        throw error
      }
      writeFlowOutputs(report, setOutput(log))
      log.info(`Answer (${config.outputKey}):\n${report.result}`)
      await writeSummary(renderFlowSection(report), log)
      const problem = expectationProblem(report.result, config.expect)
      await commentFlowResult(config, runner, log, outcome({ report, problem }))
      if (problem) core.setFailed(log.clean(problem))
    } finally {
      await client.close()
    }
  } catch (error) {
    fail(log, error)
    await writeSummary(renderStoppedSummary('Flow run failed', messageOf(error)), log)
  }
}
