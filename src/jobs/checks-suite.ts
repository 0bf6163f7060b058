// The checks suite of the run-flow action and of `kb-sync run`: the client, the checks on the flow (and
// on the baseline flow), the verdict by `threshold`.
import { flowRunOptions, type RunConfig } from '../config/run.js'
import { runChecksOn, type ChecksOutcome, type SuiteSide } from '../checks/run.js'
import type { Check } from '../checks/schema.js'
import { suiteVerdict, type CheckResult, type SuiteVerdict } from '../checks/verdict.js'
import type { Logger } from '../log.js'
import { ServiceClient } from '../service/client.js'

/** The run-flow inputs' suite against the service: `concurrency` runs in flight, judged by `threshold`. */
export async function runCheckSuite(
  config: RunConfig,
  checks: Check[],
  log: Logger,
  signal?: AbortSignal,
): Promise<ChecksOutcome & { verdict: SuiteVerdict; before?: CheckResult[] }> {
  const client = new ServiceClient({
    baseUrl: config.baseUrl,
    publicKey: config.publicKey,
    connections: config.concurrency,
  })
  try {
    const sides: SuiteSide[] = [{ target: config.target, label: '' }]
    if (config.baseline) sides.push({ target: config.baseline, label: ' (before)' })
    const [outcome, baseline] = await runChecksOn(client, sides, checks, {
      ...flowRunOptions(config, log, signal),
      concurrency: config.concurrency,
      repeats: config.repeats,
      ...(config.judge ? { judge: config.judge } : {}),
    })
    return {
      ...outcome,
      verdict: suiteVerdict(outcome.results, config.threshold),
      ...(baseline ? { before: baseline.results } : {}),
    }
  } finally {
    await client.close()
  }
}
