// The stored baseline (#36 §5): one name per key, every part of the key in it; what a store hands back is
// used only when it is whole, of this key, of these checks and young enough — else why not, never a throw.
import { afterEach, describe, expect, test } from '@jest/globals'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import type { CheckResult } from '../../src/checks/verdict.js'
import {
  baselineNameOf,
  BASELINE_VERSION,
  readStoredBaseline,
  writeStoredBaseline,
  type BaselineKey,
  type StoredBaseline,
} from '../../src/state/baseline-record.js'
import { fileBytesStore } from '../../src/state/file-store.js'

const KEY: BaselineKey = {
  host: 'api.example.com',
  baseline: { orgId: 'org-1', flowId: 'flow-prod' },
  commit: 'a'.repeat(40),
  checks: 'c'.repeat(64),
  repeat: 3,
  minPass: 2,
  judge: { orgId: 'org-1', flowId: 'flow-judge', minScore: 0.7 },
}

const result = (name: string): CheckResult => ({
  name,
  question: `${name}?`,
  verdict: 'passed',
  failed: [],
  answer: 'Refunds are granted within 30 days.',
  runId: 'run-1',
  seconds: 1.2,
  runs: [{ run: 1, verdict: 'passed', failed: [], answer: 'x', seconds: 1.2, started: true }],
  minPass: 1,
})

const NOW = new Date('2026-11-28T14:02:00Z')
const stored = (overrides: Partial<StoredBaseline> = {}): StoredBaseline => ({
  version: BASELINE_VERSION,
  key: KEY,
  measured: { at: '2026-11-27T09:00:00.000Z', baseRef: 'main', runId: 41, runNumber: 41 },
  results: [result('refunds'), result('shipping')],
  ...overrides,
})
const NAMES = ['refunds', 'shipping']

let dir = ''
afterEach(() => rmSync(dir, { recursive: true, force: true }))
const fileStore = () => {
  dir = mkdtempSync(join(tmpdir(), 'kb-sync-baseline-'))
  const path = join(dir, 'baseline.json.gz')
  return { path, store: fileBytesStore(path) }
}

describe('the key', () => {
  test('the same key is the same name; each part of it, another name', () => {
    expect(baselineNameOf({ ...KEY })).toBe(baselineNameOf(KEY))
    expect(baselineNameOf(KEY)).toMatch(/^kb-sync-baseline-[0-9a-f]{32}$/)
    // A host differs only by case: the same service.
    expect(baselineNameOf({ ...KEY, host: 'API.example.com' })).toBe(baselineNameOf(KEY))
    const others: BaselineKey[] = [
      { ...KEY, host: 'staging.example.com' },
      { ...KEY, baseline: { orgId: 'org-2', flowId: 'flow-prod' } },
      { ...KEY, baseline: { orgId: 'org-1', flowId: 'flow-other' } },
      { ...KEY, commit: 'b'.repeat(40) },
      { ...KEY, checks: 'd'.repeat(64) },
      { ...KEY, repeat: 4 },
      { ...KEY, minPass: undefined },
      { ...KEY, judge: undefined },
      { ...KEY, judge: { orgId: 'org-1', flowId: 'flow-judge', minScore: 0.8 } },
    ]
    const names = new Set([KEY, ...others].map(baselineNameOf))
    expect(names.size).toBe(others.length + 1)
  })
})

describe('reading a stored baseline', () => {
  test('what was written is read back, with where it came from', async () => {
    const { path, store } = fileStore()
    expect(await writeStoredBaseline(store, stored())).toEqual({ ok: true, where: `file ${path}` })
    expect(await readStoredBaseline(store, KEY, NAMES, NOW)).toEqual({
      kind: 'found',
      stored: stored(),
      from: `file ${path}`,
    })
  })

  test('nothing stored: missing', async () => {
    const { store } = fileStore()
    expect(await readStoredBaseline(store, KEY, NAMES, NOW)).toMatchObject({ kind: 'missing' })
  })

  test.each([
    ['not gzip', Buffer.from('{"version":1}'), 'not gzip-compressed JSON text'],
    ['gzip of no JSON', gzipSync('results: []'), 'not gzip-compressed JSON text'],
    [
      'a field of the wrong shape',
      gzipSync(JSON.stringify({ ...stored(), results: [{ ...result('refunds'), verdict: 'maybe' }] })),
      'it is not a stored baseline (results.0.verdict:',
    ],
    ['an unknown field', gzipSync(JSON.stringify({ ...stored(), extra: 1 })), 'it is not a stored baseline'],
  ])('garbled (%s): unusable, saying why', async (_, bytes, why) => {
    const { path, store } = fileStore()
    writeFileSync(path, bytes)
    const read = await readStoredBaseline(store, KEY, NAMES, NOW)
    expect(read.kind).toBe('unusable')
    expect(read).toMatchObject({ why: expect.stringContaining(why) })
  })

  test("another key's results under this name (a planted artifact): unusable", async () => {
    const { store } = fileStore()
    await writeStoredBaseline(store, stored({ key: { ...KEY, commit: 'b'.repeat(40) } }))
    expect(await readStoredBaseline(store, KEY, NAMES, NOW)).toMatchObject({
      kind: 'unusable',
      why: expect.stringContaining('holds the results of another key'),
    })
  })

  test("results of other checks than the suite's: unusable", async () => {
    const { store } = fileStore()
    await writeStoredBaseline(store, stored())
    expect(await readStoredBaseline(store, KEY, ['refunds'], NOW)).toMatchObject({
      kind: 'unusable',
      why: expect.stringContaining("its checks are not this suite's checks"),
    })
  })

  test('older than 7 days, or of another format version: stale', async () => {
    const { store, path } = fileStore()
    await writeStoredBaseline(store, stored({ measured: { at: '2026-11-20T14:00:00.000Z' } }))
    expect(await readStoredBaseline(store, KEY, NAMES, NOW)).toEqual({
      kind: 'stale',
      why: `file ${path}: it was measured 8 days ago, more than 7 (the baseline flow may have changed since)`,
    })
    writeFileSync(path, gzipSync(JSON.stringify({ ...stored(), version: 2 })))
    expect(await readStoredBaseline(store, KEY, NAMES, NOW)).toMatchObject({
      kind: 'stale',
      why: expect.stringContaining('format version 2'),
    })
  })
})
