// The knowledge base's record kept as a GitHub Actions artifact, end to end: the built index action
// (dist/index.js) run as the runner runs it, the real @actions/artifact client against the local stand-in
// of GitHub's artifact service, real git checkouts, the emulator as the service. Each run is a job of its
// own workflow run (its runtime token, run id and attempt); what the node holds is read from the emulator.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import fs from 'node:fs'
import path from 'node:path'
import { gunzipSync } from 'node:zlib'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import {
  checkoutDocuments,
  entries,
  nodeContents,
  recordKey,
  runRecorded,
  startArtifactWorld,
  type ArtifactWorld,
  type RecordedRun,
} from '../helpers/artifact-runs.js'
import { runCliAsync } from '../helpers/cli.js'
import { sentByMethod } from '../helpers/emulator-sent.js'
import { GitFixture, type WorkingCopy } from '../helpers/git-fixture.js'
import { GITHUB_TOKEN, PRIVATE_KEY } from '../helpers/keys.js'

const ids = { 'flow-id': 'flow-record', 'org-id': 'org-record', 'node-id': 'knowledgebase-1' }

let fixture: GitFixture
let author: WorkingCopy
let emulator: Emulator
let world: ArtifactWorld

async function setUp(latencyMs = 0): Promise<void> {
  emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: 'pub-unused-key', latencyMs })
}
beforeEach(async () => {
  fixture = GitFixture.create()
  author = fixture.author()
  world = await startArtifactWorld()
})
afterEach(async () => {
  await Promise.all([emulator.close(), world.close()])
  fixture.cleanup()
})

const pushPayload = (before: string, after: string) => ({
  ref: 'refs/heads/main',
  before,
  after,
  created: false,
  deleted: false,
  forced: false,
})

/** A push to main's run: a depth-1 checkout of main, then the run listed with its conclusion. */
async function pushRun(runId: number, before: string, extra: Partial<RecordedRun> = {}) {
  const checkout = fixture.checkout({ name: `run-${runId}-${Math.random().toString(36).slice(2, 8)}` })
  const head = checkout.head()
  const run = await runRecorded({
    world,
    emulator,
    ids,
    workspace: checkout.dir,
    runId,
    eventName: 'push',
    payload: pushPayload(before, head),
    ...extra,
  })
  world.runs.add({
    head_sha: head,
    event: 'push',
    conclusion: run.status === 0 ? 'success' : 'failure',
  })
  return { run, dir: checkout.dir }
}

/** The node holds exactly the checkout's documents. */
function expectNodeEqualsCheckout(dir: string): void {
  expect(entries(nodeContents(emulator, ids, []))).toEqual(entries(checkoutDocuments(dir)))
}

const key = () => recordKey(emulator, ids)

describe('the record as an artifact', () => {
  it("a push sync's first run writes the record; the next run reads it and sends only what differs", async () => {
    await setUp()
    author.write('docs/a.md').write('docs/b.md').write('docs/c.md').write('README.md')
    const main0 = author.commit('seed')
    author.write('docs/b.md', 'b, second\n')
    const main1 = author.commit('b')
    author.push()

    const first = await pushRun(501, main0, { inputs: { 'state-retention-days': '3' } })
    expect(first.run.status).toBe(0)
    expect(first.run.stdout).toMatch(/^::notice::No record of this knowledge base yet \(no artifact named /m)
    expect(first.run.outputs['base-source']).not.toBe('state')
    expect(first.run.outputs.record).toBe('')
    expectNodeEqualsCheckout(first.dir)
    expect(world.artifacts.named(key()).map((a) => a.runId)).toEqual([501])
    const expires = Date.parse(world.artifacts.named(key())[0].expiresAt ?? '')
    expect(Math.round((expires - Date.now()) / 86_400_000)).toBe(3)

    author.write('docs/c.md', 'c, second\n').commit('c')
    author.push()
    const from = emulator.requests().length
    const second = await pushRun(502, main1)
    expect(second.run.status).toBe(0)
    expect(second.run.outputs['base-source']).toBe('state')
    expect(second.run.outputs.record).toMatch(new RegExp(`^artifact ${key()} of run 501\\b`))
    // Nothing unchanged is sent: the one changed document, by its exact operation.
    expect(sentByMethod(emulator, from)).toEqual({ POST: [], PATCH: ['docs/c.md'] })
    expect(JSON.parse(second.run.outputs.updated)).toEqual(['docs/c.md'])
    const firstLine = second.run.summary
      .split('\n')
      .find((line) => line.trim() !== '' && !line.startsWith('#'))
    expect(firstLine).toContain('The knowledge base holds 3 document(s) and 0 page(s).')
    expectNodeEqualsCheckout(second.dir)
    expect(world.artifacts.named(key()).map((a) => a.runId)).toEqual([502, 501])

    // The record holds names and content ids, never a key, a token or the service's address.
    const [newest] = world.artifacts.named(key())
    const text = gunzipSync(world.artifacts.fileOf(newest.id).content).toString('utf8')
    const record = JSON.parse(text) as { phase: string; documents: Record<string, string> }
    expect(record.phase).toBe('final')
    expect(Object.keys(record.documents)).toEqual(['docs/a.md', 'docs/b.md', 'docs/c.md'])
    expect(record.documents['docs/c.md']).toBe(author.git('rev-parse', 'HEAD:docs/c.md').trim())
    for (const secret of [PRIVATE_KEY, GITHUB_TOKEN, emulator.url]) expect(text).not.toContain(secret)
    // Nor does the runtime token (a JWT) reach the log.
    expect(second.run.stdout).not.toMatch(/eyJ[\w-]+\.eyJ/)

    // A dry run plans from the record, and writes none.
    author.write('docs/a.md', 'a, second\n').commit('a')
    author.push()
    const before = emulator.requests().length
    const dry = await pushRun(503, main1, { inputs: { 'dry-run': 'true' } })
    expect(dry.run.status).toBe(0)
    expect(dry.run.outputs['base-source']).toBe('state')
    expect(JSON.parse(dry.run.outputs.planned)).toEqual([{ name: 'docs/a.md', operation: 'update' }])
    expect(emulator.requests().length).toBe(before)
    expect(world.artifacts.artifacts.filter((a) => a.runId === 503)).toEqual([])
  })

  it('widening files uploads the documents already there, narrowing it blanks those left out, each in one run', async () => {
    await setUp()
    author.write('docs/a.md').write('guides/g.md')
    const main0 = author.commit('seed')
    author.push()
    expect((await pushRun(601, main0)).run.status).toBe(0)

    // No commit between the runs: git history shows no change, the record does.
    const from = emulator.requests().length
    const widened = await pushRun(602, main0, { inputs: { files: 'docs/**\nguides/**' } })
    expect(widened.run.status).toBe(0)
    expect(widened.run.outputs['base-source']).toBe('state')
    expect(sentByMethod(emulator, from)).toEqual({ POST: ['guides/g.md'], PATCH: [] })
    expect(widened.run.summary).toContain('Settings changed since the record: `files`.')

    const narrowed = await pushRun(603, main0)
    expect(narrowed.run.status).toBe(0)
    expect(JSON.parse(narrowed.run.outputs.removed)).toEqual(['guides/g.md'])
    expect(entries(nodeContents(emulator, ids, [main0]))).toEqual(
      entries(new Map([...checkoutDocuments(narrowed.dir), ['guides/g.md', 'placeholder']])),
    )
  })

  it('kb-sync status in a workflow step reads the artifact the index action wrote', async () => {
    await setUp()
    author.write('docs/a.md').write('docs/b.md')
    const main0 = author.commit('seed')
    author.push()
    const synced = await pushRun(701, main0)
    expect(synced.run.status).toBe(0)
    fs.writeFileSync(path.join(synced.dir, 'docs/a.md'), 'edited in the step\n')
    const before = emulator.requests().length
    const status = await runCliAsync(
      [
        'status',
        '--base-url',
        emulator.url,
        '--flow-id',
        ids['flow-id'],
        '--org-id',
        ids['org-id'],
        '--node-id',
        ids['node-id'],
        '--files',
        'docs/**',
        '--json',
      ],
      {
        cwd: synced.dir,
        env: { ...world.artifacts.envOf(702), GITHUB_API_URL: world.runs.url, GITHUB_TOKEN },
      },
    )
    expect(status.status).toBe(0)
    expect(JSON.parse(status.stdout)).toMatchObject({
      record: expect.stringMatching(new RegExp(`^artifact ${key()} of run 701\\b`)),
      upload: [],
      update: ['docs/a.md'],
      blank: [],
      unchanged: 1,
    })
    expect(emulator.requests().length).toBe(before)
    expect(world.artifacts.artifacts.filter((a) => a.runId === 702)).toEqual([])
  })

  it('without actions: read (the listing answers 403): a warning naming the permission, the history fallback, a green run', async () => {
    await setUp()
    author.write('docs/a.md').write('docs/b.md')
    const main0 = author.commit('seed')
    author.push()
    expect((await pushRun(511, main0)).run.status).toBe(0)

    world.artifacts.refuseRest = true
    author.write('docs/a.md', 'a, second\n').commit('a')
    author.push()
    const second = await pushRun(512, main0)
    expect(second.run.status).toBe(0)
    expect(second.run.stdout).toMatch(
      /^::warning::The knowledge base's record is not used \(.*actions: read/m,
    )
    expect(second.run.outputs['base-source']).not.toBe('state')
    expect(second.run.summary).toContain('Record: none used (')
    expectNodeEqualsCheckout(second.dir)
    // Writing needs only the runtime token: this run's record is kept all the same.
    expect(world.artifacts.named(key()).map((a) => a.runId)).toEqual([512, 511])
  })

  it('an expired record: a notice, the fallback, and a new record that the next run reads', async () => {
    await setUp()
    author.write('docs/a.md').write('docs/b.md')
    const main0 = author.commit('seed')
    author.push()
    expect((await pushRun(521, main0)).run.status).toBe(0)
    for (const artifact of world.artifacts.artifacts) world.artifacts.expire(artifact.id)

    const second = await pushRun(522, main0)
    expect(second.run.status).toBe(0)
    expect(second.run.stdout).toMatch(/^::notice::No record of this knowledge base yet \(.*expired/m)
    expect(second.run.outputs['base-source']).not.toBe('state')
    // Nothing was sent, so no pending record: the run's one record goes under the first name.
    const live = world.artifacts.artifacts.filter((a) => a.name.startsWith(key()) && !a.expired)
    expect(live.map((a) => a.runId)).toEqual([522])

    const from = emulator.requests().length
    const third = await pushRun(523, main0)
    expect(third.run.outputs['base-source']).toBe('state')
    expect(third.run.outputs.record).toContain('of run 522')
    expect(emulator.requests().length).toBe(from)
    expectNodeEqualsCheckout(third.dir)
  })

  it('a garbled record: a warning, the fallback, and the node equals the checkout', async () => {
    await setUp()
    author.write('docs/a.md').write('docs/b.md')
    const main0 = author.commit('seed')
    author.push()
    expect((await pushRun(531, main0)).run.status).toBe(0)
    world.artifacts.garble(world.artifacts.named(key())[0].id)

    author.remove('docs/b.md').write('docs/d.md').commit('b gone, d')
    author.push()
    const second = await pushRun(532, main0)
    expect(second.run.status).toBe(0)
    expect(second.run.stdout).toMatch(
      new RegExp(
        `^::warning::The knowledge base's record is not used \\(artifact ${key()} of run 531 .*is `,
        'm',
      ),
    )
    expect(second.run.outputs['base-source']).not.toBe('state')
    expect(second.run.outputs.record).toBe('')
    expect(entries(nodeContents(emulator, ids, [author.head()]))).toEqual(
      entries(new Map([...checkoutDocuments(second.dir), ['docs/b.md', 'placeholder']])),
    )
  })

  it('a run killed after its first answered request leaves its pending record: the next run sends again every name it may have written', async () => {
    await setUp(150)
    const pages = Array.from({ length: 6 }, (_, i) => `docs/page-${i}.md`)
    for (const name of [...pages, 'docs/other.md']) author.write(name)
    const main0 = author.commit('seed')
    author.push()
    // Only the run to be killed sends one document at a time (the others send in one request each: these
    // settings do not shape the selection, so the record notes no change of settings).
    const slow = { 'batch-size': '1', concurrency: '1' }
    expect((await pushRun(540, main0)).run.status).toBe(0)

    for (const name of pages) author.write(name, `${name}, second\n`)
    const main1 = author.commit('second')
    author.push()
    const mark = emulator.requests().length
    const killed = await pushRun(541, main0, {
      inputs: slow,
      onStart: (child) => {
        const poll = setInterval(() => {
          if (
            !emulator
              .requests()
              .slice(mark)
              .some((request) => request.status === 200)
          )
            return
          clearInterval(poll)
          child.kill('SIGKILL')
        }, 5)
        child.on('close', () => clearInterval(poll))
      },
    })
    expect(killed.run.status).toBeNull()
    const sentBeforeKill = sentByMethod(emulator, mark).PATCH
    expect(sentBeforeKill.length).toBeGreaterThan(0)
    expect(sentBeforeKill.length).toBeLessThan(pages.length)
    // The pending record (every name it may write, as unknown) is the newest; no final one of run 541.
    expect(world.artifacts.named(`${key()}-pending`).map((a) => a.runId)).toEqual([541, 540])
    expect(world.artifacts.named(key()).map((a) => a.runId)).toEqual([540])

    // The second version is reverted: run 540's record says the node holds this content, but the killed
    // run may have replaced it.
    for (const name of pages) author.write(name)
    author.commit('revert')
    author.push()
    const from = emulator.requests().length
    const next = await pushRun(542, main1)
    expect(next.run.status).toBe(0)
    expect(next.run.outputs['base-source']).toBe('state')
    expect(next.run.outputs.record).toContain(`${key()}-pending of run 541`)
    expect(next.run.summary).toContain('The knowledge base holds 7 document(s) and 0 page(s).')
    // Every name the killed run may have written is sent again, the ones it did write too; no other.
    expect(sentByMethod(emulator, from)).toEqual({ POST: [], PATCH: pages })
    expectNodeEqualsCheckout(next.dir)
  })
})

describe('a record that cannot be written', () => {
  it("the results service never answers: a warning once the run's deadline for GitHub passes, and the sync succeeds", async () => {
    await setUp()
    author.write('docs/a.md').write('docs/b.md')
    const main0 = author.commit('seed')
    author.push()
    world.artifacts.hung.add('CreateArtifact')
    const { run, dir } = await pushRun(561, main0, { env: { KB_SYNC_GITHUB_DEADLINE_SECONDS: '1' } })
    expect(run.status).toBe(0)
    expect(run.stdout).toMatch(/^::warning::The names this run is about to send could not be recorded \(/m)
    expect(run.stdout).toMatch(/^::warning::What the knowledge base holds could not be recorded \(/m)
    expect(run.summary).toContain('The record of this run was not written: ')
    expect(JSON.parse(run.outputs.uploaded)).toEqual(['docs/a.md', 'docs/b.md'])
    expectNodeEqualsCheckout(dir)
    expect(world.artifacts.named(key())).toEqual([])
  })
})

describe('GitHub Enterprise Server without this artifact storage', () => {
  it('the record is not kept: one warning naming why and the state-file input, no request to it, the sync succeeds', async () => {
    await setUp()
    author.write('docs/a.md')
    const main0 = author.commit('seed')
    author.push()
    const { run, dir } = await pushRun(571, main0, { env: { GITHUB_SERVER_URL: 'https://ghes.example.com' } })
    expect(run.status).toBe(0)
    const warnings = run.stdout.split('\n').filter((line) => line.startsWith('::warning::'))
    expect(warnings).toEqual([
      expect.stringMatching(
        /^::warning::The knowledge base's record is not kept \(GitHub Enterprise Server \(ghes\.example\.com\) .*set "state-file"/,
      ),
    ])
    expect(world.artifacts.requests).toEqual([])
    expectNodeEqualsCheckout(dir)
  })
})

describe('the record of a cancelled run', () => {
  it('SIGTERM after the first answered request: the final record is written, and the next run sends only what was not sent', async () => {
    await setUp(150)
    const pages = Array.from({ length: 6 }, (_, i) => `docs/page-${i}.md`)
    for (const name of pages) author.write(name)
    const main0 = author.commit('seed')
    author.push()
    const slow = { 'batch-size': '1', concurrency: '1' }

    const cancelled = await pushRun(551, main0, {
      inputs: slow,
      onStart: (child) => {
        const poll = setInterval(() => {
          if (!emulator.requests().some((request) => request.status === 200)) return
          clearInterval(poll)
          child.kill('SIGTERM')
        }, 5)
        child.on('close', () => clearInterval(poll))
      },
    })
    expect(cancelled.run.status).not.toBe(0)
    const sent = sentByMethod(emulator).POST
    expect(sent.length).toBeGreaterThan(0)
    expect(sent.length).toBeLessThan(pages.length)
    // The final record, written after the cancellation, is the newest.
    expect(world.artifacts.named(key()).map((a) => a.runId)).toEqual([551])

    const from = emulator.requests().length
    const next = await pushRun(552, main0)
    expect(next.run.status).toBe(0)
    expect(next.run.outputs.record).toMatch(new RegExp(`^artifact ${key()} of run 551\\b`))
    // Sent again: every name the cancelled run did not see answered (its outputs say which it did).
    const confirmed = JSON.parse(cancelled.run.outputs.uploaded) as string[]
    expect(confirmed.length).toBeGreaterThan(0)
    const rest = sentByMethod(emulator, from)
    expect([...rest.POST, ...rest.PATCH].sort()).toEqual(pages.filter((name) => !confirmed.includes(name)))
    expectNodeEqualsCheckout(next.dir)
  })
})
