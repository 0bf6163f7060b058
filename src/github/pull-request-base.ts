// The base branch of a pull request, asked of GitHub (`repos/{owner}/{repo}/pulls/{number}`): a comment
// on a pull request (`issue_comment`) names the pull request but not its base, which the stored
// baseline's key needs.
import { requestFailure, type LookupBudget } from './lookup-budget.js'
import type { Octokit } from './octokit.js'
import { OBJECT_ID } from '../model.js'

export async function pullRequestBase(
  octokit: Octokit,
  where: { owner: string; repo: string; pullNumber: number },
  budget: LookupBudget,
): Promise<{ ok: true; commit: string; ref: string } | { ok: false; why: string }> {
  try {
    const { data } = await budget.request((signal) =>
      octokit.rest.pulls.get({
        owner: where.owner,
        repo: where.repo,
        pull_number: where.pullNumber,
        request: { signal },
      }),
    )
    const base = (data as { base?: { sha?: unknown; ref?: unknown } }).base
    if (
      typeof base?.sha === 'string' &&
      OBJECT_ID.test(base.sha) &&
      typeof base.ref === 'string' &&
      base.ref !== ''
    )
      return { ok: true, commit: base.sha, ref: base.ref }
    return { ok: false, why: `GitHub's answer for pull request #${where.pullNumber} names no base branch` }
  } catch (error) {
    budget.throwIfCancelled()
    return { ok: false, why: requestFailure(error) }
  }
}
