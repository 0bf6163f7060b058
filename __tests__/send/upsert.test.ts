// sendPlan against the emulator: the upsert switch, the modes without fallback, splitting of a batch a
// document of which is refused.
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals'
import { readFile } from 'node:fs/promises'
import { startEmulator } from '../../src/emulator/server.js'
import type { ItemOutcome } from '../../src/model.js'
import { sendPlan, type SendOptions } from '../../src/send/send-plan.js'
import { ServiceClient } from '../../src/service/client.js'
import {
  FAST_RETRY,
  makeDocuments,
  planFor,
  PRIVATE_KEY,
  PUBLIC_KEY,
  sha256,
  TARGET,
  type Workspace,
} from './fixture.js'
import { quietLog, recordingLog } from '../helpers/log.js'

type Emulator = Awaited<ReturnType<typeof startEmulator>>

let workspace: Workspace
let emulator: Emulator | undefined
let client: ServiceClient | undefined

beforeEach(async () => {
  workspace = await makeDocuments(6)
})

afterEach(async () => {
  await client?.close()
  await emulator?.close()
  await workspace.remove()
  client = emulator = undefined
})

async function start(options: Partial<Parameters<typeof startEmulator>[0]> = {}): Promise<Emulator> {
  emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY, ...options })
  client = new ServiceClient({ baseUrl: emulator.url, privateKey: PRIVATE_KEY, connections: 4 })
  return emulator
}

function options(overrides: Partial<SendOptions> = {}): SendOptions {
  return { concurrency: 4, retry: FAST_RETRY, log: quietLog(), ...overrides }
}

/** Puts documents in the knowledge base directly (one POST each), then forgets those requests. */
async function preload(names: string[]): Promise<number> {
  const files = workspace.files.filter((file) => names.includes(file.name))
  for (const file of files) await client!.uploadDocuments(TARGET, [{ name: file.name, path: file.path }])
  return emulator!.requests().length
}

/** Requests after the first `skip`, as "METHOD name,name". */
function sequence(skip = 0): string[] {
  return emulator!
    .requests()
    .slice(skip)
    .map((entry) => `${entry.method} ${(entry.documents ?? []).map((d) => d.filename).join(',')}`)
}

function stored() {
  return emulator!.documents(TARGET.flowId, TARGET.orgId, TARGET.nodeId)
}

const outcomes = (items: ItemOutcome[]) => Object.fromEntries(items.map((item) => [item.name, item.outcome]))
const names = (from: number, to: number) => workspace.files.slice(from, to).map((file) => file.name)
const all = () => workspace.files.map((file) => file.name)

describe('upsert (mode auto)', () => {
  test('documents absent: PATCH answered 404, then one POST; all uploaded, created once', async () => {
    await start()
    const result = await sendPlan(planFor(workspace.files, 'auto'), client!, TARGET, options())
    expect(sequence()).toEqual([`PATCH ${all().join(',')}`, `POST ${all().join(',')}`])
    // Two requests, one try of the upload: the switch from PATCH to POST is not a retry.
    expect(result.items.map((item) => [item.outcome, item.operation, item.attempts])).toEqual(
      all().map(() => ['uploaded', 'upload', 1]),
    )
    expect(result.requests).toBe(2)
    expect(stored().map((d) => [d.name, d.created, d.updated])).toEqual(all().map((name) => [name, 1, 0]))
  })

  test('documents present: one PATCH; all updated', async () => {
    await start()
    const skip = await preload(all())
    const result = await sendPlan(planFor(workspace.files, 'auto'), client!, TARGET, options())
    expect(sequence(skip)).toEqual([`PATCH ${all().join(',')}`])
    expect(result.items.every((item) => item.outcome === 'updated' && item.attempts === 1)).toBe(true)
    expect(stored().map((d) => [d.name, d.created, d.updated])).toEqual(all().map((name) => [name, 1, 1]))
  })

  test('mixed: PATCH 404, POST 409, then searched in parts as PATCH; the missing ones found go as POST', async () => {
    await start()
    const present = names(0, 3)
    const skip = await preload(present)
    const result = await sendPlan(planFor(workspace.files, 'auto'), client!, TARGET, options())
    expect(sequence(skip).slice(0, 2)).toEqual([`PATCH ${all().join(',')}`, `POST ${all().join(',')}`])
    // The search (bisection.ts): probe 000 lands, so the rest 001-005 is searched; probe 001,002 lands, so
    // 003-005 is; probe 003 is refused (POST), so the rest 004,005 is sent whole, refused, and searched:
    // probe 004 refused (POST), the rest 005 refused (POST). Three of six were odd; one of three is cheaper.
    expect(sequence(skip).slice(2).sort()).toEqual(
      [
        'PATCH doc-000.md',
        'PATCH doc-001.md,doc-002.md',
        'PATCH doc-003.md',
        'POST doc-003.md',
        'PATCH doc-004.md,doc-005.md',
        'PATCH doc-004.md',
        'POST doc-004.md',
        'PATCH doc-005.md',
        'POST doc-005.md',
      ].sort(),
    )
    expect(outcomes(result.items)).toEqual(
      Object.fromEntries(all().map((name) => [name, present.includes(name) ? 'updated' : 'uploaded'])),
    )
    // The wrong-operation answers are no tries: each landed on its first try of the operation it needed.
    expect(result.items.every((item) => item.attempts === 1)).toBe(true)
    expect(result.items.map((item) => item.retries ?? 0)).toEqual(all().map(() => 0))
    expect(stored().map((d) => [d.name, d.created, d.updated])).toEqual(
      all().map((name) => [name, 1, present.includes(name) ? 1 : 0]),
    )
  })

  test('an upload batch with fallback answered 409 is sent as an update', async () => {
    await start()
    const skip = await preload(all())
    const plan = planFor(workspace.files, 'upload')
    for (const batch of plan.batches) batch.fallback = true
    const result = await sendPlan(plan, client!, TARGET, options())
    expect(sequence(skip)).toEqual([`POST ${all().join(',')}`, `PATCH ${all().join(',')}`])
    expect(result.items.every((item) => item.outcome === 'updated')).toBe(true)
  })

  test('batches run with the concurrency given and every document lands once', async () => {
    await start()
    const more = await makeDocuments(23)
    try {
      const result = await sendPlan(planFor(more.files, 'upload', 2), client!, TARGET, options())
      expect(result.requests).toBe(12)
      expect(result.items.filter((item) => item.outcome === 'uploaded')).toHaveLength(23)
      expect(stored().map((d) => d.sha256)).toEqual(
        await Promise.all(more.files.map(async (f) => sha256(await readFile(f.path)))),
      )
    } finally {
      await more.remove()
    }
  })
})

describe('modes without fallback', () => {
  test('upload of documents that exist: each fails with the 409', async () => {
    await start()
    const skip = await preload(all())
    const result = await sendPlan(planFor(workspace.files, 'upload'), client!, TARGET, options())
    expect(sequence(skip)[0]).toBe(`POST ${all().join(',')}`)
    expect(
      sequence(skip)
        .slice(1)
        .every((line) => line.startsWith('POST ')),
    ).toBe(true)
    expect(result.items.every((item) => item.outcome === 'failed' && item.operation === 'upload')).toBe(true)
    expect(result.items[0].error).toMatch(/HTTP 409/)
    expect(stored().every((d) => d.created === 1 && d.updated === 0)).toBe(true)
  })

  test('update of documents that do not exist: each fails with the 404', async () => {
    await start()
    const result = await sendPlan(planFor(workspace.files, 'update'), client!, TARGET, options())
    expect(sequence().every((line) => line.startsWith('PATCH '))).toBe(true)
    expect(result.items.every((item) => item.outcome === 'failed' && item.operation === 'update')).toBe(true)
    expect(result.items[0].error).toMatch(/HTTP 404/)
    expect(stored()).toEqual([])
  })

  test('upload into a partly filled node: the new documents land, the existing ones fail alone', async () => {
    await start()
    const present = names(0, 2)
    await preload(present)
    const result = await sendPlan(planFor(workspace.files, 'upload'), client!, TARGET, options())
    expect(outcomes(result.items)).toEqual(
      Object.fromEntries(all().map((name) => [name, present.includes(name) ? 'failed' : 'uploaded'])),
    )
  })
})

describe('a refused document', () => {
  test('one document answered 422 in a batch of ten: nine land, it is found in 7 requests and fails', async () => {
    const ten = await makeDocuments(10)
    try {
      await start({
        rejectDocument: (name: string) => (name === 'doc-004.md' ? 'unsupported content' : undefined),
      })
      const { log, lines } = recordingLog()
      const result = await sendPlan(planFor(ten.files, 'upload'), client!, TARGET, options({ log }))
      const failed = result.items.filter((item) => item.outcome === 'failed')
      expect(failed.map((item) => item.name)).toEqual(['doc-004.md'])
      expect(failed[0].error).toMatch(/HTTP 422/)
      // In the batch, in the probe 002-004, and alone.
      expect(failed[0].attempts).toBe(3)
      expect(result.items.filter((item) => item.outcome === 'uploaded')).toHaveLength(9)
      expect(stored().map((d) => d.name)).toEqual(
        ten.files.map((f) => f.name).filter((n) => n !== 'doc-004.md'),
      )
      expect(result.requests).toBe(7)
      expect(lines.filter((line) => /in parts/.test(line.message))).toHaveLength(1)
    } finally {
      await ten.remove()
    }
  })
})

describe('URLs', () => {
  test('are upserted like documents', async () => {
    await start()
    const urls = ['https://example.com/a', 'https://example.com/b']
    const result = await sendPlan(planFor([], 'auto', 10, urls), client!, TARGET, options())
    expect(emulator!.requests().map((entry) => entry.method)).toEqual(['PATCH', 'POST'])
    expect(result.items).toEqual(
      urls.map((url) => ({ kind: 'url', name: url, outcome: 'uploaded', operation: 'upload', attempts: 1 })),
    )
  })
})

describe('an empty plan', () => {
  test('sends nothing', async () => {
    await start()
    const result = await sendPlan(planFor([], 'auto'), client!, TARGET, options())
    expect(result).toEqual({ items: [], requests: 0, cancelled: false })
    expect(emulator!.requests()).toEqual([])
  })
})
