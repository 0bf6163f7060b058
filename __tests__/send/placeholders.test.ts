// Placeholders sent against the emulator: PATCH only (never a POST that would add one), a success is
// `removed`, a document that is not there (404) is `removed` and `absent`, and a batch answered 404 is
// searched in parts so the documents that are there are still blanked.
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals'
import { startEmulator } from '../../src/emulator/server.js'
import type { Plan } from '../../src/model.js'
import { placeholderBatches } from '../../src/plan.js'
import { placeholderFor } from '../../src/placeholders.js'
import { writePlaceholderFiles, type PlaceholderFiles } from '../../src/send/placeholder-files.js'
import { sendPlan } from '../../src/send/send-plan.js'
import { ServiceClient } from '../../src/service/client.js'
import { quietLog } from '../helpers/log.js'
import {
  FAST_RETRY,
  makeDocuments,
  PRIVATE_KEY,
  PUBLIC_KEY,
  sha256,
  TARGET,
  type Workspace,
} from './fixture.js'

type Emulator = Awaited<ReturnType<typeof startEmulator>>

let workspace: Workspace
let emulator: Emulator
let client: ServiceClient
let written: PlaceholderFiles | undefined

beforeEach(async () => {
  workspace = await makeDocuments(3)
  emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY })
  client = new ServiceClient({ baseUrl: emulator.url, privateKey: PRIVATE_KEY })
})
afterEach(async () => {
  await client.close()
  await emulator.close()
  await workspace.remove()
  await written?.remove()
})

const COMMIT = 'feedface00000000000000000000000000000001'

async function blank(names: string[], batchSize = 10) {
  const placeholders = names.map((name) => ({ name, content: placeholderFor(name, COMMIT)! }))
  written = await writePlaceholderFiles(placeholders)
  const plan: Plan = {
    batches: placeholderBatches(written.files, batchSize),
    skipped: [],
    placeholders,
    left: [],
    refused: [],
  }
  return sendPlan(plan, client, TARGET, { concurrency: 2, retry: FAST_RETRY, log: quietLog() })
}

describe('placeholders', () => {
  test('replace the documents that are there; one that is not is removed and absent; no POST', async () => {
    for (const file of workspace.files.slice(0, 2))
      await client.uploadDocuments(TARGET, [{ name: file.name, path: file.path }])
    const mark = emulator.requests().length
    const names = workspace.files.map((file) => file.name) // the third was never uploaded

    const result = await blank(names)

    expect(result.items.map((item) => [item.name, item.outcome, item.absent === true])).toEqual([
      [names[0], 'removed', false],
      [names[1], 'removed', false],
      [names[2], 'removed', true],
    ])
    const after = emulator.requests().slice(mark)
    expect(new Set(after.map((request) => request.method))).toEqual(new Set(['PATCH']))
    // The batch was answered 404 (all or nothing), then searched in parts.
    expect(after[0].status).toBe(404)
    // Sent in the batch and in a part, yet never sent again after a failure: no retry.
    expect(result.items.map((item) => item.retries ?? 0)).toEqual([0, 0, 0])
    expect(after.map((request) => request.status).sort()).toEqual([200, 200, 404, 404])
    const stored = emulator.documents(TARGET.flowId, TARGET.orgId, TARGET.nodeId)
    expect(stored.map((document) => document.name)).toEqual(names.slice(0, 2))
    for (const document of stored)
      expect(document.sha256).toBe(sha256(placeholderFor(document.name, COMMIT)!))
  })

  test('a batch of 16 with one document not there is searched in parts, not sent one by one', async () => {
    const many = await makeDocuments(16)
    try {
      const absent = many.files[9].name
      for (const file of many.files)
        if (file.name !== absent) await client.uploadDocuments(TARGET, [{ name: file.name, path: file.path }])
      const mark = emulator.requests().length

      const result = await blank(
        many.files.map((file) => file.name),
        16,
      )

      expect(result.items.filter((item) => item.outcome !== 'removed')).toEqual([])
      expect(result.items.filter((item) => item.absent).map((item) => item.name)).toEqual([absent])
      const requests = emulator.requests().slice(mark)
      // The bound for a batch with one odd document: 2⌈log2(16)⌉ + 2, against 17 one by one.
      expect(requests.length).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(16)) + 2)
      expect(new Set(requests.map((request) => request.method))).toEqual(new Set(['PATCH']))
    } finally {
      await many.remove()
    }
  })

  test('a placeholder the service refuses fails', async () => {
    await emulator.close()
    emulator = await startEmulator({
      privateKey: PRIVATE_KEY,
      publicKey: PUBLIC_KEY,
      rejectDocument: (name) => (name === workspace.files[0].name ? 'refused for the test' : undefined),
    })
    await client.close()
    client = new ServiceClient({ baseUrl: emulator.url, privateKey: PRIVATE_KEY })
    // The emulator refuses this name with 422 (validation), whatever the request.
    const result = await blank([workspace.files[0].name])
    expect(result.items).toEqual([
      expect.objectContaining({
        name: workspace.files[0].name,
        outcome: 'failed',
        error: expect.stringMatching(/422/),
      }),
    ])
  })
})
