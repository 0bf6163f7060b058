// sendPlan against the emulator, counting requests: a full sync (state unknown) into a node that holds
// most documents, with a few new ones scattered through the batches, and a first sync to an empty node.
import { afterEach, describe, expect, test } from '@jest/globals'
import { startEmulator } from '../../src/emulator/server.js'
import { sendPlan, type SendOptions } from '../../src/send/send-plan.js'
import { ServiceClient } from '../../src/service/client.js'
import { quietLog } from '../helpers/log.js'
import {
  FAST_RETRY,
  makeDocuments,
  planFor,
  PRIVATE_KEY,
  PUBLIC_KEY,
  TARGET,
  type Workspace,
} from './fixture.js'

const cleanup: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

async function setUp(count: number) {
  const workspace: Workspace = await makeDocuments(count)
  cleanup.push(() => workspace.remove())
  const emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY })
  cleanup.push(() => emulator.close())
  const client = new ServiceClient({ baseUrl: emulator.url, privateKey: PRIVATE_KEY, connections: 4 })
  cleanup.push(() => client.close())
  /** Puts documents in the node directly, then forgets those requests. */
  const preload = async (names: string[]) => {
    const files = workspace.files.filter((file) => names.includes(file.name))
    for (let i = 0; i < files.length; i += 50) {
      const chunk = files.slice(i, i + 50).map((file) => ({ name: file.name, path: file.path }))
      await client.uploadDocuments(TARGET, chunk)
    }
    return emulator.requests().length
  }
  const stored = () => emulator.documents(TARGET.flowId, TARGET.orgId, TARGET.nodeId)
  return { workspace, emulator, client, preload, stored }
}

const options = (overrides: Partial<SendOptions> = {}): SendOptions => ({
  concurrency: 1,
  retry: FAST_RETRY,
  log: quietLog(),
  ...overrides,
})

describe('a full sync (state unknown) into a node that holds most documents', () => {
  test('one new document per batch of 25: each batch lands in at most 2⌈log2 25⌉ + 2 requests', async () => {
    const { workspace, emulator, client, preload, stored } = await setUp(100)
    const names = workspace.files.map((file) => file.name)
    const fresh = [3, 37, 50, 99].map((i) => names[i])
    const skip = await preload(names.filter((name) => !fresh.includes(name)))
    const result = await sendPlan(planFor(workspace.files, 'auto', 25), client, TARGET, options())

    expect(result.items.filter((item) => item.outcome === 'failed')).toEqual([])
    for (const item of result.items)
      expect([item.name, item.outcome]).toEqual([
        item.name,
        fresh.includes(item.name) ? 'uploaded' : 'updated',
      ])
    expect(stored().every((d) => d.created === 1 && d.updated === (fresh.includes(d.name) ? 0 : 1))).toBe(
      true,
    )

    const requests = emulator.requests().slice(skip)
    expect(result.requests).toBe(requests.length)
    // Each batch is tried whole as POST once (it might have been wholly new), then searched; each new
    // document is POSTed alone, once.
    const posts = requests.filter((request) => request.method === 'POST')
    const postedNames = posts.map((request) => (request.documents ?? []).map((d) => d.filename).join(','))
    expect(postedNames.filter((line) => !line.includes(',')).sort()).toEqual(fresh)
    expect(posts.filter((request) => (request.documents ?? []).length > 1)).toHaveLength(4)
    // Per batch at most 2⌈log2 25⌉ + 2 = 12 (one request per document took 28).
    expect(requests.length).toBeLessThanOrEqual(4 * 12)
  })

  test('URLs are searched the same way', async () => {
    const { emulator, client } = await setUp(0)
    const urls = Array.from({ length: 16 }, (_, i) => `https://example.com/page-${i}`)
    await client.uploadUrls(
      TARGET,
      urls.filter((_, i) => i !== 9),
    )
    const skip = emulator.requests().length
    const result = await sendPlan(planFor([], 'auto', 16, urls), client, TARGET, options())
    expect(result.items.map((item) => item.outcome)).toEqual(
      urls.map((_, i) => (i === 9 ? 'uploaded' : 'updated')),
    )
    expect(emulator.requests().length - skip).toBeLessThanOrEqual(2 * 4 + 2)
  })
})

describe('a full sync into a node an interrupted sync half filled', () => {
  test('the missing batches are each tried whole as POST, never searched', async () => {
    const { workspace, emulator, client, preload, stored } = await setUp(100)
    const names = workspace.files.map((file) => file.name)
    const skip = await preload(names.slice(0, 50))
    const result = await sendPlan(planFor(workspace.files, 'auto', 25), client, TARGET, options())
    expect(result.items.filter((item) => item.outcome === 'failed')).toEqual([])
    expect(stored().every((d) => d.created === 1)).toBe(true)
    const sent = emulator
      .requests()
      .slice(skip)
      .map((request) => `${request.method} ${(request.documents ?? []).length}`)
    // Two batches there (PATCH), two missing (PATCH 404, then POST whole): as many as one request per
    // batch and one more per missing batch, and no part of a batch sent alone.
    expect(sent.sort()).toEqual(['PATCH 25', 'PATCH 25', 'PATCH 25', 'PATCH 25', 'POST 25', 'POST 25'])
  })
})

describe('a first sync to an empty node (state unknown)', () => {
  test('after the first batch learned the node lacks these, every other batch is one POST', async () => {
    const { workspace, emulator, client, stored } = await setUp(100)
    const result = await sendPlan(planFor(workspace.files, 'auto', 25), client, TARGET, options())
    expect(result.items.every((item) => item.outcome === 'uploaded' && item.attempts === 1)).toBe(true)
    expect(emulator.requests().map((request) => request.method)).toEqual([
      'PATCH',
      'POST',
      'POST',
      'POST',
      'POST',
    ])
    expect(stored()).toHaveLength(100)
  })

  test('whatever the concurrency, only the first batch pays the PATCH: the others wait for its answer', async () => {
    const { workspace, emulator, client } = await setUp(200)
    const result = await sendPlan(
      planFor(workspace.files, 'auto', 25),
      client,
      TARGET,
      options({ concurrency: 4 }),
    )
    expect(result.items.every((item) => item.outcome === 'uploaded')).toBe(true)
    const methods = emulator.requests().map((request) => request.method)
    expect(methods.slice(0, 2)).toEqual(['PATCH', 'POST'])
    expect(methods.filter((method) => method === 'PATCH')).toHaveLength(1)
    expect(result.requests).toBe(8 + 1)
  })
})
