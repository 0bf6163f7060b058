// What merging a pull request would change among the selected files: the tree difference between the
// pull request's base and head commits (`base.sha..head.sha`), from git (fetching a commit the
// shallow checkout lacks), else from the compare API, else every selected file with a warning.
import { COMMIT_ID, type ChangeDecision } from '../model.js'
import {
  changesFromCompareApi,
  changesFromGit,
  type ChangeContext,
  repositoryNamesLayout,
} from './changes.js'
import { workspaceChangesFromNames } from './workspace-changes.js'

/** What push change detection gets, without the event name: the payload is a pull request's. */
export type PullRequestChangeContext = Omit<ChangeContext, 'eventName'>

export interface PullRequestChanges {
  decision: ChangeDecision
  /** For the summary: where the change set came from. */
  description: string
  number?: number
  base?: string
  head?: string
}

const short = (sha: string) => sha.slice(0, 12)

function readPullRequest(payload: Record<string, unknown>) {
  const pr = payload.pull_request as
    { number?: unknown; base?: { sha?: unknown }; head?: { sha?: unknown } } | undefined
  const text = (value: unknown) => (typeof value === 'string' ? value : '')
  return {
    number: typeof pr?.number === 'number' ? pr.number : undefined,
    base: text(pr?.base?.sha),
    head: text(pr?.head?.sha),
  }
}

/** `quiet`: the caller warns in its own words when the change set is unknown (decision `all`). */
export async function detectPullRequestChanges(
  context: PullRequestChangeContext,
  options: { quiet?: boolean } = {},
): Promise<PullRequestChanges> {
  const { log } = context
  const pr = readPullRequest(context.payload)
  const all = (reason: string): PullRequestChanges => {
    if (!options.quiet) log.warning(`Change detection: ${reason}`)
    return {
      ...pr,
      decision: { kind: 'all', source: 'full-sync', reason },
      description: `every selected file (${reason})`,
    }
  }
  // The ids are handed to git as arguments: anything but a commit id is refused.
  if (!COMMIT_ID.test(pr.base) || !COMMIT_ID.test(pr.head))
    return all('the pull_request payload has no valid base/head commit ids')
  const range = `${short(pr.base)}..${short(pr.head)}`

  const git = await changesFromGit(context.workspace, pr.base, pr.head, context.patterns, context.signal)
  if (git.ok)
    return {
      ...pr,
      decision: { kind: 'changes', source: git.fetched ? 'fetched-before' : 'git-diff', ...git.changes },
      description: `git diff of the pull request (${range})${git.fetched ? ', after fetching the base commit' : ''}`,
    }
  log.info(`Change detection: git cannot tell (${git.why})`)

  const layout = await repositoryNamesLayout(context, pr.head)
  if (!layout.ok) return all(`the change set is unknown (${layout.why})`)
  const api = await changesFromCompareApi(context, pr.base, pr.head)
  if (api.ok)
    return {
      ...pr,
      decision: {
        kind: 'changes',
        source: 'compare-api',
        ...(await workspaceChangesFromNames(
          api.changes,
          context.workspace,
          layout.location,
          "GitHub's compare API",
        )),
      },
      description: `GitHub compare API for the pull request (${range})`,
    }
  const apiWhy = context.githubToken ? `compare API: ${api.why}` : 'no github-token for the compare API'
  return all(`the change set is unknown (git: ${git.why}; ${apiWhy})`)
}
