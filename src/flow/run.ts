// One run of the flow: retried only when it provably did not start, bounded by a deadline for the whole
// run, judged by the answer's own state, and cut to what a step output can hold.
import { ACTION_INPUT_NAMES, type SettingNames } from '../setting-names.js'
import { runFailure } from './answer.js'
import { cutJson, cutText, OUTPUT_LIMIT_BYTES } from '../service/cut.js'
import { runMayBeRetried, whyNotRetried, type RunRetryOptions } from './run-retry.js'
import type { Logger } from '../log.js'
import type { FlowRunReport, FlowTarget } from '../model.js'
import { namedOutput, ServiceClient, ServiceError, type FlowAnswer } from '../service/client.js'
import { nothingListening, refusedConnectionNotice } from '../service/errors.js'
import { callWithRetry, type RetryPolicy } from '../service/retry.js'

import { expectationProblem } from './expect.js'
import { formatCount } from '../units.js'

export { expectationProblem }

export interface FlowRunRequest {
  target: FlowTarget
  inputs: Record<string, string>
  outputKey: string
}

export interface FlowRunOptions {
  log: Logger
  retry: RetryPolicy
  /** Also retry 500/502/504 (the `retry-on-server-error` input); default false. */
  retryOnServerError?: boolean
  /** Bounds the whole run, retries included (the `run-timeout` input). */
  timeoutMs?: number
  /** Cancellation (SIGINT/SIGTERM). */
  signal?: AbortSignal
  /** How a failure names the setting to check (default: the action's inputs). */
  names?: SettingNames
}

/**
 * A run that failed; `response` is the (cut) answer when the service gave one. `othersCannotRun`: why no
 * other run can succeed either (the service answered 401/403 to the key, or nothing listens at a base
 * URL on this machine), in the words a run left unsent is reported with.
 */
export class FlowRunError extends Error {
  constructor(
    message: string,
    readonly response?: unknown,
    readonly othersCannotRun?: string,
  ) {
    super(message)
    this.name = 'FlowRunError'
  }
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
  options: FlowRunOptions,
): Promise<FlowRunReport> {
  const { log } = options
  if (!Object.keys(request.inputs).some((key) => /^in-\d+$/.test(key))) {
    log.warning('None of the flow inputs is named like "in-<n>" (e.g. "in-0"); sending them as given.')
  }
  const retryOptions: RunRetryOptions = { retryOnServerError: options.retryOnServerError ?? false }
  const names = options.names ?? ACTION_INPUT_NAMES
  const deadline = options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs)
  const signals = [options.signal, deadline].filter((s): s is AbortSignal => s !== undefined)
  const signal = signals.length > 0 ? AbortSignal.any(signals) : undefined
  const noOneListens = (failure: unknown) =>
    failure instanceof ServiceError && !options.retry.retryLocalRefusal
      ? nothingListening(failure, names)
      : undefined
  const startedAt = Date.now()
  let refusalExplained = false
  let answer: FlowAnswer
  try {
    answer = await callWithRetry(
      (s) => client.runFlow(request.target, request.inputs, { signal: s, outputKey: request.outputKey }),
      {
        policy: options.retry,
        signal,
        retryable: (failure) => !noOneListens(failure) && runMayBeRetried(failure, retryOptions),
        onRetry: (failure, attempt, delayMs) => {
          if (!refusalExplained && failure instanceof ServiceError && failure.code === 'ECONNREFUSED') {
            refusalExplained = true
            log.warning(refusedConnectionNotice(failure, names, retryBound(startedAt, options)))
          }
          log.warning(
            `Flow run attempt ${attempt} did not start (${failure instanceof Error ? failure.message : String(failure)}); ` +
              `trying again in ${(delayMs / 1000).toFixed(1)} s.`,
          )
        },
      },
    )
  } catch (error) {
    const unreachable = noOneListens(error)
    const keyRefused = error instanceof ServiceError && (error.status === 401 || error.status === 403)
    throw new FlowRunError(
      unreachable ??
        explainFailure(error, {
          ...retryOptions,
          cancelled: options.signal?.aborted === true,
          timedOut: deadline?.aborted === true,
          timeoutMs: options.timeoutMs,
          names,
        }),
      undefined,
      unreachable
        ? 'nothing listens at the base URL (an earlier run was refused the connection)'
        : keyRefused
          ? 'the service refused the key of an earlier run'
          : undefined,
    )
  }
  const response = cutJson(answer)
  if (response.cutStrings > 0 || response.cutChars > 0)
    log.warning(
      `The output "response" was cut to stay under GitHub's 1 MiB limit: ${response.cutStrings} string value(s) ` +
        `shortened, ${formatCount(response.cutChars)} characters removed (each cut is marked in place).`,
    )
  const failure = runFailure(answer)
  if (failure) throw new FlowRunError(failure, response.value)
  let named: ReturnType<typeof namedOutput>
  try {
    named = namedOutput(answer, request.outputKey)
  } catch (error) {
    throw new FlowRunError(error instanceof Error ? error.message : String(error), response.value)
  }
  const result = cutText(named, OUTPUT_LIMIT_BYTES)
  if (result.cutBytes > 0)
    log.warning(
      `The output "result" (${request.outputKey}) was cut to stay under GitHub's 1 MiB limit: the last ` +
        `${formatCount(result.cutBytes)} of ${formatCount(result.totalBytes)} bytes were removed.`,
    )
  return {
    question: questionOf(request.inputs),
    result: result.text,
    ...(result.cutBytes > 0 ? { resultBytes: result.totalBytes } : {}),
    response: response.value,
  }
}

/** Until when a run that did not start is retried: retry-deadline, or run-timeout when it ends first. */
function retryBound(startedAt: number, options: FlowRunOptions) {
  const what = 'The flow run is retried while it provably did not start,'
  const timeoutFirst = options.timeoutMs !== undefined && options.timeoutMs < options.retry.deadlineMs
  return timeoutFirst
    ? { what, until: startedAt + options.timeoutMs!, bound: 'run-timeout', boundMs: options.timeoutMs! }
    : {
        what,
        until: startedAt + options.retry.deadlineMs,
        bound: 'retry-deadline',
        boundMs: options.retry.deadlineMs,
      }
}

function explainFailure(
  error: unknown,
  context: RunRetryOptions & {
    cancelled: boolean
    timedOut: boolean
    timeoutMs?: number
    names: SettingNames
  },
): string {
  const { ref } = context.names
  const message = error instanceof Error ? error.message : String(error)
  if (context.cancelled) {
    const sent = error instanceof ServiceError && error.bodySent
    return (
      'The flow run was cancelled before a complete answer came' +
      (sent ? '; the request had been sent, so the run may still complete on the service.' : '.')
    )
  }
  if (context.timedOut) {
    const sent = error instanceof ServiceError && error.bodySent
    return (
      `The flow run got no complete answer within ${ref('run-timeout')} (${(context.timeoutMs ?? 0) / 1000} s) and was stopped` +
      (sent ? '; the request had been sent, so the run may still complete on the service.' : '.')
    )
  }
  if (error instanceof ServiceError && (error.status === 401 || error.status === 403)) {
    return (
      `The service refused the key of the flow run (HTTP ${error.status}): check ${context.names.the('public-key')} — a ` +
      `flow run needs the flow's public key, not the private indexing key. ${message}`
    )
  }
  if (error instanceof ServiceError && error.status === 404) {
    return (
      `The service has no flow at ${error.path} (HTTP 404): check ${ref('org-id')} and ${ref('flow-id')} ` +
      `(the run path names the organization first), and ${ref('base-url')}. ${message}`
    )
  }
  const note = whyNotRetried(error, context)
  return note ? `${message} (${note})` : message
}
