// The index action keeps the knowledge base's record as a GitHub Actions artifact of its run: written with
// the runtime token every JavaScript action has, read (another run's) with the workflow token and
// `actions: read`. The artifact client is loaded only here, from its own chunk.
import { resolve } from 'node:path'
import type { IndexConfig } from '../config/index-config.js'
import type { RecordKeeping } from '../state/record.js'
import type { Logger } from '../log.js'
import { artifactHostProblem } from '../state/artifact-host.js'
import { runnerWriter } from '../state/writer.js'
import { LookupBudget, readGitHubDeadline } from '../github/lookup-budget.js'
import { messageOf, type RunnerEnvironment } from './runner.js'
import { positiveInteger } from '../github/workflow.js'

/**
 * The record's store: the `state-file` input's file, else the run's artifact; undefined in a preview (it
 * neither reads nor writes a record) and off a runner (no GITHUB_REPOSITORY or run id): the run then infers
 * its change set as before, and records nothing.
 */
export async function actionRecordKeeping(
  config: IndexConfig,
  runner: RunnerEnvironment,
  log: Logger,
  env: NodeJS.ProcessEnv = process.env,
): Promise<RecordKeeping | undefined> {
  if (config.preview) return undefined
  if (config.stateFile) {
    const [{ fileBytesStore }, { recordStore }] = await Promise.all([
      import('../state/file-store.js'),
      import('../state/stores.js'),
    ])
    const file = resolve(runner.workspace, config.stateFile)
    return { store: recordStore(fileBytesStore(file)), writer: runnerWriter(env, runner.payload) }
  }
  const runId = positiveInteger(env.GITHUB_RUN_ID)
  if (!runner.repository || runId === undefined) return undefined
  // The runner gives every JavaScript action this token; without it there is no artifact storage to use
  // (a local runner of actions, a test), and nothing a workflow could change: said in the log only.
  if (!env.ACTIONS_RUNTIME_TOKEN) {
    log.info(
      'No ACTIONS_RUNTIME_TOKEN (not GitHub\'s runner): the knowledge base\'s record is not kept; set "state-file" to keep it in a file.',
    )
    return undefined
  }
  // Without artifact storage (GitHub Enterprise Server) the record can be neither read nor written: said
  // once, before the client loads, instead of a warning at each read and write.
  const noStorage = artifactHostProblem(env)
  if (noStorage) {
    log.warning(
      `The knowledge base's record is not kept (${noStorage}): the change set is inferred from git history; set "state-file" to keep the record in a file.`,
    )
    return undefined
  }
  let loaded: [typeof import('../state/artifact-store.js'), typeof import('../state/stores.js')]
  try {
    // The artifact client reads settings of the environment as it loads, and throws on a bad one.
    loaded = await Promise.all([import('../state/artifact-store.js'), import('../state/stores.js')])
  } catch (error) {
    log.warning(
      `The knowledge base's record is not kept: the artifact client could not start (${messageOf(error)}).`,
    )
    return undefined
  }
  const [{ ArtifactStore }, { recordStore }] = loaded
  const deadline = readGitHubDeadline(env)
  const store = new ArtifactStore({
    // Its own budget, ended by the second signal, not the first: the final record is written after a
    // cancellation too, while the runner's grace lasts.
    budget: new LookupBudget({
      deadlineMs: deadline.ok ? deadline.deadlineMs : undefined,
      cancel: runner.cutOff,
    }),
    token: config.githubToken,
    repository: runner.repository,
    runId,
    apiUrl: runner.apiUrl,
    retentionDays: config.stateRetentionDays,
    log,
  })
  return { store: recordStore(store), writer: runnerWriter(env, runner.payload) }
}
