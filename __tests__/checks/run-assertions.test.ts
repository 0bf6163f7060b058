// The richer assertions judged on real runs: `cites` against the emulator's retrieval over indexed
// documents, and the named output, structured outputs and latency against a scripted local server.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals'
import type { ServerResponse } from 'node:http'
import { runChecks } from '../../src/checks/run.js'
import { parseChecks } from '../../src/checks/schema.js'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { ServiceClient } from '../../src/service/client.js'
import { DEFAULT_RETRY_POLICY } from '../../src/service/retry.js'
import { PRIVATE_KEY, PUBLIC_KEY } from '../helpers/keys.js'
import { quietLog } from '../helpers/log.js'
import { startRecordingServer } from '../helpers/recording-server.js'
import { makeWorkspace } from '../helpers/workspace.js'

const OPTIONS = {
  log: quietLog(),
  retry: { ...DEFAULT_RETRY_POLICY, baseDelayMs: 1, maxDelayMs: 5 },
  concurrency: 2,
}

const BILLING = `# Billing

Invoices are sent on the first day of each month.

## Refunds

Refunds are possible within 30 days of purchase: write to billing@lumen.example with the invoice number.
`
const INSTALL = `# Installing Lumen

## Requirements

You need 4 GB of memory and a PostgreSQL 15 database.
`

describe('cites, against the emulator', () => {
  let emulator: Emulator
  let client: ServiceClient
  let docs: ReturnType<typeof makeWorkspace>

  beforeAll(async () => {
    emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY })
    client = new ServiceClient({ baseUrl: emulator.url, privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY })
    docs = makeWorkspace({ 'docs/billing.md': BILLING, 'docs/install.md': INSTALL })
    await client.uploadDocuments(
      { flowId: 'flow-1', orgId: 'org-1', nodeId: 'knowledgebase-1' },
      ['docs/billing.md', 'docs/install.md'].map((name) => ({
        name,
        path: `${docs.dir}/${name}`,
        size: Buffer.byteLength(name === 'docs/billing.md' ? BILLING : INSTALL),
      })),
    )
  })
  afterAll(async () => {
    await client.close()
    await emulator.close()
    docs.remove()
  })

  it('passes when the answer cites the documents named, and fails naming the ones it does not', async () => {
    const checks = parseChecks(`
- name: refunds cite billing
  inputs: { in-0: "How do I get a refund?" }
  cites: [billing.md, docs/billing.md]
  contains: "30 days"
- name: refunds cite the install guide
  inputs: { in-0: "How do I get a refund?" }
  cites: [docs/install.md, billing.md]
- name: memory cites the install guide
  inputs: { in-0: "How much memory is required?" }
  cites: install.md
`)
    const results = (await runChecks(client, { orgId: 'org-1', flowId: 'flow-1' }, checks, OPTIONS)).results
    expect(results.map((result) => [result.name, result.verdict])).toEqual([
      ['refunds cite billing', 'passed'],
      ['refunds cite the install guide', 'failed'],
      ['memory cites the install guide', 'passed'],
    ])
    expect(results[1].failed).toEqual([
      expect.stringMatching(
        /^cites "docs\/install.md": not cited \(cited: "docs\/billing.md"(, "[^"]+")*\)$/,
      ),
    ])
    expect(results[1].failed[0].split('(cited: ')[1]).not.toContain('install.md')
  })

  it('fails an answer that cites nothing, saying so', async () => {
    const checks = parseChecks(`
- name: empty flow
  inputs: { in-0: "How do I get a refund?" }
  cites: billing.md
- name: unrelated question
  inputs: { in-0: "zebra quantum" }
  cites: billing.md
`)
    const results = (
      await runChecks(client, { orgId: 'org-1', flowId: 'empty-flow' }, checks.slice(0, 1), OPTIONS)
    ).results
    expect(results[0]).toMatchObject({
      verdict: 'failed',
      failed: ['cites "billing.md": the answer cites no documents'],
    })
    const unrelated = (
      await runChecks(client, { orgId: 'org-1', flowId: 'flow-1' }, checks.slice(1), OPTIONS)
    ).results
    expect(unrelated[0]).toMatchObject({
      verdict: 'failed',
      failed: ['cites "billing.md": the answer cites no documents'],
    })
  })

  it('judges the whole outputs map of a real answer with on: outputs', async () => {
    const checks = parseChecks(`
- name: outputs shape
  inputs: { in-0: "How do I get a refund?" }
  on: outputs
  json-schema: { type: object, required: [out-0], properties: { out-0: { type: string, minLength: 1 } } }
- name: two outputs
  inputs: { in-0: "How do I get a refund?" }
  on: outputs
  json-schema: { type: object, required: [out-0, out-1] }
`)
    const results = (await runChecks(client, { orgId: 'org-1', flowId: 'flow-1' }, checks, OPTIONS)).results
    expect(results.map((result) => result.verdict)).toEqual(['passed', 'failed'])
    expect(results[1].failed).toEqual([
      "json-schema: the outputs map does not match: (root) must have required property 'out-1'",
    ])
  })
})

describe('named and structured outputs, latency, on a scripted server', () => {
  const cleanups: (() => Promise<void>)[] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })

  // out-0 is text, out-1 a structured value; a question "slow" is answered after 300 ms.
  async function scripted() {
    const server = await startRecordingServer((request, response: ServerResponse) => {
      const question = (JSON.parse(String(request.raw)) as Record<string, string>)['in-0']
      const send = () => {
        response.writeHead(200, { 'content-type': 'application/json' })
        response.end(
          JSON.stringify({
            outputs: { 'out-0': `text for ${question}`, 'out-1': { price: 999, currency: 'USD' } },
            run_id: `run-${question}`,
            state: 'COMPLETED',
          }),
        )
      }
      if (question === 'slow') setTimeout(send, 300)
      else send()
    })
    const client = new ServiceClient({ baseUrl: server.url, publicKey: PUBLIC_KEY })
    cleanups.push(
      () => server.close(),
      () => client.close(),
    )
    return client
  }

  it('judges the output a check names, a structured one by its JSON', async () => {
    const client = await scripted()
    const checks = parseChecks(`
- name: price as json
  inputs: { in-0: price }
  output: out-1
  is-json: true
  json-schema: { type: object, required: [price], properties: { price: { type: number, maximum: 1000 } } }
  contains: '"currency":"USD"'
  starts-with: '{"price":999'
- name: price too high
  inputs: { in-0: price }
  output: out-1
  json-schema: { type: object, properties: { price: { type: number, maximum: 500 } } }
- name: text output
  inputs: { in-0: hello }
  equals: text for hello
  is-json: true
- name: missing output
  inputs: { in-0: hello }
  output: out-7
`)
    const results = (await runChecks(client, { orgId: 'org-1', flowId: 'flow-1' }, checks, OPTIONS)).results
    expect(results.map((result) => result.verdict)).toEqual(['passed', 'failed', 'failed', 'error'])
    expect(results[0].answer).toBe('{"price":999,"currency":"USD"}')
    expect(results[1].failed).toEqual(['json-schema: output "out-1" does not match: /price must be <= 500'])
    expect(results[2].failed).toEqual([expect.stringMatching(/^is-json: output "out-0" is not JSON \(/)])
    expect(results[3].failed).toEqual([
      'The flow\'s answer has no output "out-7" (outputs: "out-0", "out-1").',
    ])
  })

  it('max-seconds fails a run slower than the bound, with its time', async () => {
    const client = await scripted()
    const checks = parseChecks(`
- name: slow
  inputs: { in-0: slow }
  max-seconds: 0.1
- name: generous
  inputs: { in-0: slow }
  max-seconds: 600
`)
    const results = (await runChecks(client, { orgId: 'org-1', flowId: 'flow-1' }, checks, OPTIONS)).results
    expect(results[0].verdict).toBe('failed')
    expect(results[0].failed).toEqual([`max-seconds 0.1: the run took ${results[0].seconds} s`])
    expect(results[0].seconds).toBeGreaterThanOrEqual(0.3)
    expect(results[1].verdict).toBe('passed')
  })
})
