// What `mode: auto` sends, measured from a base commit: the last successful sync of this workflow on
// this branch, so a failed run is healed by the next one and dispatch / schedule runs are incremental.
//
// Order of bases:
//   1. the last successful run's commit (GitHub REST API), diffed against the checkout with git;
//   2. when the API cannot answer (an outage, a timeout) or that commit cannot be fetched: the push's
//      before (detectChanges), with a warning;
//   3. otherwise every selected file.
// The API answering "no successful run yet" means nothing was synced: every selected file. The API
// refusing the token (no `actions: read`) also means every selected file: without the last sync, a
// push's own files would leave out whatever earlier runs did not send, with no end to it.
// Whenever a push sends every selected file (those two, and `full-sync: true`), the removals of its own
// before..after (git, payload lists, compare API) are blanked too: sending every file removes nothing,
// so without them a deleted document would keep being answered on every such run.
import { ConfigError, quoted } from '../config/errors.js'
import { Git } from '../git.js'
import { LAST_SUCCESS } from './since.js'
import { findLastSuccessfulRun, type SuccessfulRun } from '../github/last-success.js'
import type { WorkflowRunOutcome } from '../github/workflow.js'
import { COMMIT_ID, type ChangeBase, type ChangeDecision } from '../model.js'
import {
  type ChangeContext,
  changesFromGit,
  detectChanges,
  pushBefore,
  pushWithNothingToIndex,
} from './changes.js'
import { locateRepository } from '../select/git/repository-location.js'

export interface ChangeBaseRequest extends ChangeContext {
  /** The `full-sync` input: skip every base. */
  fullSync: boolean
  /** This workflow run (from the runner's variables), or why it is unknown; undefined off a runner. */
  workflow?: WorkflowRunOutcome
  /** The CLI's `--since`: a commit or ref, or `last-success`. */
  since?: string
}

export interface ChangeBaseDecision {
  decision: ChangeDecision
  base: ChangeBase
  /** Why a better base was not used: shown as warnings in the log and notes in the summary. */
  notices: string[]
}

// Events whose runs sync the branch they run on; others keep today's rules. workflow_run and
// deployment_status run after a site deployed (config/site-events.ts says which are allowed).
const INCREMENTAL_EVENTS = new Set([
  'push',
  'workflow_dispatch',
  'schedule',
  'workflow_run',
  'deployment_status',
])

const NO_BASE: ChangeBase = { source: 'none', sha: '' }

const short = (sha: string): string => sha.slice(0, 12)

function fullSync(reason: string): ChangeBaseDecision {
  return { decision: { kind: 'all', source: 'full-sync', reason }, base: NO_BASE, notices: [] }
}

type LastSuccessBase =
  | { kind: 'found'; run: SuccessfulRun }
  | { kind: 'none-yet'; why: string }
  | { kind: 'unavailable'; why: string }
  /** The API refused the token (HTTP `status`): a permission is missing. */
  | { kind: 'refused'; status: number; why: string }
  /** Not on a runner: the API is not asked, quietly. */
  | { kind: 'not-asked' }

async function lookUpLastSuccess(request: ChangeBaseRequest): Promise<LastSuccessBase> {
  const { workflow } = request
  if (!workflow) return { kind: 'not-asked' }
  if (!workflow.ok) return { kind: 'unavailable', why: workflow.why }
  if (workflow.run.branch === '') return { kind: 'unavailable', why: 'the run is not for a branch' }
  if (!request.githubToken) return { kind: 'unavailable', why: 'no github-token' }
  request.log.addSecret(request.githubToken)
  const found = await findLastSuccessfulRun({
    workflow: workflow.run,
    token: request.githubToken,
    apiUrl: request.apiUrl,
    budget: request.github,
  })
  if (!found.ok && found.refused !== undefined)
    return { kind: 'refused', status: found.refused, why: `the workflow runs API refused: ${found.why}` }
  if (!found.ok) return { kind: 'unavailable', why: `the workflow runs API cannot answer: ${found.why}` }
  if (!found.run) return { kind: 'none-yet', why: found.why }
  return { kind: 'found', run: found.run }
}

/**
 * A sync of every selected file; on a push, with the removals of the push's own before..after when they
 * are known (else a line says deleted documents stay).
 */
async function everyFile(
  request: ChangeBaseRequest,
  decided: ChangeBaseDecision,
): Promise<ChangeBaseDecision> {
  const { decision } = decided
  // A new branch (no before) removed nothing.
  if (
    decision.kind !== 'all' ||
    request.eventName !== 'push' ||
    pushWithNothingToIndex(request.payload) ||
    !pushBefore(request.payload)
  )
    return decided
  const own = await detectChanges(request, { quiet: true })
  if (own.kind !== 'changes') {
    request.log.info(
      `Change detection: the push's own removals are unknown (${own.reason}); documents it deleted stay ` +
        'in the knowledge base until a run knows them.',
    )
    return decided
  }
  if (own.removed.length === 0) return decided
  request.log.info(
    `Change detection: the push's own before..after removes ${own.removed.length} file(s): they are blanked too.`,
  )
  return { ...decided, decision: { ...decision, removed: own.removed } }
}

export async function decideChangeBase(request: ChangeBaseRequest): Promise<ChangeBaseDecision> {
  if (request.fullSync) return everyFile(request, fullSync('input full-sync is true: every selected file'))
  if (request.since !== undefined && request.since !== LAST_SUCCESS) return sinceRef(request, request.since)

  const isPush = request.eventName === 'push'
  if (isPush) {
    const nothing = pushWithNothingToIndex(request.payload)
    if (nothing) return { decision: nothing, base: NO_BASE, notices: [] }
  }
  const notices: string[] = []
  // A base other than the last sync can leave out what a failed run did not send: a warning.
  const warn = (message: string): void => {
    request.log.warning(`Change detection: ${message}`)
    notices.push(message)
  }
  const fallback = isPush ? "the push's before commit" : 'every selected file'
  /** Why the last successful sync is not the base, for the summary's first line. */
  let notLastSuccess: string | undefined

  if (request.since === LAST_SUCCESS || INCREMENTAL_EVENTS.has(request.eventName)) {
    const last = await lookUpLastSuccess(request)
    if (last.kind === 'none-yet') return everyFile(request, fullSync(`${last.why}: every selected file`))
    if (last.kind === 'refused') {
      warn(
        `the last successful sync cannot be looked up (${last.why}); sending every selected file (by ` +
          'upsert) so the knowledge base is complete. Grant the job `permissions: actions: read` to send ' +
          'only what changed since the last sync.',
      )
      const why = `the workflow runs API refused (HTTP ${last.status}), grant actions: read`
      return everyFile(request, {
        decision: { kind: 'all', source: 'full-sync', reason: `${why}: every selected file` },
        base: { ...NO_BASE, why: `every selected file — ${why}` },
        notices,
      })
    }
    if (last.kind === 'unavailable') {
      warn(`the last successful sync cannot be looked up (${last.why}); using ${fallback}.`)
      notLastSuccess = `the last successful sync cannot be looked up (${last.why})`
    }
    if (last.kind === 'found') {
      const { run } = last
      // The push's after is the checkout's HEAD; an id that is not a commit id never reaches git.
      const after = request.payload.after
      const head = isPush && typeof after === 'string' && COMMIT_ID.test(after) ? after : 'HEAD'
      const diff = await changesFromGit(request.workspace, run.sha, head, request.patterns, request.signal)
      if (diff.ok)
        return {
          decision: { kind: 'changes', source: 'last-success', ...diff.changes },
          base: {
            source: 'last-success',
            sha: run.sha,
            run: { id: run.id, number: run.number, url: run.url },
          },
          notices,
        }
      warn(
        `the commit ${short(run.sha)} of the last successful sync (run #${run.number}) cannot be used ` +
          `(${diff.why}); using ${fallback}.`,
      )
      notLastSuccess = `the commit ${short(run.sha)} of the last successful sync cannot be used (${diff.why})`
    }
  }

  // The CLI has no event: without a base it syncs everything.
  const decided: Omit<ChangeBaseDecision, 'notices'> =
    request.eventName === ''
      ? fullSync(
          `${request.since === undefined ? 'no GitHub event, run outside a workflow' : 'no base commit'}: every selected file`,
        )
      : await everythingOrPush(request)
  if (notLastSuccess === undefined) return { ...decided, notices }
  const used = decided.base.source === 'push' ? "the push's before commit" : 'every selected file'
  return { ...decided, base: { ...decided.base, why: `${used} — ${notLastSuccess}` }, notices }
}

/** Today's rules: the push's before..after (git, payload lists, compare API), else everything. */
async function everythingOrPush(request: ChangeBaseRequest): Promise<Omit<ChangeBaseDecision, 'notices'>> {
  const decision = await detectChanges(request)
  const before = pushBefore(request.payload)
  const base: ChangeBase = decision.kind === 'changes' && before ? { source: 'push', sha: before } : NO_BASE
  return { decision, base }
}

/** `kb-sync index --since REF`: the tree difference REF..HEAD; a ref that names no commit is an error. */
async function sinceRef(request: ChangeBaseRequest, ref: string): Promise<ChangeBaseDecision> {
  const problem = (message: string) =>
    new ConfigError([{ input: 'since', message: `Option --since ${quoted(ref)} ${message}.` }])
  if (ref === '' || ref.startsWith('-')) throw problem('must be a commit id, a branch, a tag or last-success')
  const located = await locateRepository(request.workspace, request.patterns ?? [])
  if (!located.ok) throw problem(`needs a git repository: ${located.why}`)
  const git = new Git(located.location.root)
  const sha = await git.resolveCommit(ref)
  if (!sha && COMMIT_ID.test(ref)) {
    // A depth-1 clone lacks older commits: fetch it as the push's before would be.
    const fetched = await changesFromGit(request.workspace, ref, 'HEAD', request.patterns, request.signal)
    if (fetched.ok)
      return {
        decision: { kind: 'changes', source: 'since-ref', ...fetched.changes },
        base: { source: 'ref', sha: ref },
        notices: [],
      }
    throw problem(`is not a commit of the workspace's repository (${fetched.why})`)
  }
  if (!sha) throw problem(`names no commit in the git repository of ${request.workspace}`)
  const diff = await changesFromGit(request.workspace, sha, 'HEAD', request.patterns, request.signal)
  if (!diff.ok) throw problem(`cannot be compared with HEAD: ${diff.why}`)
  return {
    decision: { kind: 'changes', source: 'since-ref', ...diff.changes },
    base: { source: 'ref', sha },
    notices: [],
  }
}
