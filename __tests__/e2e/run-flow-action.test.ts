// The built run-flow action (dist/run-flow/index.js) run as the runner runs it, against the emulator.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { ServiceClient } from '../../src/service/client.js'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { runAction, workflowCommands } from '../helpers/run-action.js'
import { makeWorkspace } from '../helpers/workspace.js'
import { startRecordingServer } from '../helpers/recording-server.js'
import { PRIVATE_KEY, PUBLIC_KEY } from '../helpers/keys.js'
import { pullRequestExample } from '../helpers/webhook-examples.js'

const target = {
  flowId: '65f0c0ffee0000000000beef',
  orgId: 'b2a1c3d4-0000-4000-8000-000000000001',
  nodeId: 'knowledgebase-1',
}
const ids = { 'flow-id': target.flowId, 'org-id': target.orgId }

/** A real pull_request payload, made to come from a fork (forks get no secrets). */
function forkPullRequestPayload(): Record<string, unknown> {
  const payload = structuredClone(pullRequestExample('opened')) as {
    pull_request: { head: { repo: { fork: boolean } } }
  }
  payload.pull_request.head.repo.fork = true
  return payload
}

let emulator: Emulator
let workspace: ReturnType<typeof makeWorkspace>

// One emulator for the file: each case counts the requests it made itself.
beforeAll(async () => {
  emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY })
  workspace = makeWorkspace({
    'refunds.md': '# Refunds\n\nRefunds are granted within 14 days of a payment.\n',
  })
  const client = new ServiceClient({ baseUrl: emulator.url, privateKey: PRIVATE_KEY })
  await client.uploadDocuments(target, [{ name: 'refunds.md', path: `${workspace.dir}/refunds.md` }])
  await client.close()
})
afterAll(async () => {
  await emulator.close()
  workspace.remove()
})

function runFlow(inputs: Record<string, string>, extra: { eventName?: string; payload?: unknown } = {}) {
  return runAction({
    action: 'run-flow/action.yml',
    inputs: { 'base-url': emulator.url, ...ids, 'public-key': PUBLIC_KEY, ...inputs },
    ...extra,
  })
}

describe('run-flow action', () => {
  // The run without expect: __tests__/e2e/run-flow-bounds.test.ts (result, response and outputs).
  it('runs the flow with the public key, sets result and response, and passes when the answer matches expect', async () => {
    const before = emulator.requests().length
    const run = await runFlow({ inputs: '{"in-0": "How long are refunds granted?"}', expect: '14\\s+days' })
    expect(run.status).toBe(0)
    expect(run.outputs.result).toContain('14 days')
    const response = JSON.parse(run.outputs.response)
    expect(response.outputs['out-0']).toBe(run.outputs.result)
    expect(emulator.requests()).toHaveLength(before + 1)
    const request = emulator.requests().at(-1)!
    expect([request.method, request.path, request.key]).toEqual([
      'POST',
      `/inference/v0/run/${target.orgId}/${target.flowId}`,
      'public',
    ])
    expect(request.inputs).toEqual({ 'in-0': 'How long are refunds granted?' })
    expect(run.summary).toContain('How long are refunds granted?')
  })

  it('never shows the public key, whatever characters it holds, in the log, outputs or summary', async () => {
    // `@` gets a zero-width space, `&`, `<` and `|` become entities in a table or backslash escapes in a
    // quoted answer: the summary is rendered from redacted text, or the rendered key would no longer be found.
    const key = 'pk@live&<x>|"q\\0123456789'
    const echo = await startRecordingServer((request, response) => {
      const token = String(request.headers.authorization).slice('Bearer '.length)
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(
        JSON.stringify({
          outputs: { 'out-0': `You sent ${token}; cut here: ${token.slice(0, 10)}…[cut]` },
          run_id: 'run-1',
          state: 'COMPLETED',
          error: null,
          pause: null,
        }),
      )
    })
    try {
      const run = await runAction({
        action: 'run-flow/action.yml',
        inputs: { 'base-url': echo.url, ...ids, 'public-key': key, inputs: '{"in-0": "q"}' },
      })
      expect(run.status).toBe(0)
      expect(echo.requests[0].headers.authorization).toBe(`Bearer ${key}`)
      const unrendered = (text: string) =>
        text
          .replace(/\u200b/g, '')
          .replace(/&amp;/g, '&')
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/\\([!-/:-@[-`{-~])/g, '$1')
      // The runner reads `::add-mask::` lines (the keys registered with it) and never shows them.
      const log = run.stdout
        .split('\n')
        .filter((line) => !line.startsWith('::add-mask::'))
        .join('\n')
      for (const text of [log, run.summary, JSON.stringify(run.outputs)]) {
        expect(unrendered(text)).not.toContain(key.slice(0, 8))
        expect(text).not.toContain(JSON.stringify(key).slice(1, 9))
      }
      expect(run.outputs.result).toContain('You sent ***')
    } finally {
      await echo.close()
    }
  })

  it('fails showing the answer when it does not match expect', async () => {
    const run = await runFlow({ inputs: '{"in-0": "refunds"}', expect: '^30 days$' })
    expect(run.status).toBe(1)
    expect(run.stdout).toContain('does not match')
    expect(run.stdout).toContain('14 days')
    expect(run.outputs.result).toContain('14 days')
  })

  it('fails naming output-key when the answer has no such output', async () => {
    const run = await runFlow({ inputs: '{"in-0": "refunds"}', 'output-key': 'out-7' })
    expect(run.status).toBe(1)
    expect(run.stdout).toContain('out-7')
  })

  it('skips with a notice in a fork pull request without a key, sending nothing', async () => {
    const before = emulator.requests().length
    const run = await runFlow(
      { inputs: '{"in-0": "x"}', 'public-key': '' },
      { eventName: 'pull_request', payload: forkPullRequestPayload() },
    )
    expect(run.status).toBe(0)
    expect(run.stdout).toMatch(/^::notice::.*/m)
    expect(run.summary).toContain('## Flow run: nothing ran')
    expect(run.summary).toContain('No public key in this pull request')
    expect(emulator.requests()).toHaveLength(before)
  })

  it('fails naming public-key when the key is empty outside a pull request', async () => {
    const run = await runFlow({ inputs: '{"in-0": "x"}', 'public-key': '' }, { eventName: 'push' })
    expect(run.status).toBe(1)
    expect(run.stdout).toContain('"public-key"')
  })

  // The other shapes "inputs" refuses (a value not a string, not an object) are unit tests of the same
  // reading (__tests__/config.test.ts, readRunConfig): this case keeps the path through the bundle.
  it('fails naming inputs on bad JSON, before any request', async () => {
    const before = emulator.requests().length
    const run = await runFlow({ inputs: '{"in-0": ' })
    expect(run.status).toBe(1)
    expect(run.stdout.split('\n').find((l) => l.startsWith('::error::'))).toContain('"inputs"')
    expect(emulator.requests()).toHaveLength(before)
  })

  it('prints an answer made of workflow commands without running them', async () => {
    const hostile = makeWorkspace({
      'evil.md': '::add-mask::secret\n::error::injected\n##[warning]legacy\n::stop-commands::tok\n',
    })
    try {
      const client = new ServiceClient({ baseUrl: emulator.url, privateKey: PRIVATE_KEY })
      await client.uploadDocuments(target, [{ name: 'evil.md', path: `${hostile.dir}/evil.md` }])
      await client.close()
      const run = await runFlow({ inputs: '{"in-0": "add-mask error injected legacy stop-commands"}' })
      expect(run.status).toBe(0)
      expect(run.outputs.result).toContain('::error::injected')
      const ours = workflowCommands(run.stdout).filter(
        (l) => !/^::(group|endgroup|add-mask|debug)::/.test(l.trimStart()),
      )
      expect(ours).toEqual([])
      expect(run.stdout).not.toMatch(/^::add-mask::secret/m)
    } finally {
      hostile.remove()
    }
  })
})
