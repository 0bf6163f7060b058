// The CLI keeps the knowledge base's record in a file (`--state-file PATH`): other CI systems, a laptop.
// On a runner `kb-sync status` reads the artifact the index action wrote.
import { resolve } from 'node:path'
import { gitHubBudget } from '../actions/runner.js'
import { positiveInteger } from '../github/workflow.js'
import type { RecordKeeping } from '../state/record.js'
import { runnerWriter } from '../state/writer.js'
import type { Flags } from './inputs.js'

/** The file store of `--state-file`, or undefined without the flag (nothing is read or recorded). */
export async function fileRecordKeeping(flags: Flags): Promise<RecordKeeping | undefined> {
  if (typeof flags.stateFile !== 'string') return undefined
  const [{ fileBytesStore }, { recordStore }] = await Promise.all([
    import('../state/file-store.js'),
    import('../state/stores.js'),
  ])
  return {
    store: recordStore(fileBytesStore(resolve(flags.stateFile))),
    writer: runnerWriter(process.env, {}),
  }
}

/**
 * On a runner (GITHUB_REPOSITORY, GITHUB_RUN_ID), the artifact the index action writes, read with
 * GITHUB_TOKEN: what `kb-sync status` compares with in a workflow step.
 */
export async function runnerRecordKeeping(
  env: NodeJS.ProcessEnv,
  cancel: AbortSignal,
): Promise<RecordKeeping | undefined> {
  const [owner, repo] = (env.GITHUB_REPOSITORY ?? '').split('/')
  const runId = positiveInteger(env.GITHUB_RUN_ID)
  if (!owner || !repo || runId === undefined) return undefined
  const [{ ArtifactStore }, { recordStore }] = await Promise.all([
    import('../state/artifact-store.js'),
    import('../state/stores.js'),
  ])
  const store = new ArtifactStore({
    budget: gitHubBudget(env, cancel),
    token: env.GITHUB_TOKEN?.trim() ?? '',
    repository: { owner, repo },
    runId,
    apiUrl: env.GITHUB_API_URL || undefined,
  })
  return { store: recordStore(store), writer: runnerWriter(env, {}) }
}
