// A commenter's permission on the repository, from the REST API (collaborators/{user}/permission). The
// comment's `author_association` is not enough: COLLABORATOR includes read-only collaborators, MEMBER any
// member of the organization, whatever their access to this repository.
import type { LookupBudget } from './lookup-budget.js'
import type { Octokit } from './octokit.js'

export type PermissionAnswer = { ok: true; permission: string; writes: boolean } | { ok: false; why: string }

// `permission` is admin, write, read or none (maintain reads as write, triage as read); `role_name`
// carries the finer role. Write, maintain and admin may push: they may ask for a run.
const WRITERS = new Set(['admin', 'maintain', 'write'])

export async function commenterPermission(
  octokit: Octokit,
  where: { owner: string; repo: string; username: string },
  budget: LookupBudget,
): Promise<PermissionAnswer> {
  try {
    const { data } = await budget.request((signal) =>
      octokit.rest.repos.getCollaboratorPermissionLevel({ ...where, request: { signal } }),
    )
    const permission = typeof data.permission === 'string' ? data.permission : 'none'
    const role = typeof data.role_name === 'string' ? data.role_name : permission
    return { ok: true, permission: role, writes: WRITERS.has(permission) && WRITERS.has(role) }
  } catch (error) {
    const status = (error as { status?: unknown })?.status
    const message = error instanceof Error ? error.message : String(error)
    // 404: not a collaborator (or the token cannot see the repository): no access to grant a run.
    if (status === 404) return { ok: true, permission: 'none', writes: false }
    return { ok: false, why: typeof status === 'number' ? `HTTP ${status}: ${message}` : message }
  }
}
