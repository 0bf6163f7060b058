// The checks suite of the run-flow action and of `kb-sync run`: the client, the checks on the flow (and
// on the baseline flow), the verdict by `threshold`.
import { flowRunOptions, type RunConfig } from '../config/run.js'
import { runChecksOn, type ChecksOutcome, type SuiteSide } from '../checks/run.js'
import type { Check } from '../checks/schema.js'
import { suiteVerdict, type CheckResult, type SuiteVerdict } from '../checks/verdict.js'
import { settle, settleSettingsOf, type SettleOutcome } from '../checks/settle.js'
import type { Logger } from '../log.js'
import { ServiceClient } from '../service/client.js'

/**
 * The run-flow inputs' suite against the service: `concurrency` runs in flight, judged by `threshold`.
 * `storedBefore`: the baseline flow's results kept from an earlier run (#36 §5); the baseline flow is then
 * not run, and they are the `before` side.
 */
export async function runCheckSuite(
  config: RunConfig,
  checks: Check[],
  log: Logger,
  signal?: AbortSignal,
  { storedBefore }: { storedBefore?: CheckResult[] } = {},
): Promise<ChecksOutcome & { verdict: SuiteVerdict; before?: CheckResult[]; settled?: SettleOutcome }> {
  const client = new ServiceClient({
    baseUrl: config.baseUrl,
    publicKey: config.publicKey,
    connections: config.concurrency,
  })
  try {
    const sides: SuiteSide[] = [{ target: config.target, label: '' }]
    if (config.baseline && !storedBefore) sides.push({ target: config.baseline, label: ' (before)' })
    const options = {
      ...flowRunOptions(config, log, signal),
      concurrency: config.concurrency,
      repeats: config.repeats,
      ...(config.judge ? { judge: config.judge } : {}),
    }
    // The flow answers from the sync before its answers are measured (`settle`, `settle-check`).
    const settled = await settle(
      checks,
      settleSettingsOf(config, checks),
      async (check, run, stop) => {
        const side = { target: config.target, label: ` (settle run ${run})` }
        const [outcome] = await runChecksOn(client, [side], [check], {
          ...options,
          signal: stop,
          repeats: { repeat: 1 },
        })
        return {
          result: outcome.results[0],
          ...(outcome.stopped !== undefined ? { stopped: outcome.stopped } : {}),
        }
      },
      options,
    )
    const [outcome, baseline] = await runChecksOn(client, sides, checks, options)
    return {
      ...outcome,
      ...(settled ? { settled } : {}),
      verdict: suiteVerdict(outcome.results, config.threshold),
      ...(baseline ? { before: baseline.results } : storedBefore ? { before: storedBefore } : {}),
    }
  } finally {
    await client.close()
  }
}
