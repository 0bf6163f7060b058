// A record store over bytes: what is written is read back as the same record; what the bytes store holds
// is decoded strictly, so garbage, another target's record or nothing at all is reported, never used.
import { afterEach, describe, expect, test } from '@jest/globals'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { encodeRecord } from '../../src/state/codec.js'
import { fileBytesStore } from '../../src/state/file-store.js'
import { RECORD_VERSION, type KnowledgeBaseRecord, type RecordTarget } from '../../src/state/record.js'
import { recordStore } from '../../src/state/stores.js'

const TARGET: RecordTarget = {
  host: 'api.example.com',
  flowId: 'f'.repeat(24),
  orgId: 'org-1',
  nodeId: 'kb-1',
}

const recordOf = (target: RecordTarget, phase: 'pending' | 'final' = 'final'): KnowledgeBaseRecord => ({
  version: RECORD_VERSION,
  phase,
  target,
  writtenBy: { at: '2026-11-28T10:00:00.000Z' },
  settings: { files: '0123456789ab' },
  documents: { 'docs/a.md': 'a'.repeat(40), 'docs/b.md': phase === 'pending' ? 'unknown' : 'b'.repeat(40) },
  urls: {},
})

let dir = ''
afterEach(() => rmSync(dir, { recursive: true, force: true }))
const statePath = () => {
  dir = mkdtempSync(join(tmpdir(), 'kb-sync-record-store-'))
  return join(dir, 'state.json.gz')
}

describe('recordStore over a file', () => {
  test('reads back the last record written (pending, then final)', async () => {
    const path = statePath()
    const store = recordStore(fileBytesStore(path))
    expect(store.description).toBe(`file ${path}`)
    expect(await store.write(recordOf(TARGET, 'pending'))).toEqual({ ok: true, where: `file ${path}` })
    expect(await store.write(recordOf(TARGET))).toEqual({ ok: true, where: `file ${path}` })
    expect(await store.read(TARGET)).toEqual({
      kind: 'found',
      record: recordOf(TARGET),
      from: `file ${path}`,
    })
  })

  test('nothing written yet is missing', async () => {
    const path = statePath()
    expect(await recordStore(fileBytesStore(path)).read(TARGET)).toEqual({
      kind: 'missing',
      why: `there is no file ${path} yet`,
    })
  })

  test("another target's record in the file is unusable, naming it", async () => {
    const path = statePath()
    writeFileSync(path, encodeRecord(recordOf({ ...TARGET, nodeId: 'kb-2' })))
    expect(await recordStore(fileBytesStore(path)).read(TARGET)).toEqual({
      kind: 'unusable',
      why: `file ${path} is the record of another node (node-id kb-2; this run's is kb-1)`,
    })
  })

  test('garbage in the file is unusable, saying why', async () => {
    const path = statePath()
    writeFileSync(path, 'not a record')
    expect(await recordStore(fileBytesStore(path)).read(TARGET)).toEqual({
      kind: 'unusable',
      why: `file ${path} is not gzip data`,
    })
  })
})
