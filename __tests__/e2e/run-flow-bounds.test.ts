// The built run-flow action against services that misbehave: a huge answer, no answer at all, escape
// sequences, and patterns that would backtrack for ever. Every path ends with its outputs written.
import { afterEach, describe, expect, it } from '@jest/globals'
import { runAction } from '../helpers/run-action.js'
import { makeWorkspace } from '../helpers/workspace.js'
import { startRecordingServer, type RecordingServer, type Responder } from '../helpers/recording-server.js'
import { PUBLIC_KEY } from '../helpers/keys.js'

const ids = { 'flow-id': '65f0c0ffee0000000000beef', 'org-id': 'b2a1c3d4-0000-4000-8000-000000000001' }
const MIB = 1024 * 1024

let service: RecordingServer | undefined
afterEach(async () => {
  await service?.close()
  service = undefined
})

async function serve(respond: Responder): Promise<string> {
  service = await startRecordingServer(respond)
  return service.url
}

const answer =
  (outputs: Record<string, unknown>, extra: Record<string, unknown> = {}): Responder =>
  (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(
      JSON.stringify({ outputs, run_id: 'run-1', state: 'COMPLETED', error: null, pause: null, ...extra }),
    )
  }

function runFlow(
  baseUrl: string,
  inputs: Record<string, string> = {},
  onStart?: Parameters<typeof runAction>[0]['onStart'],
) {
  return runAction({
    action: 'run-flow/action.yml',
    inputs: {
      'base-url': baseUrl,
      ...ids,
      'public-key': PUBLIC_KEY,
      inputs: '{"in-0": "refunds?"}',
      ...inputs,
    },
    onStart,
  })
}

describe('run-flow action bounds', () => {
  it('writes result, response and outputs; outputs is the whole outputs map', async () => {
    const url = await serve(answer({ 'out-0': '14 days', 'out-1': { score: 0.9 } }))
    const run = await runFlow(url)
    expect(run.status).toBe(0)
    expect(run.outputs.result).toBe('14 days')
    expect(JSON.parse(run.outputs.outputs)).toEqual({ 'out-0': '14 days', 'out-1': { score: 0.9 } })
    expect(JSON.parse(run.outputs.response).state).toBe('COMPLETED')
  })

  it('keeps all outputs within the outputs budget for a 10 MB answer, saying what was cut', async () => {
    // Well past what the client keeps of an answer (4 × 900 KiB): larger only costs parsing time.
    const big = 'refund policy '.repeat(Math.ceil((10 * 1000 * 1000) / 14))
    const url = await serve(answer({ 'out-0': big }))
    const run = await runFlow(url, { expect: 'refund' })
    expect(run.status).toBe(0)
    for (const name of ['result', 'response', 'outputs']) {
      expect(run.outputs[name]).toBeDefined()
      expect(Buffer.byteLength(run.outputs[name])).toBeLessThan(MIB)
    }
    expect(JSON.parse(run.outputs.outputs)['out-0']).toMatch(/characters removed\]$/)
    expect(run.outputs.result).toMatch(
      /…\[cut by kb-sync: the first [\d,]+ characters of an output of 10,000,004 bytes are kept; the file named by the "results-file" output holds its first [\d,]+ bytes\]$/,
    )
    const total = Object.entries(run.outputs).reduce((n, [name, value]) => n + name.length + value.length, 0)
    expect(total).toBeLessThanOrEqual(256_000)
    expect(run.stdout).toMatch(
      /::warning::Outputs cut to stay within the outputs budget .*result \([\d,]+ characters left out\)/,
    )
    expect(run.stdout.length).toBeLessThan(MIB)
    expect(run.stdout).toMatch(/::warning::The output "result" \(out-0\) was cut/)
    expect(Buffer.byteLength(run.summary)).toBeLessThan(MIB)
    expect(service!.requests).toHaveLength(1)
  })

  it('quotes only the beginning of a huge answer that does not match expect', async () => {
    const url = await serve(answer({ 'out-0': 'a'.repeat(5 * MIB) }))
    const run = await runFlow(url, { expect: '^(a+)+$b' })
    expect(run.status).toBe(1)
    const failure = run.stdout.split('\n').find((line) => line.startsWith('::error::'))!
    expect(failure).toContain('does not match')
    expect(failure).toMatch(/more characters in the .*result.* output\]$/)
    expect(failure.length).toBeLessThan(10_000)
  })

  it('refuses an expect pattern RE2 does not support before any request', async () => {
    const url = await serve(answer({ 'out-0': 'x' }))
    const run = await runFlow(url, { expect: '14(?= days)' })
    expect(run.status).toBe(1)
    expect(run.stdout).toMatch(/::error::.*Input "expect" must be a regular expression in RE2 syntax/)
    expect(service!.requests).toHaveLength(0)
  })

  it('stops at run-timeout when the service never answers, writing outputs and summary', async () => {
    const url = await serve(() => undefined)
    const run = await runFlow(url, { 'run-timeout': '1' })
    expect(run.status).toBe(1)
    expect(run.stdout).toMatch(/::error::.*"run-timeout" \(1 s\)/)
    expect(run.outputs).toEqual({
      result: '',
      response: '',
      outputs: '{}',
      skipped: 'false',
      'results-file': expect.stringMatching(/kb-sync-results-[\w-]+\.json$/),
    })
    expect(run.summary).toContain('Flow run failed')
    expect(service!.requests).toHaveLength(1)
  })

  it('on SIGTERM ends the step with outputs and summary written', async () => {
    const url = await serve(() => undefined)
    const run = await runFlow(url, {}, (child) => {
      const timer = setInterval(() => {
        if ((service?.requests.length ?? 0) > 0 || child.exitCode !== null) {
          clearInterval(timer)
          child.kill('SIGTERM')
        }
      }, 20)
    })
    expect(run.status).toBe(1)
    expect(run.stdout).toMatch(/::error::The flow run was cancelled/)
    expect(run.outputs).toEqual({
      result: '',
      response: '',
      outputs: '{}',
      skipped: 'false',
      'results-file': expect.stringMatching(/kb-sync-results-[\w-]+\.json$/),
    })
    expect(run.summary).toContain('cancelled')
  })

  it('fails a run the service reports as failed, with its message and the answer in response', async () => {
    const url = await serve(answer({}, { state: 'FAILED', error: 'LLM provider timed out' }))
    const run = await runFlow(url)
    expect(run.status).toBe(1)
    expect(run.stdout).toMatch(/::error::.*state FAILED.*LLM provider timed out/)
    expect(JSON.parse(run.outputs.response).error).toBe('LLM provider timed out')
    expect(run.outputs.result).toBe('')
  })

  it('removes escape sequences and control characters from the log, the summary and annotations', async () => {
    const hostile = '\u001b[31mred\u001b[0m \u001b]0;owned\u0007done\u0008'
    const url = await serve(answer({ 'out-0': hostile }))
    const run = await runFlow(url, { expect: 'nomatch' })
    expect(run.status).toBe(1)
    // eslint-disable-next-line no-control-regex
    const controls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/
    expect(run.stdout).not.toMatch(controls)
    expect(run.summary).not.toMatch(controls)
    expect(run.stdout).toContain('red done')
    expect(run.outputs.result).toBe(hostile)

    await service!.close()
    const refusing = await serve((_request, response) => {
      response.writeHead(400, { 'content-type': 'application/json' })
      // Raw control bytes, as a service's plain-text error could carry them.
      response.end('{"detail": "\u001b[2Jbad \u0007input"}')
    })
    const refused = await runFlow(refusing)
    expect(refused.status).toBe(1)
    expect(refused.stdout).not.toMatch(controls)
    expect(refused.stdout).toMatch(/::error::.*bad input/)
  })

  it('fails at once on 401 naming public-key, never showing the key', async () => {
    const url = await serve((_request, response) => {
      response.writeHead(401, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ detail: `invalid token ${PUBLIC_KEY}` }))
    })
    const run = await runFlow(url)
    expect(run.status).toBe(1)
    expect(run.stdout).toMatch(/::error::.*HTTP 401.*"public-key"/)
    // The one line that names the key is the runner's own masking command.
    const printed = run.stdout.split('\n').filter((line) => !line.startsWith('::add-mask::'))
    expect(printed.join('\n') + run.summary + JSON.stringify(run.outputs)).not.toContain(PUBLIC_KEY)
    expect(service!.requests).toHaveLength(1)
  })
})

describe('the flow run of the index action', () => {
  it('is POSTed once when the connection closes after the run was sent, and the step fails naming it', async () => {
    const workspace = makeWorkspace({ 'docs/refunds.md': '# Refunds\n\n14 days.\n' })
    try {
      const url = await serve((request, response, socket) => {
        if (request.url.startsWith('/inference/')) socket.destroy()
        else {
          response.writeHead(200, { 'content-type': 'application/json' })
          response.end('{"uploaded": ["docs/refunds.md"]}')
        }
      })
      const run = await runAction({
        action: 'action.yml',
        workspace: workspace.dir,
        inputs: {
          'base-url': url,
          ...ids,
          'node-id': 'knowledgebase-1',
          'private-key': 'priv-bounds-1234567890',
          'public-key': PUBLIC_KEY,
          files: 'docs/**',
          'flow-inputs': '{"in-0": "refunds?"}',
        },
      })
      expect(run.status).toBe(1)
      expect(service!.requests.filter((r) => r.url.startsWith('/inference/'))).toHaveLength(1)
      expect(run.stdout).toMatch(/::error::The flow run after indexing failed: .*not retried/)
      const sent = [...JSON.parse(run.outputs.uploaded), ...JSON.parse(run.outputs.updated)]
      expect(sent).toEqual(['docs/refunds.md'])
      expect(run.outputs.outputs).toBe('{}')
    } finally {
      workspace.remove()
    }
  })
})

describe('run-flow action with checks', () => {
  const CHECKS = `checks:
  - name: refunds
    inputs: {in-0: refunds}
    contains: [14 days]
  - name: tone
    inputs: {in-0: tone}
    not-contains: 14 DAYS
    case-insensitive: true
  - name: length
    inputs: {in-0: length}
    min-length: 3
`
  it('runs every check, writes passed, failed and results, and fails below the threshold', async () => {
    const workspace = makeWorkspace({ '.github/flow-checks.yml': CHECKS })
    try {
      const url = await serve(answer({ 'out-0': 'Refunds within 14 days.' }))
      const run = await runAction({
        action: 'run-flow/action.yml',
        workspace: workspace.dir,
        inputs: { 'base-url': url, ...ids, 'public-key': PUBLIC_KEY, checks: '.github/flow-checks.yml' },
      })
      expect(run.status).toBe(1)
      expect([run.outputs.passed, run.outputs.failed]).toEqual(['2', '1'])
      const results = JSON.parse(run.outputs.results) as { name: string; verdict: string; failed: string[] }[]
      expect(results.map((r) => [r.name, r.verdict])).toEqual([
        ['refunds', 'passed'],
        ['tone', 'failed'],
        ['length', 'passed'],
      ])
      expect(results[1].failed).toEqual(['not-contains "14 DAYS": found'])
      expect(run.stdout).toMatch(
        /::error::Flow checks: 2 of 3 checks passed .*below the threshold 100%25\. Failed checks: "tone"\./,
      )
      expect(run.summary).toContain(
        '| Check | Question | Verdict | Runs | Seconds | First failed assertion |',
      )
      expect(run.summary.match(/<details>/g)).toHaveLength(3)
      expect(service!.requests).toHaveLength(3)

      const lenient = await runAction({
        action: 'run-flow/action.yml',
        workspace: workspace.dir,
        inputs: {
          'base-url': url,
          ...ids,
          'public-key': PUBLIC_KEY,
          checks: '.github/flow-checks.yml',
          threshold: '66%',
        },
      })
      expect(lenient.status).toBe(0)
      expect(lenient.stdout).toMatch(
        /::warning::Flow checks: 2 of 3 checks passed .*threshold 66%25 met with failed checks: "tone"\./,
      )
    } finally {
      workspace.remove()
    }
  })

  it('refuses an invalid checks file before any request, naming the check and field', async () => {
    const url = await serve(answer({ 'out-0': 'x' }))
    const run = await runFlow(url, {
      inputs: '',
      checks: '- name: a\n  inputs: {in-0: q}\n  max-length: many\n',
    })
    expect(run.status).toBe(1)
    expect(run.stdout).toMatch(/::error::.*Input "checks": check "a" \(#1\), field "max-length"/)
    expect(service!.requests).toHaveLength(0)
  })
})

describe('run-flow action with many checks', () => {
  const many = Array.from(
    { length: 24 },
    (_, i) => `- name: c${i}\n  inputs: {in-0: q${i}}\n  contains: ok`,
  ).join('\n')

  it('runs 24 checks 8 at a time with no Node warning in the log', async () => {
    const url = await serve(answer({ 'out-0': 'ok' }))
    const run = await runFlow(url, { inputs: '', checks: many, concurrency: '8' })
    expect(run.status).toBe(0)
    expect(run.outputs.passed).toBe('24')
    expect(run.stderr).not.toMatch(/Warning/)
    expect(run.stdout).not.toMatch(/MaxListeners/)
  })

  it('on SIGTERM ends the suite with every check reported and the outputs written', async () => {
    const url = await serve(() => undefined)
    const run = await runFlow(url, { inputs: '', checks: many }, (child) => {
      const timer = setInterval(() => {
        if ((service?.requests.length ?? 0) > 0 || child.exitCode !== null) {
          clearInterval(timer)
          child.kill('SIGTERM')
        }
      }, 20)
    })
    expect(run.status).toBe(1)
    expect([run.outputs.passed, run.outputs.failed]).toEqual(['0', '24'])
    const results = JSON.parse(run.outputs.results) as { verdict: string; failed: string[] }[]
    expect(results.every((r) => r.verdict === 'error')).toBe(true)
    expect(results.some((r) => r.failed[0].includes('cancelled'))).toBe(true)
    expect(service!.requests.length).toBeLessThanOrEqual(2)
  })
})
