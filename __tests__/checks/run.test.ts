// A suite against a real local server: bounded concurrency, one check failing while the others pass,
// a failed run judged as an error and never sent twice, repeats judged against min-pass, a refused key
// ending the suite.
import { afterEach, describe, expect, it } from '@jest/globals'
import type { ServerResponse } from 'node:http'
import type { SuiteRepeats } from '../../src/checks/repeats.js'
import { runChecks } from '../../src/checks/run.js'
import { runsMade, runsPassed } from '../../src/checks/verdict.js'
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

async function suiteOutcome(
  server: RecordingServer,
  checksText: string,
  concurrency: number,
  repeats?: SuiteRepeats,
) {
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
    repeats,
  })
}

async function suite(server: RecordingServer, checksText: string, concurrency: number) {
  return (await suiteOutcome(server, checksText, concurrency)).results
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

  it("an answer that cannot be judged is that run's error with the reason; every other check is judged", async () => {
    // JSON nested 100,000 deep parses, but validating it against a recursive schema overflows the stack.
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`
    const server = await startRecordingServer((request, response) => {
      const question = questionOf(request.raw)
      answer(response, question === 'deep' ? deep : `[${question}]`)
    })
    cleanups.push(() => server.close())
    const nested =
      '  json-schema: {$ref: "#/definitions/list", definitions: {list: {type: array, items: {$ref: "#/definitions/list"}}}}'
    const results = await suite(
      server,
      `- name: first\n  inputs: {in-0: "1"}\n  is-json: true\n` +
        `- name: deep\n  inputs: {in-0: deep}\n${nested}\n` +
        `- name: last\n  inputs: {in-0: "[]"}\n${nested}`,
      1,
    )
    expect(results.map((r) => [r.name, r.verdict])).toEqual([
      ['first', 'passed'],
      ['deep', 'error'],
      ['last', 'passed'],
    ])
    expect(results[1].failed).toEqual(['the answer could not be judged: Maximum call stack size exceeded'])
    expect(results[1].runs[0]).toMatchObject({ answer: deep, runId: `run-${deep}`, started: true })
  })

  it('a match too costly to run is that run’s error, for expect and a json-schema pattern alike', async () => {
    // RE2 is linear in the answer but walks up to its program per character: a program of 3,003 against
    // 90,000 characters would hold the thread for seconds. The work is known before matching.
    const long = 'lorem ipsum '.repeat(7_500)
    const server = await startRecordingServer((request, response) => {
      const question = questionOf(request.raw)
      answer(response, question === 'short' ? 'a 1' : JSON.stringify(long))
    })
    cleanups.push(() => server.close())
    const costly = String.raw`(\w|\s){1000}\d`
    const results = await suite(
      server,
      `- name: expect\n  inputs: {in-0: long}\n  expect: '${costly}'\n` +
        `- name: schema\n  inputs: {in-0: long}\n  json-schema: {type: string, pattern: '${costly}'}\n` +
        `- name: short\n  inputs: {in-0: short}\n  expect: '${String.raw`(\w|\s){1000}|\d`}'`,
      1,
    )
    expect(results.map((r) => [r.name, r.verdict])).toEqual([
      ['expect', 'error'],
      ['schema', 'error'],
      ['short', 'passed'],
    ])
    const reason =
      `the pattern ${JSON.stringify(costly)} (an RE2 program of 3,003) against 90,002 characters is more ` +
      'work than one match may take (40,000,000 program steps × characters); use a shorter pattern (fewer repeats)'
    expect(results[0].failed).toEqual([`the answer could not be judged: ${reason}`])
    expect(results[1].failed).toEqual([expect.stringContaining('is more work than one match may take')])
  })

  describe('repeats', () => {
    // The nth request of a question answers "good" unless n is listed: a flow that varies run to run.
    function varyingServer(badRuns: Record<string, number[]>) {
      const asked = new Map<string, number>()
      return startRecordingServer((request, response) => {
        const question = questionOf(request.raw)
        const n = (asked.get(question) ?? 0) + 1
        asked.set(question, n)
        answer(response, (badRuns[question] ?? []).includes(n) ? 'bad' : 'good')
      })
    }
    const check = (fields: string) => `- name: c\n  inputs: {in-0: q}\n  contains: good\n${fields}`

    const suiteOf = (repeat: number, minPass?: number): SuiteRepeats => ({ repeat, minPass })
    it.each([
      // [runs that answer badly, the check's own fields, the suite's inputs, verdict, runs passed, min-pass]
      [[3], '', suiteOf(3, 2), 'passed', 2, 2],
      [[3], '', suiteOf(3), 'failed', 2, 3],
      // A check's own repeat is judged on its own terms: all its runs, unless it sets min-pass.
      [[3], '  repeat: 3', suiteOf(1, 1), 'failed', 2, 3],
      [[], '  repeat: 3\n  min-pass: 3', suiteOf(1), 'passed', 3, 3],
      [[1, 2], '  repeat: 3\n  min-pass: 1', suiteOf(1), 'passed', 1, 1],
      [[1, 2, 3], '  repeat: 3\n  min-pass: 1', suiteOf(1), 'failed', 0, 1],
      [[2], '  min-pass: 2', suiteOf(3, 3), 'passed', 2, 2],
    ] as [number[], string, SuiteRepeats, string, number, number][])(
      'bad runs %j, check fields %j, suite %j → %s',
      async (bad, fields, repeats, verdict, passed, minPass) => {
        const server = await varyingServer({ q: bad })
        cleanups.push(() => server.close())
        const { results } = await suiteOutcome(server, check(fields), 1, repeats)
        expect(server.requests).toHaveLength(3)
        const [result] = results
        expect(result.verdict).toBe(verdict)
        expect([runsPassed(result), runsMade(result), result.minPass]).toEqual([passed, 3, minPass])
        // Which runs failed, by number, each with its assertion.
        expect(result.failed).toEqual(bad.map((run) => `run ${run}: contains "good": not found`))
        expect(result.runs.map((run) => run.verdict)).toEqual(
          [1, 2, 3].map((run) => (bad.includes(run) ? 'failed' : 'passed')),
        )
      },
    )

    it('the suite repeat applies to checks without their own; each repeat is one request', async () => {
      const server = await varyingServer({ a: [2] })
      cleanups.push(() => server.close())
      const { results } = await suiteOutcome(
        server,
        '- name: a\n  inputs: {in-0: a}\n  contains: good\n- name: b\n  inputs: {in-0: b}\n  repeat: 1',
        3,
        { repeat: 2 },
      )
      expect(server.requests.map((r) => questionOf(r.raw)).sort()).toEqual(['a', 'a', 'b'])
      expect(results.map((r) => [r.name, r.verdict, runsPassed(r), runsMade(r)])).toEqual([
        ['a', 'failed', 1, 2],
        ['b', 'passed', 1, 1],
      ])
    })

    it('a refused key stops the suite: no run is sent after the refusal', async () => {
      const server = await startRecordingServer((_request, response) => answer(response, 'bad key', 401))
      cleanups.push(() => server.close())
      const { results, stopped } = await suiteOutcome(server, manyChecks(4), 1, { repeat: 3 })
      expect(server.requests).toHaveLength(1)
      expect(stopped).toMatch(/refused the key.*HTTP 401/)
      expect(results.map((r) => [r.verdict, runsMade(r)])).toEqual([
        ['error', 1],
        ['error', 0],
        ['error', 0],
        ['error', 0],
      ])
      expect(results[1].failed[0]).toBe('run 1: not run: the service refused the key of an earlier run')
    })

    it('a service on this machine that refuses the connection stops the suite at its first run', async () => {
      // A server that is closed again: its port refuses the connection.
      const closed = await startRecordingServer((_request, response) => answer(response, 'unused'))
      await closed.close()
      const { results, stopped } = await suiteOutcome(closed, manyChecks(3), 1)
      expect(stopped).toMatch(
        /^Nothing is listening at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\): check "base-url"/,
      )
      expect(results.map((r) => [r.verdict, runsMade(r)])).toEqual([
        ['error', 1],
        ['error', 0],
        ['error', 0],
      ])
      expect(results[2].failed[0]).toBe(
        'not run: nothing listens at the base URL (an earlier run was refused the connection)',
      )
    })
  })
})
