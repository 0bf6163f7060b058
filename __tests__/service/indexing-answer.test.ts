// The status decides an indexing call: a 200 whose body trickles (one byte at a time, never idle long
// enough for the idle timeout) or never ends is cut off at the client's own bounds, and the items count as
// sent, once. The bounds are the client's options, set short here; no assertion is about elapsed time.
import { afterEach, describe, expect, it } from '@jest/globals'
import type { ServerResponse } from 'node:http'
import { sendPlan } from '../../src/send/send-plan.js'
import { INDEXING_ANSWER_BYTES, ServiceClient, type ClientTimeouts } from '../../src/service/client.js'
import { startRecordingServer, type Responder } from '../helpers/recording-server.js'
import { quietLog } from '../helpers/log.js'
import { FAST_RETRY, makeDocuments, planFor, PRIVATE_KEY, TARGET } from '../send/fixture.js'

const cleanup: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

async function serve(respond: Responder) {
  const server = await startRecordingServer(respond)
  cleanup.push(() => server.close())
  return server
}

function clientFor(url: string, timeouts: Partial<ClientTimeouts>): ServiceClient {
  const client = new ServiceClient({ baseUrl: url, privateKey: PRIVATE_KEY, timeouts })
  cleanup.push(() => client.close())
  return client
}

/** Answers 200, then one byte every `everyMs` until the client goes away; `closed` settles then. */
function trickling(everyMs: number) {
  let bytes = 0
  let resolveClosed!: () => void
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve))
  const respond: Responder = (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' })
    response.write('{')
    const timer = setInterval(() => {
      bytes++
      response.write(' ')
    }, everyMs)
    response.on('close', () => {
      clearInterval(timer)
      resolveClosed()
    })
  }
  return { respond, closed, sent: () => bytes }
}

/** Answers 200, then writes as fast as the client reads, without end; counts the bytes written. */
function endless() {
  let bytes = 0
  const chunk = Buffer.alloc(16 * 1024, 0x20)
  const respond: Responder = (_request, response: ServerResponse) => {
    response.writeHead(200, { 'content-type': 'application/json' })
    const pump = () => {
      while (!response.destroyed && response.write(chunk)) bytes += chunk.length
      if (!response.destroyed) bytes += chunk.length
    }
    response.on('drain', pump)
    pump()
  }
  return { respond, written: () => bytes }
}

describe('a successful indexing answer the action does not use', () => {
  it('that trickles is cut off after indexingAnswerMs, though it never stops long enough to be idle', async () => {
    const trickle = trickling(20)
    const server = await serve(trickle.respond)
    const client = clientFor(server.url, { indexingAnswerMs: 300, bodyIdleMs: 60_000 })
    const answer = await client.uploadUrls(TARGET, ['https://docs.example.com/a'])
    expect(answer).toEqual({ status: 200, body: '' })
    // The client closed the connection: the service stops trickling too.
    await trickle.closed
    expect(server.requests).toHaveLength(1)
  })

  it('that never ends is cut off after INDEXING_ANSWER_BYTES, long before indexingAnswerMs', async () => {
    const stream = endless()
    const server = await serve(stream.respond)
    const client = clientFor(server.url, { indexingAnswerMs: 600_000 })
    const answer = await client.updateUrls(TARGET, ['https://docs.example.com/a'])
    expect(answer).toEqual({ status: 200, body: '' })
    expect(stream.written()).toBeGreaterThan(INDEXING_ANSWER_BYTES)
    // Cut off early: beyond the bytes read, only what the sockets' buffers took (a few MiB at most on
    // loopback) was written, far from what an unbounded read would have taken by then.
    expect(stream.written()).toBeLessThan(16 * 1024 * 1024)
  })

  it('that comes whole in time is still read', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end('{"uploaded": ["a.md"]}')
    })
    const client = clientFor(server.url, { indexingAnswerMs: 60_000 })
    expect(await client.uploadUrls(TARGET, ['https://docs.example.com/a'])).toEqual({
      status: 200,
      body: { uploaded: ['a.md'] },
    })
  })

  it('leaves the documents sent, once each: nothing is sent again', async () => {
    const workspace = await makeDocuments(6)
    cleanup.push(() => workspace.remove())
    const trickle = trickling(20)
    const server = await serve(trickle.respond)
    const client = clientFor(server.url, { indexingAnswerMs: 200, bodyIdleMs: 60_000 })
    const result = await sendPlan(planFor(workspace.files, 'upload', 3), client, TARGET, {
      concurrency: 2,
      retry: FAST_RETRY,
      log: quietLog(),
    })
    expect(result.items.map((item) => [item.name, item.outcome, item.attempts])).toEqual(
      workspace.files.map((file) => [file.name, 'uploaded', 1]),
    )
    expect(server.requests).toHaveLength(2)
  })
})
