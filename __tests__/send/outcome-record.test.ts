// The send's outcome of each item is the record the report gets: a document's name and size come from its
// file (the size as last seen), yet a copy and JSON show the same keys, in the same order, as a plain record.
import { afterEach, expect, test } from '@jest/globals'
import { writeFileSync } from 'node:fs'
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

test('outcomes copy and serialise as plain records: kind, name, outcome, operation, attempts, size, retries', async () => {
  workspace = await makeDocuments(2)
  const grown = '# Document 1\n\ngrown before the retry, so the size sent is this one\n'
  let failed = false
  const emulator = await startEmulator({
    privateKey: PRIVATE_KEY,
    publicKey: PUBLIC_KEY,
    retryAfterSeconds: 0,
    // The documents' first request fails, and one of them grows before the retry: its outcome's size is
    // the size it was sent with.
    inject: ({ path }) => {
      if (failed || !path.includes('/documents/')) return undefined
      failed = true
      writeFileSync(workspace!.path('doc-001.md'), grown)
      return 'unavailable'
    },
  })
  const client = new ServiceClient({ baseUrl: emulator.url, privateKey: PRIVATE_KEY, connections: 1 })
  stop = async () => {
    await client.close()
    await emulator.close()
  }
  const plan = planFor(workspace.files, 'upload', 10, ['https://example.com/a'])
  const { items } = await sendPlan(plan, client, TARGET, {
    concurrency: 1,
    log: quietLog(),
    retry: FAST_RETRY,
  })
  const byName = new Map(items.map((item) => [item.name, item]))
  const document = byName.get('doc-001.md')!
  // Retried once (the 503): `retries` only on an item that was sent again.
  expect(Object.keys(document)).toEqual([
    'kind',
    'name',
    'outcome',
    'operation',
    'attempts',
    'size',
    'retries',
  ])
  expect({ ...document }).toEqual({
    kind: 'document',
    name: 'doc-001.md',
    outcome: 'uploaded',
    operation: 'upload',
    attempts: 2,
    size: Buffer.byteLength(grown),
    retries: 1,
  })
  expect(JSON.parse(JSON.stringify(document))).toEqual({ ...document })
  const url = byName.get('https://example.com/a')!
  expect(Object.keys(url)).toEqual(['kind', 'name', 'outcome', 'operation', 'attempts'])
  expect(url.kind).toBe('url')
})
