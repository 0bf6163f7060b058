// Batches are opened one per turn of the event loop: a request whose files are open leaves for the service
// while the next batches are still being read, instead of after all of them (small files are read
// synchronously, so batches opened back to back would hold the event loop); and a batch that is slow to
// open asynchronously does not hold the ones behind it.
import { afterEach, beforeEach, expect, test } from '@jest/globals'
import { startEmulator } from '../../src/emulator/server.js'
import { sendPlan } from '../../src/send/send-plan.js'
import { ServiceClient } from '../../src/service/client.js'
import type { DocumentRef } from '../../src/service/multipart.js'
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

let workspace: Workspace
let emulator: Awaited<ReturnType<typeof startEmulator>>
let client: ServiceClient
/** When each request reached the emulator (performance.now()). */
let arrivals: number[]
/** Told of each arrival. */
let onArrival: (() => void) | undefined

beforeEach(async () => {
  workspace = await makeDocuments(32)
  arrivals = []
  onArrival = undefined
  emulator = await startEmulator({
    privateKey: PRIVATE_KEY,
    publicKey: PUBLIC_KEY,
    latencyMs: 20,
    inject: () => {
      arrivals.push(performance.now())
      onArrival?.()
      return undefined
    },
  })
})
afterEach(async () => {
  await client.close()
  await emulator.close()
  await workspace.remove()
})

/** A client whose opening of a batch takes `ms` of the main thread, as reading many small files does. */
class SlowOpeningClient extends ServiceClient {
  readonly openedAt: number[] = []
  constructor(
    baseUrl: string,
    private readonly ms: number,
  ) {
    super({ baseUrl, privateKey: PRIVATE_KEY })
  }
  override openDocuments(documents: DocumentRef[]) {
    const until = performance.now() + this.ms
    while (performance.now() < until) {
      // The synchronous reads of a batch of small files.
    }
    this.openedAt.push(performance.now())
    return super.openDocuments(documents)
  }
}

/** Uploads the 32 documents in 16 batches of 2, 8 in flight, through `through`; all must land. */
async function uploadAll(through: ServiceClient): Promise<void> {
  client = through
  const result = await sendPlan(planFor(workspace.files, 'upload', 2), client, TARGET, {
    concurrency: 8,
    retry: FAST_RETRY,
    log: quietLog(),
  })
  expect(result.items.every((item) => item.outcome === 'uploaded')).toBe(true)
}

test('the first request reaches the service before most batches are opened', async () => {
  const slow = new SlowOpeningClient(emulator.url, 10)
  await uploadAll(slow)
  expect(slow.openedAt).toHaveLength(16)
  expect(arrivals).toHaveLength(16)
  // Opened back to back in one turn, all 16 batches (8 sent at once, 8 opened ahead) were read before
  // any request left.
  const openedBeforeFirstArrival = slow.openedAt.filter((at) => at < arrivals[0]).length
  expect(openedBeforeFirstArrival).toBeLessThanOrEqual(8)
})

/** A client whose first batch opens asynchronously only once `opened` resolves (a large file on a slow disk). */
class SlowFirstOpenClient extends ServiceClient {
  firstOpenedAt = 0
  private calls = 0
  constructor(
    baseUrl: string,
    private readonly opened: Promise<void>,
  ) {
    super({ baseUrl, privateKey: PRIVATE_KEY })
  }
  override async openDocuments(documents: DocumentRef[]) {
    if (this.calls++ === 0) {
      await this.opened
      this.firstOpenedAt = performance.now()
    }
    return super.openDocuments(documents)
  }
}

test('a batch slow to open does not hold the batches behind it', async () => {
  // The first batch finishes opening only after the other 15 reached the service: were they held behind
  // it, nothing would move and the test would end at jest's timeout; no wall-clock guess either way.
  const othersArrived = new Promise<void>((resolve) => {
    onArrival = () => {
      if (arrivals.length === 15) resolve()
    }
  })
  const slow = new SlowFirstOpenClient(emulator.url, othersArrived)
  await uploadAll(slow)
  expect(arrivals).toHaveLength(16)
  // The other 15 batches were sent while the first was still opening.
  expect(arrivals.filter((at) => at < slow.firstOpenedAt)).toHaveLength(15)
})
