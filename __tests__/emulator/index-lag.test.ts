// The emulator's indexing delay: after an upload or update, flows answer from the previous documents
// for `indexDelayMs`, then from the new ones. The switch is tested on a clock the test moves; over HTTP
// with a delay no run of the test can outlast.
import { afterAll, describe, expect, it } from '@jest/globals'
import { IndexLag } from '../../src/emulator/index-lag.js'
import type { FlowKnowledge } from '../../src/emulator/flow.js'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { PRIVATE_KEY, PUBLIC_KEY } from '../helpers/keys.js'

const kb = { flowId: 'flow-1', orgId: 'org-1', nodeId: 'knowledgebase-1' }
const knowledge = (text: string): FlowKnowledge => ({
  documents: [{ nodeId: kb.nodeId, name: 'a.md', contentType: 'text/markdown', text }],
  urls: [],
})

describe('IndexLag', () => {
  it('answers from the knowledge base before a change until the delay has passed, then from the current one', async () => {
    let now = 1_000
    const lag = new IndexLag(2_000, () => now)
    await lag.changing(kb, async () => knowledge('v1'))
    now = 2_000
    await lag.changing(kb, async () => knowledge('v2'))
    expect(lag.answered(kb)).toEqual(knowledge('v1'))
    now = 2_999
    expect(lag.answered(kb)).toEqual(knowledge('v1'))
    // The first change is answerable, the second is not yet: the knowledge base as the second found it.
    now = 3_000
    expect(lag.answered(kb)).toEqual(knowledge('v2'))
    now = 4_000
    expect(lag.answered(kb)).toBeUndefined()
    expect(lag.answered({ ...kb, nodeId: 'other' })).toBeUndefined()
  })

  it('without a delay keeps nothing', async () => {
    const lag = new IndexLag(0)
    let read = 0
    await lag.changing(kb, async () => {
      read++
      return knowledge('v1')
    })
    expect({ read, answered: lag.answered(kb) }).toEqual({ read: 0, answered: undefined })
  })
})

describe('the emulator with an index delay', () => {
  const started: Emulator[] = []
  afterAll(async () => {
    for (const emulator of started) await emulator.close()
  })

  async function send(emulator: Emulator, method: 'POST' | 'PATCH', text: string) {
    const data = new FormData()
    // Uploads name their parts `files`, updates `file1`..`fileN`.
    data.append(method === 'POST' ? 'files' : 'file1', new Blob([text]), 'docs/refunds.md')
    const response = await fetch(`${emulator.url}/indexing/v0/documents/flow-1/org-1/knowledgebase-1`, {
      method,
      headers: { authorization: `Bearer ${PRIVATE_KEY}` },
      body: data,
    })
    expect(response.status).toBe(200)
  }
  async function ask(emulator: Emulator): Promise<string> {
    const response = await fetch(`${emulator.url}/inference/v0/run/org-1/flow-1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${PUBLIC_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ 'in-0': 'How long are refunds granted?' }),
    })
    return ((await response.json()) as { outputs: { 'out-0': string } }).outputs['out-0']
  }

  it('keeps answering from the previous documents after an upload and an update', async () => {
    // Ten minutes: no run of this test lasts that long, so the old answers cannot be a slow machine's luck.
    const lagging = await startEmulator({
      privateKey: PRIVATE_KEY,
      publicKey: PUBLIC_KEY,
      indexDelayMs: 600_000,
    })
    const prompt = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY })
    started.push(lagging, prompt)
    for (const emulator of [lagging, prompt]) await send(emulator, 'POST', '# Refunds\n\nRefunds: 30 days.\n')
    expect(await ask(lagging)).toContain('No documents indexed')
    expect(await ask(prompt)).toContain('30 days')
    for (const emulator of [lagging, prompt])
      await send(emulator, 'PATCH', '# Refunds\n\nRefunds: 14 days.\n')
    expect(await ask(lagging)).toContain('No documents indexed')
    expect(await ask(prompt)).toContain('14 days')
    // The store holds the new documents at once: only the flow's answers lag.
    expect(lagging.documents('flow-1', 'org-1', 'knowledgebase-1').map((d) => d.name)).toEqual([
      'docs/refunds.md',
    ])
  })

  it('refuses a negative delay', async () => {
    await expect(
      startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY, indexDelayMs: -1 }),
    ).rejects.toThrow('indexDelayMs must be a number >= 0')
  })
})
