// What every stage of the index job is given (the run's context) and how the job fails as a whole.
import type { LookupBudget } from '../github/lookup-budget.js'
import type { WorkflowRunOutcome } from '../github/workflow.js'
import type { Logger } from '../log.js'
import type { IndexReport } from '../report/types.js'
import type { SendProgress } from '../model.js'
import type { RecordKeeping } from '../state/record.js'

export interface JobContext {
  /** Files are selected below this folder and named relative to it (GITHUB_WORKSPACE, or the CLI's cwd). */
  workspace: string
  eventName: string
  payload: Record<string, unknown>
  repository?: { owner: string; repo: string }
  apiUrl?: string
  /** This workflow run, for the last successful sync (undefined off a runner). */
  workflow?: WorkflowRunOutcome
  /** The CLI's --since: a commit or ref, or last-success. */
  since?: string
  log: Logger
  /** The run's cancellation: every wait stops, and the job ends with an IndexJobFailure. */
  signal?: AbortSignal
  /** The run's one budget for all its GitHub requests (runs, compare, comment), made with its cancellation. */
  github: LookupBudget
  /** The run's second signal: indexing requests in flight are cut off without waiting out their grace. */
  cutOff?: AbortSignal
  /** After each completed request (the CLI draws its progress from it). */
  onProgress?: (progress: SendProgress) => void
  /** Where the knowledge base's record is kept (an artifact on a runner, the CLI's --state-file); none: not kept. */
  record?: RecordKeeping
}

/** A failure of the job as a whole (not of one document), with a message a user can act on. */
export class JobError extends Error {}

/**
 * The job stopped before its end. `report` holds what it knew, with every item it knew of that has no
 * outcome failed with the cause, so the outputs and the summary are still written.
 */
export class IndexJobFailure extends Error {
  constructor(
    message: string,
    readonly report: IndexReport,
  ) {
    super(message)
    this.name = 'IndexJobFailure'
  }
}

/** The report of a job that has not started (yet): nothing known but the inputs. */
export function emptyIndexReport(dryRun: boolean): IndexReport {
  return {
    dryRun,
    changeSource: 'not decided',
    planned: [],
    items: [],
    skipped: [],
    left: [],
    requests: 0,
    durationMs: 0,
    notices: [],
  }
}
