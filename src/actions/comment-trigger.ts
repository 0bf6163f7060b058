// A run asked for by a pull-request comment (`issue_comment`, e.g. "/kb-check"): the checks cost money
// and use the repository's secrets, so only a commenter with write access may start them. The action
// asks GitHub for the commenter's permission itself, so a workflow cannot forget the rule; anything it
// cannot confirm (no token, an API that does not answer) refuses the run.
import { Git } from '../git.js'
import { commenterPermission } from '../github/commenter-permission.js'
import type { Logger } from '../log.js'
import type { RunnerEnvironment } from './runner.js'
import { OBJECT_ID } from '../model.js'

const record = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {}

/** Why this run must not start, or undefined (it may, or the event is not a comment). */
export async function commentTriggerRefusal(
  runner: RunnerEnvironment,
  githubToken: string,
  log: Logger,
): Promise<string | undefined> {
  if (runner.eventName !== 'issue_comment') return undefined
  const issue = record(runner.payload.issue)
  const login = record(record(runner.payload.comment).user).login
  if (issue.pull_request === undefined)
    return 'Not run: this comment is on an issue, not a pull request; the checks run for pull-request comments only.'
  if (typeof login !== 'string' || login === '')
    return 'Not run: the comment event names no commenter, so their permission cannot be checked.'
  if (!runner.repository) return 'Not run: GITHUB_REPOSITORY is not set, so the permission cannot be checked.'
  if (githubToken === '')
    return (
      `Not run: the permission of @${login} cannot be checked without input "github-token" ` +
      '(the default is ${{ github.token }}).'
    )
  log.addSecret(githubToken)
  const { getOctokit } = await import('../github/octokit.js')
  const answer = await commenterPermission(
    getOctokit(githubToken, runner.apiUrl),
    { ...runner.repository, username: login },
    runner.github,
  )
  const repository = `${runner.repository.owner}/${runner.repository.repo}`
  if (!answer.ok)
    return `Not run: the permission of @${login} on ${repository} could not be checked (${answer.why}).`
  if (!answer.writes)
    return (
      `Not run: @${login} has "${answer.permission}" access to ${repository}; a comment starts the checks ` +
      'only for people with write access.'
    )
  log.info(`Comment trigger: @${login} has "${answer.permission}" access to ${repository}; the checks run.`)
  return undefined
}

/**
 * The commit a comment-triggered run reads its files from: the workspace's HEAD, which the workflow
 * checked out (the pull request's head, `refs/pull/N/head`). The event's GITHUB_SHA is the default
 * branch's last commit; a lookup of the pull request could name a head pushed after the checkout. A
 * workspace that is not a git checkout names no commit rather than a wrong one.
 */
export async function checkedOutCommit(runner: RunnerEnvironment, log: Logger): Promise<string | undefined> {
  if (runner.eventName !== 'issue_comment') return undefined
  const head = await new Git(runner.workspace)
    .exec(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { signal: runner.signal })
    .then((out) => out.trim())
    .catch(() => '')
  if (!OBJECT_ID.test(head)) {
    log.info('Comment trigger: the workspace is not a git checkout; the comment names no commit.')
    return undefined
  }
  log.info(`Comment trigger: the checks read the files of commit ${head}, the workspace's checkout.`)
  return head
}
