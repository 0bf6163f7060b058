// Fault injection: each kind's effect on the wire and on the store, inject() per request, and the
// seeded PRNG giving the same fault sequence for the same seed.
import { afterEach, describe, expect, it } from '@jest/globals'
import http from 'node:http'
import { seededRandom, type FaultRequest } from '../../src/emulator/faults.js'
import {
  startEmulator,
  type Emulator,
  type EmulatorOptions,
  type FaultKind,
} from '../../src/emulator/server.js'
import { PRIVATE_KEY, PUBLIC_KEY } from '../helpers/keys.js'

const URLS_PATH = '/indexing/v0/urls/f/o/n'
const DOCS_PATH = '/indexing/v0/documents/f/o/n'

const running: Emulator[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((emulator) => emulator.close()))
})

async function start(options: Partial<EmulatorOptions>): Promise<Emulator> {
  const emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY, ...options })
  running.push(emulator)
  return emulator
}

interface Outcome {
  status: number | 'reset'
  headers: http.IncomingHttpHeaders
  body: string
}

/** One request on its own connection (no keep-alive, no client retry), so a reset shows as a reset. */
function send(emulator: Emulator, method: string, path: string, body?: string, type = 'application/json') {
  return new Promise<Outcome>((resolve) => {
    const request = http.request(`${emulator.url}${path}`, {
      method,
      agent: false,
      headers: { authorization: `Bearer ${PRIVATE_KEY}`, 'content-type': type },
    })
    request.on('response', (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () =>
        resolve({
          status: response.statusCode!,
          headers: response.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      )
      response.on('error', () => resolve({ status: 'reset', headers: {}, body: '' }))
    })
    request.on('error', () => resolve({ status: 'reset', headers: {}, body: '' }))
    request.end(body)
  })
}

const postUrl = (emulator: Emulator, url = 'https://a.example') =>
  send(emulator, 'POST', URLS_PATH, JSON.stringify([url]))

describe('injected faults', () => {
  it.each([
    ['rate-limit', 429, '1'],
    ['unavailable', 503, '1'],
    ['server-error', 500, undefined],
  ] as const)('%s answers %d (Retry-After %s) and applies nothing', async (kind, status, retryAfter) => {
    const emulator = await start({ inject: () => kind })
    const outcome = await postUrl(emulator)
    expect(outcome.status).toBe(status)
    expect(outcome.headers['retry-after']).toBe(retryAfter)
    expect(JSON.parse(outcome.body)).toEqual({ detail: expect.stringContaining('injected fault') })
    expect(emulator.urls('f', 'o', 'n')).toEqual([])
    expect(emulator.requests()).toEqual([expect.objectContaining({ status, fault: kind, applied: false })])
  })

  it('Retry-After carries retryAfterSeconds', async () => {
    const emulator = await start({
      inject: ({ seq }) => (seq === 1 ? 'rate-limit' : 'unavailable'),
      retryAfterSeconds: 7,
    })
    expect((await postUrl(emulator)).headers['retry-after']).toBe('7')
    expect((await postUrl(emulator)).headers['retry-after']).toBe('7')
  })

  it('reset-before drops the connection and never applies the request', async () => {
    const emulator = await start({ inject: ({ seq }) => (seq === 1 ? 'reset-before' : undefined) })
    expect((await postUrl(emulator)).status).toBe('reset')
    expect(emulator.urls('f', 'o', 'n')).toEqual([])
    expect((await postUrl(emulator)).status).toBe(200)
    expect(emulator.requests().map(({ status, fault, applied }) => ({ status, fault, applied }))).toEqual([
      { status: null, fault: 'reset-before', applied: false },
      { status: 200, fault: undefined, applied: true },
    ])
  })

  it('reset-after applies the request fully, then drops the connection without an answer', async () => {
    const emulator = await start({ inject: ({ seq }) => (seq === 1 ? 'reset-after' : undefined) })
    const boundary = 'b0undary'
    const body =
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="a.md"\r\n\r\nhello\r\n` +
      `--${boundary}--\r\n`
    const first = await send(emulator, 'POST', DOCS_PATH, body, `multipart/form-data; boundary=${boundary}`)
    expect(first.status).toBe('reset')
    expect(emulator.documents('f', 'o', 'n')).toEqual([expect.objectContaining({ name: 'a.md', created: 1 })])
    expect(emulator.requests()[0]).toMatchObject({ status: null, fault: 'reset-after', applied: true })
    // The retry a careful client makes: the document is there already.
    const again = await send(emulator, 'POST', DOCS_PATH, body, `multipart/form-data; boundary=${boundary}`)
    expect(again.status).toBe(409)
    expect(emulator.documents('f', 'o', 'n')[0].created).toBe(1)
  })

  it('inject sees method, raw path and a sequence number starting at 1, and wins over faultRate', async () => {
    const seen: FaultRequest[] = []
    const emulator = await start({
      faultRate: 1,
      inject: (request) => {
        seen.push(request)
        return undefined
      },
    })
    await postUrl(emulator, 'https://one.example')
    await send(emulator, 'GET', '/somewhere%20else?q=1')
    expect(seen).toEqual([
      { method: 'POST', path: URLS_PATH, seq: 1 },
      { method: 'GET', path: '/somewhere%20else', seq: 2 },
    ])
    expect(emulator.requests().map((entry) => entry.status)).toEqual([200, 404])
  })
})

describe('seeded fault rate', () => {
  async function faultSequence(
    options: Partial<EmulatorOptions>,
    count: number,
  ): Promise<(FaultKind | null)[]> {
    const emulator = await start(options)
    for (let i = 0; i < count; i++) await send(emulator, 'GET', `/probe/${i}`)
    const log = emulator.requests()
    // Unfaulted probes are 404s; faulted ones carry their kind.
    for (const entry of log) if (!entry.fault) expect(entry.status).toBe(404)
    return log.sort((a, b) => a.seq - b.seq).map((entry) => entry.fault ?? null)
  }

  it('gives the same faults for the same seed, different ones for another seed', async () => {
    const first = await faultSequence({ faultRate: 0.5, seed: 42 }, 40)
    const second = await faultSequence({ faultRate: 0.5, seed: 42 }, 40)
    const other = await faultSequence({ faultRate: 0.5, seed: 43 }, 40)
    expect(second).toEqual(first)
    expect(other).not.toEqual(first)
    expect(new Set(first.filter(Boolean)).size).toBeGreaterThanOrEqual(3)
  })

  it('faults about the share asked for, only of the kinds asked for', async () => {
    const faults = await faultSequence(
      { faultRate: 0.3, seed: 7, faultKinds: ['server-error', 'reset-before'] },
      200,
    )
    const hits = faults.filter(Boolean)
    expect(hits.length).toBeGreaterThan(40)
    expect(hits.length).toBeLessThan(80)
    expect(new Set(hits)).toEqual(new Set(['server-error', 'reset-before']))
  })

  it('rate 0 never faults; rate 1 always does', async () => {
    expect((await faultSequence({ faultRate: 0 }, 20)).every((fault) => fault === null)).toBe(true)
    expect(
      (await faultSequence({ faultRate: 1, faultKinds: ['rate-limit'] }, 20)).every(
        (f) => f === 'rate-limit',
      ),
    ).toBe(true)
  })

  it('the PRNG is deterministic and spread over [0, 1)', () => {
    const a = seededRandom(1)
    const b = seededRandom(1)
    const values = Array.from({ length: 1000 }, () => a())
    expect(Array.from({ length: 1000 }, () => b())).toEqual(values)
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0)
    expect(Math.max(...values)).toBeLessThan(1)
    expect(values.filter((value) => value < 0.5).length).toBeGreaterThan(400)
  })
})

describe('latency', () => {
  it('still answers correctly when every answer is delayed', async () => {
    const emulator = await start({ latencyMs: 20 })
    expect((await postUrl(emulator)).status).toBe(200)
    expect(emulator.urls('f', 'o', 'n')).toEqual(['https://a.example'])
  })
})

/** Sends the start of a multipart upload that announces 10 MB, then drops the connection. */
function abandonUpload(emulator: Emulator, body: string): Promise<void> {
  return new Promise<void>((resolve) => {
    const request = http.request(`${emulator.url}${DOCS_PATH}`, {
      method: 'POST',
      agent: false,
      headers: {
        authorization: `Bearer ${PRIVATE_KEY}`,
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        'content-length': 10_000_000,
      },
    })
    request.on('error', () => resolve())
    request.write(body, () => setImmediate(() => request.destroy()))
    request.on('close', () => resolve())
  })
}

const BOUNDARY = 'abort-boundary'
const filePart = (name: string, content: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\n\r\n${content}`

/** Until the emulator has logged `count` requests (if it never does, jest's timeout ends the test). */
async function untilLogged(emulator: Emulator, count: number): Promise<void> {
  while (emulator.requests().length < count) await new Promise((resolve) => setTimeout(resolve, 10))
}

describe('a client that gives up mid-upload', () => {
  it('leaves nothing stored and no temp file, and is logged without a status', async () => {
    const emulator = await start({})
    await abandonUpload(emulator, filePart('half.md', 'x'.repeat(100_000)))
    await untilLogged(emulator, 1)
    expect(emulator.requests()).toEqual([expect.objectContaining({ status: null, applied: false })])
    expect(emulator.documents('f', 'o', 'n')).toEqual([])
    const { readdir } = await import('node:fs/promises')
    expect(await readdir(`${emulator.dataDir}/tmp`)).toEqual([])
  })
  it('is noticed even when the connection drops before the body is read, so nothing hangs or is left', async () => {
    // Many at once: the connections drop while the emulator is still preparing to read them.
    const emulator = await start({})
    const parts = Array.from({ length: 20 }, (_, i) => `${filePart(`f${i}.md`, 'xx')}\r\n`).join('')
    await Promise.all(
      Array.from({ length: 40 }, () => abandonUpload(emulator, parts + filePart('half.md', 'x'))),
    )
    await untilLogged(emulator, 40)
    expect(emulator.requests()).toHaveLength(40)
    expect(emulator.requests().every((entry) => entry.status === null && !entry.applied)).toBe(true)
    expect(emulator.documents('f', 'o', 'n')).toEqual([])
    const { readdir } = await import('node:fs/promises')
    expect(await readdir(`${emulator.dataDir}/tmp`)).toEqual([])
  })
})
