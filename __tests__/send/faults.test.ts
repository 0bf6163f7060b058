// sendPlan against the emulator's fault injection: nothing lost, nothing duplicated, and a dead service
// fails every document instead of hanging.
import { afterEach, describe, expect, test } from '@jest/globals'
import { writeFileSync } from 'node:fs'
import { readFile, rm, writeFile } from 'node:fs/promises'
import { freePort } from '../helpers/ports.js'
import { startEmulator } from '../../src/emulator/server.js'
import { RunCancelled } from '../../src/cancellation.js'
import { sendPlan, type IndexingClient, type SendOptions } from '../../src/send/send-plan.js'
import { ServiceClient } from '../../src/service/client.js'
import {
  FAST_RETRY,
  makeDocuments,
  planFor,
  PRIVATE_KEY,
  PUBLIC_KEY,
  sha256,
  TARGET,
  type Workspace,
} from './fixture.js'
import { quietLog } from '../helpers/log.js'
import { startRecordingServer } from '../helpers/recording-server.js'

type Emulator = Awaited<ReturnType<typeof startEmulator>>
type EmulatorOptions = Parameters<typeof startEmulator>[0]

const cleanup: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

async function documents(count: number, content?: (i: number) => string): Promise<Workspace> {
  const workspace = await makeDocuments(count, content)
  cleanup.push(() => workspace.remove())
  return workspace
}

async function start(
  options: Partial<EmulatorOptions> = {},
): Promise<{ emulator: Emulator; client: ServiceClient }> {
  const emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY, ...options })
  cleanup.push(() => emulator.close())
  const client = new ServiceClient({ baseUrl: emulator.url, privateKey: PRIVATE_KEY, connections: 4 })
  cleanup.push(() => client.close())
  return { emulator, client }
}

function options(overrides: Partial<SendOptions> = {}): SendOptions {
  return { concurrency: 4, retry: FAST_RETRY, log: quietLog(), ...overrides }
}

const stored = (emulator: Emulator) => emulator.documents(TARGET.flowId, TARGET.orgId, TARGET.nodeId)

describe('transient faults', () => {
  test('30 % of requests failing (all five kinds): all 500 documents stored exactly once, none failed', async () => {
    const workspace = await documents(500)
    const { emulator, client } = await start({
      faultRate: 0.3,
      seed: 7,
      faultKinds: ['rate-limit', 'server-error', 'unavailable', 'reset-before', 'reset-after'],
      retryAfterSeconds: 0,
    })
    const result = await sendPlan(planFor(workspace.files, 'upload'), client, TARGET, options())

    expect(result.items.filter((item) => item.outcome === 'failed')).toEqual([])
    expect(result.items).toHaveLength(500)
    const documentsStored = stored(emulator)
    expect(documentsStored).toHaveLength(500)
    expect(documentsStored.every((d) => d.created === 1)).toBe(true)
    const expected = await Promise.all(
      workspace.files.map(async (f) => [f.name, sha256(await readFile(f.path))]),
    )
    expect(documentsStored.map((d) => [d.name, d.sha256])).toEqual(expected)
    // The faults really happened, of every kind, and were retried.
    const faults = new Set(emulator.requests().flatMap((entry) => (entry.fault ? [entry.fault] : [])))
    expect([...faults].sort()).toEqual([
      'rate-limit',
      'reset-after',
      'reset-before',
      'server-error',
      'unavailable',
    ])
    expect(result.requests).toBe(emulator.requests().length)
    expect(result.items.some((item) => item.attempts > 1)).toBe(true)
  })

  test('an upload whose connection dropped after it was applied is confirmed by an update, not sent twice', async () => {
    const workspace = await documents(3)
    const { emulator, client } = await start({ inject: ({ seq }) => (seq === 1 ? 'reset-after' : undefined) })
    const result = await sendPlan(planFor(workspace.files, 'upload'), client, TARGET, options())
    expect(emulator.requests().map((entry) => [entry.method, entry.fault, entry.applied])).toEqual([
      ['POST', 'reset-after', true],
      ['PATCH', undefined, true],
    ])
    expect(result.items.map((item) => [item.outcome, item.attempts])).toEqual([
      ['updated', 2],
      ['updated', 2],
      ['updated', 2],
    ])
    expect(stored(emulator).map((d) => [d.created, d.updated])).toEqual([
      [1, 1],
      [1, 1],
      [1, 1],
    ])
  })

  test('an upload that dropped before it was applied lands by the update-then-upload fallback', async () => {
    const workspace = await documents(3)
    const { emulator, client } = await start({
      inject: ({ seq }) => (seq === 1 ? 'reset-before' : undefined),
    })
    const result = await sendPlan(planFor(workspace.files, 'upload'), client, TARGET, options())
    expect(result.items.every((item) => item.outcome !== 'failed')).toBe(true)
    expect(stored(emulator).map((d) => d.created)).toEqual([1, 1, 1])
    expect(emulator.requests().at(-1)?.method).toBe('POST')
  })
})

describe('Retry-After', () => {
  test('no request starts before the hinted time, from any worker', async () => {
    const workspace = await documents(16)
    const { emulator, client } = await start({
      retryAfterSeconds: 1,
      latencyMs: 30,
      inject: ({ seq }) => (seq === 1 ? 'rate-limit' : undefined),
    })
    // Watched where requests start (the client), so requests already on their way when the 429 came back
    // are told apart by when they started, not by how soon a busy machine delivered them.
    const { indexing, starts, rateLimitedAt } = watched(client)
    const result = await sendPlan(planFor(workspace.files, 'upload', 1), indexing, TARGET, options())
    expect(result.items.every((item) => item.outcome === 'uploaded')).toBe(true)
    expect(emulator.requests()[0]).toMatchObject({ status: 429, fault: 'rate-limit' })

    const hinted = rateLimitedAt()!
    // 1 ms: the timers' granularity.
    const early = starts.filter((start) => start.at > hinted && start.at < hinted + 1000 - 1)
    expect(early).toEqual([])
    const retry = starts.find((start) => start.afterRateLimit && start.names[0] === 'doc-000.md')
    expect(retry!.at).toBeGreaterThanOrEqual(hinted + 1000 - 1)
    expect(starts.filter((start) => start.at >= hinted + 1000 - 1).length).toBeGreaterThan(8)
  })
})

/** The real client, watched: when each call starts, how many are in flight then, and when a 429 came back. */
function watched(client: ServiceClient) {
  let inFlight = 0
  let rateLimitedAt: number | undefined
  const starts: { at: number; inFlight: number; afterRateLimit: boolean; names: string[] }[] = []
  const wrap =
    <A extends [unknown, { name: string }[] | string[], ...unknown[]], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const names = args[1].map((item) => (typeof item === 'string' ? item : item.name))
      starts.push({ at: performance.now(), inFlight, afterRateLimit: rateLimitedAt !== undefined, names })
      inFlight++
      try {
        return await call(...args)
      } catch (error) {
        if ((error as { status?: number }).status === 429) rateLimitedAt ??= performance.now()
        throw error
      } finally {
        inFlight--
      }
    }
  const indexing: IndexingClient = {
    uploadUrls: wrap(client.uploadUrls.bind(client)),
    updateUrls: wrap(client.updateUrls.bind(client)),
    uploadDocuments: wrap(client.uploadDocuments.bind(client)),
    updateDocuments: wrap(client.updateDocuments.bind(client)),
  }
  return { indexing, starts, rateLimitedAt: () => rateLimitedAt }
}

describe('concurrency', () => {
  test('never more requests in flight than configured; halved after a 429, then recovering', async () => {
    const workspace = await documents(30)
    const { client } = await start({
      latencyMs: 15,
      retryAfterSeconds: 0,
      inject: ({ seq }) => (seq === 6 ? 'rate-limit' : undefined),
    })
    const { indexing, starts } = watched(client)
    const result = await sendPlan(planFor(workspace.files, 'upload', 1), indexing, TARGET, options())
    expect(result.items.every((item) => item.outcome === 'uploaded')).toBe(true)
    expect(Math.max(...starts.map((s) => s.inFlight))).toBe(3)
    // Without halving, the slot the 429 gave back would start a request beside the 3 still in flight;
    // with the limit at 2 (+1 per success since), the next start waits until one more has finished.
    const firstAfter = starts.find((s) => s.afterRateLimit)
    expect(firstAfter!.inFlight).toBeLessThanOrEqual(2)
    // … and the limit grew back: later requests again run 4 at a time.
    expect(starts.filter((s) => s.afterRateLimit).some((s) => s.inFlight === 3)).toBe(true)
  })
})

describe('service down', () => {
  test('every request answered 500: every document fails with the error, attempts used up', async () => {
    const workspace = await documents(6)
    const { emulator, client } = await start({ faultRate: 1, faultKinds: ['server-error'] })
    const result = await sendPlan(planFor(workspace.files, 'upload', 2), client, TARGET, {
      ...options({ concurrency: 2 }),
      retry: { ...FAST_RETRY, attempts: 3 },
    })
    expect(result.items.every((item) => item.outcome === 'failed' && /HTTP 500/.test(item.error ?? ''))).toBe(
      true,
    )
    expect(result.items.map((item) => item.attempts)).toEqual([3, 3, 3, 3, 3, 3])
    expect(result.items.map((item) => item.retries)).toEqual([2, 2, 2, 2, 2, 2])
    expect(result.requests).toBe(9)
    expect(stored(emulator)).toEqual([])
  })

  test('the deadline ends the retries of a request before its attempts do', async () => {
    const workspace = await documents(1)
    const { client } = await start({ faultRate: 1, faultKinds: ['server-error'] })
    const result = await sendPlan(planFor(workspace.files, 'upload'), client, TARGET, {
      ...options(),
      retry: { ...FAST_RETRY, attempts: 1000, baseDelayMs: 20, maxDelayMs: 20, deadlineMs: 200 },
    })
    expect(result.items[0].outcome).toBe('failed')
    expect(result.items[0].attempts).toBeLessThan(1000)
  })

  test('a closed port: every document fails with the connection error', async () => {
    const workspace = await documents(5)
    const port = await freePort()
    const client = new ServiceClient({ baseUrl: `http://127.0.0.1:${port}`, privateKey: PRIVATE_KEY })
    cleanup.push(() => client.close())
    const result = await sendPlan(planFor(workspace.files, 'auto', 2), client, TARGET, {
      ...options(),
      // No answer at all is bounded by the deadline, not by the attempts.
      retry: { ...FAST_RETRY, attempts: 3, deadlineMs: 300 },
    })
    expect(result.items).toHaveLength(5)
    for (const item of result.items) {
      expect(item.outcome).toBe('failed')
      expect(item.error).toMatch(/ECONNREFUSED/)
    }
  })

  test('the breaker: once every attempt failed for the retry deadline nothing new starts; the unsent fail named', async () => {
    const workspace = await documents(40)
    // Each answer takes 40 ms, so at most ~11 requests fit in the 300 ms however fast the machine is
    // (without it, a quiet machine sent over half the documents once between 1–4 ms retry backoffs).
    const { emulator, client } = await start({ faultRate: 1, faultKinds: ['server-error'], latencyMs: 40 })
    const result = await sendPlan(planFor(workspace.files, 'upload', 1), client, TARGET, {
      ...options({ concurrency: 4 }),
      retry: { ...FAST_RETRY, attempts: 1000, deadlineMs: 300 },
    })
    expect(result.items.every((item) => item.outcome === 'failed')).toBe(true)
    expect(result.requests).toBe(emulator.requests().length)
    // While the service looks down it is probed one request at a time: most documents never went out.
    const unsent = result.items.filter((item) => item.attempts === 0)
    expect(unsent.length).toBeGreaterThan(20)
    for (const item of unsent) expect(item.error).toMatch(/every attempt failed for 300 ms.*HTTP 500/)
    // One cause for all of them, so a report can group them.
    expect(new Set(unsent.map((item) => item.error)).size).toBe(1)
  })
})

describe('a file that changes between attempts', () => {
  test('is sent again whole with its new content', async () => {
    const workspace = await documents(3)
    const target = workspace.files[1]
    const changed = '# Rewritten\n\nThe content is now different and longer than before.\n'
    const { emulator, client } = await start({
      inject: ({ seq }) => {
        if (seq !== 1) return undefined
        // The first attempt fails; meanwhile the file is rewritten (size and mtime change).
        writeFileSync(target.path, changed)
        return 'server-error'
      },
    })
    const result = await sendPlan(planFor(workspace.files, 'upload'), client, TARGET, options())
    expect(result.items.map((item) => item.outcome)).toEqual(['uploaded', 'uploaded', 'uploaded'])
    expect(result.items[1]).toMatchObject({ attempts: 2, retries: 1, size: Buffer.byteLength(changed) })
    const document = stored(emulator).find((d) => d.name === target.name)
    expect(document?.sha256).toBe(sha256(changed))
    expect(document?.size).toBe(Buffer.byteLength(changed))
  })

  test('changed after planning, before the first attempt: re-read and sent whole', async () => {
    const workspace = await documents(2)
    const changed = 'short'
    await writeFile(workspace.files[0].path, changed)
    const { emulator, client } = await start()
    const result = await sendPlan(planFor(workspace.files, 'upload'), client, TARGET, options())
    // The first try stopped at opening the files, before any request: it is no attempt, and no request.
    expect(result.items.map((item) => [item.outcome, item.attempts, item.retries ?? 0])).toEqual([
      ['uploaded', 1, 0],
      ['uploaded', 1, 0],
    ])
    expect(result.requests).toBe(1)
    expect(emulator.requests()).toHaveLength(1)
    expect(stored(emulator)[0].sha256).toBe(sha256(changed))
  })

  test('with retries 1, a file changed after planning does not fail its batch: the batch is sent as it is now', async () => {
    const workspace = await documents(3)
    await writeFile(workspace.files[1].path, '# rewritten, and longer than it was\n'.repeat(4))
    const { emulator, client } = await start()
    const result = await sendPlan(planFor(workspace.files, 'upload'), client, TARGET, {
      ...options(),
      retry: { ...FAST_RETRY, attempts: 1 },
    })
    expect(result.items.map((item) => item.outcome)).toEqual(['uploaded', 'uploaded', 'uploaded'])
    expect(emulator.requests()).toHaveLength(1)
  })

  test('a file that changes at every try fails alone; the rest of its batch lands', async () => {
    const workspace = await documents(3)
    const restless = workspace.files[1]
    const { emulator, client } = await start()
    // Grows just before each time its batch is opened: the open always finds another size.
    const growing: IndexingClient = {
      uploadUrls: (...args) => client.uploadUrls(...args),
      updateUrls: (...args) => client.updateUrls(...args),
      uploadDocuments: (...args) => client.uploadDocuments(...args),
      updateDocuments: (...args) => client.updateDocuments(...args),
      openDocuments: (refs) => {
        if (refs.some((ref) => ref.path === restless.path)) writeFileSync(restless.path, 'x', { flag: 'a' })
        return client.openDocuments(refs)
      },
    }
    const result = await sendPlan(planFor(workspace.files, 'upload'), growing, TARGET, {
      ...options(),
      retry: { ...FAST_RETRY, attempts: 3 },
    })
    expect(result.items.map((item) => item.outcome)).toEqual(['uploaded', 'failed', 'uploaded'])
    expect(result.items[1].error).toMatch(/FILE_CHANGED/)
    expect(stored(emulator).map((d) => d.name)).toEqual(['doc-000.md', 'doc-002.md'])
    // No request carried the restless file; none is counted for it.
    expect(result.requests).toBe(emulator.requests().length)
    expect(result.items[1].attempts).toBe(0)
    // Each of the others went out once, alone: no request of theirs failed, so none was a retry.
    expect(result.items.map((item) => item.retries ?? 0)).toEqual([0, 0, 0])
  })

  test('a file that grew past max-file-size since it was selected fails alone, unsent', async () => {
    const workspace = await documents(3)
    await writeFile(workspace.files[2].path, 'x'.repeat(4096))
    const { emulator, client } = await start()
    const result = await sendPlan(planFor(workspace.files, 'upload'), client, TARGET, {
      ...options(),
      maxFileSize: 1024,
    })
    expect(result.items.map((item) => item.outcome)).toEqual(['uploaded', 'uploaded', 'failed'])
    expect(result.items[2].error).toMatch(
      /doc-002\.md grew to 4\.0 KiB since it was selected, over max-file-size 1\.0 KiB/,
    )
    expect(stored(emulator).map((d) => d.name)).toEqual(['doc-000.md', 'doc-001.md'])
  })

  test('deleted before a resend: it fails alone, the others land', async () => {
    const workspace = await documents(3)
    await rm(workspace.files[2].path)
    const { emulator, client } = await start()
    const result = await sendPlan(planFor(workspace.files, 'upload'), client, TARGET, options())
    expect(result.items.map((item) => item.outcome)).toEqual(['uploaded', 'uploaded', 'failed'])
    expect(result.items[2].error).toMatch(/doc-002\.md can no longer be read \(ENOENT\)/)
    expect(stored(emulator).map((d) => d.name)).toEqual(['doc-000.md', 'doc-001.md'])
  })
})

describe('cancellation', () => {
  test('mid-run: no new requests; unsent reported failed as cancelled; the result is returned', async () => {
    const workspace = await documents(10)
    const controller = new AbortController()
    const { emulator, client } = await start({
      inject: ({ seq }) => {
        if (seq === 3) controller.abort()
        return undefined
      },
    })
    const result = await sendPlan(planFor(workspace.files, 'upload', 1), client, TARGET, {
      ...options({ concurrency: 1 }),
      signal: controller.signal,
    })
    expect(result.cancelled).toBe(true)
    expect(emulator.requests()).toHaveLength(3)
    expect(result.requests).toBe(3)
    expect(result.items.slice(0, 3).every((item) => item.outcome === 'uploaded')).toBe(true)
    for (const item of result.items.slice(3)) {
      expect(item).toMatchObject({ outcome: 'failed', attempts: 0, error: 'cancelled before it was sent' })
    }
  })

  test('a request still in flight after the grace period is aborted and reported', async () => {
    const workspace = await documents(2)
    const controller = new AbortController()
    // A service that takes the request whole and never answers (an emulator would still be writing its
    // store while the test cleans it up): the cancellation comes with the request.
    const service = await startRecordingServer(() => controller.abort())
    cleanup.push(() => service.close())
    const client = new ServiceClient({ baseUrl: service.url, privateKey: PRIVATE_KEY, connections: 4 })
    cleanup.push(() => client.close())
    const result = await sendPlan(planFor(workspace.files, 'upload'), client, TARGET, {
      ...options(),
      signal: controller.signal,
      graceMs: 50,
    })
    expect(result.cancelled).toBe(true)
    for (const item of result.items) {
      expect(item.outcome).toBe('failed')
      expect(item.error).toMatch(/^cancelled while the request was in flight: /)
    }
  })

  test('a second signal cuts off the requests in flight at once, whatever is left of the grace', async () => {
    const workspace = await documents(2)
    const controller = new AbortController()
    const cutOff = new AbortController()
    // A service that takes the request whole and never answers: only a cut-off ends it before the grace.
    const service = await startRecordingServer(() => {
      controller.abort(new RunCancelled('SIGINT'))
      cutOff.abort(new RunCancelled('SIGTERM'))
    })
    cleanup.push(() => service.close())
    const client = new ServiceClient({ baseUrl: service.url, privateKey: PRIVATE_KEY, connections: 4 })
    cleanup.push(() => client.close())
    const result = await sendPlan(planFor(workspace.files, 'upload'), client, TARGET, {
      ...options(),
      signal: controller.signal,
      cutOff: cutOff.signal,
      graceMs: 600_000,
    })
    expect(service.requests).toHaveLength(1)
    expect(result.cancelled).toBe(true)
    for (const item of result.items) {
      expect(item.outcome).toBe('failed')
      expect(item.error).toMatch(/^cancelled while the request was in flight \(cut off by SIGTERM\): /)
    }
  })

  test('already cancelled: nothing is sent', async () => {
    const workspace = await documents(2)
    const { emulator, client } = await start()
    const result = await sendPlan(planFor(workspace.files, 'upload'), client, TARGET, {
      ...options(),
      signal: AbortSignal.abort(),
    })
    expect(emulator.requests()).toEqual([])
    expect(result).toMatchObject({ requests: 0, cancelled: true })
    expect(result.items.every((item) => item.error === 'cancelled before it was sent')).toBe(true)
  })
})

describe('progress', () => {
  test('is reported after every request and ends with every batch done and every byte counted', async () => {
    const workspace = await documents(7)
    const { client } = await start()
    const seen: { done: number; total: number; bytes: number }[] = []
    const result = await sendPlan(planFor(workspace.files, 'upload', 2), client, TARGET, {
      ...options(),
      onProgress: (progress) => seen.push(progress),
    })
    expect(seen.length).toBeGreaterThanOrEqual(result.requests)
    const bytes = workspace.files.reduce((sum, file) => sum + file.size, 0)
    expect(seen.at(-1)).toEqual({ done: 4, total: 4, bytes })
  })
})
