// A suite on two flows against a real local server: the runs of both sides share one pool of
// `concurrency`, each side's results come back on their own, and a refused key stops both.
import { afterEach, describe, expect, it } from '@jest/globals'
import type { ServerResponse } from 'node:http'
import { runChecksOn } from '../../src/checks/run.js'
import { parseChecks } from '../../src/checks/schema.js'
import { ServiceClient } from '../../src/service/client.js'
import { DEFAULT_RETRY_POLICY } from '../../src/service/retry.js'
import { quietLog } from '../helpers/log.js'
import { startRecordingServer, type RecordingServer } from '../helpers/recording-server.js'

const AFTER = { orgId: 'org-1', flowId: 'flow-after' }
const BEFORE = { orgId: 'org-0', flowId: 'flow-before' }
const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function answer(response: ServerResponse, text: string, status = 200): void {
  response.writeHead(status, { 'content-type': 'application/json' })
  response.end(
    JSON.stringify(status === 200 ? { outputs: { 'out-0': text }, state: 'COMPLETED' } : { detail: text }),
  )
}

const CHECKS = parseChecks(
  Array.from({ length: 3 }, (_, i) => `- name: c${i}\n  inputs: {in-0: "q${i}"}\n  contains: "after"`).join(
    '\n',
  ),
)

function run(server: RecordingServer, concurrency: number) {
  const client = new ServiceClient({
    baseUrl: server.url,
    publicKey: 'pk-checks-1',
    connections: concurrency,
  })
  cleanups.push(() => client.close())
  return runChecksOn(
    client,
    [
      { target: AFTER, label: '' },
      { target: BEFORE, label: ' (before)' },
    ],
    CHECKS,
    { log: quietLog(), retry: { ...DEFAULT_RETRY_POLICY, baseDelayMs: 1, maxDelayMs: 5 }, concurrency },
  )
}

describe('runChecksOn two flows', () => {
  it.each([1, 2, 3])(
    'keeps at most %i runs of both flows in flight, and judges each flow apart',
    async (concurrency) => {
      const total = 6
      let received = 0
      let inFlight = 0
      let most = 0
      const held: [ServerResponse, string][] = []
      const server = await startRecordingServer((request, response) => {
        received += 1
        inFlight += 1
        most = Math.max(most, inFlight)
        // The after flow's answers contain "after"; the before flow's do not.
        held.push([response, request.url?.includes(AFTER.flowId) ? 'after' : 'before'])
        if (inFlight === concurrency || received === total) {
          for (const [waiting, text] of held.splice(0)) {
            inFlight -= 1
            answer(waiting, text)
          }
        }
      })
      cleanups.push(() => server.close())
      const [after, before] = await run(server, concurrency)
      expect(most).toBe(concurrency)
      const paths = server.requests.map((r) => r.url)
      expect(paths.filter((p) => p === `/inference/v0/run/${AFTER.orgId}/${AFTER.flowId}`)).toHaveLength(3)
      expect(paths.filter((p) => p === `/inference/v0/run/${BEFORE.orgId}/${BEFORE.flowId}`)).toHaveLength(3)
      expect(after.results.map((r) => [r.name, r.verdict])).toEqual([
        ['c0', 'passed'],
        ['c1', 'passed'],
        ['c2', 'passed'],
      ])
      expect(before.results.map((r) => [r.name, r.verdict])).toEqual([
        ['c0', 'failed'],
        ['c1', 'failed'],
        ['c2', 'failed'],
      ])
    },
  )

  it('a key refused on one flow stops the runs of both', async () => {
    const server = await startRecordingServer((_request, response) => answer(response, 'Invalid key', 401))
    cleanups.push(() => server.close())
    const [after, before] = await run(server, 1)
    expect(server.requests).toHaveLength(1)
    expect(after.stopped).toContain('HTTP 401')
    expect(before.stopped).toBe(after.stopped)
    expect(before.results.every((r) => r.verdict === 'error')).toBe(true)
  })
})
