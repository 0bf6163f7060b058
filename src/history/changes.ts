// What a push changed: added / modified / removed document names, or why everything (or nothing) is
// synced. Git's names are relative to the repository, document names to the workspace: the repository
// holding the selected files is found first (the workspace itself, a repository around it, or one
// checked out in a folder of it: repository-location.ts) and every name is mapped.
//
// Sources, in order:
//   1. git: the tree difference before..after in the checkout — exact, merges and force pushes
//      included, submodules expanded (submodule-changes.ts), names read as bytes. `before` (and,
//      rarely, `after`) is fetched from origin when the shallow checkout lacks it.
//   2. The payload's per-commit lists, when complete (only webhook-shaped payloads have them; the
//      payload GitHub Actions gives a workflow never does).
//   3. The compare REST API (at most 300 files and 250 commits).
//   4. Otherwise every selected file, with a warning saying why.
import type { LookupBudget } from '../github/lookup-budget.js'
import type { Logger } from '../log.js'
import { COMMIT_ID, type ChangeDecision } from '../model.js'
import { Git } from '../git.js'
import { type ChangeSet, foldCommitLists } from './change-sets.js'
import { compareViaApi } from './compare-api.js'
import { locateRepository, type RepositoryLocation } from '../select/git/repository-location.js'
import { diffWithSubmodules } from './submodule-changes.js'
import {
  type DetectedChanges,
  overlapsWorkspace,
  workspaceChanges,
  workspaceChangesFromNames,
} from './workspace-changes.js'

export { foldCommitLists } from './change-sets.js'
export type { DetectedChanges } from './workspace-changes.js'
export type { ChangeSet, CommitLists } from './change-sets.js'

export interface ChangeContext {
  /** GITHUB_EVENT_NAME */
  eventName: string
  /** The parsed GITHUB_EVENT_PATH file ({} when absent). */
  payload: Record<string, unknown>
  /** The checkout (GITHUB_WORKSPACE); may have no .git, or be a folder inside the repository. */
  workspace: string
  /** The `files` patterns: they tell which repository holds the selected files. */
  patterns?: string[]
  /** For the compare API. */
  repository?: { owner: string; repo: string }
  /** For the compare API; may be empty. */
  githubToken?: string
  /** GITHUB_API_URL; https://api.github.com when absent. */
  apiUrl?: string
  log: Logger
  /** The run's cancellation: every wait stops, and the call rejects with its reason. */
  signal?: AbortSignal
  /** The run's one budget for GitHub requests (made with the same cancellation). */
  github: LookupBudget
}

const ZERO_COMMIT = /^0+$/
// GitHub puts at most 2048 commits in a push payload: a list of that length may be cut short.
const PAYLOAD_MAX_COMMITS = 2048
const FETCH_TIMEOUT_MS = 120_000
const DEFAULT_API_URL = 'https://api.github.com'

type SourceOutcome = { ok: true; changes: DetectedChanges } | { ok: false; why: string }

interface PushFacts {
  ref: string
  before: string
  after: string
  deleted: boolean
  forced: unknown
  commits: unknown
}

function readPush(payload: Record<string, unknown>): PushFacts {
  const text = (value: unknown): string => (typeof value === 'string' ? value : '')
  return {
    ref: text(payload.ref),
    before: text(payload.before),
    after: text(payload.after),
    deleted: payload.deleted === true,
    forced: payload.forced,
    commits: payload.commits,
  }
}

const short = (sha: string): string => sha.slice(0, 12)
const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/** `quiet`: the caller says in its own words what an unknown change set means (no warnings). */
export async function detectChanges(
  context: ChangeContext,
  options: { quiet?: boolean } = {},
): Promise<ChangeDecision> {
  const log = options.quiet ? quietLog(context.log) : context.log
  if (context.eventName !== 'push') {
    const why = context.eventName
      ? `${context.eventName} event, not a push`
      : 'no GitHub event, run outside a workflow'
    return { kind: 'all', source: 'full-sync', reason: `${why}: every selected file` }
  }

  const push = readPush(context.payload)
  const nothing = pushWithNothingToIndex(context.payload)
  if (nothing) return nothing
  if (push.before === '' || ZERO_COMMIT.test(push.before))
    return {
      kind: 'all',
      source: 'full-sync',
      reason: `first push of ${push.ref || 'the branch'}: every selected file`,
    }
  // The ids are handed to git as arguments: anything but a commit id (an option, a range) is refused.
  if (!COMMIT_ID.test(push.before) || !COMMIT_ID.test(push.after) || ZERO_COMMIT.test(push.after)) {
    const reason = 'the push payload has no valid before/after commit ids: every selected file'
    log.warning(`Change detection: ${reason}`)
    return { kind: 'all', source: 'full-sync', reason }
  }

  const git = await changesFromGit(
    context.workspace,
    push.before,
    push.after,
    context.patterns,
    context.signal,
  )
  if (git.ok) return { kind: 'changes', source: git.fetched ? 'fetched-before' : 'git-diff', ...git.changes }
  log.info(`Change detection: git cannot tell (${git.why})`)

  const layout = await repositoryNamesLayout(context, push.after)
  if (!layout.ok) {
    // git failed for the same reason: the repository of the selected files is not known.
    const reason = `the change set is unknown (${layout.why}): every selected file`
    log.warning(`Change detection: ${reason}`)
    return { kind: 'all', source: 'full-sync', reason }
  }
  const lists = changesFromPayloadLists(push)
  if (lists.ok)
    return {
      kind: 'changes',
      source: 'payload',
      ...(await workspaceChangesFromNames(
        lists.changes,
        context.workspace,
        layout.location,
        'the push payload',
      )),
    }
  log.info(`Change detection: payload lists not used (${lists.why})`)

  const api = await changesFromCompareApi(context, push.before, push.after)
  if (api.ok)
    return {
      kind: 'changes',
      source: 'compare-api',
      ...(await workspaceChangesFromNames(
        api.changes,
        context.workspace,
        layout.location,
        "GitHub's compare API",
      )),
    }

  const reason = `the change set is unknown (git: ${git.why}; compare API: ${api.why}): every selected file`
  log.warning(`Change detection: ${reason}`)
  return { kind: 'all', source: 'full-sync', reason }
}

/** The log with its warnings as info lines. */
function quietLog(log: Logger): Pick<Logger, 'info' | 'warning'> {
  return { info: (message) => log.info(message), warning: (message) => log.info(message) }
}

/** A tag push or a branch deletion: nothing to index. */
export function pushWithNothingToIndex(
  payload: Record<string, unknown>,
): Extract<ChangeDecision, { kind: 'none' }> | undefined {
  const push = readPush(payload)
  if (push.ref.startsWith('refs/tags/'))
    return { kind: 'none', reason: `tag push (${push.ref}): nothing to index` }
  if (push.deleted) return { kind: 'none', reason: `branch deleted (${push.ref}): nothing to index` }
  return undefined
}

/** The push's `before`, when it is a commit id (not the zero id of a new branch). */
export function pushBefore(payload: Record<string, unknown>): string | undefined {
  const { before } = readPush(payload)
  return COMMIT_ID.test(before) && !ZERO_COMMIT.test(before) ? before : undefined
}

/**
 * How GitHub's repository-relative names (compare API, payload lists) map to document names: through the
 * repository found for the selected files; as they are when no checkout is found (the workspace is
 * assumed to be the repository); not at all when the patterns reach into several repositories.
 */
export async function repositoryNamesLayout(
  context: Pick<ChangeContext, 'workspace' | 'patterns'>,
  commit: string,
): Promise<{ ok: true; location?: RepositoryLocation } | { ok: false; why: string }> {
  const located = await locateRepository(context.workspace, context.patterns ?? [], commit)
  if (located.ok) return { ok: true, location: located.location }
  return located.ambiguous ? { ok: false, why: located.why } : { ok: true }
}

/**
 * The tree difference before..after in the repository that holds the selected files, submodules
 * expanded and names mapped to the workspace, fetching from origin either commit the checkout lacks.
 * `after` may be `HEAD`.
 */
export async function changesFromGit(
  workspace: string,
  before: string,
  after: string,
  patterns: string[] = [],
  signal?: AbortSignal,
): Promise<
  (SourceOutcome & { ok: false }) | { ok: true; changes: DetectedChanges; fetched: boolean; root: string }
> {
  const located = await locateRepository(workspace, patterns, after === 'HEAD' ? undefined : after)
  if (!located.ok) return { ok: false, why: located.why }
  const { location } = located
  const git = new Git(location.root)
  try {
    // Locating the repository may have found `after` in it already; the other commit ids are looked up
    // together (`after` may be HEAD, asked on its own).
    const present = new Set(located.holdsCommit === true ? [after] : [])
    const ids = [before, after].filter((sha) => !present.has(sha) && COMMIT_ID.test(sha))
    if (ids.length > 0) for (const sha of await git.presentCommits(ids)) present.add(sha)
    let fetched = false
    for (const sha of [before, after]) {
      // A fetch of `before` into a complete clone brings its history: `after` is asked again.
      if (present.has(sha) || ((fetched || !COMMIT_ID.test(sha)) && (await git.hasCommit(sha)))) continue
      try {
        await git.fetchCommit('origin', sha, { timeoutMs: FETCH_TIMEOUT_MS, signal })
      } catch (error) {
        signal?.throwIfAborted()
        return {
          ok: false,
          why: `commit ${short(sha)} is not in the checkout and fetching it failed: ${messageOf(error)}`,
        }
      }
      if (!(await git.hasCommit(sha)))
        return { ok: false, why: `commit ${short(sha)} is still missing after a fetch` }
      if (sha === before) fetched = true
    }
    const raw = await diffWithSubmodules(git, before, after, {
      fetchTimeoutMs: FETCH_TIMEOUT_MS,
      signal,
      relevant: overlapsWorkspace(location),
    })
    return { ok: true, changes: workspaceChanges(raw, location), fetched, root: location.root }
  } catch (error) {
    signal?.throwIfAborted()
    return { ok: false, why: messageOf(error) }
  }
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string')
}

function changesFromPayloadLists(
  push: PushFacts,
): { ok: true; changes: ChangeSet } | { ok: false; why: string } {
  if (push.forced !== false) return { ok: false, why: 'the push was forced or does not say' }
  const commits = push.commits
  if (!Array.isArray(commits) || commits.length === 0)
    return { ok: false, why: 'the payload lists no commits' }
  if (commits.length >= PAYLOAD_MAX_COMMITS)
    return { ok: false, why: `the payload lists ${commits.length} commits and may be cut short` }
  const complete = commits.every((commit: unknown) => {
    if (typeof commit !== 'object' || commit === null) return false
    const { added, modified, removed } = commit as Record<string, unknown>
    return isStringList(added) && isStringList(modified) && isStringList(removed)
  })
  if (!complete) return { ok: false, why: 'its commits carry no added/modified/removed lists' }
  return {
    ok: true,
    changes: foldCommitLists(commits as { added: string[]; modified: string[]; removed: string[] }[]),
  }
}

/** The compare API's change set (repository names), when a repository and a token are known. */
export async function changesFromCompareApi(
  context: Omit<ChangeContext, 'eventName'>,
  before: string,
  after: string,
): Promise<{ ok: true; changes: ChangeSet } | { ok: false; why: string }> {
  if (!context.repository) return { ok: false, why: 'no repository is known' }
  if (!context.githubToken) return { ok: false, why: 'no github-token' }
  context.log.addSecret(context.githubToken)
  return compareViaApi({
    ...context.repository,
    before,
    after,
    token: context.githubToken,
    apiUrl: context.apiUrl || DEFAULT_API_URL,
    budget: context.github,
  })
}
