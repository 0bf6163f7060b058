// Timeouts, injected short: a missing answer, a stalled upload body, and the upload/run split of the
// header timeout. No assertion is about elapsed time; each case is told apart by the error's code.
import { mkdtempSync, rmSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals'
import { ServiceClient, ServiceError, type ClientTimeouts } from '../../src/service/client.js'

const TARGET = { flowId: 'f', orgId: 'o', nodeId: 'n' }
const RUN = { orgId: 'o', flowId: 'f' }
const BIG = 32 * 1024 * 1024

let dir: string
let bigFile: string
const cleanups: (() => Promise<void>)[] = []

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kb-sync-client-timeouts-'))
  bigFile = join(dir, 'big.bin')
  const handle = await open(bigFile, 'w')
  await handle.truncate(BIG)
  await handle.close()
})

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

afterAll(() => rmSync(dir, { recursive: true, force: true }))

function clientFor(baseUrl: string, timeouts: Partial<ClientTimeouts>): ServiceClient {
  const client = new ServiceClient({ baseUrl, privateKey: 'sk-t', publicKey: 'pk-t', timeouts })
  cleanups.push(() => client.close())
  return client
}

async function listening(server: Server | ReturnType<typeof createHttpServer>): Promise<string> {
  const sockets = new Set<Socket>()
  server.on('connection', (socket: Socket) => sockets.add(socket))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  )
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** An HTTP server that reads each request whole, then lets `answer` respond (or not). */
function httpServer(answer: (request: IncomingMessage, response: ServerResponse) => void): Promise<string> {
  return listening(
    createHttpServer((request, response) => {
      request.resume()
      request.on('end', () => answer(request, response))
    }),
  )
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

describe('header timeouts', () => {
  it('an upload with no answer fails retryable after the whole body went out', async () => {
    const url = await httpServer(() => undefined)
    const client = clientFor(url, { uploadHeadersMs: 200 })
    const error = await failure(client.uploadDocuments(TARGET, [{ name: 'big.bin', path: bigFile }]))
    expect(error.code).toBe('UND_ERR_HEADERS_TIMEOUT')
    expect(error.retryable).toBe(true)
    expect(error.bodySent).toBe(true)
    expect(error.status).toBeUndefined()
    expect(error.message).toContain('no answer within 200 ms')
  })

  it('uploads and runs each wait for their own header timeout', async () => {
    const url = await httpServer(() => undefined)
    const client = clientFor(url, { uploadHeadersMs: 150, runHeadersMs: 250 })
    const [upload, run] = await Promise.all([
      failure(client.uploadUrls(TARGET, ['https://a.example'])),
      failure(client.runFlow(RUN, { 'in-0': 'q' })),
    ])
    for (const error of [upload, run]) expect(error.code).toBe('UND_ERR_HEADERS_TIMEOUT')
    expect(upload.message).toContain('no answer within 150 ms')
    expect(run.message).toContain('no answer within 250 ms')
  })
})

describe('body idle watchdog', () => {
  it('aborts an upload whose body stops moving: retryable, not sent', async () => {
    // Accepts the connection and never reads: once the socket buffers are full the upload stalls.
    const url = await listening(createNetServer((socket) => socket.pause()))
    const client = clientFor(url, { bodyIdleMs: 300, uploadHeadersMs: 60_000 })
    const error = await failure(client.uploadDocuments(TARGET, [{ name: 'big.bin', path: bigFile }]))
    expect(error.code).toBe('BODY_IDLE_TIMEOUT')
    expect(error.retryable).toBe(true)
    expect(error.bodySent).toBe(false)
    expect(error.status).toBeUndefined()
    expect(error.message).toContain('made no progress for 300 ms')
  })

  it('lets a slow upload that keeps moving finish, though it takes longer than the idle limit', async () => {
    let pauses = 0
    const url = await listening(
      createHttpServer((request, response) => {
        // Short stalls (each well under the limit) that add up to more than the limit.
        let sinceLastPause = 0
        request.on('data', (chunk: Buffer) => {
          sinceLastPause += chunk.length
          if (sinceLastPause >= 2 * 1024 * 1024) {
            sinceLastPause = 0
            pauses++
            request.pause()
            setTimeout(() => request.resume(), 100)
          }
        })
        request.on('end', () => {
          response.writeHead(200, { 'content-type': 'application/json' })
          response.end('{}')
        })
      }),
    )
    // The socket buffers hold several MiB, so the client is only held back for the later pauses.
    const client = clientFor(url, { bodyIdleMs: 500 })
    const answer = await client.uploadDocuments(TARGET, [{ name: 'big.bin', path: bigFile }])
    expect(answer.status).toBe(200)
    expect(pauses * 100).toBeGreaterThan(1000)
  })
})
