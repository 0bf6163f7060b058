// Files are opened while their batch waits for a request slot: at most `concurrency` batches ahead of
// those in flight hold open files, and none stays open after the run, whether it finished or was cancelled.
import { afterEach, beforeEach, expect, test } from '@jest/globals'
import { startEmulator } from '../../src/emulator/server.js'
import { sendPlan } from '../../src/send/send-plan.js'
import { ServiceClient } from '../../src/service/client.js'
import { SMALL_DOCUMENT_BYTES } from '../../src/service/multipart.js'
import { openDescriptors, settledOpenDescriptors } from '../helpers/open-descriptors.js'
import {
  FAST_RETRY,
  makeDocuments,
  planFor,
  PRIVATE_KEY,
  PUBLIC_KEY,
  TARGET,
  type Workspace,
} from './fixture.js'
import { quietLog } from '../helpers/log.js'

type Emulator = Awaited<ReturnType<typeof startEmulator>>

let workspace: Workspace
let emulator: Emulator
let client: ServiceClient

beforeEach(async () => {
  // Above SMALL_DOCUMENT_BYTES, so the files are streamed (smaller ones are read whole and closed at once).
  workspace = await makeDocuments(
    60,
    (i) => `# Document ${i}\n\n${'text '.repeat(SMALL_DOCUMENT_BYTES / 5 + i)}`,
  )
})
afterEach(async () => {
  await client.close()
  await emulator.close()
  await workspace.remove()
})

/** Descriptors of this process open on a document of the workspace. */
const openDocuments = () => openDescriptors(workspace.dir)

async function start(onRequest: (seq: number) => void) {
  let seq = 0
  emulator = await startEmulator({
    privateKey: PRIVATE_KEY,
    publicKey: PUBLIC_KEY,
    latencyMs: 20,
    inject: () => {
      onRequest(++seq)
      return undefined
    },
  })
  client = new ServiceClient({ baseUrl: emulator.url, privateKey: PRIVATE_KEY, connections: 2 })
}

test('open files stay bounded by the batches in flight and waiting next, and are all closed at the end', async () => {
  const counts: number[] = []
  await start(() => counts.push(openDocuments()))
  const result = await sendPlan(planFor(workspace.files, 'upload', 5), client, TARGET, {
    concurrency: 2,
    retry: FAST_RETRY,
    log: quietLog(),
  })
  expect(result.items.every((item) => item.outcome === 'uploaded')).toBe(true)
  expect(counts).toHaveLength(12)
  // 2 requests in flight and 2 batches opened ahead, 5 files each.
  expect(Math.max(...counts)).toBeLessThanOrEqual(20)
  expect(Math.max(...counts)).toBeGreaterThan(0)
  expect(openDocuments()).toBe(0)
})

test('a cancelled run leaves no file open, including those opened ahead', async () => {
  const controller = new AbortController()
  await start((seq) => {
    if (seq === 3) controller.abort()
  })
  const result = await sendPlan(planFor(workspace.files, 'upload', 5), client, TARGET, {
    concurrency: 2,
    retry: FAST_RETRY,
    log: quietLog(),
    signal: controller.signal,
    graceMs: 5000,
  })
  expect(result.cancelled).toBe(true)
  expect(result.items.some((item) => item.outcome === 'failed')).toBe(true)
  // Closing is asynchronous: the handles are released within a few turns of the event loop.
  expect(await settledOpenDescriptors(workspace.dir)).toBe(0)
})
