// What a failure is about decides what happens (issue 10, indexing side): a refused key stops at once,
// an outage shorter than the deadline costs time and not documents, a refused batch is split, and no
// wait runs past the deadline. Real local servers script the failures per request.
import { afterEach, describe, expect, test } from '@jest/globals'
import { writeFile } from 'node:fs/promises'
import { freePort } from '../helpers/ports.js'
import { join } from 'node:path'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import type { SelectedFile } from '../../src/model.js'
import { sendPlan, type SendOptions } from '../../src/send/send-plan.js'
import { ServiceClient } from '../../src/service/client.js'
import { systemClock, type Clock } from '../../src/service/retry.js'
import { startRecordingServer, type Responder } from '../helpers/recording-server.js'
import {
  FAST_RETRY,
  makeDocuments,
  planFor,
  PRIVATE_KEY,
  PUBLIC_KEY,
  selected,
  TARGET,
  type Workspace,
} from './fixture.js'
import { quietLog, recordingLog } from '../helpers/log.js'

const cleanup: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

async function documents(count: number): Promise<Workspace> {
  const workspace = await makeDocuments(count)
  cleanup.push(() => workspace.remove())
  return workspace
}

function clientFor(url: string, privateKey = PRIVATE_KEY): ServiceClient {
  const client = new ServiceClient({ baseUrl: url, privateKey, connections: 4 })
  cleanup.push(() => client.close())
  return client
}

function options(overrides: Partial<SendOptions> = {}): SendOptions {
  return { concurrency: 4, retry: FAST_RETRY, log: quietLog(), ...overrides }
}

async function server(respond: Responder) {
  const started = await startRecordingServer(respond)
  cleanup.push(() => started.close())
  return started
}

function answer(status: number, body: unknown, headers: Record<string, string> = {}): Responder {
  return (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers })
    response.end(JSON.stringify(body))
  }
}

/** 10,000 documents by name (one small file on disk behind all of them). */
async function tenThousandDocuments(): Promise<SelectedFile[]> {
  const workspace = await documents(1)
  const path = join(workspace.dir, 'shared.md')
  await writeFile(path, '# shared\n')
  const file = await selected('shared.md', path)
  return Array.from({ length: 10_000 }, (_, i) => ({
    ...file,
    name: `docs/n${String(i).padStart(5, '0')}.md`,
  }))
}

describe('a refused key (401, 403)', () => {
  test.each([401, 403])(
    '%i on a 10,000-file plan: at most `concurrency` requests, every item failed with one cause naming private-key',
    async (status) => {
      const files = await tenThousandDocuments()
      const service = await server((request, response) =>
        setTimeout(
          () => answer(status, { detail: 'Invalid API key' })(request, response, response.socket!),
          30,
        ),
      )
      const { log, lines } = recordingLog()
      const result = await sendPlan(planFor(files, 'upload', 10), clientFor(service.url), TARGET, {
        ...options({ log }),
        retry: { ...FAST_RETRY, attempts: 10 },
      })
      expect(service.requests.length).toBeLessThanOrEqual(4)
      expect(result.requests).toBe(service.requests.length)
      expect(result.items).toHaveLength(10_000)
      expect(result.items.every((item) => item.outcome === 'failed')).toBe(true)
      const causes = new Set(result.items.map((item) => item.error))
      expect(causes.size).toBe(1)
      const [cause] = causes
      expect(cause).toMatch(new RegExp(`refused the key in the input "private-key" \\(HTTP ${status}\\)`))
      expect(cause).toMatch(/Indexing needs the organization's private key/)
      // No batch was split into single documents.
      expect(lines.some((line) => /alone/.test(line.message))).toBe(false)
    },
  )

  test('the emulator refusing the public key used for indexing: nothing split, one cause', async () => {
    const workspace = await documents(30)
    const emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY })
    cleanup.push(() => emulator.close())
    const result = await sendPlan(
      planFor(workspace.files, 'auto', 3),
      clientFor(emulator.url, PUBLIC_KEY),
      TARGET,
      options({ concurrency: 2 }),
    )
    expect(emulator.requests().length).toBeLessThanOrEqual(2)
    expect(new Set(result.items.map((item) => item.error)).size).toBe(1)
    expect(result.items[0].error).toMatch(/"private-key" \(HTTP 40[13]\)/)
    expect(result.items[0].error).not.toContain(PUBLIC_KEY)
  })
})

describe('no knowledge base where the ids point (404 to a document upload)', () => {
  test('on a 10,000-file plan: at most `concurrency` requests, every item failed with one cause naming the ids', async () => {
    const files = await tenThousandDocuments()
    const service = await server((request, response) =>
      setTimeout(() => answer(404, { detail: 'Not Found' })(request, response, response.socket!), 30),
    )
    const { log, lines } = recordingLog()
    const result = await sendPlan(
      planFor(files, 'upload', 10),
      clientFor(service.url),
      TARGET,
      options({ log }),
    )
    expect(service.requests.length).toBeLessThanOrEqual(4)
    expect(result.items).toHaveLength(10_000)
    expect(result.items.every((item) => item.outcome === 'failed')).toBe(true)
    const causes = new Set(result.items.map((item) => item.error))
    expect(causes.size).toBe(1)
    const [cause] = causes
    expect(cause).toContain(`no knowledge base at /indexing/v0/documents/${TARGET.flowId}/${TARGET.orgId}/`)
    expect(cause).toContain('"flow-id", "org-id" and "node-id"')
    expect(lines.some((line) => /alone/.test(line.message))).toBe(false)
  })

  test('mode auto, an emulator that knows other nodes only: after the first POST answered 404, nothing more', async () => {
    const workspace = await documents(30)
    const emulator = await startEmulator({
      privateKey: PRIVATE_KEY,
      publicKey: PUBLIC_KEY,
      flows: [{ ...TARGET, nodeId: 'knowledgebase-2' }],
    })
    cleanup.push(() => emulator.close())
    const { log, lines } = recordingLog()
    const result = await sendPlan(
      planFor(workspace.files, 'auto', 3),
      clientFor(emulator.url),
      TARGET,
      options({ concurrency: 2, log }),
    )
    // 10 batches: a PATCH answered 404 is no refusal (the documents may just not be there yet), so
    // batches go on trying PATCH until the first POST is answered 404; then nothing more is sent, and no
    // batch is split into single documents (which would be 30 more requests).
    const requests = emulator.requests()
    expect(requests.length).toBeLessThanOrEqual(10 + 2)
    const firstPost = requests.findIndex((entry) => entry.method === 'POST')
    expect(requests[firstPost].status).toBe(404)
    expect(requests.length - firstPost).toBeLessThanOrEqual(2)
    expect(lines.some((line) => /alone/.test(line.message))).toBe(false)
    expect(result.items.every((item) => item.outcome === 'failed')).toBe(true)
    expect(new Set(result.items.map((item) => item.error)).size).toBe(1)
    expect(result.items[0].error).toMatch(/no knowledge base at .*knowledgebase-1 \(HTTP 404 to an upload\)/)
  })

  test('a 404 to an update (mode update) is about the documents, not the ids: each batch searched in parts', async () => {
    const workspace = await documents(6)
    const emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY })
    cleanup.push(() => emulator.close())
    const result = await sendPlan(
      planFor(workspace.files, 'update', 3),
      clientFor(emulator.url),
      TARGET,
      options({ concurrency: 2 }),
    )
    // Each batch of 3, all missing: [abc] 404, probe [a] 404, rest [bc] 404, probe [b] 404, rest [c] 404.
    expect(emulator.requests()).toHaveLength(10)
    expect(result.items.every((item) => item.outcome === 'failed')).toBe(true)
    expect(result.items[0].error).toMatch(/HTTP 404/)
    expect(result.items[0].error).not.toMatch(/no knowledge base/)
  })
})

describe('a service that is briefly unreachable', () => {
  test('starting to listen only after refused attempts beyond `attempts`: nothing is lost, each document stored once', async () => {
    const workspace = await documents(20)
    const port = await freePort()
    let emulator: Promise<Emulator> | undefined
    // The service comes up once a request's fourth attempt was refused (`attempts: 3` would have ended it,
    // were refusals counted); not after a wall-clock time.
    const { log } = recordingLog((line) => {
      if (!emulator && /attempt 4 failed \(.*ECONNREFUSED/.test(line.message))
        emulator = startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY, port })
    })
    cleanup.push(async () => (await emulator)?.close())
    const result = await sendPlan(
      planFor(workspace.files, 'upload', 2),
      clientFor(`http://127.0.0.1:${port}`),
      TARGET,
      {
        ...options({ log }),
        // Few attempts on purpose: refused connections are bounded by the deadline, not by the count. The
        // local port stands in for a service elsewhere (a refusal on this machine is otherwise final).
        retry: {
          ...FAST_RETRY,
          attempts: 3,
          baseDelayMs: 50,
          maxDelayMs: 400,
          deadlineMs: 60_000,
          retryLocalRefusal: true,
        },
      },
    )
    expect(result.items.filter((item) => item.outcome === 'failed')).toEqual([])
    expect(emulator).toBeDefined()
    const stored = (await emulator!).documents(TARGET.flowId, TARGET.orgId, TARGET.nodeId)
    expect(stored.map((d) => d.name)).toEqual(workspace.files.map((f) => f.name))
    expect(stored.every((d) => d.created === 1 && d.updated === 0)).toBe(true)
  }, 30_000)

  test.each([502, 503, 504])(
    'answering %i for a while (shorter than the deadline): nothing is lost, though far more answers than `retries`',
    async (status) => {
      const workspace = await documents(6)
      // Unavailable for the first 12 answers: more than the 3 batches' 2 attempts each.
      let answered = 0
      const service = await server((request, response, socket) =>
        ++answered <= 12
          ? answer(status, { detail: 'unavailable' })(request, response, socket)
          : answer(200, { uploaded: [] })(request, response, socket),
      )
      const result = await sendPlan(planFor(workspace.files, 'upload', 2), clientFor(service.url), TARGET, {
        ...options(),
        retry: { ...FAST_RETRY, attempts: 2, baseDelayMs: 20, maxDelayMs: 50, deadlineMs: 20_000 },
      })
      expect(result.items.map((item) => item.outcome)).toEqual(Array(6).fill('uploaded'))
      expect(service.requests.length).toBeGreaterThan(3 * 2)
    },
  )

  test('unreachable for longer than the deadline: every item fails, the unsent named with the cause', async () => {
    const workspace = await documents(30)
    const port = await freePort()
    const result = await sendPlan(
      planFor(workspace.files, 'upload', 1),
      clientFor(`http://127.0.0.1:${port}`),
      TARGET,
      // Attempts without a count that ends them first: the first `concurrency` items retry until the
      // deadline stops the send, so the others are never sent however fast the machine is.
      { ...options(), retry: { ...FAST_RETRY, attempts: 100_000, deadlineMs: 400, retryLocalRefusal: true } },
    )
    expect(result.items.every((item) => item.outcome === 'failed')).toBe(true)
    const unsent = result.items.filter((item) => item.attempts === 0)
    expect(unsent.length).toBeGreaterThan(0)
    for (const item of unsent)
      expect(item.error).toMatch(/not sent \(stopped: every attempt failed for 400 ms\).*ECONNREFUSED/)
  })
})

describe('a batch refused for its content', () => {
  test.each([400, 413, 415, 422])(
    '%i: the batch is searched in parts and only the bad document fails',
    async (status) => {
      const workspace = await documents(10)
      const service = await server((request, response, socket) => {
        const bad = request.parts?.some((part) => part.filename === 'doc-004.md')
        ;(bad ? answer(status, { detail: 'not this one' }) : answer(200, { ok: true }))(
          request,
          response,
          socket,
        )
      })
      const result = await sendPlan(
        planFor(workspace.files, 'upload', 10),
        clientFor(service.url),
        TARGET,
        options(),
      )
      const failed = result.items.filter((item) => item.outcome === 'failed')
      expect(failed.map((item) => item.name)).toEqual(['doc-004.md'])
      expect(failed[0].error).toMatch(new RegExp(`HTTP ${status}`))
      expect(result.items.filter((item) => item.outcome === 'uploaded')).toHaveLength(9)
      // [0-9] refused; probe [0,1] lands; probe [2,3,4] refused, so the rest [5-9] is sent whole and
      // lands; probe [2] lands, probe [3] lands, and [4] is the one left: 7 requests (one per document: 11).
      const sent = service.requests.map((request) =>
        (request.parts ?? []).map((part) => part.filename.slice(4, 7)).join(' '),
      )
      expect(sent.sort()).toEqual(
        [
          '000 001 002 003 004 005 006 007 008 009',
          '000 001',
          '002 003 004',
          '005 006 007 008 009',
          '002',
          '003',
          '004',
        ].sort(),
      )
    },
  )
})

describe('waits longer than what is left of the deadline', () => {
  function recordingClock(): Clock & { sleeps: number[] } {
    const sleeps: number[] = []
    return {
      now: systemClock.now,
      sleep: (ms, signal) => (sleeps.push(ms), systemClock.sleep(ms, signal)),
      sleeps,
    }
  }

  test('Retry-After past the deadline: no wait, the request fails with the service reason', async () => {
    const workspace = await documents(1)
    const service = await server(answer(503, { detail: 'maintenance window' }, { 'retry-after': '30' }))
    const clock = recordingClock()
    const result = await sendPlan(planFor(workspace.files, 'upload'), clientFor(service.url), TARGET, {
      ...options({ clock }),
      retry: { ...FAST_RETRY, deadlineMs: 5000, maxRetryAfterMs: 60_000 },
    })
    expect(service.requests).toHaveLength(1)
    expect(result.items[0].outcome).toBe('failed')
    expect(result.items[0].error).toMatch(/HTTP 503: .*maintenance window/)
    expect(result.items[0].error).toMatch(/asked to wait 30\.0 s, past what is left of retry-deadline/)
    // The request never slept toward the hinted time (the shared pause ends with the run).
    expect(result.items[0].attempts).toBe(1)
  })

  test('backoff past the deadline: the request stops retrying and fails with the service reason', async () => {
    const workspace = await documents(1)
    const service = await server(answer(500, { detail: 'database on fire' }))
    const clock = recordingClock()
    const deadlineMs = 300
    const result = await sendPlan(planFor(workspace.files, 'upload'), clientFor(service.url), TARGET, {
      ...options({ clock }),
      retry: { ...FAST_RETRY, attempts: 1000, baseDelayMs: 100, maxDelayMs: 100, deadlineMs },
    })
    expect(result.items[0].outcome).toBe('failed')
    expect(result.items[0].error).toMatch(
      // Which of the two depends on timer slack: the next wait would pass the deadline, or it just did.
      /HTTP 500: .*database on fire.*\(gave up: (the next attempt would start past|retry-deadline passed while waiting)/,
    )
    expect(clock.sleeps.reduce((sum, ms) => sum + ms, 0)).toBeLessThan(deadlineMs)
  })
})

describe('the deadline bounds retries only', () => {
  test('an update answered 404 after the deadline still switches to upload (a switch is no retry)', async () => {
    const workspace = await documents(2)
    const service = await server((request, response, socket) => {
      if (request.method === 'PATCH')
        setTimeout(() => answer(404, { detail: 'no such document' })(request, response, socket), 300)
      else answer(200, { ok: true })(request, response, socket)
    })
    const result = await sendPlan(planFor(workspace.files, 'auto'), clientFor(service.url), TARGET, {
      ...options(),
      retry: { ...FAST_RETRY, deadlineMs: 100 },
    })
    expect(result.items.map((item) => item.outcome)).toEqual(['uploaded', 'uploaded'])
    expect(service.requests.map((request) => request.method)).toEqual(['PATCH', 'POST'])
  })
})
