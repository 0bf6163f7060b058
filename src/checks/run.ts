// Runs a suite of checks with bounded concurrency (each run costs the user money), each under the
// no-double-run rule of the flow run, and judges each answer.
import { performance } from 'node:perf_hooks'
import type { RunConfig } from '../config/run.js'
import { outputsOf } from '../flow/answer.js'
import { FlowRunError, flowRunOptions, runFlow, type FlowRunOptions } from '../jobs/flow-run.js'
import type { Logger } from '../log.js'
import type { FlowTarget } from '../model.js'
import { ServiceClient } from '../service/client.js'
import { failedAssertions } from './judge.js'
import type { Check } from './schema.js'
import { suiteVerdict, type CheckResult, type SuiteVerdict } from './verdict.js'

export interface RunChecksOptions extends FlowRunOptions {
  concurrency: number
}

function runIdOf(response: unknown): string | undefined {
  if (response === null || typeof response !== 'object') return undefined
  const id = (response as Record<string, unknown>).run_id
  return typeof id === 'string' ? id : undefined
}

async function runCheck(
  client: Pick<ServiceClient, 'runFlow'>,
  target: FlowTarget,
  check: Check,
  options: FlowRunOptions,
): Promise<CheckResult> {
  const started = performance.now()
  const seconds = () => Math.round((performance.now() - started) / 100) / 10
  if (options.signal?.aborted)
    return {
      name: check.name,
      verdict: 'error',
      failed: ['not run: the step was cancelled'],
      answer: '',
      seconds: 0,
    }
  try {
    const report = await runFlow(client, { target, inputs: check.inputs, outputKey: check.output }, options)
    const failed = failedAssertions(check, {
      answer: report.result,
      outputs: outputsOf(report.response),
      seconds: seconds(),
      response: report.response,
    })
    return {
      name: check.name,
      verdict: failed.length === 0 ? 'passed' : 'failed',
      failed,
      answer: report.result,
      runId: runIdOf(report.response),
      seconds: seconds(),
    }
  } catch (error) {
    if (!(error instanceof FlowRunError)) throw error
    return {
      name: check.name,
      verdict: 'error',
      failed: [error.message],
      answer: '',
      runId: runIdOf(error.response),
      seconds: seconds(),
    }
  }
}

/** Results in the order of the checks; at most `concurrency` runs in flight. */
export async function runChecks(
  client: Pick<ServiceClient, 'runFlow'>,
  target: FlowTarget,
  checks: Check[],
  options: RunChecksOptions,
): Promise<CheckResult[]> {
  const results: CheckResult[] = new Array(checks.length)
  let next = 0
  const worker = async () => {
    while (next < checks.length) {
      const index = next++
      const result = await runCheck(client, target, checks[index], options)
      results[index] = result
      options.log.info(`Check "${result.name}": ${result.verdict} (${result.seconds} s)`)
    }
  }
  const workers = Math.max(1, Math.min(options.concurrency, checks.length))
  await Promise.all(Array.from({ length: workers }, worker))
  return results
}

/** The run-flow inputs' suite against the service: `concurrency` runs in flight, judged by `threshold`. */
export async function runCheckSuite(
  config: RunConfig,
  checks: Check[],
  log: Logger,
  signal?: AbortSignal,
): Promise<{ results: CheckResult[]; verdict: SuiteVerdict }> {
  const client = new ServiceClient({
    baseUrl: config.baseUrl,
    publicKey: config.publicKey,
    connections: config.concurrency,
  })
  try {
    const results = await runChecks(client, config.target, checks, {
      ...flowRunOptions(config, log, signal),
      concurrency: config.concurrency,
    })
    return { results, verdict: suiteVerdict(results, config.threshold) }
  } finally {
    await client.close()
  }
}
