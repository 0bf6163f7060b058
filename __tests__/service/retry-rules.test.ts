// The retry table is the one home of the retry rules: for every status it lists, and for one it does not,
// sending a plan and a flow run behave as its row says, against a real local server. Changing a row
// changes what these tests expect, never the other way round.
import { afterEach, describe, expect, it } from '@jest/globals'
import { FlowRunError, runFlow } from '../../src/flow/run.js'
import { sendPlan } from '../../src/send/send-plan.js'
import { ServiceClient } from '../../src/service/client.js'
import { RETRY_RULES, retryRuleOf, type RetryRule } from '../../src/service/retry.js'
import { quietLog, recordingLog } from '../helpers/log.js'
import { startRecordingServer, type Responder } from '../helpers/recording-server.js'
import { FAST_RETRY, makeDocuments, planFor, PRIVATE_KEY, PUBLIC_KEY, TARGET } from '../send/fixture.js'

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const ROWS = Object.entries(RETRY_RULES.statuses).map(([status, rule]) => [Number(status), rule] as const)
/** A status with no row: never retried. */
const NOT_RETRIED = 501

/** The first request is answered `status` (with `headers`); every later one succeeds. */
async function failingOnce(status: number, headers: Record<string, string> = {}) {
  let requests = 0
  const respond: Responder = (_request, response) => {
    const first = requests++ === 0
    response.writeHead(first ? status : 200, {
      'content-type': 'application/json',
      ...(first ? headers : {}),
    })
    response.end(
      JSON.stringify(
        first
          ? { detail: 'scripted failure' }
          : { outputs: { 'out-0': 'ok' }, run_id: 'r-1', state: 'COMPLETED', error: null, citations: [] },
      ),
    )
  }
  const server = await startRecordingServer(respond)
  cleanups.push(() => server.close())
  return server
}

async function sendOneDocument(
  baseUrl: string,
  attempts: number,
  log = quietLog(),
): Promise<{ outcome: string; requests: number }> {
  const workspace = await makeDocuments(1)
  cleanups.push(() => workspace.remove())
  const client = new ServiceClient({ baseUrl, privateKey: PRIVATE_KEY, connections: 1 })
  cleanups.push(() => client.close())
  const result = await sendPlan(planFor(workspace.files, 'upload'), client, TARGET, {
    concurrency: 1,
    retry: { ...FAST_RETRY, attempts },
    log,
  })
  return { outcome: result.items[0].outcome, requests: result.requests }
}

async function runOnce(baseUrl: string, retryOnServerError: boolean, log = quietLog()): Promise<boolean> {
  const client = new ServiceClient({ baseUrl, publicKey: PUBLIC_KEY, connections: 1 })
  cleanups.push(() => client.close())
  const request = {
    target: { orgId: 'org-1', flowId: 'flow-1' },
    inputs: { 'in-0': 'q' },
    outputKey: 'out-0',
  }
  try {
    await runFlow(client, request, { log, retry: { ...FAST_RETRY, attempts: 3 }, retryOnServerError })
    return true
  } catch (error) {
    if (!(error instanceof FlowRunError)) throw error
    return false
  }
}

function flowRunRetried(rule: RetryRule | undefined, retryOnServerError: boolean): boolean {
  if (rule?.flowRun === 'retried') return true
  return rule?.flowRun === 'with-retry-on-server-error' && retryOnServerError
}

describe.each([...ROWS, [NOT_RETRIED, undefined] as const])('HTTP %i follows its row', (status, rule) => {
  it('sending: retried or not, and whether the failure uses up `retries`', async () => {
    // One try only (`retries` 0): a failure that uses up retries ends there; a deadline-bound one does not.
    const sent = await sendOneDocument((await failingOnce(status)).url, 1)
    expect(sent.outcome).toBe(rule?.send === 'deadline' ? 'uploaded' : 'failed')
    const withRetries = await sendOneDocument((await failingOnce(status)).url, 3)
    expect(withRetries.outcome).toBe(rule ? 'uploaded' : 'failed')
    expect(withRetries.requests).toBe(rule ? 2 : 1)
  })

  if (rule) {
    it('sending: Retry-After replaces the backoff only where the row says so', async () => {
      // The backoff of FAST_RETRY is a few ms; the hint asks for 400 ms.
      const { log, lines } = recordingLog()
      await sendOneDocument((await failingOnce(status, { 'retry-after': '0.4' })).url, 3, log)
      const retryLine = lines.find((line) => /retrying as/.test(line.message))
      expect(retryLine?.message.includes('in 400 ms')).toBe(rule.retryAfter)
    })
  }

  it.each([false, true])('a flow run (retry-on-server-error %s)', async (retryOnServerError) => {
    const server = await failingOnce(status)
    const succeeded = await runOnce(server.url, retryOnServerError)
    const retried = flowRunRetried(rule, retryOnServerError)
    expect(succeeded).toBe(retried)
    expect(server.requests).toHaveLength(retried ? 2 : 1)
  })
})

describe('a transport failure follows its error code row', () => {
  it('a connection closed after the whole request: sending retries it within the deadline; a flow run does not', async () => {
    let requests = 0
    const server = await startRecordingServer((_request, response, socket) => {
      if (requests++ === 0) return socket.destroy()
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end('{}')
    })
    cleanups.push(() => server.close())
    const { log, lines } = recordingLog()
    // `retries` 0: only a deadline-bound row lets the document through.
    const sent = await sendOneDocument(server.url, 1, log)
    const code = /attempt 1 failed \(\w+ \S+ \S+ failed: ([A-Z_]+):/.exec(
      lines.find((line) => /attempt 1 failed/.test(line.message))?.message ?? '',
    )?.[1]
    expect(code).toBeDefined()
    expect(retryRuleOf({ code })?.send).toBe('deadline')
    // Sent again as an update: the upload may have been applied.
    expect(sent.outcome).toBe('updated')

    const closing = await startRecordingServer((_request, _response, socket) => socket.destroy())
    cleanups.push(() => closing.close())
    expect(await runOnce(closing.url, true)).toBe(false)
    expect(closing.requests).toHaveLength(1)
  })
})
