// A suite against a real local server: bounded concurrency, one check failing while the others pass,
// a failed run judged as an error and never sent twice.
import { afterEach, describe, expect, it } from '@jest/globals'
import type { ServerResponse } from 'node:http'
import { runChecks } from '../../src/checks/run.js'
import { parseChecks } from '../../src/checks/schema.js'
import { ServiceClient } from '../../src/service/client.js'
import { DEFAULT_RETRY_POLICY } from '../../src/service/retry.js'
import { quietLog } from '../helpers/log.js'
import { startRecordingServer, type RecordingServer } from '../helpers/recording-server.js'

const TARGET = { orgId: 'org-1', flowId: 'flow-1' }
const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function answer(response: ServerResponse, text: string, status = 200): void {
  response.writeHead(status, { 'content-type': 'application/json' })
  response.end(
    JSON.stringify(
      status === 200
        ? { outputs: { 'out-0': text }, run_id: `run-${text}`, state: 'COMPLETED' }
        : { detail: text },
    ),
  )
}

const questionOf = (raw: Buffer | undefined) => (JSON.parse(String(raw)) as Record<string, string>)['in-0']

async function suite(server: RecordingServer, checksText: string, concurrency: number) {
  const client = new ServiceClient({
    baseUrl: server.url,
    publicKey: 'pk-checks-1',
    connections: concurrency,
  })
  cleanups.push(() => client.close())
  return runChecks(client, TARGET, parseChecks(checksText), {
    log: quietLog(),
    retry: { ...DEFAULT_RETRY_POLICY, baseDelayMs: 1, maxDelayMs: 5 },
    concurrency,
  })
}

const manyChecks = (n: number) =>
  Array.from({ length: n }, (_, i) => `- name: c${i}\n  inputs: {in-0: "q${i}"}\n  contains: "q${i}"`).join(
    '\n',
  )

describe('runChecks', () => {
  it.each([1, 2, 3])('keeps at most %i runs in flight, and uses them all', async (concurrency) => {
    const total = 7
    let received = 0
    let inFlight = 0
    let most = 0
    const held: [ServerResponse, string][] = []
    const server = await startRecordingServer((request, response) => {
      received += 1
      inFlight += 1
      most = Math.max(most, inFlight)
      held.push([response, questionOf(request.raw)])
      // Answer a whole wave at once: only when `concurrency` runs wait, or no more will come.
      if (inFlight === concurrency || received === total) {
        for (const [waiting, question] of held.splice(0)) {
          inFlight -= 1
          answer(waiting, question)
        }
      }
    })
    cleanups.push(() => server.close())
    const results = await suite(server, manyChecks(total), concurrency)
    expect(most).toBe(concurrency)
    expect(server.requests).toHaveLength(total)
    expect(results.map((r) => [r.name, r.verdict])).toEqual(
      Array.from({ length: total }, (_, i) => [`c${i}`, 'passed']),
    )
  })

  it('judges each check on its own: one failing while the others pass, with run ids and answers', async () => {
    const server = await startRecordingServer((request, response) =>
      answer(response, `answer to ${questionOf(request.raw)}`),
    )
    cleanups.push(() => server.close())
    const results = await suite(
      server,
      '- name: ok-1\n  inputs: {in-0: a}\n  contains: "to a"\n' +
        '- name: bad\n  inputs: {in-0: b}\n  contains: "nowhere"\n  max-length: 3\n' +
        '- name: ok-2\n  inputs: {in-0: c}\n  expect: "c$"',
      2,
    )
    expect(results.map((r) => r.verdict)).toEqual(['passed', 'failed', 'passed'])
    expect(results[1]).toMatchObject({
      name: 'bad',
      failed: ['contains "nowhere": not found', 'max-length 3: the answer has 11 characters'],
      answer: 'answer to b',
      runId: 'run-answer to b',
    })
    expect(results[0].seconds).toBeGreaterThanOrEqual(0)
  })

  it('a run that fails is an error verdict with its cause, POSTed once, and the others still run', async () => {
    const server = await startRecordingServer((request, response) => {
      const question = questionOf(request.raw)
      if (question === 'boom') answer(response, 'server exploded', 500)
      else answer(response, question)
    })
    cleanups.push(() => server.close())
    const results = await suite(
      server,
      '- name: a\n  inputs: {in-0: boom}\n- name: b\n  inputs: {in-0: fine}',
      1,
    )
    expect(results.map((r) => r.verdict)).toEqual(['error', 'passed'])
    expect(results[0].failed[0]).toMatch(/HTTP 500.*server exploded.*not retried/)
    expect(server.requests.filter((r) => questionOf(r.raw) === 'boom')).toHaveLength(1)
  })
})
