// What a staging node may hold, from the runs of this workflow file on any branch and event: the last
// successful run left every selected document as its checkout had it, and each run after it that
// failed or was cancelled may have sent some of its own. The list is in order of creation, so an older
// run re-run after it (listed further down, with a later start) may have written the node too: those
// on the same page are counted. Runs marked as dry runs sent nothing.
import { COMMIT_ID } from '../model.js'
import { DRY_RUN_MARKER, type ListedRun, workflowRunPages } from './last-success.js'
import type { LookupBudget } from './lookup-budget.js'
import type { WorkflowRun } from './workflow.js'

export interface StagingRunsQuery {
  workflow: WorkflowRun
  token: string
  apiUrl?: string
  budget: LookupBudget
}

/** A pull request as a workflow run lists it: the commits its checkout merged. */
export interface RunPullRequest {
  number: number
  base: string
  head: string
}

export interface StagingRun {
  id: number
  number: number
  event: string
  /** The run's head commit: what a push or dispatch run checked out, a pull request's head otherwise. */
  sha: string
  /** What a pull_request run merged; empty when GitHub does not say (a fork's pull request). */
  pullRequests: RunPullRequest[]
  url: string
}

export type StagingRunsOutcome =
  | {
      ok: true
      /** The newest successful run before this one; undefined when there is none. */
      lastSuccess?: StagingRun
      /**
       * Runs that may have written the node after it: later ones that failed, timed out or were
       * cancelled (they may have sent part), and older ones re-run since.
       */
      since: StagingRun[]
      /** When there is no last success: why. */
      why?: string
    }
  | { ok: false; why: string; refused?: number }

/** Conclusions of runs that may have sent part of their change set before they ended. */
const PARTIAL = new Set(['failure', 'cancelled', 'timed_out'])

function readPullRequests(value: unknown): RunPullRequest[] {
  if (!Array.isArray(value)) return []
  const found: RunPullRequest[] = []
  for (const entry of value as unknown[]) {
    const pr = entry as { number?: unknown; base?: { sha?: unknown }; head?: { sha?: unknown } } | null
    const base = pr?.base?.sha
    const head = pr?.head?.sha
    // The ids are handed to git as arguments: anything but a commit id is left out.
    if (typeof base !== 'string' || typeof head !== 'string') continue
    if (!COMMIT_ID.test(base) || !COMMIT_ID.test(head)) continue
    found.push({ number: typeof pr?.number === 'number' ? pr.number : 0, base, head })
  }
  return found
}

function stagingRun(run: ListedRun & { pull_requests?: unknown }): StagingRun {
  return {
    id: run.id,
    number: run.run_number,
    event: run.event,
    sha: run.head_sha,
    pullRequests: readPullRequests(run.pull_requests),
    url: run.html_url,
  }
}

function isEarlierRun(run: ListedRun, workflow: WorkflowRun): boolean {
  return (
    run.id !== workflow.runId && (workflow.runNumber === undefined || run.run_number < workflow.runNumber)
  )
}

const isDryRun = (run: ListedRun) => (run.display_title ?? '').toLowerCase().includes(DRY_RUN_MARKER)

/** When the run's latest attempt started (ms), or NaN when the answer does not say. */
function startedAt(run: ListedRun): number {
  const started = (run as { run_started_at?: unknown }).run_started_at
  return typeof started === 'string' ? Date.parse(started) : Number.NaN
}

/** Older runs on the page whose latest attempt started after `last`'s and that may have sent something. */
function reRunSince(older: ListedRun[], last: ListedRun, workflow: WorkflowRun): ListedRun[] {
  const lastStarted = startedAt(last)
  return older.filter(
    (run) =>
      isEarlierRun(run, workflow) &&
      !isDryRun(run) &&
      startedAt(run) > lastStarted &&
      (run.conclusion === 'success' || (run.conclusion !== null && PARTIAL.has(run.conclusion))),
  )
}

export async function findStagingRuns(query: StagingRunsQuery): Promise<StagingRunsOutcome> {
  const { workflow } = query
  const since: StagingRun[] = []
  let seen = 0
  // No branch, status or event filter: a run of any pull request, or of main, may have synced the node;
  // and no exclude_pull_requests, whose lists name what a pull_request run merged.
  for await (const page of workflowRunPages(query)) {
    if (!page.ok) return page
    const runs = page.runs
    for (const [index, run] of runs.entries()) {
      if (!isEarlierRun(run, workflow) || isDryRun(run)) continue
      if (run.conclusion === 'success') {
        const reRun = reRunSince(runs.slice(index + 1), run, workflow)
        return { ok: true, lastSuccess: stagingRun(run), since: [...since, ...reRun.map(stagingRun)] }
      }
      if (run.conclusion !== null && PARTIAL.has(run.conclusion)) since.push(stagingRun(run))
    }
    seen = page.seen
    if (page.last) return { ok: true, since, why: `no earlier successful run of ${workflow.workflowFile}` }
  }
  return {
    ok: false,
    why: `none of the ${seen} newest runs of ${workflow.workflowFile} succeeded`,
  }
}
