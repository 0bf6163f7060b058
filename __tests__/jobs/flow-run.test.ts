// The flow run against real local servers scripted per request: a run is POSTed again only when it
// provably did not start, its answer's own state decides success, and everything it returns fits an output.
import { afterEach, describe, expect, it } from '@jest/globals'
import { once } from 'node:events'
import { createServer as createHttpServer } from 'node:http'
import { readRunConfig } from '../../src/config/run.js'
import { FlowRunError, runFlow, type FlowRunOptions } from '../../src/flow/run.js'
import { runFlowJob } from '../../src/jobs/flow-run.js'
import { ServiceClient } from '../../src/service/client.js'
import { DEFAULT_RETRY_POLICY } from '../../src/service/retry.js'
import { PUBLIC_KEY } from '../helpers/keys.js'
import { quietLog, recordingLog } from '../helpers/log.js'
import { freePort } from '../helpers/ports.js'
import { startRecordingServer, type RecordingServer, type Responder } from '../helpers/recording-server.js'

const TARGET = { orgId: 'org-1', flowId: 'flow-1' }
const REQUEST = { target: TARGET, inputs: { 'in-0': 'How long are refunds granted?' }, outputKey: 'out-0' }
const MIB = 1024 * 1024

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function server(respond: Responder): Promise<RecordingServer> {
  const started = await startRecordingServer(respond)
  cleanups.push(() => started.close())
  return started
}

function client(baseUrl: string, bodyIdleMs = 60_000): ServiceClient {
  const made = new ServiceClient({ baseUrl, publicKey: PUBLIC_KEY, connections: 1, timeouts: { bodyIdleMs } })
  cleanups.push(() => made.close())
  return made
}

/** Answers each request with the next scripted responder (the last one repeats). */
function script(...responders: Responder[]): Responder {
  let next = 0
  return (request, response, socket) =>
    responders[Math.min(next++, responders.length - 1)](request, response, socket)
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Responder =>
  (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers })
    response.end(JSON.stringify(body))
  }

const completed = (text: string) =>
  json(200, {
    outputs: { 'out-0': text },
    run_id: 'r-1',
    state: 'COMPLETED',
    error: null,
    pause: null,
    citations: [],
  })

const fastRetry = { ...DEFAULT_RETRY_POLICY, attempts: 5, baseDelayMs: 1, maxDelayMs: 5 }

function options(extra: Partial<FlowRunOptions> = {}): FlowRunOptions {
  return { log: quietLog(), retry: fastRetry, ...extra }
}

async function failure(promise: Promise<unknown>): Promise<FlowRunError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(FlowRunError)
  return error as FlowRunError
}

describe('a flow run is POSTed again only when it provably did not start', () => {
  it('is POSTed once when the service answers 200 and then the body stalls', async () => {
    const stalling = await server((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.write('{"outputs": {"out-0": "partial')
    })
    const error = await failure(runFlow(client(stalling.url, 200), REQUEST, options()))
    expect(stalling.requests).toHaveLength(1)
    expect(error.message).toMatch(/not retried: a flow run is not idempotent/)
  })

  it('is POSTed once when the connection closes after the whole request was sent', async () => {
    const closing = await server((_request, _response, socket) => socket.destroy())
    const error = await failure(runFlow(client(closing.url), REQUEST, options()))
    expect(closing.requests).toHaveLength(1)
    expect(error.message).toMatch(/may have reached the service/)
  })

  it.each([500, 502, 504])('is POSTed once on HTTP %i by default', async (status) => {
    const failing = await server(script(json(status, { detail: 'boom' }), completed('late')))
    const error = await failure(runFlow(client(failing.url), REQUEST, options()))
    expect(failing.requests).toHaveLength(1)
    expect(error.message).toContain(`HTTP ${status}`)
    expect(error.message).toContain('retry-on-server-error')
  })

  it('retries 500, 502 and 504 when retry-on-server-error opts in', async () => {
    const failing = await server(script(json(500, {}), json(502, {}), json(504, {}), completed('14 days')))
    const report = await runFlow(client(failing.url), REQUEST, options({ retryOnServerError: true }))
    expect(report.result).toBe('14 days')
    expect(failing.requests).toHaveLength(4)
  })

  it.each([429, 503])('retries HTTP %i, honouring Retry-After', async (status) => {
    const busy = await server(
      script(json(status, { detail: 'busy' }, { 'retry-after': '0' }), completed('ok')),
    )
    const { log, of } = recordingLog()
    const report = await runFlow(client(busy.url), REQUEST, options({ log }))
    expect(report.result).toBe('ok')
    expect(busy.requests).toHaveLength(2)
    expect(of('warning').some((line) => line.message.startsWith('Flow run attempt 1 did not start'))).toBe(
      true,
    )
  })

  it('retries a connection refused before anything was sent, and the run happens once', async () => {
    const port = await freePort()
    // A local server standing in for a service elsewhere: a refusal on this machine is otherwise final.
    const retry = { ...fastRetry, retryLocalRefusal: true }

    let runs = 0
    const late = createHttpServer((request, response) => {
      request.resume()
      request.on('end', () => {
        runs += 1
        completed('back')(undefined as never, response, request.socket)
      })
    })
    cleanups.push(() => new Promise<void>((resolve) => late.close(() => resolve())))
    const { log, lines } = recordingLog((line) => {
      // The service comes up when the first attempt has been refused (listen binds at once).
      const refused = line.level === 'warning' && line.message.startsWith('Flow run attempt 1')
      if (refused && !late.listening) late.listen(port, '127.0.0.1')
    })
    const report = await runFlow(client(`http://127.0.0.1:${port}`), REQUEST, options({ log, retry }))
    expect(report.result).toBe('back')
    expect(runs).toBe(1)
    const notStarted = lines.filter((l) => l.level !== 'debug' && l.message.startsWith('Flow run attempt'))
    expect(notStarted.length).toBeGreaterThanOrEqual(1)
    expect(notStarted[0].message).toContain('ECONNREFUSED')
    // Before the first wait: what is retried, until when, and what to check; said once.
    const explained = lines.filter((l) => l.message.includes('refused the connection'))
    expect(explained).toHaveLength(1)
    expect(lines.indexOf(explained[0])).toBeLessThan(lines.indexOf(notStarted[0]))
    expect(explained[0]).toEqual({
      level: 'warning',
      message: expect.stringMatching(
        new RegExp(
          `^The service at http://127\\.0\\.0\\.1:${port} refused the connection \\(ECONNREFUSED\\)\\. ` +
            'The flow run is retried while it provably did not start, until \\d\\d:\\d\\d:\\d\\d UTC ' +
            '\\("retry-deadline", 120 s\\)\\. Check "base-url", and that the service is running there ' +
            '\\(the local emulator: `kb-sync serve`\\)\\.$',
        ),
      ),
    })
  })

  it('fails at once when a service on this machine refuses the connection, naming the base URL', async () => {
    const port = await freePort()
    const { log, lines } = recordingLog()
    const error = await failure(runFlow(client(`http://localhost:${port}`), REQUEST, options({ log })))
    expect(error.message).toBe(
      `Nothing is listening at http://localhost:${port} (ECONNREFUSED): check "base-url" (its port), or ` +
        'start the local service with `kb-sync serve`. A refused connection on this machine is not retried; ' +
        'nothing more was sent.',
    )
    // Not retried: no wait was announced, and other runs (a suite's) are not sent either.
    expect(lines.filter((l) => l.level === 'warning')).toEqual([])
    expect(error.othersCannotRun).toMatch(/nothing listens at the base URL/)
  })

  it('fails at once on 401 with a cause naming public-key', async () => {
    const refusing = await server(json(401, { detail: `bad token ${PUBLIC_KEY}` }))
    const error = await failure(runFlow(client(refusing.url), REQUEST, options()))
    expect(refusing.requests).toHaveLength(1)
    expect(error.message).toContain('"public-key"')
    expect(error.message).not.toContain(PUBLIC_KEY)
  })

  it('fails at once on 403 with a cause naming public-key', async () => {
    const refusing = await server(json(403, { detail: 'wrong kind of key' }))
    const error = await failure(runFlow(client(refusing.url), REQUEST, options()))
    expect(refusing.requests).toHaveLength(1)
    expect(error.message).toMatch(/HTTP 403.*"public-key"/)
  })

  it('fails at once on 404 with a cause naming org-id and flow-id', async () => {
    const missing = await server(json(404, { detail: 'Not Found' }))
    const error = await failure(runFlow(client(missing.url), REQUEST, options()))
    expect(missing.requests).toHaveLength(1)
    expect(error.message).toMatch(/no flow at \/inference\/v0\/run\/org-1\/flow-1 \(HTTP 404\)/)
    expect(error.message).toContain('"org-id" and "flow-id"')
  })
})

describe("the answer's own state decides the run", () => {
  const answered = (body: Record<string, unknown>) =>
    json(200, { outputs: { 'out-0': 'text' }, run_id: 'run-7', citations: [], ...body })

  it.each([
    ['a state other than COMPLETED', { state: 'FAILED', error: null, pause: null }, /state FAILED/],
    ['an error', { state: 'COMPLETED', error: 'model quota exceeded', pause: null }, /model quota exceeded/],
    ['an error object', { error: { message: 'tool crashed', code: 7 } }, /tool crashed/],
    [
      'a pause',
      { state: 'COMPLETED', error: null, pause: { reason: 'human approval' } },
      /paused.*human approval/,
    ],
  ])('fails on HTTP 200 with %s, quoting the service', async (_, body, pattern) => {
    const service = await server(answered(body))
    const error = await failure(runFlow(client(service.url), REQUEST, options()))
    expect(error.message).toMatch(pattern)
    expect(error.message).toContain('run-7')
    expect(service.requests).toHaveLength(1)
    expect((error.response as { outputs: unknown }).outputs).toEqual({ 'out-0': 'text' })
  })

  it('succeeds with the full shape, and with the older shape without state', async () => {
    const full = await server(answered({ state: 'COMPLETED', error: null, pause: null }))
    expect((await runFlow(client(full.url), REQUEST, options())).result).toBe('text')
    const older = await server(json(200, { outputs: { 'out-0': 'plain' }, run_id: 'r' }))
    expect((await runFlow(client(older.url), REQUEST, options())).result).toBe('plain')
  })
})

describe('bounded', () => {
  it('cuts a 10 MB answer so result and response each stay under 1 MiB, as valid JSON', async () => {
    // 10 MB: over the 900 KiB kept of one string and the 3.5 MiB kept of all (service/client.ts).
    const big = 'x'.repeat(10 * 1000 * 1000)
    const service = await server((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(`{"outputs": {"out-0": "${big}", "out-1": "small"}, "run_id": "r", "state": "COMPLETED"}`)
    })
    const { log, lines } = recordingLog()
    const report = await runFlow(client(service.url), REQUEST, options({ log }))
    expect(Buffer.byteLength(report.result)).toBeLessThan(MIB)
    expect(report.result).toMatch(/cut by kb-sync: the last [\d,]+ of 10,000,000 bytes were removed\]$/)
    const response = JSON.stringify(report.response)
    expect(Buffer.byteLength(response)).toBeLessThan(MIB)
    const parsed = JSON.parse(response) as { outputs: Record<string, string> }
    expect(parsed.outputs['out-1']).toBe('small')
    expect(parsed.outputs['out-0']).toMatch(/characters removed\]$/)
    const messages = lines.filter((line) => line.level !== 'debug').map((line) => line.message)
    expect(messages.some((line) => line.includes('"result"') && line.includes('cut'))).toBe(true)
    expect(messages.some((line) => line.includes('"response"') && line.includes('cut'))).toBe(true)
  })

  it('reads a 10 MiB answer as it streams in and counts exactly what was cut', async () => {
    // 2-byte characters, so characters and bytes differ; streamed with backpressure, never held whole.
    // 5,242,880 characters: over the 900 KiB kept of one string and the 3.5 MiB kept of all.
    const block = Buffer.alloc(MIB, 'é')
    const service = await server((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      void (async () => {
        response.write('{"outputs": {"out-0": "')
        for (let i = 0; i < 10; i++) if (!response.write(block)) await once(response, 'drain')
        response.end('", "out-1": {"list": [1, 2.5, true, null]}}, "run_id": "r", "state": "COMPLETED"}')
      })()
    })
    const report = await runFlow(client(service.url), REQUEST, options())
    expect(Buffer.byteLength(report.result)).toBeLessThan(MIB)
    const removed = /the last ([\d,]+) of 10,485,760 bytes were removed\]$/.exec(report.result)
    expect(removed).not.toBeNull()
    const kept = report.result.slice(0, report.result.indexOf('\n…[cut by kb-sync'))
    expect(kept).toBe('é'.repeat(kept.length))
    expect(Number(removed![1].replace(/,/g, ''))).toBe(10_485_760 - Buffer.byteLength(kept))
    const outputs = (report.response as { outputs: Record<string, unknown> }).outputs
    expect(outputs['out-1']).toEqual({ list: [1, 2.5, true, null] })
    const note = /^(é*)…\[cut by kb-sync: ([\d,]+) of 5,242,880 characters removed\]$/.exec(
      outputs['out-0'] as string,
    )
    expect(note).not.toBeNull()
    expect(Number(note![2].replace(/,/g, ''))).toBe(5_242_880 - note![1].length)
    expect(service.requests).toHaveLength(1)
  })

  it('still sees the state and error after outputs of many long strings', async () => {
    const long = 'x'.repeat(MIB)
    const service = await server((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      const many = Array.from({ length: 20 }, () => `"${long}"`).join(', ')
      response.end(
        `{"outputs": {"out-1": [${many}], "out-0": "${long}"}, "run_id": "r", "state": "FAILED", ` +
          `"error": {"message": "the model refused"}, "citations": [${many}]}`,
      )
    })
    const error = await failure(runFlow(client(service.url), REQUEST, options()))
    expect(error.message).toContain('state FAILED')
    expect(error.message).toContain('the model refused')
    expect(Buffer.byteLength(JSON.stringify(error.response))).toBeLessThan(MIB)
  })

  it('fails a run whose answer is not valid JSON, naming where, POSTed once', async () => {
    const service = await server((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end('{"outputs": {"out-0": "14 days"}, "state": "COMPLETED"} trailing')
    })
    const error = await failure(runFlow(client(service.url), REQUEST, options()))
    expect(error.message).toContain(
      'HTTP 200, but the answer is not valid JSON: unexpected character "t" at position 56',
    )
    expect(service.requests).toHaveLength(1)
  })

  it('stops a run the service never answers at run-timeout, POSTed once', async () => {
    const silent = await server(() => undefined)
    const error = await failure(runFlow(client(silent.url), REQUEST, options({ timeoutMs: 300 })))
    expect(error.message).toMatch(/within "run-timeout" \(0.3 s\).*may still complete/)
    expect(silent.requests).toHaveLength(1)
  })

  it('ends at once when cancelled, saying so', async () => {
    const controller = new AbortController()
    const silent = await server(() => controller.abort())
    const error = await failure(runFlow(client(silent.url), REQUEST, options({ signal: controller.signal })))
    expect(error.message).toMatch(/cancelled/)
    expect(silent.requests).toHaveLength(1)
  })
})

describe('runFlowJob: the one flow run of the run-flow action and of kb-sync run', () => {
  const config = (baseUrl: string, expectation: string) =>
    readRunConfig(
      (name) =>
        ({
          'base-url': baseUrl,
          'org-id': TARGET.orgId,
          'flow-id': TARGET.flowId,
          'public-key': PUBLIC_KEY,
          inputs: JSON.stringify(REQUEST.inputs),
          expect: expectation,
          retries: '1',
        })[name] ?? '',
      { eventName: '' },
    )

  it('answers with the report and the expect judgement', async () => {
    const service = await server(json(200, { outputs: { 'out-0': 'Refunds within 14 days.' } }))
    const met = await runFlowJob(config(service.url, '14 days'), quietLog())
    expect(met).toMatchObject({ ok: true, report: { result: 'Refunds within 14 days.' } })
    expect(met.ok && met.problem).toBeUndefined()
    const missed = await runFlowJob(config(service.url, '30 days'), quietLog())
    expect(missed.ok && missed.problem).toMatch(/30 days/)
    expect(service.requests.map((r) => r.url)).toEqual([
      `/inference/v0/run/${TARGET.orgId}/${TARGET.flowId}`,
      `/inference/v0/run/${TARGET.orgId}/${TARGET.flowId}`,
    ])
  })

  it('returns a failed run as a FlowRunError naming the inputs to check', async () => {
    const service = await server(json(404, { detail: 'Not Found' }))
    const run = await runFlowJob(config(service.url, ''), quietLog())
    expect(run.ok).toBe(false)
    if (run.ok) return
    expect(run.error).toBeInstanceOf(FlowRunError)
    expect(run.error.message).toMatch(/"org-id" and "flow-id"/)
  })
})
