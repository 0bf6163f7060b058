// Runs the flow once (with the retry rules of the service layer) and checks the answer.
import type { RunConfig } from '../config.js'
import type { Logger } from '../log.js'
import type { FlowTarget } from '../model.js'
import type { FlowRunReport } from '../report.js'
import { pickOutput, ServiceClient } from '../service/client.js'
import { callWithRetry, DEFAULT_RETRY_POLICY, type RetryPolicy } from '../service/retry.js'

export interface FlowRunRequest {
  target: FlowTarget
  inputs: Record<string, string>
  outputKey: string
}

/** The question shown in the summary: `in-0` when present, else every input. */
export function questionOf(inputs: Record<string, string>): string {
  return (
    inputs['in-0'] ??
    Object.entries(inputs)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n')
  )
}

export async function runFlow(
  client: Pick<ServiceClient, 'runFlow'>,
  request: FlowRunRequest,
  options: { log: Logger; retry: RetryPolicy; signal?: AbortSignal },
): Promise<FlowRunReport> {
  const { log } = options
  if (!Object.keys(request.inputs).some((key) => /^in-\d+$/.test(key))) {
    log.warning('None of the flow inputs is named like "in-<n>" (e.g. "in-0"); sending them as given.')
  }
  const response = await callWithRetry(
    (signal) => client.runFlow(request.target, request.inputs, { signal }),
    {
      policy: options.retry,
      signal: options.signal,
    },
  )
  const result = pickOutput(response, request.outputKey)
  return { question: questionOf(request.inputs), result, response }
}

/** Why the answer fails the `expect` input, or undefined when it matches (or nothing is expected). */
export function expectationProblem(result: string, expect: RegExp | undefined): string | undefined {
  if (!expect || expect.test(result)) return undefined
  return `The flow's answer does not match "expect" (${expect}). The answer was:\n${result}`
}

export function retryPolicyOf(config: Pick<RunConfig, 'retry'>): RetryPolicy {
  return { ...DEFAULT_RETRY_POLICY, attempts: config.retry.retries, deadlineMs: config.retry.deadlineMs }
}
