// What the runner tells an action through its environment, and the pieces both action entries share.
import * as core from '@actions/core'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { ConfigError } from '../config/errors.js'
import { DEADLINE_VARIABLE, LookupBudget, readGitHubDeadline } from '../github/lookup-budget.js'
import { readWorkflowRun, type WorkflowRunOutcome } from '../github/workflow.js'
import type { Logger } from '../log.js'
import { cancellationOf, runCancellation, runCutOff } from '../cancellation.js'
import { fitSummary } from '../report/summary-limit.js'

export interface RunnerEnvironment {
  eventName: string
  payload: Record<string, unknown>
  workspace: string
  repository?: { owner: string; repo: string }
  apiUrl?: string
  /** This workflow run (undefined when GITHUB_WORKFLOW_REF is not set). */
  workflow?: WorkflowRunOutcome
  /** The run's cancellation (SIGINT, then SIGTERM from the runner). */
  signal: AbortSignal
  /** The one budget of all this run's GitHub requests (lookups and the comment). */
  github: LookupBudget
  /** The second signal: requests still in flight are cut off (cancellation.ts `runCutOff`). */
  cutOff: AbortSignal
  /**
   * The commit the step's files were read from when GITHUB_SHA is not it: under `issue_comment`, the
   * pull request's head that the workflow checked out (comment-trigger.ts `checkedOutCommit`).
   */
  checkedCommit?: string
}

/** A run's GitHub budget: KB_SYNC_GITHUB_DEADLINE_SECONDS, else the default; a bad value is an input error. */
export function gitHubBudget(env: NodeJS.ProcessEnv, cancel: AbortSignal): LookupBudget {
  const deadline = readGitHubDeadline(env)
  if (!deadline.ok) throw new ConfigError([{ input: DEADLINE_VARIABLE, message: deadline.why }])
  return new LookupBudget({ deadlineMs: deadline.deadlineMs, cancel })
}

export function readRunnerEnvironment(env: NodeJS.ProcessEnv = process.env): RunnerEnvironment {
  const [owner, repo] = (env.GITHUB_REPOSITORY ?? '').split('/')
  return {
    github: gitHubBudget(env, runCancellation),
    eventName: env.GITHUB_EVENT_NAME ?? '',
    payload: readPayload(env.GITHUB_EVENT_PATH),
    workspace: env.GITHUB_WORKSPACE || process.cwd(),
    repository: owner && repo ? { owner, repo } : undefined,
    apiUrl: env.GITHUB_API_URL || undefined,
    workflow: readWorkflowRun(env),
    signal: runCancellation,
    cutOff: runCutOff,
  }
}

function readPayload(path: string | undefined): Record<string, unknown> {
  if (!path || !existsSync(path)) return {}
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'))
    return parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

/**
 * The run's cancellation (SIGINT, then SIGTERM), announced once in the log when it comes (at once if it
 * came while the bundle was loading), and so is the second signal, which cuts off what is in flight.
 */
export function cancellationSignal(log: Logger): AbortSignal {
  const announce = () => {
    const signal = cancellationOf(runCancellation)?.signalName ?? 'a cancellation'
    log.warning(
      `Received ${signal}: no new requests are started; what was done is reported, with every item not ` +
        'sent as failed.',
    )
  }
  const announceCutOff = () => {
    const signal = cancellationOf(runCutOff)?.signalName ?? 'a second signal'
    log.warning(
      `Received ${signal} after the cancellation: the requests still in flight are cut off, and what was ` +
        'done is reported now.',
    )
  }
  if (runCancellation.aborted) announce()
  else runCancellation.addEventListener('abort', announce, { once: true })
  if (runCutOff.aborted) announceCutOff()
  else runCutOff.addEventListener('abort', announceCutOff, { once: true })
  return runCancellation
}

/** Masks both keys before anything else is printed. */
export function maskKeys(log: Logger, names: string[]): void {
  for (const name of names) log.addSecret(core.getInput(name))
}

/** Where a cut summary points to; `done` says what the step did when the summary cannot be written. */
export interface SummaryContext {
  pointer?: string
  done?: string
}

const DEFAULT_POINTER = "the step's outputs and its report file hold everything"

/**
 * Writes the job summary, cut to GitHub's limit. A summary that cannot be written is a warning naming the
 * file, never the step's result: it is for people, later steps read the outputs and the report file.
 */
export async function writeSummary(
  markdown: string,
  log: Logger,
  context: SummaryContext = {},
): Promise<void> {
  const file = process.env.GITHUB_STEP_SUMMARY
  if (!file) return
  try {
    const used = statSync(file, { throwIfNoEntry: false })?.size ?? 0
    await core.summary
      .addRaw(fitSummary(log.secrets.redact(markdown), used, context.pointer ?? DEFAULT_POINTER))
      .write()
  } catch (error) {
    core.summary.emptyBuffer()
    log.warning(
      `The job summary could not be written to ${file} (GITHUB_STEP_SUMMARY): ${messageOf(error)}. ` +
        `${context.done ? `This step: ${context.done}. ` : ''}The outputs and the report file are not affected.`,
    )
  }
}

export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

export function fail(log: Logger, error: unknown): void {
  core.setFailed(log.clean(messageOf(error)))
}
