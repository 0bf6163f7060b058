// The commit a run's removals are synced at, named in each placeholder ("removed … by commit X"): the
// push's `after`, the pull request's head, else the checkout's HEAD (a dispatch or schedule run, the CLI).
import { Git } from '../../git.js'
import { COMMIT_ID } from '../../model.js'
import { locateRepository } from './repository-location.js'

export async function removalCommit(
  workspace: string,
  patterns: string[],
  payload: Record<string, unknown>,
): Promise<string | undefined> {
  const pullRequest = payload.pull_request as { head?: { sha?: unknown } } | undefined
  for (const candidate of [payload.after, pullRequest?.head?.sha])
    if (typeof candidate === 'string' && COMMIT_ID.test(candidate) && !/^0+$/.test(candidate))
      return candidate.toLowerCase()
  const located = await locateRepository(workspace, patterns)
  if (!located.ok) return undefined
  try {
    return await new Git(located.location.root).resolveCommit('HEAD')
  } catch {
    return undefined
  }
}
