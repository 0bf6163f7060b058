// The record's artifact store through the real @actions/artifact client against a local stand-in of
// GitHub's artifact service (results service, blob storage, REST listing and zip download). The client
// reads GITHUB_API_URL when @actions/github is first imported, and the rest of its environment at each
// call: the service starts and the environment is set before the store is imported (each test file has
// its own module registry), and a test plays another workflow run by setting that run's environment.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { RunCancelled } from '../../src/cancellation.js'
import { LookupBudget } from '../../src/github/lookup-budget.js'
import { ArtifactService, type RunEnvOptions } from '../helpers/artifact-service.js'

type StoreModule = typeof import('../../src/state/artifact-store.js')

const service = new ArtifactService()
const savedEnv = { ...process.env }
let runnerTemp: string
let module: StoreModule
let keys = 0

beforeAll(async () => {
  await service.start()
  runnerTemp = mkdtempSync(join(tmpdir(), 'kb-sync-artifact-store-'))
  asRun(1)
  module = await import('../../src/state/artifact-store.js')
})

afterAll(async () => {
  process.env = savedEnv
  await service.close()
  rmSync(runnerTemp, { recursive: true, force: true })
})

/** The process is now a job of workflow run `runId`. */
function asRun(runId: number, options?: RunEnvOptions): void {
  Object.assign(process.env, service.envOf(runId, options), { RUNNER_TEMP: runnerTemp })
}

function storeOf(runId: number, budget = new LookupBudget(), maxBytes?: number) {
  return new module.ArtifactStore({
    maxBytes,
    budget,
    token: 'ghs_artifact_store_test',
    repository: { owner: service.owner, repo: service.repo },
    runId,
    apiUrl: service.url,
  })
}

const newKey = (): string => `kb-sync-state-test${++keys}`
const recordBytes = (text: string): Buffer => gzipSync(JSON.stringify({ text }))

/** Nothing of the store's is left in RUNNER_TEMP. */
const expectNoTempFiles = (): void => expect(readdirSync(runnerTemp)).toEqual([])

describe('ArtifactStore', () => {
  test('a record written by a run is read back by the same run and by a later one', async () => {
    const key = newKey()
    asRun(101)
    const written = await storeOf(101).write(key, recordBytes('run 101'))
    expect(written).toEqual({ ok: true, where: expect.stringContaining(`${key}-pending of run 101`) })
    expectNoTempFiles()

    const same = await storeOf(101).readNewest(key)
    expect(same).toEqual({
      kind: 'found',
      bytes: recordBytes('run 101'),
      from: expect.stringMatching(new RegExp(`^artifact ${key}-pending of run 101 \\(`)),
    })
    asRun(102)
    expect(await storeOf(102).readNewest(key)).toMatchObject({ kind: 'found', bytes: recordBytes('run 101') })
    expectNoTempFiles()
  })

  test('a run writes its pending record, then its final one: the final one is read', async () => {
    const key = newKey()
    asRun(111)
    const store = storeOf(111)
    expect(await store.write(key, recordBytes('pending'))).toMatchObject({ ok: true })
    expect(await store.write(key, recordBytes('final'))).toEqual({
      ok: true,
      where: expect.stringContaining(`artifact ${key} of run 111`),
    })
    expect(service.named(`${key}-pending`)).toHaveLength(1)
    expect(service.named(key)).toHaveLength(1)

    asRun(112)
    expect(await storeOf(112).readNewest(key)).toEqual({
      kind: 'found',
      bytes: recordBytes('final'),
      from: expect.stringContaining(`artifact ${key} of run 111`),
    })
    expectNoTempFiles()
  })

  test("a newer run's record wins over an older run's, a pending one too", async () => {
    const key = newKey()
    for (const runId of [121, 122]) {
      asRun(runId)
      const store = storeOf(runId)
      await store.write(key, recordBytes(`pending ${runId}`))
      await store.write(key, recordBytes(`final ${runId}`))
    }
    asRun(123)
    expect(await storeOf(123).readNewest(key)).toMatchObject({ bytes: recordBytes('final 122') })

    // Run 124 was killed after its first request: its pending record holds every name it may have written.
    asRun(124)
    await storeOf(124).write(key, recordBytes('pending 124'))
    asRun(125)
    expect(await storeOf(125).readNewest(key)).toMatchObject({
      kind: 'found',
      bytes: recordBytes('pending 124'),
      from: expect.stringContaining(`${key}-pending of run 124`),
    })
  })

  test("a re-run of a run replaces that run's earlier artifacts (one name per run), and its record is read", async () => {
    const key = newKey()
    asRun(131)
    const first = storeOf(131)
    await first.write(key, recordBytes('attempt 1 pending'))
    await first.write(key, recordBytes('attempt 1 final'))
    asRun(131) // attempt 2: the same run, another job token
    const second = storeOf(131)
    const requestsBefore = service.requests.length
    expect(await second.write(key, recordBytes('attempt 2 pending'))).toMatchObject({ ok: true })
    expect(await second.write(key, recordBytes('attempt 2 final'))).toMatchObject({ ok: true })
    expect(service.named(key)).toHaveLength(1)
    expect(service.named(`${key}-pending`)).toHaveLength(1)
    // Deleted first, so no upload was refused (the client would print each refusal as the run's warning).
    const attempt2 = service.requests.slice(requestsBefore)
    expect(attempt2.filter((route) => route === 'DeleteArtifact')).toHaveLength(2)
    expect(attempt2.filter((route) => route === 'CreateArtifact')).toHaveLength(2)

    asRun(132)
    expect(await storeOf(132).readNewest(key)).toMatchObject({ bytes: recordBytes('attempt 2 final') })
    expectNoTempFiles()
  })

  test('a name an unfinished upload of this run holds (no listing shows it): not written, saying so', async () => {
    const key = newKey()
    asRun(133)
    service.hung.add('FinalizeArtifact')
    try {
      const cut = await storeOf(133, new LookupBudget({ deadlineMs: 1500 })).write(key, recordBytes('x'))
      expect(cut).toMatchObject({ ok: false })
    } finally {
      service.hung.delete('FinalizeArtifact')
    }
    asRun(133) // a re-run attempt
    expect(await storeOf(133).write(key, recordBytes('attempt 2'))).toEqual({
      ok: false,
      why: expect.stringContaining(
        `an artifact named ${key}-pending already exists in this workflow run (an earlier attempt's`,
      ),
    })
    expectNoTempFiles()
  })

  test('a third write of one key in a run is refused, before any request', async () => {
    const key = newKey()
    asRun(136)
    const store = storeOf(136)
    await store.write(key, recordBytes('1'))
    await store.write(key, recordBytes('2'))
    const before = service.requests.length
    expect(await store.write(key, recordBytes('3'))).toEqual({
      ok: false,
      why: expect.stringContaining('written twice in this run already'),
    })
    expect(service.requests.length).toBe(before)
  })

  test('writeOnce (the stored baseline): one write under the key itself, read back; a second refused', async () => {
    const key = newKey()
    asRun(137)
    const once = new module.ArtifactStore({
      budget: new LookupBudget(),
      token: 'ghs_artifact_store_test',
      repository: { owner: service.owner, repo: service.repo },
      runId: 137,
      apiUrl: service.url,
      writeOnce: true,
    })
    expect(await once.write(key, recordBytes('baseline'))).toMatchObject({ ok: true })
    expect(service.named(key)).toHaveLength(1)
    expect(service.named(`${key}-pending`)).toHaveLength(0)
    const before = service.requests.length
    expect(await once.write(key, recordBytes('again'))).toEqual({
      ok: false,
      why: expect.stringContaining('written once in this run already'),
    })
    expect(service.requests.length).toBe(before)
    asRun(138)
    expect(await storeOf(138).readNewest(key)).toMatchObject({
      kind: 'found',
      bytes: recordBytes('baseline'),
    })
  })

  test('no record yet: missing', async () => {
    asRun(141)
    expect(await storeOf(141).readNewest(newKey())).toEqual({
      kind: 'missing',
      why: expect.stringContaining('no record yet, or it expired'),
    })
  })

  test('the newest record expired: missing, even when an older one has not (it is no longer the state)', async () => {
    const key = newKey()
    asRun(151)
    await storeOf(151).write(key, recordBytes('older'))
    asRun(152)
    await storeOf(152).write(key, recordBytes('newer'))
    service.expire(service.named(`${key}-pending`)[0].id)

    asRun(153)
    const downloads = service.requests.filter((route) => route === 'rest-zip').length
    expect(await storeOf(153).readNewest(key)).toEqual({
      kind: 'missing',
      why: expect.stringMatching(new RegExp(`newest record, artifact ${key}-pending of run 152 .*expired`)),
    })
    expect(service.requests.filter((route) => route === 'rest-zip')).toHaveLength(downloads)
  })

  test("an artifact of that name from a fork's pull request run is not a record", async () => {
    const key = newKey()
    asRun(161)
    await storeOf(161).write(key, recordBytes('ours'))
    asRun(162, { fromFork: true })
    await storeOf(162).write(key, recordBytes('a fork wrote this'))

    asRun(163)
    expect(await storeOf(163).readNewest(key)).toMatchObject({
      kind: 'found',
      bytes: recordBytes('ours'),
      from: expect.stringContaining('of run 161'),
    })
  })

  test("a garbled file inside the artifact is handed over as it is: the record's reader judges it", async () => {
    const key = newKey()
    asRun(171)
    await storeOf(171).write(key, recordBytes('fine'))
    service.garble(service.named(`${key}-pending`)[0].id, Buffer.from('not gzip at all'))
    asRun(172)
    expect(await storeOf(172).readNewest(key)).toMatchObject({
      kind: 'found',
      bytes: Buffer.from('not gzip at all'),
    })
    expectNoTempFiles()
  })

  test('an artifact over the size bound is not downloaded', async () => {
    const key = newKey()
    asRun(176)
    await storeOf(176).write(key, recordBytes('x'.repeat(400)))
    const size = service.named(`${key}-pending`)[0].blob.length
    const downloads = service.requests.filter((route) => route === 'rest-zip').length
    expect(await storeOf(177, new LookupBudget(), size - 1).readNewest(key)).toEqual({
      kind: 'unusable',
      why: expect.stringContaining(`is ${size} bytes, over ${size - 1}`),
    })
    expect(service.requests.filter((route) => route === 'rest-zip')).toHaveLength(downloads)
    expect(await storeOf(177, new LookupBudget(), size).readNewest(key)).toMatchObject({ kind: 'found' })
  })

  test('without actions: read (the listing answers 403): unusable, naming the permission', async () => {
    const key = newKey()
    asRun(181)
    await storeOf(181).write(key, recordBytes('unreadable'))
    service.refuseRest = true
    try {
      asRun(182)
      const read = await storeOf(182).readNewest(key)
      expect(read).toEqual({ kind: 'unusable', why: expect.stringContaining('HTTP 403') })
      expect(read.kind === 'unusable' && read.why).toContain('`permissions: actions: read`')
    } finally {
      service.refuseRest = false
    }
  })

  test("a hung download: unusable once the budget's deadline passes, and GitHub is not asked again", async () => {
    const key = newKey()
    asRun(191)
    await storeOf(191).write(key, recordBytes('never downloaded'))
    service.hung.add('rest-zip')
    try {
      asRun(192)
      const budget = new LookupBudget({ deadlineMs: 1500 })
      const bounded = await storeOf(192, budget).readNewest(key)
      expect(bounded).toEqual({
        kind: 'unusable',
        why: expect.stringContaining("GitHub's API did not answer within"),
      })
      expect(budget.gaveUp).toBeDefined()
      expectNoTempFiles()
    } finally {
      service.hung.delete('rest-zip')
    }
  })

  test("a hung results service: the record is not written, once the budget's deadline passes", async () => {
    asRun(195)
    service.hung.add('CreateArtifact')
    try {
      const budget = new LookupBudget({ deadlineMs: 1500 })
      // The budget's own words: what is left of its 1.5 s when the upload starts.
      expect(await storeOf(195, budget).write(newKey(), recordBytes('x'))).toEqual({
        ok: false,
        why: expect.stringContaining("GitHub's API did not answer within"),
      })
      expect(budget.gaveUp).toBeDefined()
      expectNoTempFiles()
    } finally {
      service.hung.delete('CreateArtifact')
    }
  })

  test("the run's cancellation rejects a read or a write in flight with its reason", async () => {
    const key = newKey()
    asRun(201)
    await storeOf(201).write(key, recordBytes('x'))
    service.hung.add('rest-zip').add('CreateArtifact')
    try {
      for (const work of [
        (store: InstanceType<StoreModule['ArtifactStore']>) => store.readNewest(key),
        (store: InstanceType<StoreModule['ArtifactStore']>) => store.write(newKey(), recordBytes('y')),
      ]) {
        const controller = new AbortController()
        const cancelled = new RunCancelled('SIGINT')
        service.onRequest = (route) => {
          if (route === 'rest-zip' || route === 'CreateArtifact') controller.abort(cancelled)
        }
        asRun(202)
        await expect(work(storeOf(202, new LookupBudget({ cancel: controller.signal })))).rejects.toBe(
          cancelled,
        )
      }
      expectNoTempFiles()
    } finally {
      service.onRequest = undefined
      service.hung.delete('rest-zip')
      service.hung.delete('CreateArtifact')
    }
  })

  test('without the runtime variables (not a JavaScript action on a runner): not written, saying what is missing', async () => {
    asRun(211)
    delete process.env.ACTIONS_RUNTIME_TOKEN
    delete process.env.ACTIONS_RESULTS_URL
    const before = service.requests.length
    expect(await storeOf(211).write(newKey(), recordBytes('x'))).toEqual({
      ok: false,
      why: expect.stringContaining('ACTIONS_RUNTIME_TOKEN and ACTIONS_RESULTS_URL are not set'),
    })
    expect(service.requests.length).toBe(before)
    expectNoTempFiles()
  })

  test('on GitHub Enterprise Server: neither read nor written, saying why, before any request', async () => {
    asRun(221)
    process.env.GITHUB_SERVER_URL = 'https://ghes.example.com'
    const before = service.requests.length
    const store = storeOf(221)
    expect(await store.readNewest(newKey())).toEqual({
      kind: 'unusable',
      why: expect.stringContaining('GitHub Enterprise Server (ghes.example.com)'),
    })
    expect(await store.write(newKey(), recordBytes('x'))).toEqual({
      ok: false,
      why: expect.stringContaining('GitHub Enterprise Server (ghes.example.com)'),
    })
    expect(service.requests.length).toBe(before)
  })
})
