// Healing end to end: the built index action, a real origin and depth-1 checkouts, the emulator as the
// service, and a local server listing this workflow's runs like GitHub (each run's conclusion is the
// action's own exit status). What was sent is read from the emulator's request log.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { GitFixture, type WorkingCopy } from '../helpers/git-fixture.js'
import { runAction } from '../helpers/run-action.js'
import { WorkflowRunsServer } from '../helpers/workflow-runs-server.js'
import { GITHUB_TOKEN, PRIVATE_KEY } from '../helpers/keys.js'
import { sentByMethod } from '../helpers/emulator-sent.js'
import { webhookExamples } from '../helpers/webhook-examples.js'
import { placeholderFor } from '../../src/placeholders.js'
import { createHash } from 'node:crypto'

const ids = { 'flow-id': 'flow-heal', 'org-id': 'org-heal', 'node-id': 'knowledgebase-1' }
const ZERO = '0'.repeat(40)
// A real workflow_dispatch payload: the action must not need anything from it.
const dispatchPayload = webhookExamples('workflow_dispatch')[0]

let fixture: GitFixture
let author: WorkingCopy
let emulator: Emulator
let runs: WorkflowRunsServer

beforeEach(async () => {
  fixture = GitFixture.create()
  author = fixture.author()
  emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: 'pub-unused-key' })
  runs = new WorkflowRunsServer()
  await runs.start()
})
afterEach(async () => {
  await Promise.all([emulator.close(), runs.close()])
  fixture.cleanup()
})

interface RunOptions {
  eventName: 'push' | 'workflow_dispatch' | 'workflow_run' | 'deployment_status'
  payload?: Record<string, unknown>
  privateKey?: string
  inputs?: Record<string, string>
}

/** Runs the action as the next run of docs.yml on main, then lists it with its conclusion. */
async function workflowRun(options: RunOptions) {
  const number = runs.runs.length + 1
  const checkout = fixture.checkout({ name: `run-${number}` })
  const run = await runAction({
    action: 'action.yml',
    workspace: checkout.dir,
    eventName: options.eventName,
    payload: options.payload ?? {},
    inputs: {
      'base-url': emulator.url,
      ...ids,
      'private-key': options.privateKey ?? PRIVATE_KEY,
      files: 'docs/**',
      'github-token': GITHUB_TOKEN,
      ...options.inputs,
    },
    env: {
      GITHUB_API_URL: runs.url,
      GITHUB_WORKFLOW_REF: 'octo-org/docs/.github/workflows/docs.yml@refs/heads/main',
      GITHUB_REF: 'refs/heads/main',
      GITHUB_RUN_ID: String(9_000_000 + number),
      GITHUB_RUN_NUMBER: String(number),
    },
  })
  runs.add({
    head_sha: checkout.head(),
    event: options.eventName,
    conclusion: run.status === 0 ? 'success' : 'failure',
  })
  return run
}

function pushPayload(before: string, after: string) {
  return { ref: 'refs/heads/main', before, after, created: before === ZERO, deleted: false, forced: false }
}

const sent = (from = 0) => sentByMethod(emulator, from)

describe('index action: the change set starts at the last successful sync', () => {
  it('heals a failed sync: the next push sends the union of both pushes, nothing else', async () => {
    author.write('docs/a.md').write('docs/b.md').write('docs/c.md').write('docs/keep.md')
    const seed = author.commit('seed')
    author.push()
    const first = await workflowRun({ eventName: 'push', payload: pushPayload(ZERO, seed) })
    expect(first.status).toBe(0)

    // Push A fails to sync (the key was rotated): nothing of it reaches the knowledge base.
    author.write('docs/a.md', 'a, second\n').remove('docs/b.md').write('docs/d.md')
    const pushA = author.commit('push A')
    author.push()
    const failed = await workflowRun({
      eventName: 'push',
      payload: pushPayload(seed, pushA),
      privateKey: 'priv-rotated-away',
    })
    expect(failed.status).not.toBe(0)

    author.write('docs/c.md', 'c, second\n').write('docs/e.md')
    const pushB = author.commit('push B')
    author.push()
    const mark = emulator.requests().length
    const healed = await workflowRun({ eventName: 'push', payload: pushPayload(pushA, pushB) })
    expect(healed.status).toBe(0)
    expect(sent(mark)).toEqual({
      POST: ['docs/d.md', 'docs/e.md'],
      PATCH: ['docs/a.md', 'docs/b.md', 'docs/c.md'],
    })
    expect(JSON.parse(healed.outputs.removed)).toEqual(['docs/b.md'])
    expect(healed.outputs.base).toBe(seed)
    expect(healed.outputs['base-source']).toBe('last-success')
    expect(healed.summary).toContain(
      `Base: \`${seed.slice(0, 12)}\`, synced by the last successful run [#1](https://github.com/octo-org/docs/actions/runs/9000001)`,
    )
    // The token is registered with ::add-mask:: (the runner then hides it) and appears nowhere else.
    const printed = healed.stdout.split('\n').filter((line) => !line.startsWith('::add-mask::'))
    for (const text of [printed.join('\n'), healed.stderr, healed.summary])
      expect(text).not.toContain(GITHUB_TOKEN)
    // One short request per run.
    expect(runs.requests.map((r) => r.authorization)).toEqual(Array(3).fill(`token ${GITHUB_TOKEN}`))
  })

  it('makes a dispatch after a success send only what changed since', async () => {
    author.write('docs/a.md').write('docs/b.md')
    const seed = author.commit('seed')
    author.push()
    expect((await workflowRun({ eventName: 'push', payload: pushPayload(ZERO, seed) })).status).toBe(0)
    author.write('docs/b.md', 'b, second\n')
    author.commit('edit b')
    author.push()
    const mark = emulator.requests().length
    const dispatch = await workflowRun({ eventName: 'workflow_dispatch', payload: dispatchPayload })
    expect(dispatch.status).toBe(0)
    expect(sent(mark)).toEqual({ POST: [], PATCH: ['docs/b.md'] })
    expect(dispatch.outputs['base-source']).toBe('last-success')

    const full = await workflowRun({
      eventName: 'workflow_dispatch',
      payload: dispatchPayload,
      inputs: { 'full-sync': 'true' },
    })
    expect(full.status).toBe(0)
    expect(full.outputs).toMatchObject({ base: '', 'base-source': 'none' })
    expect(JSON.parse(full.outputs.updated)).toEqual(['docs/a.md', 'docs/b.md'])
  })

  // #36 §6: after the site deployed, so sitemaps are read once it is live; the base is the last sync.
  it('after a deploy (workflow_run, deployment_status) sends what changed since the last sync, and is itself a base', async () => {
    const repository = { id: 7, full_name: 'octo-org/docs' }
    const deployed = (conclusion: string) => ({
      ...webhookExamples('workflow_run')[1],
      repository,
      workflow_run: { event: 'push', conclusion, head_repository: repository },
    })
    const deployment = { ...webhookExamples('deployment_status')[0], repository }
    author.write('docs/a.md').write('docs/b.md').write('docs/c.md')
    const seed = author.commit('seed')
    author.push()
    expect((await workflowRun({ eventName: 'push', payload: pushPayload(ZERO, seed) })).status).toBe(0)

    author.write('docs/b.md', 'b, second\n')
    author.commit('edit b')
    author.push()
    let mark = emulator.requests().length
    const failedDeploy = await workflowRun({ eventName: 'workflow_run', payload: deployed('failure') })
    expect(failedDeploy.status).toBe(1)
    expect(failedDeploy.stdout).toMatch(
      /^::error::Indexing is refused under this "workflow_run" event: the run that triggered it ended "failure"/m,
    )
    expect(emulator.requests()).toHaveLength(mark)

    const afterDeploy = await workflowRun({ eventName: 'workflow_run', payload: deployed('success') })
    expect(afterDeploy.status).toBe(0)
    expect(sent(mark)).toEqual({ POST: [], PATCH: ['docs/b.md'] })
    expect(afterDeploy.outputs).toMatchObject({ base: seed, 'base-source': 'last-success' })

    author.write('docs/c.md', 'c, second\n')
    const editC = author.commit('edit c')
    author.push()
    mark = emulator.requests().length
    const afterDeployment = await workflowRun({ eventName: 'deployment_status', payload: deployment })
    expect(afterDeployment.status).toBe(0)
    // The workflow_run run that succeeded is the base: only c is sent.
    expect(sent(mark)).toEqual({ POST: [], PATCH: ['docs/c.md'] })
    expect(afterDeployment.outputs['base-source']).toBe('last-success')
    expect(afterDeployment.outputs.base).not.toBe(seed)
    expect(runs.runs.at(-1)?.head_sha).toBe(editC)
  })

  it('sends every selected file, with a warning naming actions: read, when the API refuses (contents: read only)', async () => {
    // A team adopting kb-sync: the docs exist, the adopting push changes one of them.
    author.write('docs/a.md').write('docs/b.md').write('docs/c.md').write('docs/guide/d.md')
    const seed = author.commit('docs written before kb-sync')
    author.push()
    author.write('docs/a.md', 'a, second\n')
    const after = author.commit('adopt kb-sync')
    author.push()
    runs.failure = { status: 403, message: 'Resource not accessible by integration' }
    const run = await workflowRun({ eventName: 'push', payload: pushPayload(seed, after) })
    expect(run.status).toBe(0)
    const all = ['docs/a.md', 'docs/b.md', 'docs/c.md', 'docs/guide/d.md']
    expect(sent(0)).toEqual({ POST: all, PATCH: [] })
    expect(JSON.parse(run.outputs.uploaded)).toEqual(all)
    expect(run.outputs).toMatchObject({ base: '', 'base-source': 'none' })
    const warnings = run.stdout.split('\n').filter((line) => line.startsWith('::warning::Change detection:'))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/HTTP 403: Resource not accessible by integration/)
    expect(warnings[0]).toContain('sending every selected file (by upsert)')
    expect(warnings[0]).toContain('Grant the job `permissions: actions: read`')
    expect(run.stdout).not.toMatch(/::notice::Change detection/)
    const firstLine = run.summary.split('\n').find((line) => line.trim() !== '' && !line.startsWith('#'))
    expect(firstLine).toContain('✅ **Synced.** Uploaded 4')
    expect(firstLine).toContain(
      'base: every selected file — the workflow runs API refused (HTTP 403), grant actions: read',
    )
  })

  it("still blanks the push's own removals when the API refuses and every selected file is sent", async () => {
    author.write('docs/a.md').write('docs/b.md').write('docs/gone.md')
    const seed = author.commit('seed')
    author.push()
    expect((await workflowRun({ eventName: 'push', payload: pushPayload(ZERO, seed) })).status).toBe(0)
    // The token loses actions: read; the next push deletes a document.
    runs.failure = { status: 403, message: 'Resource not accessible by integration' }
    author.remove('docs/gone.md')
    const after = author.commit('delete gone')
    author.push()
    const mark = emulator.requests().length
    // A real push payload, as GitHub sends it, for this repository's range.
    const payload = {
      ...structuredClone(webhookExamples('push')[0]),
      ...pushPayload(seed, after),
    }
    const run = await workflowRun({ eventName: 'push', payload })
    expect(run.status).toBe(0)
    // Every selected file by upsert, and the deleted one blanked by a placeholder (PATCH).
    expect(sent(mark)).toEqual({ POST: [], PATCH: ['docs/a.md', 'docs/b.md', 'docs/gone.md'] })
    expect(JSON.parse(run.outputs.removed)).toEqual(['docs/gone.md'])
    expect(JSON.parse(run.outputs.updated)).toEqual(['docs/a.md', 'docs/b.md'])
    const stored = emulator.documents(ids['flow-id'], ids['org-id'], ids['node-id'])
    const gone = stored.find((document) => document.name === 'docs/gone.md')
    expect(gone?.sha256).toBe(
      createHash('sha256').update(placeholderFor('docs/gone.md', after)!).digest('hex'),
    )
    expect(run.stdout).toContain("the push's own before..after removes 1 file(s): they are blanked too")
    expect(run.outputs['base-source']).toBe('none')
  })

  it("keeps the push's before, with a warning, when the API cannot answer for now (HTTP 500)", async () => {
    author.write('docs/a.md').write('docs/b.md')
    const seed = author.commit('seed')
    author.push()
    author.write('docs/a.md', 'a, second\n')
    const after = author.commit('edit a')
    author.push()
    runs.failure = { status: 500, message: 'Server Error' }
    const run = await workflowRun({ eventName: 'push', payload: pushPayload(seed, after) })
    expect(run.status).toBe(0)
    expect(run.outputs).toMatchObject({ base: seed, 'base-source': 'push', uploaded: '["docs/a.md"]' })
    expect(run.stdout).toMatch(
      /::warning::Change detection: the last successful sync cannot be looked up \(the workflow runs API cannot answer: HTTP 500: Server Error.*\); using the push's before commit\./,
    )
    const firstLine = run.summary.split('\n').find((line) => line.trim() !== '' && !line.startsWith('#'))
    expect(firstLine).toContain(
      "base: the push's before commit — the last successful sync cannot be looked up (the workflow runs API cannot answer: HTTP 500",
    )
  })
})
