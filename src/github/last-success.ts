// The last successful run of this workflow on this branch: its commit is what the knowledge base
// last received in full, so the next change set is measured from it. A run counts when it succeeded
// (a failed item fails the step, so the run too), ran for the branch itself (not a pull request),
// was created before this run, and is not marked as a dry run in its title.
import { COMMIT_ID } from '../model.js'
import { GitHubUnanswered, type LookupBudget } from './lookup-budget.js'
import type { WorkflowRun } from './workflow.js'

export interface LastSuccessQuery {
  workflow: WorkflowRun
  token: string
  apiUrl?: string
  /** The run's GitHub budget (and its cancellation: the lookup stops, and the call rejects with its reason). */
  budget: LookupBudget
}

export interface SuccessfulRun {
  id: number
  number: number
  sha: string
  event: string
  /** The run's page on GitHub. */
  url: string
}

export type LastSuccessOutcome =
  | { ok: true; run: SuccessfulRun }
  /** The API answered, and no run of the branch qualifies: nothing was synced yet (as far as it knows). */
  | { ok: true; run: undefined; why: string }
  /**
   * The API could not answer. `refused` is the status when it refused the token (401, 403 or 404 for
   * a token without `actions: read`): a permission to grant, not an outage that passes.
   */
  | { ok: false; why: string; refused?: number }

// Small pages: the previous run is nearly always the first entry, so one short answer is the usual case.
export const RUNS_PER_PAGE = 10
export const MAX_PAGES = 10

// Runs of these events never synced the branch: pull request runs preview or index the pull
// request's head. (A workflow_run or deployment_status run that succeeded synced it: the action refuses,
// and so fails, the ones that would not.)
const NOT_A_SYNC = new Set([
  'pull_request',
  'pull_request_target',
  'pull_request_review',
  'pull_request_review_comment',
  'merge_group',
])

/** A run whose title (the workflow's `run-name`) carries this marker is not a base. */
export const DRY_RUN_MARKER = '[dry-run]'

const WEB_URL = /^https?:\/\/[^\s<>()[\]]+$/

/** The fields of a listed run that the choice reads. */
export interface ListedRun {
  id: number
  run_number: number
  head_sha: string
  head_branch: string | null
  event: string
  conclusion: string | null
  display_title?: string | null
  html_url: string
}

// A type guard instead of a schema library: eight fields do not justify ~300 KB more in the bundle
// every run starts.
export function isListedRun(value: unknown): value is ListedRun {
  if (typeof value !== 'object' || value === null) return false
  const run = value as Record<string, unknown>
  const text = (field: unknown) => typeof field === 'string'
  const textOrNull = (field: unknown) => field === null || text(field)
  return (
    Number.isSafeInteger(run.id) &&
    (run.id as number) > 0 &&
    Number.isSafeInteger(run.run_number) &&
    text(run.head_sha) &&
    COMMIT_ID.test(run.head_sha as string) &&
    textOrNull(run.head_branch) &&
    text(run.event) &&
    textOrNull(run.conclusion) &&
    (run.display_title === undefined || textOrNull(run.display_title)) &&
    text(run.html_url) &&
    WEB_URL.test(run.html_url as string)
  )
}

function readRunsPage(data: unknown): { total: number; runs: ListedRun[] } | undefined {
  if (typeof data !== 'object' || data === null) return undefined
  const { total_count: total, workflow_runs: runs } = data as Record<string, unknown>
  if (typeof total !== 'number' || !Array.isArray(runs) || !runs.every(isListedRun)) return undefined
  return { total, runs }
}

function isSyncBase(run: ListedRun, workflow: WorkflowRun): boolean {
  return (
    run.id !== workflow.runId &&
    (workflow.runNumber === undefined || run.run_number < workflow.runNumber) &&
    run.conclusion === 'success' &&
    run.head_branch === workflow.branch &&
    !NOT_A_SYNC.has(run.event) &&
    !(run.display_title ?? '').toLowerCase().includes(DRY_RUN_MARKER)
  )
}

// What the API answers a token it does not accept (401) or one without `actions: read`: 403, or 404 as
// for a repository the token cannot see.
const REFUSALS: ReadonlySet<number> = new Set([401, 403, 404])

/** A 403 or 429 that is GitHub's rate limit (no requests left, or a wait asked for): it passes. */
function isRateLimit(status: number, headers: Record<string, unknown> | undefined): boolean {
  if (status === 429) return true
  if (status !== 403 || !headers) return false
  return headers['x-ratelimit-remaining'] === '0' || headers['retry-after'] !== undefined
}

export function requestFailure(error: unknown): { why: string; refused?: number } {
  const { status, response } = error as { status?: unknown; response?: { headers?: Record<string, unknown> } }
  const message = error instanceof Error ? error.message : String(error)
  if (error instanceof GitHubUnanswered) return { why: message }
  if (!response || typeof status !== 'number') return { why: `the request failed: ${message}` }
  if (isRateLimit(status, response.headers)) return { why: `HTTP ${status}: ${message} (rate limited)` }
  if (!REFUSALS.has(status)) return { why: `HTTP ${status}: ${message}` }
  const hint =
    status === 401
      ? 'github-token was not accepted; it needs `permissions: actions: read`'
      : 'the job needs `permissions: actions: read`; GitHub Enterprise Server may lack the endpoint'
  return { why: `HTTP ${status}: ${message} (${hint})`, refused: status }
}

export type RunsPage =
  { ok: true; runs: ListedRun[]; seen: number; last: boolean } | { ok: false; why: string; refused?: number }

/**
 * The workflow file's runs, newest first, a page at a time (at most MAX_PAGES), within the run's GitHub
 * budget. A failed request or an answer that is not a list ends the pages with its reason.
 */
export async function* workflowRunPages(
  query: LastSuccessQuery,
  filters: { branch?: string; status?: 'success'; exclude_pull_requests?: boolean } = {},
): AsyncGenerator<RunsPage> {
  const { workflow } = query
  // Octokit loads with the first page asked for: a run that never asks (the CLI without `--since
  // last-success`, a push whose before commit is here) does not evaluate it at all.
  const { getOctokit } = await import('./octokit.js')
  const octokit = getOctokit(query.token, query.apiUrl)
  let seen = 0
  for (let page = 1; page <= MAX_PAGES; page++) {
    let data: unknown
    try {
      const response = await query.budget.request((signal) =>
        octokit.rest.actions.listWorkflowRuns({
          owner: workflow.owner,
          repo: workflow.repo,
          workflow_id: workflow.workflowFile,
          ...filters,
          per_page: RUNS_PER_PAGE,
          page,
          request: { signal },
        }),
      )
      data = response.data
    } catch (error) {
      query.budget.throwIfCancelled()
      yield { ok: false, ...requestFailure(error) }
      return
    }
    const parsed = readRunsPage(data)
    if (!parsed) {
      yield { ok: false, why: 'the answer is not a list of workflow runs' }
      return
    }
    seen += parsed.runs.length
    const last = parsed.runs.length < RUNS_PER_PAGE || seen >= parsed.total
    yield { ok: true, runs: parsed.runs, seen, last }
    if (last) return
  }
}

export async function findLastSuccessfulRun(query: LastSuccessQuery): Promise<LastSuccessOutcome> {
  const { workflow } = query
  let seen = 0
  const pages = workflowRunPages(query, {
    branch: workflow.branch,
    status: 'success',
    exclude_pull_requests: true,
  })
  for await (const page of pages) {
    if (!page.ok) return page
    const base = page.runs.find((run) => isSyncBase(run, workflow))
    if (base)
      return {
        ok: true,
        run: {
          id: base.id,
          number: base.run_number,
          sha: base.head_sha,
          event: base.event,
          url: base.html_url,
        },
      }
    seen = page.seen
    if (page.last)
      return {
        ok: true,
        run: undefined,
        why: `no earlier successful run of ${workflow.workflowFile} on branch ${workflow.branch}`,
      }
  }
  return {
    ok: true,
    run: undefined,
    why: `none of the ${seen} newest successful runs of ${workflow.workflowFile} on branch ${workflow.branch} synced it`,
  }
}
