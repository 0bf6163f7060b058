// The single flow run of the run-flow action and of `kb-sync run`: the client, one run of the flow
// (flow/run.ts), the `expect` judgement.
import { flowRunOptions, type RunConfig } from '../config/run.js'
import { expectationProblem } from '../flow/expect.js'
import { FlowRunError, runFlow } from '../flow/run.js'
import type { Logger } from '../log.js'
import type { FlowRunReport } from '../model.js'
import { ServiceClient } from '../service/client.js'

/** How one flow run ended: an answer (with the `expect` judgement), or a failed run. */
export type FlowJobOutcome =
  | { ok: true; report: FlowRunReport; /** `expect` not met */ problem?: string }
  | { ok: false; error: FlowRunError }

/**
 * The single flow run of the run-flow action and of `kb-sync run`: the client, the run with its retries
 * and bounds, the `expect` judgement, the client closed. The front ends differ only in what they show:
 * `answerShown` when the front end shows the answer itself (the CLI), so a missed `expect` does not quote it.
 */
export async function runFlowJob(
  config: RunConfig,
  log: Logger,
  signal?: AbortSignal,
  { answerShown = false }: { answerShown?: boolean } = {},
): Promise<FlowJobOutcome> {
  const client = new ServiceClient({ baseUrl: config.baseUrl, publicKey: config.publicKey, connections: 1 })
  try {
    const report = await runFlow(
      client,
      { target: config.target, inputs: config.inputs, outputKey: config.outputKey },
      flowRunOptions(config, log, signal),
    )
    const wording = { input: config.names.ref('expect'), answerShown }
    return { ok: true, report, problem: expectationProblem(report.result, config.expect, wording) }
  } catch (error) {
    if (error instanceof FlowRunError) return { ok: false, error }
    throw error
  } finally {
    await client.close()
  }
}
