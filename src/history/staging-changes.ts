// The change set of a staging node (`pull-request: index`): after the sync, every selected document in
// the node has this checkout's content, and every other name it may hold is removed — whatever pull
// request, or push, synced the node before.
//
// What the node may hold comes from the runs of this workflow file (staging-runs.ts): the last
// successful run's checkout, and for some names that of a run that failed part-way or re-ran since. A pull
// request's checkout is the merge of its base and head, so it differs from its base only in names
// that also differ between base and head. The names that can differ from this checkout are therefore,
// for each such run:
//   - a pull_request run: base..HEAD ∪ base..head (its base and head as the runs API lists them),
//     narrowed to merge-base..head when the checkout has the whole history (a shallow one may have a
//     wrong merge base; base..head holds every name merge-base..head does whose merge differs);
//   - any other run (push, dispatch): its commit..HEAD.
// Each pair is a tree difference from git (fetching what a shallow checkout lacks), else GitHub's
// compare API, with HEAD read as this pull request's base..head. Every name found is then sent from
// the checkout by upsert when present (its state in the node is unknown), and is removed when absent.
// Where that cannot be worked out, every selected file is sent by upsert, with a warning; the names the
// pull request itself removes (its base..head, and on `synchronize` its head's before..after) that this
// checkout lacks are removed even so: no name absent from the checkout belongs in the node.
import fs from 'node:fs/promises'
import path from 'node:path'
import { COMMIT_ID, type ChangeDecision, type UndecodableName } from '../model.js'
import { findStagingRuns, type StagingRun } from '../github/staging-runs.js'
import type { WorkflowRunOutcome } from '../github/workflow.js'
import { Git } from '../git.js'
import { sortedUnique } from './change-sets.js'
import { changesFromCompareApi, changesFromGit, repositoryNamesLayout } from './changes.js'
import type { PullRequestChangeContext } from './pull-request-changes.js'
import { locateRepository } from '../select/git/repository-location.js'
import { type DetectedChanges, workspaceChangesFromNames } from './workspace-changes.js'

export interface StagingChangeContext extends PullRequestChangeContext {
  /** This workflow run (from the runner's variables), or why it is unknown; undefined off a runner. */
  workflow?: WorkflowRunOutcome
  /** The `full-sync` input: every selected file, no earlier run looked up. */
  fullSync?: boolean
}

export interface StagingChanges {
  decision: ChangeDecision
  /** For the summary: where the change set came from, and why. */
  description: string
}

/** More runs than this that may have written the node since the last success: every selected file. */
export const MAX_RUNS_SINCE = 20

/** Two commits whose tree difference holds names that can differ; `HEAD` is this checkout. */
interface Pair {
  from: string
  to: string
}

type Outcome<T> = { ok: true; value: T } | { ok: false; why: string }

const short = (sha: string) => sha.slice(0, 12)
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

function runName(run: StagingRun): string {
  const numbers = run.pullRequests.map((pr) => `#${pr.number}`).join(', ')
  return `run #${run.number} (${numbers ? `pull request ${numbers}` : run.event})`
}

async function stagingRuns(
  context: StagingChangeContext,
): Promise<Outcome<{ last: StagingRun; since: StagingRun[] }>> {
  const { workflow } = context
  if (!workflow) return { ok: false, why: 'not on a runner, so no earlier run is known' }
  if (!workflow.ok) return { ok: false, why: workflow.why }
  if (!context.githubToken) return { ok: false, why: 'no github-token to list the earlier runs' }
  context.log.addSecret(context.githubToken)
  const found = await findStagingRuns({
    workflow: workflow.run,
    token: context.githubToken,
    apiUrl: context.apiUrl,
    budget: context.github,
  })
  if (!found.ok)
    return {
      ok: false,
      why: `the workflow runs API cannot answer: ${found.why}${found.refused ? ' (grant `permissions: actions: read`)' : ''}`,
    }
  if (!found.lastSuccess) return { ok: false, why: found.why ?? 'no earlier successful run' }
  if (found.since.length > MAX_RUNS_SINCE)
    return {
      ok: false,
      why: `${found.since.length} runs since the last successful one failed, were cancelled or re-ran`,
    }
  return { ok: true, value: { last: found.lastSuccess, since: found.since } }
}

/** The commit pairs whose differences cover every name the runs may have left unlike this checkout. */
function pairsOf(runs: StagingRun[]): Outcome<Pair[]> {
  const pairs = new Map<string, Pair>()
  const add = (from: string, to: string) => {
    if (from !== to) pairs.set(`${from}..${to}`, { from, to })
  }
  for (const run of runs) {
    if (!run.event.startsWith('pull_request')) {
      add(run.sha, 'HEAD')
      continue
    }
    // GitHub leaves the list empty for a fork's pull request: what that run merged is unknown.
    if (run.pullRequests.length === 0)
      return {
        ok: false,
        why: `${runName(run)} lists no pull request (a fork's?), so what it synced is unknown`,
      }
    for (const pr of run.pullRequests) {
      add(pr.base, 'HEAD')
      add(pr.base, pr.head)
    }
  }
  return { ok: true, value: [...pairs.values()] }
}

function readPullRequest(payload: Record<string, unknown>): { base: string; head: string } | undefined {
  const pr = payload.pull_request as { base?: { sha?: unknown }; head?: { sha?: unknown } } | undefined
  const base = pr?.base?.sha
  const head = pr?.head?.sha
  if (typeof base !== 'string' || typeof head !== 'string') return undefined
  return COMMIT_ID.test(base) && COMMIT_ID.test(head) ? { base, head } : undefined
}

/**
 * A pull request's own names: from its merge base when the checkout holds the whole history and both
 * commits (a full clone), else from its base (more names, the same ones among those that matter).
 */
async function narrowed(pair: Pair, fullHistory: () => Promise<Git | undefined>): Promise<Pair> {
  if (pair.to === 'HEAD') return pair
  const git = await fullHistory()
  if (!git) return pair
  try {
    if (!(await git.hasCommit(pair.from)) || !(await git.hasCommit(pair.to))) return pair
    const base = await git.mergeBase(pair.from, pair.to)
    return base && COMMIT_ID.test(base) ? { from: base, to: pair.to } : pair
  } catch {
    return pair
  }
}

/** The repository of the selected files when it holds its whole history (not shallow), else undefined. */
async function completeRepository(context: StagingChangeContext): Promise<Git | undefined> {
  const located = await locateRepository(context.workspace, context.patterns ?? [])
  if (!located.ok) return undefined
  const git = new Git(located.location.root)
  return (await git.isShallow().catch(() => true)) ? undefined : git
}

/** One pair from the compare API; HEAD (the merge GitHub made) is read as this pull request's base..head. */
async function pairFromCompareApi(
  context: StagingChangeContext,
  pair: Pair,
): Promise<Outcome<DetectedChanges[]>> {
  let steps: Pair[] = [pair]
  if (pair.to === 'HEAD') {
    const pr = readPullRequest(context.payload)
    if (!pr) return { ok: false, why: 'the pull_request payload has no valid base/head commit ids' }
    steps = [
      { from: pair.from, to: pr.base },
      { from: pr.base, to: pr.head },
    ].filter((step) => step.from !== step.to)
  }
  const layout = await repositoryNamesLayout(context, steps.at(-1)?.to ?? pair.from)
  if (!layout.ok) return { ok: false, why: layout.why }
  const found: DetectedChanges[] = []
  for (const step of steps) {
    const api = await changesFromCompareApi(context, step.from, step.to)
    if (!api.ok) return { ok: false, why: api.why }
    found.push(
      await workspaceChangesFromNames(
        api.changes,
        context.workspace,
        layout.location,
        "GitHub's compare API",
      ),
    )
  }
  return { ok: true, value: found }
}

/** Every name of the pairs' differences, present in the checkout → sent by upsert, absent → removed. */
async function classify(
  workspace: string,
  parts: DetectedChanges[],
): Promise<Extract<ChangeDecision, { kind: 'changes' }>> {
  const names = sortedUnique(parts.flatMap((part) => [...part.added, ...part.modified, ...part.removed]))
  const present: string[] = []
  const removed: string[] = []
  const everythingUnder = parts.flatMap((part) => part.everythingUnder ?? [])
  for (const name of names) {
    const stats = await fs.lstat(path.join(workspace, ...name.split('/'))).catch(() => undefined)
    if (!stats) removed.push(name)
    // A submodule the compare API shows as one entry: every selected file below it.
    else if (stats.isDirectory()) everythingUnder.push(name)
    else present.push(name)
  }
  const undecodable = new Map<string, UndecodableName>()
  for (const part of parts) for (const name of part.undecodable ?? []) undecodable.set(name.shown, name)
  const warnings = [...new Set(parts.flatMap((part) => part.warnings ?? []))]
  return {
    kind: 'changes',
    source: 'staging',
    added: [],
    // "modified" is sent as an update that becomes an upload on 404: an upsert, whatever the node holds.
    modified: present,
    removed,
    ...(everythingUnder.length > 0 ? { everythingUnder: sortedUnique(everythingUnder) } : {}),
    ...(undecodable.size > 0 ? { undecodable: [...undecodable.values()] } : {}),
    ...(warnings.length > 0 ? { warnings } : {}),
  }
}

/** The pull request's own ranges: base..head, and on `synchronize` its head before..after this push. */
function ownPairs(payload: Record<string, unknown>): Pair[] {
  const pairs: Pair[] = []
  const pr = readPullRequest(payload)
  if (pr && pr.base !== pr.head) pairs.push({ from: pr.base, to: pr.head })
  const { action, before, after } = payload
  if (
    action === 'synchronize' &&
    typeof before === 'string' &&
    typeof after === 'string' &&
    COMMIT_ID.test(before) &&
    COMMIT_ID.test(after) &&
    before !== after
  )
    pairs.push({ from: before, to: after })
  return pairs
}

/** The names the pull request's own ranges hold that this checkout lacks, or why they are unknown. */
async function ownRemovals(context: StagingChangeContext): Promise<Outcome<string[]>> {
  const parts: DetectedChanges[] = []
  for (const pair of ownPairs(context.payload)) {
    const compared = await pairChanges(context, pair)
    if (!compared.ok) return compared
    parts.push(...compared.value.parts)
  }
  return { ok: true, value: (await classify(context.workspace, parts)).removed }
}

/** One pair's differences: git (fetching what the checkout lacks), else the compare API. */
async function pairChanges(
  context: StagingChangeContext,
  pair: Pair,
): Promise<Outcome<{ parts: DetectedChanges[]; api: boolean }>> {
  const git = await changesFromGit(context.workspace, pair.from, pair.to, context.patterns, context.signal)
  if (git.ok) return { ok: true, value: { parts: [git.changes], api: false } }
  const range = `${short(pair.from)}..${pair.to === 'HEAD' ? 'HEAD' : short(pair.to)}`
  context.log.info(`Change detection: git cannot tell ${range} (${git.why})`)
  const compared = context.githubToken
    ? await pairFromCompareApi(context, pair).catch((error: unknown) => {
        context.signal?.throwIfAborted()
        return { ok: false as const, why: messageOf(error) }
      })
    : { ok: false as const, why: 'no github-token for the compare API' }
  if (!compared.ok) return { ok: false, why: `${range}: git: ${git.why}; compare API: ${compared.why}` }
  return { ok: true, value: { parts: compared.value, api: true } }
}

/**
 * Every selected file by upsert, and the names the pull request itself removes that the checkout lacks
 * (when they are known).
 */
async function everyFile(
  context: StagingChangeContext,
  reason: string,
  lead: string,
): Promise<StagingChanges> {
  const own = await ownRemovals(context)
  const decision: ChangeDecision = { kind: 'all', source: 'full-sync', reason }
  const describe = (removing: string) =>
    `${lead}; ${removing}earlier pull requests' extra documents may remain`
  if (!own.ok) {
    context.log.info(
      `Change detection: the names this pull request removes are unknown (${own.why}); none is removed.`,
    )
    return { decision, description: describe('') }
  }
  if (own.value.length === 0) return { decision, description: describe('') }
  return {
    decision: { ...decision, removed: own.value },
    description: describe('the names this pull request removes are removed; '),
  }
}

export async function detectStagingChanges(context: StagingChangeContext): Promise<StagingChanges> {
  const { log } = context
  const all = (why: string): Promise<StagingChanges> => {
    log.warning(
      `Change detection: what the staging node holds is unknown (${why}); every selected file is sent by ` +
        'upsert, and documents that earlier pull requests added and this checkout lacks may remain.',
    )
    return everyFile(
      context,
      `what the staging node holds is unknown (${why})`,
      `every selected file by upsert — what the node holds is unknown (${why})`,
    )
  }
  if (context.fullSync) {
    const reason = 'input full-sync is true'
    log.info(
      `Change detection: ${reason}: every selected file by upsert; only the names this pull request ` +
        'removes are removed.',
    )
    return everyFile(context, `${reason}: every selected file`, `every selected file by upsert (${reason})`)
  }
  const runs = await stagingRuns(context)
  if (!runs.ok) return all(runs.why)
  const { last, since } = runs.value
  const pairs = pairsOf([last, ...since])
  if (!pairs.ok) return all(pairs.why)

  const parts: DetectedChanges[] = []
  let api = false
  // Asked once for every pair: where the repository is and whether it is shallow.
  let complete: Promise<Git | undefined> | undefined
  const fullHistory = () => (complete ??= completeRepository(context))
  for (const listed of pairs.value) {
    const compared = await pairChanges(context, await narrowed(listed, fullHistory))
    if (!compared.ok) return all(compared.why)
    parts.push(...compared.value.parts)
    api ||= compared.value.api
  }
  const decision = await classify(context.workspace, parts)
  const after = since.length > 0 ? ` and the ${since.length} run(s) that failed part-way or re-ran since` : ''
  return {
    decision,
    description:
      `the names that can differ from what the last successful sync, ${runName(last)},${after} left in ` +
      `the node, sent from this checkout (${api ? "git and GitHub's compare API" : 'git diff'})`,
  }
}
