// Documents found not to be sent while the first batches are already out (drafts looked for during the
// send): each batch waits for its own answer only, withheld documents are neither sent nor given an
// outcome, and a batch left empty sends no request.
import { afterEach, expect, test } from '@jest/globals'
import { startEmulator } from '../../src/emulator/server.js'
import { sendPlan } from '../../src/send/send-plan.js'
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

let workspace: Workspace | undefined
let stop: (() => Promise<void>) | undefined
afterEach(async () => {
  await stop?.()
  await workspace?.remove()
})

async function start(onRequest?: () => void) {
  const emulator = await startEmulator({
    privateKey: PRIVATE_KEY,
    publicKey: PUBLIC_KEY,
    inject: () => {
      onRequest?.()
      return undefined
    },
  })
  const client = new ServiceClient({ baseUrl: emulator.url, privateKey: PRIVATE_KEY })
  stop = async () => {
    await client.close()
    await emulator.close()
  }
  return { emulator, client }
}

test('a batch is sent before a later batch knows what it withholds; withheld documents get no outcome', async () => {
  workspace = await makeDocuments(6)
  // Batches [000 001] [002 003] [004 005]: the second answers only once the first request reached the
  // service, so the send cannot have waited for it before sending the first.
  let firstArrived!: () => void
  const arrived = new Promise<void>((resolve) => (firstArrived = resolve))
  const { emulator, client } = await start(() => firstArrived())
  const asked: number[] = []
  const progress: { done: number; total: number }[] = []
  const result = await sendPlan(planFor(workspace.files, 'upload', 2), client, TARGET, {
    concurrency: 1,
    log: quietLog(),
    retry: FAST_RETRY,
    onProgress: ({ done, total }) => progress.push({ done, total }),
    withhold: async (index) => {
      asked.push(index)
      if (index === 0) return new Set(['doc-001.md'])
      await arrived
      // The third batch withholds both its documents: it is not sent at all.
      return new Set(index === 1 ? [] : ['doc-004.md', 'doc-005.md'])
    },
  })
  expect(asked).toEqual([0, 1, 2])
  const sent = emulator.requests().map((entry) => entry.documents?.map((d) => d.filename))
  expect(sent).toEqual([['doc-000.md'], ['doc-002.md', 'doc-003.md']])
  expect(result.requests).toBe(2)
  expect(result.items.map((item) => [item.name, item.outcome])).toEqual([
    ['doc-000.md', 'uploaded'],
    ['doc-002.md', 'uploaded'],
    ['doc-003.md', 'uploaded'],
  ])
  // The emptied batch leaves the total: 2 of 2 batches at the end, not 2 of 3.
  expect(progress.at(-1)).toEqual({ done: 2, total: 2 })
})

test('a batch whose answer fails fails its documents with the error, and the others are still sent', async () => {
  workspace = await makeDocuments(4)
  const { emulator, client } = await start()
  const result = await sendPlan(planFor(workspace.files, 'upload', 2), client, TARGET, {
    concurrency: 1,
    log: quietLog(),
    retry: FAST_RETRY,
    withhold: (index) =>
      index === 0
        ? Promise.reject(new Error('drafts could not be looked for'))
        : Promise.resolve(new Set<string>()),
  })
  expect(emulator.requests().map((entry) => entry.documents?.map((d) => d.filename))).toEqual([
    ['doc-002.md', 'doc-003.md'],
  ])
  expect(result.items.map((item) => [item.name, item.outcome, item.error])).toEqual([
    ['doc-000.md', 'failed', 'drafts could not be looked for'],
    ['doc-001.md', 'failed', 'drafts could not be looked for'],
    ['doc-002.md', 'uploaded', undefined],
    ['doc-003.md', 'uploaded', undefined],
  ])
})
