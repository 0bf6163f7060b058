// Runs of the built index action that keep the knowledge base's record as an artifact: each run has the
// environment a job of its workflow run gets (the runtime token, the results service, the run's ids), the
// artifact stand-in behind GITHUB_API_URL together with a server listing the workflow's runs (for the
// history-based fallback), and the emulator as the service.
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { Emulator } from '../../src/emulator/server.js'
import { placeholderFor } from '../../src/placeholders.js'
import { recordKeyOf } from '../../src/state/record.js'
import { ArtifactService } from './artifact-service.js'
import { GITHUB_TOKEN, PRIVATE_KEY } from './keys.js'
import { runAction, type ActionRun, type RunActionOptions } from './run-action.js'
import { forwardTo, WorkflowRunsServer } from './workflow-runs-server.js'

export interface ArtifactWorld {
  artifacts: ArtifactService
  runs: WorkflowRunsServer
  close(): Promise<void>
}

export async function startArtifactWorld(): Promise<ArtifactWorld> {
  const artifacts = new ArtifactService()
  await artifacts.start()
  const runs = new WorkflowRunsServer()
  runs.others = forwardTo(artifacts.url)
  await runs.start()
  return { artifacts, runs, close: () => Promise.all([artifacts.close(), runs.close()]).then(() => {}) }
}

export interface RecordedRun {
  world: ArtifactWorld
  emulator: Emulator
  ids: { 'flow-id': string; 'org-id': string; 'node-id': string }
  workspace: string
  runId: number
  runAttempt?: number
  runNumber?: number
  eventName: string
  payload?: unknown
  /** Workflow file name (docs.yml) and the ref it ran for. */
  workflowRef?: string
  ref?: string
  inputs?: Record<string, string>
  onStart?: RunActionOptions['onStart']
  env?: Record<string, string>
}

/** The built index action as one job of workflow run `runId` (attempt `runAttempt`). */
export function runRecorded(options: RecordedRun): Promise<ActionRun> {
  const ref = options.ref ?? 'refs/heads/main'
  return runAction({
    action: 'action.yml',
    workspace: options.workspace,
    eventName: options.eventName,
    payload: options.payload ?? {},
    inputs: {
      'base-url': options.emulator.url,
      ...options.ids,
      'private-key': PRIVATE_KEY,
      files: 'docs/**',
      'github-token': GITHUB_TOKEN,
      comment: 'false',
      ...options.inputs,
    },
    env: {
      ...options.world.artifacts.envOf(options.runId),
      // The REST API of the runs' listing, passing the artifacts' routes on to the stand-in.
      GITHUB_API_URL: options.world.runs.url,
      GITHUB_WORKFLOW_REF: options.workflowRef ?? `octo-org/docs/.github/workflows/docs.yml@${ref}`,
      GITHUB_REF: ref,
      GITHUB_RUN_NUMBER: String(options.runNumber ?? options.runId % 1000),
      GITHUB_RUN_ATTEMPT: String(options.runAttempt ?? 1),
      ...options.env,
    },
    onStart: options.onStart,
  })
}

/** The artifact name of the node's record (of one shard). */
export function recordKey(
  emulator: Emulator,
  ids: RecordedRun['ids'],
  shard?: { index: number; count: number },
): string {
  return recordKeyOf({
    host: new URL(emulator.url).host,
    flowId: ids['flow-id'],
    orgId: ids['org-id'],
    nodeId: ids['node-id'],
    ...(shard ? { shard } : {}),
  })
}

const sha256 = (content: string | Buffer): string => createHash('sha256').update(content).digest('hex')

/** The checkout's files below `folder`, name → sha256 of the content. */
export function checkoutDocuments(dir: string, folder = 'docs'): Map<string, string> {
  const found = new Map<string, string>()
  for (const entry of fs.readdirSync(path.join(dir, folder), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const file = path.join(entry.parentPath, entry.name)
    found.set(path.relative(dir, file).split(path.sep).join('/'), sha256(fs.readFileSync(file)))
  }
  return found
}

/**
 * What the node holds, as the checkout would have it: name → `sha256` of the content, or `placeholder`
 * for a name holding the placeholder of a removed document (naming any commit in `commits`, or none).
 */
export function nodeContents(
  emulator: Emulator,
  ids: RecordedRun['ids'],
  commits: readonly (string | undefined)[],
): Map<string, string> {
  const held = new Map<string, string>()
  for (const document of emulator.documents(ids['flow-id'], ids['org-id'], ids['node-id'])) {
    const blank = [...commits, undefined].some(
      (commit) => sha256(placeholderFor(document.name, commit) ?? '\u0000') === document.sha256,
    )
    held.set(document.name, blank ? 'placeholder' : document.sha256)
  }
  return held
}

/** The checkout's documents, and every other name the node holds as a placeholder. */
export function expectedNode(
  checkout: Map<string, string>,
  alsoBlanked: readonly string[],
): Map<string, string> {
  const expected = new Map(checkout)
  for (const name of alsoBlanked) expected.set(name, 'placeholder')
  return expected
}

/** The sorted entries of a map, for a readable comparison. */
export const entries = (map: Map<string, string>): [string, string][] =>
  [...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
