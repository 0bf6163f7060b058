// `flows`: the emulator told which flows exist answers 404 for any other flow or node, as the service.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { PRIVATE_KEY, PUBLIC_KEY } from '../helpers/keys.js'

let emulator: Emulator

beforeAll(async () => {
  emulator = await startEmulator({
    privateKey: PRIVATE_KEY,
    publicKey: PUBLIC_KEY,
    flows: [{ orgId: 'org-1', flowId: 'flow-1', nodeId: 'knowledgebase-1' }],
  })
})
afterAll(() => emulator.close())

async function status(method: string, path: string, key: string, body: unknown): Promise<number> {
  const response = await fetch(`${emulator.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  await response.text()
  return response.status
}

describe('emulator with known flows', () => {
  const urls = ['https://example.com/']
  it('serves the known node and flow', async () => {
    expect(await status('POST', '/indexing/v0/urls/flow-1/org-1/knowledgebase-1', PRIVATE_KEY, urls)).toBe(
      200,
    )
    expect(await status('POST', '/inference/v0/run/org-1/flow-1', PUBLIC_KEY, { 'in-0': 'q' })).toBe(200)
  })

  it.each([
    ['another node', '/indexing/v0/urls/flow-1/org-1/knowledgebase-2'],
    ['another flow', '/indexing/v0/urls/flow-2/org-1/knowledgebase-1'],
    ['another org', '/indexing/v0/urls/flow-1/org-2/knowledgebase-1'],
  ])('answers 404 for %s', async (_, path) => {
    expect(await status('POST', path, PRIVATE_KEY, urls)).toBe(404)
  })

  it('answers 404 for a run of another flow', async () => {
    expect(await status('POST', '/inference/v0/run/org-1/flow-l', PUBLIC_KEY, { 'in-0': 'q' })).toBe(404)
  })
})
