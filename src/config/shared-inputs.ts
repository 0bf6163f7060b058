// What the index action's and the run-flow action's configs share: the retry inputs, the event a run is
// under, the outputs budget and the flow inputs. Both read them here, so neither imports the other.
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../service/retry.js'
import { OUTPUTS_BUDGET_MAX, OUTPUTS_BUDGET_MIN } from './outputs-budget.js'
import { ConfigError } from './errors.js'
import type { InputFields } from './fields.js'
import { parseFlowInputs } from './flow-inputs.js'
import type { SettingNames } from '../setting-names.js'

export interface RetrySettings {
  /** Attempts per request, the first included. */
  retries: number
  /** No retry starts later than this after a request's first attempt. */
  deadlineMs: number
}

export interface EventContext {
  /** GITHUB_EVENT_NAME; '' for the CLI. */
  eventName: string
  /** Where a `checks` file path is resolved (default: the current directory). */
  workspace?: string
  /** How problems name a setting (default: the actions' input names; the CLI gives its flags). */
  names?: SettingNames
  /** A `checks` file may be anywhere (the CLI); the action keeps it inside the workspace. */
  checksAnywhere?: boolean
  /** The event's payload (GITHUB_EVENT_PATH), for the rules of some events; the CLI has none. */
  payload?: Record<string, unknown>
}

// Pull requests from forks and Dependabot run without secrets: an empty key there is expected, not an error.
export const PULL_REQUEST_EVENTS = new Set([
  'pull_request',
  'pull_request_review',
  'pull_request_review_comment',
])

export function readRetry(fields: InputFields): RetrySettings {
  return {
    retries: fields.integer('retries', 1, 20),
    deadlineMs: fields.duration('retry-deadline', 1000, 3_600_000),
  }
}

/** The retry policy of the service layer, from the `retries` and `retry-deadline` inputs. */
export function retryPolicyOf(config: { retry: RetrySettings }): RetryPolicy {
  return { ...DEFAULT_RETRY_POLICY, attempts: config.retry.retries, deadlineMs: config.retry.deadlineMs }
}

/** All outputs of one step share this budget (see report/output-budget.ts). */
export function readOutputsBudget(fields: InputFields): number {
  return fields.integer('outputs-budget', OUTPUTS_BUDGET_MIN, OUTPUTS_BUDGET_MAX)
}

export function readFlowInputs(fields: InputFields, text: string, input: string): Record<string, string> {
  try {
    return parseFlowInputs(text, input, fields.names)
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    fields.problems.push(...error.problems)
    return Object.create(null) as Record<string, string>
  }
}
