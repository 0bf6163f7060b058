// The change set from GitHub's compare REST API, for when the checkout cannot give it (no .git, the
// before commit cannot be fetched). The API compares from the merge base (`base...head`), which is the
// tree difference only when `before` is an ancestor of `after`; for a force push the other side is
// asked too, and the two lists are combined into the difference between `before` and `after`.
import { GitHubUnanswered, type LookupBudget } from '../github/lookup-budget.js'
import type { Octokit } from '../github/octokit.js'
import { type ChangeSet, type PathPresence, changeSetFromPresence } from './change-sets.js'

// GitHub's limits for one compare answer without paging: at most 300 files and 250 commits.
export const COMPARE_MAX_FILES = 300
export const COMPARE_MAX_COMMITS = 250

export interface CompareRequest {
  owner: string
  repo: string
  before: string
  after: string
  token: string
  apiUrl: string
  /** The run's GitHub budget (and its cancellation: the request stops, and the call rejects with its reason). */
  budget: LookupBudget
}

export type CompareOutcome = { ok: true; changes: ChangeSet } | { ok: false; why: string }

interface ComparedFile {
  filename: string
  status: string
  previous_filename?: string
}

/** Per path: present at the merge base (`before`) and at the compared head (`after`). */
type SidePresence = Map<string, PathPresence>

async function compareSide(
  octokit: Octokit,
  request: CompareRequest,
  base: string,
  head: string,
): Promise<{ ok: true; paths: SidePresence; status: string } | { ok: false; why: string }> {
  let data: { status: string; total_commits: number; files?: ComparedFile[] }
  try {
    const response = await request.budget.request((signal) =>
      octokit.rest.repos.compareCommitsWithBasehead({
        owner: request.owner,
        repo: request.repo,
        basehead: `${base}...${head}`,
        request: { signal },
      }),
    )
    data = response.data
  } catch (error) {
    request.budget.throwIfCancelled()
    const message = error instanceof Error ? error.message : String(error)
    if (error instanceof GitHubUnanswered) return { ok: false, why: message }
    const status = (error as { status?: unknown }).status
    return {
      ok: false,
      why: `the request failed${typeof status === 'number' ? ` (HTTP ${status})` : ''}: ${message}`,
    }
  }
  if (!Array.isArray(data.files)) return { ok: false, why: 'the answer has no file list' }
  if (data.files.length >= COMPARE_MAX_FILES)
    return {
      ok: false,
      why: `the answer lists ${data.files.length} files, the API's limit is ${COMPARE_MAX_FILES}`,
    }
  if (data.total_commits > COMPARE_MAX_COMMITS)
    return {
      ok: false,
      why: `the comparison spans ${data.total_commits} commits, more than the ${COMPARE_MAX_COMMITS} the API lists`,
    }
  return { ok: true, paths: presenceOf(data.files), status: data.status }
}

function presenceOf(files: ComparedFile[]): SidePresence {
  const paths: SidePresence = new Map()
  // A path can appear twice (the old name of one rename and the new name of another): where it is
  // present is the union of what each entry says.
  const mark = (path: string, base: boolean, head: boolean): void => {
    const presence = paths.get(path)
    if (presence) {
      presence.before ||= base
      presence.after ||= head
    } else paths.set(path, { before: base, after: head })
  }
  for (const file of files) {
    switch (file.status) {
      case 'added':
      case 'copied':
        mark(file.filename, false, true)
        break
      case 'removed':
        mark(file.filename, true, false)
        break
      case 'renamed':
        if (file.previous_filename) mark(file.previous_filename, true, false)
        mark(file.filename, false, true)
        break
      case 'unchanged':
        break
      default: // modified, changed, and any status GitHub adds later: sending an update is safe
        mark(file.filename, true, true)
    }
  }
  return paths
}

/** Combines merge-base→after and merge-base→before into before→after presence. */
function combineSides(toAfter: SidePresence, toBefore: SidePresence): Map<string, PathPresence> {
  const combined = new Map<string, PathPresence>()
  for (const path of new Set([...toAfter.keys(), ...toBefore.keys()])) {
    const afterSide = toAfter.get(path)
    const beforeSide = toBefore.get(path)
    // A path untouched on one side is, on that side, as it was at the merge base.
    combined.set(path, {
      before: beforeSide ? beforeSide.after : (afterSide as PathPresence).before,
      after: afterSide ? afterSide.after : (beforeSide as PathPresence).before,
    })
  }
  return combined
}

export async function compareViaApi(request: CompareRequest): Promise<CompareOutcome> {
  // Loaded when the API is asked (see github/last-success.ts): change detection that git answers skips it.
  const { getOctokit } = await import('../github/octokit.js')
  const octokit = getOctokit(request.token, request.apiUrl)
  const forward = await compareSide(octokit, request, request.before, request.after)
  if (!forward.ok) return forward
  if (forward.status === 'ahead' || forward.status === 'identical')
    return { ok: true, changes: changeSetFromPresence(forward.paths) }
  // `before` is not an ancestor of `after` (a force push): what the dropped commits changed since the
  // merge base differs between before and after too.
  const backward = await compareSide(octokit, request, request.after, request.before)
  if (!backward.ok) return { ok: false, why: `${backward.why} (comparing back from before)` }
  return { ok: true, changes: changeSetFromPresence(combineSides(forward.paths, backward.paths)) }
}
