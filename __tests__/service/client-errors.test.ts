// How every kind of failure becomes one ServiceError: status, scrubbed excerpt, retryable, Retry-After,
// network errors, redirects (never followed), aborts and files that changed.
import { getEventListeners } from 'node:events'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { createServer as createNetServer, type AddressInfo, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals'
import { ServiceClient, ServiceError } from '../../src/service/client.js'
import { startRecordingServer, type RecordingServer, type Responder } from '../helpers/recording-server.js'

// Characters that URL-encoding and base64 both change, so each form is a different string.
const PRIVATE_KEY = 'sk-priv/ate+key=42'
const PUBLIC_KEY = 'pk-pub/lic+key=42'
const TARGET = { flowId: 'f', orgId: 'o', nodeId: 'n' }
const URLS = ['https://a.example/doc']

let dir: string
let smallFile: string
let bigFile: string
const servers: { close(): Promise<void> }[] = []
const clients: ServiceClient[] = []

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kb-sync-client-errors-'))
  smallFile = join(dir, 'small.md')
  writeFileSync(smallFile, '# small\n')
  // Bigger than any socket buffer: a peer that stops reading really stalls the upload.
  bigFile = join(dir, 'big.bin')
  const handle = await open(bigFile, 'w')
  await handle.truncate(32 * 1024 * 1024)
  await handle.close()
})

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()))
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function serve(respond: Responder): Promise<RecordingServer> {
  const server = await startRecordingServer(respond)
  servers.push(server)
  return server
}

function clientFor(baseUrl: string): ServiceClient {
  const client = new ServiceClient({ baseUrl, privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY })
  clients.push(client)
  return client
}

/** A raw TCP server: `onConnection` decides what happens to each socket. */
async function rawServer(onConnection: Parameters<typeof createNetServer>[1]): Promise<string> {
  const server: Server = createNetServer(onConnection)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  servers.push({
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  })
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

async function failure(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError)
    return error as ServiceError
  }
  throw new Error('the call succeeded')
}

function answer(status: number, body: string, headers: Record<string, string> = {}): Responder {
  return (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers })
    response.end(body)
  }
}

describe('error answers', () => {
  it('names operation, method and path and keeps at most 500 characters of the body', async () => {
    const detail = JSON.stringify({ detail: [{ loc: ['body'], msg: 'x'.repeat(2000), type: 'value_error' }] })
    const server = await serve(answer(422, detail))
    const error = await failure(
      clientFor(server.url).uploadDocuments(TARGET, [{ name: 'a.md', path: smallFile }]),
    )
    expect(error.status).toBe(422)
    expect(error.retryable).toBe(false)
    expect(error.operation).toBe('uploadDocuments')
    expect(error.method).toBe('POST')
    expect(error.path).toBe('/indexing/v0/documents/f/o/n')
    expect(error.body.length).toBeLessThanOrEqual(500)
    expect(error.body.startsWith('{"detail":[{"loc":["body"],"msg":"xxx')).toBe(true)
    expect(error.message).toBe(
      `uploadDocuments POST /indexing/v0/documents/f/o/n failed: HTTP 422: ${error.body}`,
    )
    expect(error.bodySent).toBe(true)
  })

  it.each([
    [429, '7'],
    [500, undefined],
    [502, undefined],
    [503, 'Wed, 21 Oct 2065 07:28:00 GMT'],
    [504, undefined],
  ])('HTTP %i is retryable and carries Retry-After %s', async (status, retryAfter) => {
    const server = await serve(answer(status, '', retryAfter ? { 'retry-after': retryAfter } : {}))
    const error = await failure(clientFor(server.url).updateUrls(TARGET, URLS))
    expect(error.status).toBe(status)
    expect(error.retryable).toBe(true)
    expect(error.retryAfter).toBe(retryAfter)
    expect(error.message).toBe(`updateUrls PATCH /indexing/v0/urls/f/o/n failed: HTTP ${status}`)
  })

  it.each([400, 401, 403, 404, 405, 409, 413, 501])('HTTP %i is not retryable', async (status) => {
    const server = await serve(answer(status, '{"detail":"no"}'))
    const error = await failure(clientFor(server.url).runFlow({ orgId: 'o', flowId: 'f' }, { 'in-0': 'q' }))
    expect(error.status).toBe(status)
    expect(error.retryable).toBe(false)
    expect(error.path).toBe('/inference/v0/run/o/f')
    expect(error.body).toBe('{"detail":"no"}')
  })

  it('never shows a key, even when the server echoes it raw, URL-encoded or in base64', async () => {
    const server = await serve((request, response) => {
      response.writeHead(401, { 'content-type': 'text/plain' })
      const key = String(request.headers.authorization).replace('Bearer ', '')
      response.end(
        `bad ${request.headers.authorization}; key=${encodeURIComponent(key)}; b64=${Buffer.from(key).toString('base64')}; other=${encodeURIComponent(PUBLIC_KEY)}`,
      )
    })
    const error = await failure(clientFor(server.url).uploadUrls(TARGET, URLS))
    expect(server.requests[0].headers.authorization).toBe(`Bearer ${PRIVATE_KEY}`)
    for (const key of [PRIVATE_KEY, PUBLIC_KEY]) {
      for (const form of [key, encodeURIComponent(key), Buffer.from(key).toString('base64')]) {
        expect(error.message).not.toContain(form)
        expect(error.body).not.toContain(form)
        expect(JSON.stringify(error)).not.toContain(form)
      }
    }
    expect(error.body).toContain('bad Bearer ')
  })

  it('never shows the beginning of a key that the 64 KiB read limit cut off', async () => {
    const server = await serve((request, response) => {
      response.writeHead(400, { 'content-type': 'text/plain' })
      // White space folds to one space in the excerpt: the key's first 10 characters end the part read.
      response.end(`${' '.repeat(64 * 1024 - 10)}${PRIVATE_KEY} and more`)
    })
    const error = await failure(clientFor(server.url).uploadUrls(TARGET, URLS))
    expect(error.message).toMatch(/HTTP 400: \*\*\*…$/)
    expect(error.body).not.toContain(PRIVATE_KEY.slice(0, 4))
  })

  it('fails a run whose answer is not a JSON object', async () => {
    const server = await serve(answer(200, '["not", "an", "object"]'))
    const error = await failure(clientFor(server.url).runFlow({ orgId: 'o', flowId: 'f' }, { 'in-0': 'q' }))
    expect(error.code).toBe('BAD_ANSWER')
    expect(error.retryable).toBe(false)
  })
})

describe('redirects', () => {
  it.each([301, 302, 303, 307, 308])('a %i is an error and the target receives nothing', async (status) => {
    const target = await serve(answer(200, '{}'))
    const server = await serve(answer(status, '', { location: `${target.url}/steal` }))
    const error = await failure(
      clientFor(server.url).uploadDocuments(TARGET, [{ name: 'a.md', path: smallFile }]),
    )
    expect(error.code).toBe('REDIRECT')
    expect(error.status).toBe(status)
    expect(error.retryable).toBe(false)
    expect(server.requests).toHaveLength(1)
    expect(target.requests).toHaveLength(0)
  })
})

describe('network errors', () => {
  it('a refused connection is retryable and nothing was sent', async () => {
    const url = await rawServer(() => undefined)
    await servers.pop()!.close()
    const error = await failure(clientFor(url).uploadUrls(TARGET, URLS))
    expect(error.code).toBe('ECONNREFUSED')
    expect(error.status).toBeUndefined()
    expect(error.retryable).toBe(true)
    expect(error.bodySent).toBe(false)
    expect(error.message).toMatch(/^uploadUrls POST \/indexing\/v0\/urls\/f\/o\/n failed: ECONNREFUSED/)
  })

  it('a connection dropped after the whole request was read is retryable and marked ambiguous', async () => {
    const server = await serve((_request, _response, socket) => socket.destroy())
    const error = await failure(
      clientFor(server.url).uploadDocuments(TARGET, [{ name: 'a.md', path: smallFile }]),
    )
    expect(server.requests).toHaveLength(1)
    expect(['ECONNRESET', 'UND_ERR_SOCKET']).toContain(error.code)
    expect(error.status).toBeUndefined()
    expect(error.retryable).toBe(true)
    expect(error.bodySent).toBe(true)
    expect(error.message).toContain('may have been applied')
  })

  it('an indexing call answered 200 whose body then breaks off has succeeded: the status says it was applied', async () => {
    const server = await serve((_request, response, socket) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' })
      response.write('{"uploaded": ["a.m')
      setTimeout(() => socket.destroy(), 20)
    })
    const result = await clientFor(server.url).uploadDocuments(TARGET, [{ name: 'a.md', path: smallFile }])
    expect(result).toEqual({ status: 200, body: '' })
    expect(server.requests).toHaveLength(1)
  })

  it('a flow run answered 200 whose body then breaks off has failed: its answer is the result', async () => {
    const server = await serve((_request, response, socket) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' })
      response.write('{"outputs": {"out-0": "par')
      setTimeout(() => socket.destroy(), 20)
    })
    const error = await failure(clientFor(server.url).runFlow({ flowId: 'f', orgId: 'o' }, { 'in-0': 'q' }))
    expect(error.message).toMatch(/reading the HTTP 200 answer/)
  })

  it('a connection dropped before the body was read is retryable and not ambiguous', async () => {
    const url = await rawServer((socket) => socket.once('data', () => socket.resetAndDestroy()))
    const error = await failure(clientFor(url).uploadDocuments(TARGET, [{ name: 'big.bin', path: bigFile }]))
    expect(error.status).toBeUndefined()
    expect(error.retryable).toBe(true)
    expect(error.bodySent).toBe(false)
  })
})

describe('aborts', () => {
  it('the caller’s signal aborts the request: not retryable', async () => {
    const controller = new AbortController()
    const server = await serve(() => controller.abort())
    const error = await failure(clientFor(server.url).uploadUrls(TARGET, URLS, { signal: controller.signal }))
    expect(server.requests).toHaveLength(1)
    expect(error.code).toBe('ABORTED')
    expect(error.retryable).toBe(false)
  })

  it('a run’s signal outlives its requests: each request stops listening to it once it ends', async () => {
    const run = new AbortController()
    const answering = clientFor((await serve(answer(200, '{}'))).url)
    for (let i = 0; i < 5; i++) await answering.uploadUrls(TARGET, URLS, { signal: run.signal })
    const refusing = clientFor((await serve(answer(400, '{}'))).url)
    expect((await failure(refusing.uploadUrls(TARGET, URLS, { signal: run.signal }))).status).toBe(400)
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0)
  })

  it('an already aborted signal sends nothing', async () => {
    const server = await serve(answer(200, '{}'))
    const signal = AbortSignal.abort()
    const error = await failure(clientFor(server.url).runFlow({ orgId: 'o', flowId: 'f' }, {}, { signal }))
    expect(error.code).toBe('ABORTED')
    expect(server.requests).toHaveLength(0)
  })
})

describe('files that changed since selection', () => {
  it('fails with FILE_CHANGED before sending when the size differs or the file is gone', async () => {
    const server = await serve(answer(200, '{}'))
    const client = clientFor(server.url)
    const bigger = await failure(
      client.uploadDocuments(TARGET, [{ name: 'small.md', path: smallFile, size: 3 }]),
    )
    expect(bigger.code).toBe('FILE_CHANGED')
    expect(bigger.retryable).toBe(false)
    expect(bigger.bodySent).toBe(false)
    expect(bigger.message).toContain('small.md changed since it was selected')
    const gone = await failure(
      client.updateDocuments(TARGET, [{ name: 'gone.md', path: join(dir, 'gone.md') }]),
    )
    expect(gone.code).toBe('FILE_CHANGED')
    expect(server.requests).toHaveLength(0)
  })

  it('stops the upload with FILE_CHANGED when the file grows while it is being sent', async () => {
    const growing = join(dir, 'growing.bin')
    const handle = await open(growing, 'w')
    await handle.truncate(16 * 1024 * 1024)
    await handle.close()
    let appended = false
    const { createServer } = await import('node:http')
    const server = createServer((request) => {
      // Hold the upload after its first bytes, make the file longer, then read on.
      request.once('data', () => {
        request.pause()
        writeFileSync(growing, 'more', { flag: 'a' })
        appended = true
        request.resume()
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    servers.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) })
    server.on('connection', (socket) => servers.push({ close: async () => void socket.destroy() }))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const document = { name: 'growing.bin', path: growing, size: 16 * 1024 * 1024 }
    const error = await failure(clientFor(url).uploadDocuments(TARGET, [document]))
    expect(appended).toBe(true)
    expect(error.code).toBe('FILE_CHANGED')
    expect(error.message).toContain('growing.bin grew while it was being sent')
    expect(error.retryable).toBe(false)
    expect(error.bodySent).toBe(false)
  })

  it('refuses a FIFO in place of a selected file without blocking', async () => {
    const server = await serve(answer(200, '{}'))
    const fifo = join(dir, 'fifo.md')
    const { execFileSync } = await import('node:child_process')
    execFileSync('mkfifo', [fifo])
    const error = await failure(
      clientFor(server.url).uploadDocuments(TARGET, [{ name: 'fifo.md', path: fifo, size: 0 }]),
    )
    expect(error.code).toBe('FILE_CHANGED')
    expect(server.requests).toHaveLength(0)
  })
})
