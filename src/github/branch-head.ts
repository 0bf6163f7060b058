// The commit a branch is at now (`repos/{owner}/{repo}/branches/{branch}`): the stored baseline's key is
// the base branch's head, and an event's `pull_request.base.sha` may lag behind it (it is set when the
// pull request is updated, not when its base branch moves).
import { requestFailure, type LookupBudget } from './lookup-budget.js'
import type { Octokit } from './octokit.js'
import { OBJECT_ID } from '../model.js'

export async function branchHead(
  octokit: Octokit,
  where: { owner: string; repo: string; branch: string },
  budget: LookupBudget,
): Promise<{ ok: true; sha: string } | { ok: false; why: string }> {
  try {
    const { data } = await budget.request((signal) =>
      octokit.rest.repos.getBranch({ ...where, request: { signal } }),
    )
    const sha = (data as { commit?: { sha?: unknown } }).commit?.sha
    if (typeof sha === 'string' && OBJECT_ID.test(sha)) return { ok: true, sha }
    return { ok: false, why: `GitHub's answer for the branch ${where.branch} names no commit` }
  } catch (error) {
    budget.throwIfCancelled()
    return { ok: false, why: requestFailure(error) }
  }
}
