// The built index action run on a push as a workflow's next run: the author's commits pushed to the
// origin, a fresh depth-1 checkout, and a local runs API that lists each run with its conclusion, so
// that each run measures from the last successful one.
import type { GitFixture, WorkingCopy } from './git-fixture.js'
import { GITHUB_TOKEN, PRIVATE_KEY } from './keys.js'
import { runAction, type ActionRun } from './run-action.js'
import type { WorkflowRunsServer } from './workflow-runs-server.js'

export const ZERO_SHA = '0'.repeat(40)

export interface PushWorld {
  fixture: GitFixture
  author: WorkingCopy
  runs: WorkflowRunsServer
  /** The service's base URL. */
  baseUrl: string
  ids: Record<'flow-id' | 'org-id' | 'node-id', string>
  /** Inputs every run of this test file gets (the call's own inputs win). */
  inputs?: Record<string, string>
  /** The first run's id is this plus one. */
  runIdBase: number
}

/** Pushes what the author committed and runs the action on that push as the workflow's next run. */
export async function pushAndSync(
  world: PushWorld,
  before: string,
  inputs: Record<string, string> = {},
  env: Record<string, string> = {},
): Promise<ActionRun & { after: string }> {
  world.author.push()
  const after = world.author.head()
  const number = world.runs.runs.length + 1
  const checkout = world.fixture.checkout({ name: `run-${number}` })
  const run = await runAction({
    action: 'action.yml',
    workspace: checkout.dir,
    eventName: 'push',
    payload: {
      ref: 'refs/heads/main',
      before,
      after,
      created: before === ZERO_SHA,
      deleted: false,
      forced: false,
    },
    inputs: {
      'base-url': world.baseUrl,
      ...world.ids,
      'private-key': PRIVATE_KEY,
      files: 'docs/**',
      'github-token': GITHUB_TOKEN,
      ...world.inputs,
      ...inputs,
    },
    env: {
      GITHUB_API_URL: world.runs.url,
      GITHUB_WORKFLOW_REF: 'octo-org/docs/.github/workflows/docs.yml@refs/heads/main',
      GITHUB_REF: 'refs/heads/main',
      GITHUB_RUN_ID: String(world.runIdBase + number),
      GITHUB_RUN_NUMBER: String(number),
      ...env,
    },
  })
  world.runs.add({ head_sha: after, event: 'push', conclusion: run.status === 0 ? 'success' : 'failure' })
  return { ...run, after }
}
