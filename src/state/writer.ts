// Who wrote a record: the run, as the runner's variables name it (the CLI in another CI system, or on a
// laptop, gives what it has: often nothing but the time).
import type { RecordWriter } from './record.js'
import { positiveInteger } from '../github/workflow.js'

/** The run that writes the record, from the runner's variables and the event's payload. */
export function runnerWriter(
  env: NodeJS.ProcessEnv,
  payload: Record<string, unknown>,
): Omit<RecordWriter, 'at'> {
  const pullRequest = payload.pull_request as { number?: unknown } | undefined
  const workflow = /\.github\/workflows\/([^/@]+)@/.exec(env.GITHUB_WORKFLOW_REF ?? '')?.[1]
  return {
    ...(env.GITHUB_REPOSITORY ? { repository: env.GITHUB_REPOSITORY } : {}),
    ...(workflow ? { workflow } : {}),
    ...(positiveInteger(env.GITHUB_RUN_ID) ? { runId: positiveInteger(env.GITHUB_RUN_ID) } : {}),
    ...(positiveInteger(env.GITHUB_RUN_ATTEMPT)
      ? { runAttempt: positiveInteger(env.GITHUB_RUN_ATTEMPT) }
      : {}),
    ...(positiveInteger(env.GITHUB_RUN_NUMBER) ? { runNumber: positiveInteger(env.GITHUB_RUN_NUMBER) } : {}),
    ...(env.GITHUB_EVENT_NAME ? { event: env.GITHUB_EVENT_NAME } : {}),
    ...(env.GITHUB_SHA ? { commit: env.GITHUB_SHA } : {}),
    ...(typeof pullRequest?.number === 'number' ? { pullRequest: pullRequest.number } : {}),
  }
}
