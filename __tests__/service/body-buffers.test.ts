// The bodies of small-document batches are laid out in buffers used again after a successful answer.
// Used again too early, one batch's bytes would end up in another's request: every document must still
// reach the service byte for byte, with faults that fail requests after, or before, their body went out.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startEmulator } from '../../src/emulator/server.js'
import { planSync } from '../../src/plan.js'
import { sendPlan } from '../../src/send/send-plan.js'
import { reuseBuffer, takeBuffer } from '../../src/service/body-buffers.js'
import { ServiceClient } from '../../src/service/client.js'
import { DEFAULT_RETRY_POLICY } from '../../src/service/retry.js'
import { PRIVATE_KEY, PUBLIC_KEY } from '../helpers/keys.js'
import { quietLog } from '../helpers/log.js'

const TARGET = {
  flowId: '0123456789abcdef01234567',
  orgId: 'a1b2c3d4-0000-4000-8000-123456789abc',
  nodeId: 'knowledgebase-1',
}

describe('takeBuffer and reuseBuffer', () => {
  it('hands a buffer out again only after it was given back, and once however often it is', () => {
    const first = takeBuffer(100)
    const second = takeBuffer(100)
    expect(second.buffer).not.toBe(first.buffer)
    reuseBuffer(first)
    reuseBuffer(first)
    const third = takeBuffer(50)
    const fourth = takeBuffer(50)
    expect(third.buffer).toBe(first.buffer)
    expect(fourth.buffer).not.toBe(first.buffer)
    expect([third.length, fourth.length]).toEqual([50, 50])
    for (const buffer of [second, third, fourth]) reuseBuffer(buffer)
  })

  it('never keeps a buffer it did not hand out', () => {
    const foreign = Buffer.alloc(64 * 1024)
    reuseBuffer(foreign)
    const taken = Array.from({ length: 70 }, () => takeBuffer(1000))
    expect(taken.some((buffer) => buffer.buffer === foreign.buffer)).toBe(false)
    for (const buffer of taken) reuseBuffer(buffer)
  })
})

describe('bodies laid out in buffers used again', () => {
  let dir: string
  let dataDir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kb-sync-body-buffers-'))
    dataDir = mkdtempSync(join(tmpdir(), 'kb-sync-body-buffers-data-'))
  })
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true })
    rmSync(dataDir, { recursive: true, force: true })
  })

  it.each([
    ['no faults', 0],
    ['30 % faults (resets before and after the body, 429, 500, 503)', 0.3],
  ])('every document arrives byte for byte: %s', async (_label, faultRate) => {
    // Batches of different sizes, more than the buffers kept, so buffers change hands many times.
    const files = Array.from({ length: 240 }, (_, index) => {
      const name = `docs/page-${String(index).padStart(3, '0')}.md`
      const content = randomBytes(100 + ((index * 997) % 9000))
      writeFileSync(join(dir, name.replace('docs/', '')), content)
      return {
        file: { name, path: join(dir, name.replace('docs/', '')), size: content.length },
        sha256: createHash('sha256').update(content).digest('hex'),
      }
    })
    const emulator = await startEmulator({
      privateKey: PRIVATE_KEY,
      publicKey: PUBLIC_KEY,
      dataDir,
      port: 0,
      faultRate,
      seed: 11,
      retryAfterSeconds: 0,
    })
    const client = new ServiceClient({ baseUrl: emulator.url, privateKey: PRIVATE_KEY, connections: 8 })
    try {
      const plan = planSync({
        selection: { files: files.map(({ file }) => file), skipped: [] },
        urls: [],
        mode: 'upload',
        changes: { kind: 'all', source: 'full-sync', reason: 'test' },
        batchSize: 7,
      })
      const result = await sendPlan(plan, client, TARGET, {
        concurrency: 8,
        retry: { ...DEFAULT_RETRY_POLICY, baseDelayMs: 1, maxDelayMs: 5 },
        log: quietLog(),
      })
      expect(result.items.filter((item) => item.outcome === 'failed')).toEqual([])
      const stored = new Map(
        emulator.documents(TARGET.flowId, TARGET.orgId, TARGET.nodeId).map((d) => [d.name, d.sha256]),
      )
      expect(files.map(({ file }) => stored.get(file.name))).toEqual(files.map(({ sha256 }) => sha256))
      // Every part of every request, retries and requests cut off included, carried its own file's bytes.
      const expected = new Map(files.map(({ file, sha256 }) => [file.name, sha256]))
      const parts = emulator.requests().flatMap((request) => request.documents ?? [])
      expect(parts.length).toBeGreaterThanOrEqual(files.length)
      expect(parts.filter((part) => part.sha256 !== expected.get(part.filename))).toEqual([])
    } finally {
      await client.close()
      await emulator.close()
    }
  })
})
