// The built run-flow action judging answers that are hostile to the judge: an answer no assertion can
// judge, a checks file that expands without end, a json-schema pattern that would backtrack for ever, and
// a long answer whose `similar` would hold the thread while another check's run is being timed. Each
// check fails alone, and every path ends with the outputs and the results file written.
import { afterEach, describe, expect, it } from '@jest/globals'
import type { ChildProcess } from 'node:child_process'
import type { ServerResponse } from 'node:http'
import { performance } from 'node:perf_hooks'
import { PUBLIC_KEY } from '../helpers/keys.js'
import { startRecordingServer, type RecordingServer, type Responder } from '../helpers/recording-server.js'
import { runAction } from '../helpers/run-action.js'
import { makeWorkspace } from '../helpers/workspace.js'

const ids = { 'flow-id': '65f0c0ffee0000000000beef', 'org-id': 'b2a1c3d4-0000-4000-8000-000000000001' }

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function serve(respond: Responder): Promise<RecordingServer> {
  const server = await startRecordingServer(respond)
  cleanups.push(() => server.close())
  return server
}

function answer(response: ServerResponse, text: string): void {
  response.writeHead(200, { 'content-type': 'application/json' })
  response.end(JSON.stringify({ outputs: { 'out-0': text }, run_id: 'run-1', state: 'COMPLETED' }))
}

const questionOf = (raw: Buffer | undefined) => (JSON.parse(String(raw)) as Record<string, string>)['in-0']

// Only a safety net for the code before the fix (a judge that never returns keeps the step alive for
// ever): the assertions are on what the step wrote, never on how long it took.
const KILL_AFTER_MS = 45_000
function killedAfter(ms: number) {
  return (child: ChildProcess) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), ms)
    child.on('close', () => clearTimeout(timer))
  }
}

function runChecks(url: string, checks: string, more: Record<string, string> = {}) {
  const workspace = makeWorkspace({ '.github/flow-checks.yml': checks })
  cleanups.push(() => workspace.remove())
  return runAction({
    action: 'run-flow/action.yml',
    workspace: workspace.dir,
    inputs: { 'base-url': url, ...ids, 'public-key': PUBLIC_KEY, checks: '.github/flow-checks.yml', ...more },
    onStart: killedAfter(KILL_AFTER_MS),
  })
}

interface ResultEntry {
  name: string
  verdict: string
  failed: string[]
  seconds: number
}

describe('run-flow action: one answer that cannot be judged fails alone', () => {
  it('an answer nested too deep for its schema is that check’s error; the others are judged and every output written', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`
    const server = await serve((request, response) =>
      answer(response, questionOf(request.raw) === 'deep' ? deep : '[[]]'),
    )
    const schema =
      '    json-schema: {$ref: "#/definitions/list", definitions: {list: {type: array, items: {$ref: "#/definitions/list"}}}}'
    const run = await runChecks(
      server.url,
      `checks:\n  - name: before\n    inputs: {in-0: a}\n${schema}\n` +
        `  - name: deep\n    inputs: {in-0: deep}\n${schema}\n` +
        `  - name: after\n    inputs: {in-0: b}\n${schema}\n`,
    )
    expect(run.status).toBe(1)
    expect([run.outputs.passed, run.outputs.failed]).toEqual(['2', '1'])
    const results = JSON.parse(run.outputs.results) as ResultEntry[]
    expect(results.map((r) => [r.name, r.verdict])).toEqual([
      ['before', 'passed'],
      ['deep', 'error'],
      ['after', 'passed'],
    ])
    expect(results[1].failed).toEqual(['the answer could not be judged: Maximum call stack size exceeded'])
    expect(run.outputs['results-file']).toBeTruthy()
    expect(run.summary).toContain('| Check | Question | Verdict |')
  })
})

describe('run-flow action: a checks file that expands without end', () => {
  it('refuses a YAML alias bomb naming the input "checks" and the file, before any request', async () => {
    const bomb = [
      'a: &a ["x","x","x","x","x","x","x","x","x"]',
      ...['b', 'c', 'd', 'e', 'f', 'g', 'h'].map(
        (name, i) => `${name}: &${name} [${Array(9).fill(`*${'abcdefg'[i]}`).join(',')}]`,
      ),
      'checks: [{name: a, inputs: {in-0: q}}]',
      '',
    ].join('\n')
    const server = await serve((_request, response) => answer(response, 'never asked'))
    const run = await runChecks(server.url, bomb)
    expect(run.status).toBe(1)
    expect(run.stdout).toMatch(
      /::error::.*Input "checks" \(\.github\/flow-checks\.yml\): not valid YAML or JSON: its aliases \(\*name\) expand too much/,
    )
    expect(server.requests).toHaveLength(0)
  })
})

describe('run-flow action: json-schema patterns run in linear time', () => {
  it('judges a catastrophic pattern against a 49-character answer, and writes every output', async () => {
    // ^(a+)+$ against 48 a's and a "!" backtracks 2^48 ways in a backtracking engine: the step would
    // never end. RE2 answers at once.
    // A text output is judged as JSON text: the answers are JSON strings.
    const server = await serve((request, response) =>
      answer(response, JSON.stringify(questionOf(request.raw) === 'evil' ? `${'a'.repeat(48)}!` : 'aaaa')),
    )
    const run = await runChecks(
      server.url,
      'checks:\n' +
        '  - {name: evil, inputs: {in-0: evil}, json-schema: {type: string, pattern: "^(a+)+$"}}\n' +
        '  - {name: fine, inputs: {in-0: fine}, json-schema: {type: string, pattern: "^(a+)+$"}}\n',
    )
    expect(run.status).toBe(1)
    const results = JSON.parse(run.outputs.results) as ResultEntry[]
    expect(results.map((r) => [r.name, r.verdict])).toEqual([
      ['evil', 'failed'],
      ['fine', 'passed'],
    ])
    expect(results[0].failed).toEqual([
      'json-schema: output "out-0" does not match: (root) must match pattern "^(a+)+$"',
    ])
    expect(run.outputs['results-file']).toBeTruthy()
  })

  it('refuses a pattern RE2 cannot run, naming the check and json-schema, before any request', async () => {
    const server = await serve((_request, response) => answer(response, 'never asked'))
    const run = await runChecks(
      server.url,
      '- {name: look, inputs: {in-0: q}, json-schema: {type: string, pattern: "^(?!refund)"}}\n',
    )
    expect(run.status).toBe(1)
    expect(run.stdout).toMatch(
      /::error::.*Input "checks" \(\.github\/flow-checks\.yml\): check "look" \(#1\), field "json-schema": the schema does not compile: pattern "\^\(\?!refund\)" is not a regular expression in RE2 syntax/,
    )
    expect(server.requests).toHaveLength(0)
  })
})

describe('run-flow action: judging never holds another check’s run', () => {
  it('times a run from its request to its answer, whatever long answers the other checks judge meanwhile', async () => {
    // Three 900,000-character answers with `similar` against a 10,000-character reference: compared in
    // full, each holds the thread for seconds, and the timed check's answer, which comes while they are
    // judged, would be read only after them. Its reported seconds are compared with the time the server
    // itself took to answer it, so the test does not depend on how fast the machine is.
    const reference = 'Refunds are granted within 14 days. '.repeat(300).slice(0, 10_000)
    const long = 'The answer goes on and on about refunds. '.repeat(25_000).slice(0, 900_000)
    const longSent: Promise<void>[] = []
    let service: { received: number; answered?: number } | undefined
    const server = await serve((request, response) => {
      const question = questionOf(request.raw)
      if (question !== 'timed') {
        longSent.push(new Promise((resolve) => response.on('finish', () => resolve())))
        answer(response, long)
        return
      }
      service = { received: performance.now() }
      const timed = service
      void (async () => {
        // Answer once the three long answers are on their way, and a little after.
        while (longSent.length < 3) await new Promise((resolve) => setTimeout(resolve, 10))
        await Promise.all(longSent)
        await new Promise((resolve) => setTimeout(resolve, 200))
        response.on('finish', () => (timed.answered = performance.now()))
        answer(response, 'ok')
      })()
    })
    const similar = `similar: {reference: "${reference}", min-similarity: 0.5}`
    const run = await runChecks(
      server.url,
      'checks:\n' +
        [1, 2, 3].map((i) => `  - {name: long-${i}, inputs: {in-0: long-${i}}, ${similar}}\n`).join('') +
        '  - {name: timed, inputs: {in-0: timed}, contains: ok, max-seconds: 5}\n',
      { concurrency: '4' },
    )
    expect(run.status).toBe(1)
    const results = JSON.parse(run.outputs.results) as ResultEntry[]
    const serviceSeconds = (service!.answered! - service!.received) / 1000
    // The margin is what the request and the reading of a two-word answer may take on a busy machine;
    // one long answer judged in full takes longer than that.
    expect(results.find((r) => r.name === 'timed')!.seconds).toBeLessThan(serviceSeconds + 1)
    expect(results.map((r) => [r.name, r.verdict])).toEqual([
      ['long-1', 'failed'],
      ['long-2', 'failed'],
      ['long-3', 'failed'],
      ['timed', 'passed'],
    ])
    expect(results[0].failed).toEqual([
      'similar 0.50: similarity at most 0.02 (the answer has 900,000 characters, the reference 10,000)',
    ])
  })
})
