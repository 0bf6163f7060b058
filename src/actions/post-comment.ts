// Posting the sticky pull-request comment from an action. A comment that cannot be posted is a notice:
// it never changes the step's result.
import type { CommentSettings } from '../config/comment.js'
import { upsertStickyComment, type StickyComment } from '../github/sticky-comment.js'
import type { Logger } from '../log.js'
import type { CommentFooter } from '../report/comment-body.js'
import type { RunnerEnvironment } from './runner.js'

export interface PullRequestRef {
  number: number
  headSha?: string
  baseSha?: string
}

/** The pull request of a pull_request event's payload (or of a comment on one), if any. */
export function pullRequestOf(payload: Record<string, unknown>): PullRequestRef | undefined {
  const issue = payload.issue as { number?: unknown; pull_request?: unknown } | undefined
  // issue_comment on a pull request: its number, not its commits (the payload has none).
  if (!payload.pull_request && issue?.pull_request && typeof issue.number === 'number')
    return { number: issue.number }
  const pr = payload.pull_request as
    { number?: unknown; head?: { sha?: unknown }; base?: { sha?: unknown } } | undefined
  if (!pr || typeof pr.number !== 'number') return undefined
  const sha = (value: unknown) => (typeof value === 'string' ? value : undefined)
  return { number: pr.number, headSha: sha(pr.head?.sha), baseSha: sha(pr.base?.sha) }
}

/**
 * The commit and the link to this workflow run, from the runner's environment. Under `issue_comment`
 * GITHUB_SHA is the default branch's last commit, never what was checked: only the checked-out commit is
 * named there, or none.
 */
export function commentFooter(
  runner: Pick<RunnerEnvironment, 'payload' | 'eventName' | 'checkedCommit'>,
  env = process.env,
): CommentFooter {
  const server = env.GITHUB_SERVER_URL || 'https://github.com'
  const runUrl =
    env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID
      ? `${server}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`
      : undefined
  const eventCommit = runner.eventName === 'issue_comment' ? undefined : env.GITHUB_SHA
  return { commit: pullRequestOf(runner.payload)?.headSha ?? runner.checkedCommit ?? eventCommit, runUrl }
}

/** `<!-- kb-sync … -->`: ids only (letters, digits, . _ ~ -), so nothing in it can close the comment. */
export function commentMarker(parts: string[]): string {
  return `<!-- kb-sync ${parts.filter(Boolean).join(' ')} -->`
}

const PERMISSION_STATUSES = new Set([401, 403, 404])

export async function postStickyComment(options: {
  settings: CommentSettings
  runner: RunnerEnvironment
  marker: string
  /** The body, or one built from the comment found (see StickyComment); the footer is the caller's. */
  body: StickyComment['body']
  log: Logger
}): Promise<void> {
  const { settings, runner, log } = options
  if (!settings.enabled) return
  const pr = pullRequestOf(runner.payload)
  if (!pr || !runner.repository) {
    log.info('comment: this event is not a pull request; no comment is posted.')
    return
  }
  if (settings.githubToken === '') {
    log.notice('No pull-request comment: input "github-token" is empty (the default is ${{ github.token }}).')
    return
  }
  if (runner.signal.aborted) {
    log.info('comment: the run was cancelled; no comment is posted.')
    return
  }
  log.addSecret(settings.githubToken)
  const { body } = options
  const clean = (text: string | undefined) => (text === undefined ? undefined : log.clean(text))
  // Octokit is loaded only when a comment is posted, from its own chunk: a push run never needs it, and
  // kept in the bundle's main file V8 would compile it at every start.
  const { getOctokit } = await import('../github/octokit.js')
  const outcome = await upsertStickyComment(
    getOctokit(settings.githubToken, runner.apiUrl),
    {
      ...runner.repository,
      issueNumber: pr.number,
      marker: options.marker,
      body: typeof body === 'string' ? log.clean(body) : (existing) => clean(body(existing)),
    },
    runner.github,
  )
  if (outcome.ok && outcome.action === 'left') {
    log.info('Pull-request comment: none from this step exists; none is created.')
  } else if (outcome.ok) {
    log.info(`Pull-request comment ${outcome.action}: ${outcome.url}`)
  } else if (outcome.status !== undefined && PERMISSION_STATUSES.has(outcome.status)) {
    log.notice(
      `The pull-request comment could not be posted (HTTP ${outcome.status}): the token needs the ` +
        '"pull-requests: write" permission (set it under permissions: in the workflow; pull requests from ' +
        "forks never get it). The step's result does not depend on the comment.",
    )
  } else {
    log.notice(
      `The pull-request comment could not be posted: ${outcome.why}. The step's result does not depend on the comment.`,
    )
  }
}
