// What people read of a sync, end to end: the built index action on a push, the emulator as the service.
// The job summary says what happened to each document in words and shows attempts only where a request
// was really retried; the log keeps every status code.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { join } from 'node:path'
import { startEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/server.js'
import { ServiceClient } from '../../src/service/client.js'
import { GitFixture, type WorkingCopy } from '../helpers/git-fixture.js'
import { pushAndSync as nextRun, ZERO_SHA } from '../helpers/next-run-on-push.js'
import { WorkflowRunsServer } from '../helpers/workflow-runs-server.js'
import { PRIVATE_KEY, PUBLIC_KEY } from '../helpers/keys.js'

const ids = { 'flow-id': 'flow-words', 'org-id': 'org-words', 'node-id': 'kb-main' }

let fixture: GitFixture
let author: WorkingCopy
let emulator: Emulator
let runs: WorkflowRunsServer

async function startService(options: Partial<EmulatorOptions> = {}): Promise<void> {
  emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY, ...options })
}

beforeEach(async () => {
  fixture = GitFixture.create()
  author = fixture.author()
  runs = new WorkflowRunsServer()
  await runs.start()
})
afterEach(async () => {
  await Promise.all([emulator.close(), runs.close()])
  fixture.cleanup()
})

const pushAndSync = (before: string, inputs: Record<string, string> = {}) =>
  nextRun({ fixture, author, runs, baseUrl: emulator.url, ids, runIdBase: 7_000_000 }, before, inputs)

/** The summary as read: no status code, no method, no arrow of a switch. */
const HTTP_WORDS = /\b(404|409|PATCH|POST)\b|→/

describe('the job summary in words', () => {
  it('a removed document that was never sent: "not in the knowledge base", and its split batch shows no attempts', async () => {
    await startService()
    author.write('docs/a.md').write('docs/b.md').write('docs/c.md')
    const seed = author.commit('seed')
    author.push()
    // Another node holds a.md and b.md only: the placeholders' batch is answered 404 as a whole (c.md is
    // not there) and split to find which, so a.md and b.md are sent twice without being retried.
    const client = new ServiceClient({ baseUrl: emulator.url, privateKey: PRIVATE_KEY })
    const checkout = fixture.checkout({ name: 'seed' })
    await client.uploadDocuments(
      { orgId: ids['org-id'], flowId: ids['flow-id'], nodeId: 'kb-other' },
      ['docs/a.md', 'docs/b.md'].map((name) => ({ name, path: join(checkout.dir, name) })),
    )
    await client.close()
    author.remove('docs/a.md').remove('docs/b.md').remove('docs/c.md').commit('delete all three')
    const mark = emulator.requests().length
    const run = await pushAndSync(seed, { 'node-id': 'kb-other' })

    expect(run.status).toBe(0)
    const statuses = emulator
      .requests()
      .slice(mark)
      .map((request) => `${request.method} ${request.status}`)
    expect(statuses[0]).toBe('PATCH 404')
    expect(statuses.length).toBeGreaterThan(2)
    expect(JSON.parse(run.outputs.removed)).toEqual(['docs/a.md', 'docs/b.md', 'docs/c.md'])
    expect(run.summary).toContain('docs/c.md: was not in the knowledge base, so there was nothing to remove')
    expect(run.summary).toMatch(/^- docs\/a\.md$/m)
    expect(run.summary).toMatch(/^- docs\/b\.md$/m)
    expect(run.summary).not.toMatch(/attempt/)
    expect(run.summary).not.toMatch(HTTP_WORDS)
    // The log keeps the status codes.
    expect(run.stdout).toContain(
      'docs/c.md: not in the knowledge base (PATCH answered 404); nothing to remove.',
    )
  })

  it('a changed document the node does not hold: uploaded instead, without attempts or status codes', async () => {
    await startService()
    author.write('docs/a.md')
    const seed = author.commit('seed')
    author.write('docs/a.md', 'changed\n').commit('change a')
    // Another node, which never received docs/a.md: its update is answered 404 and sent as an upload.
    const mark = emulator.requests().length
    const run = await pushAndSync(seed, { 'node-id': 'kb-empty' })
    expect(run.status).toBe(0)
    const statuses = emulator
      .requests()
      .slice(mark)
      .map((request) => `${request.method} ${request.status}`)
    expect(statuses).toEqual(['PATCH 404', 'POST 200'])
    expect(JSON.parse(run.outputs.uploaded)).toEqual(['docs/a.md'])
    expect(run.summary).toMatch(/^- docs\/a\.md$/m)
    expect(run.summary).not.toMatch(/attempt/)
    expect(run.summary).not.toMatch(HTTP_WORDS)
  })

  it('a request answered 503 and retried: its documents show their attempts', async () => {
    let faulted = false
    await startService({
      retryAfterSeconds: 0,
      // The first request that sends documents is answered 503 Service Unavailable.
      inject: ({ path }) => {
        if (faulted || !path.includes('/documents/')) return undefined
        faulted = true
        return 'unavailable'
      },
    })
    author.write('docs/a.md').commit('seed')
    const run = await pushAndSync(ZERO_SHA)
    expect(run.status).toBe(0)
    expect(faulted).toBe(true)
    expect(JSON.parse(run.outputs.uploaded)).toEqual(['docs/a.md'])
    expect(run.summary).toMatch(/^- docs\/a\.md \(2 attempts\)$/m)
    expect(run.summary).not.toMatch(HTTP_WORDS)
  })
})
