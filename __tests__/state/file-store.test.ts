// The record as one local file (--state-file): missing until written, written whole or not at all (a
// rename over the old record), its folder created, an unreadable or oversized file reported, never thrown.
import { afterEach, describe, expect, test } from '@jest/globals'
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs'
import { rename } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MAX_RECORD_BYTES } from '../../src/state/codec.js'
import { fileBytesStore } from '../../src/state/file-store.js'
import { recordKeyOf, type RecordTarget } from '../../src/state/record.js'

const TARGET: RecordTarget = {
  host: 'api.example.com',
  flowId: 'f'.repeat(24),
  orgId: 'org-1',
  nodeId: 'kb-1',
}
const KEY = recordKeyOf(TARGET)

const folders: string[] = []
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})
function folder(): string {
  const path = mkdtempSync(join(tmpdir(), 'kb-sync-file-store-'))
  folders.push(path)
  return path
}

describe('the file store', () => {
  test('a file not written yet is missing', async () => {
    const path = join(folder(), 'state.json.gz')
    expect(await fileBytesStore(path).readNewest(KEY)).toEqual({
      kind: 'missing',
      why: `there is no file ${path} yet`,
    })
  })

  test('writes the bytes, creating the folder, and reads them back; a later write replaces them', async () => {
    const path = join(folder(), 'deep', 'er', 'state.json.gz')
    const store = fileBytesStore(path)
    expect(await store.write(KEY, Buffer.from('pending'))).toEqual({ ok: true, where: `file ${path}` })
    expect(await store.write(KEY, Buffer.from('final'))).toEqual({ ok: true, where: `file ${path}` })
    expect(await store.readNewest(KEY)).toEqual({
      kind: 'found',
      bytes: Buffer.from('final'),
      from: `file ${path}`,
    })
    expect(readdirSync(join(path, '..'))).toEqual(['state.json.gz'])
  })

  test('the record is replaced whole: until the rename, the file holds the old record and the new one is complete', async () => {
    const path = join(folder(), 'state.json.gz')
    const old = Buffer.alloc(4 << 20, 'o')
    const next = Buffer.alloc(4 << 20, 'n')
    writeFileSync(path, old)
    const seen: { atPath: Buffer; renamed: Buffer }[] = []
    const store = fileBytesStore(path, {
      rename: async (from, to) => {
        seen.push({ atPath: readFileSync(to as string), renamed: readFileSync(from as string) })
        return rename(from, to)
      },
    })
    expect(await store.write(KEY, next)).toEqual({ ok: true, where: `file ${path}` })
    expect(seen).toHaveLength(1)
    expect(seen[0].atPath.equals(old)).toBe(true)
    expect(seen[0].renamed.equals(next)).toBe(true)
    expect(readFileSync(path).equals(next)).toBe(true)
  })

  test('a failing rename leaves the old record and no temporary file, and says why', async () => {
    const dir = folder()
    const path = join(dir, 'state.json.gz')
    writeFileSync(path, 'old record')
    const store = fileBytesStore(path, {
      rename: async () => {
        throw Object.assign(new Error('no space left'), { code: 'ENOSPC' })
      },
    })
    expect(await store.write(KEY, Buffer.from('new record'))).toEqual({
      ok: false,
      why: `the file ${path} cannot be written (ENOSPC)`,
    })
    expect(readFileSync(path, 'utf8')).toBe('old record')
    expect(readdirSync(dir)).toEqual(['state.json.gz'])
  })

  test('a folder that cannot be made is a failed write, not a throw', async () => {
    const dir = folder()
    writeFileSync(join(dir, 'file'), '')
    const path = join(dir, 'file', 'state.json.gz')
    const written = await fileBytesStore(path).write(KEY, Buffer.from('x'))
    expect(written).toEqual({
      ok: false,
      why: expect.stringMatching(/^the file .* cannot be written \(E[A-Z]+\)$/),
    })
  })

  test('a path that cannot be read (a folder) is unusable, saying why', async () => {
    const path = join(folder(), 'state.json.gz')
    mkdirSync(path)
    expect(await fileBytesStore(path).readNewest(KEY)).toEqual({
      kind: 'unusable',
      why: `the file ${path} cannot be read (EISDIR)`,
    })
  })

  test('a file over the record bound is unusable without being read', async () => {
    const path = join(folder(), 'state.json.gz')
    writeFileSync(path, '')
    truncateSync(path, MAX_RECORD_BYTES + 1)
    expect(await fileBytesStore(path).readNewest(KEY)).toEqual({
      kind: 'unusable',
      why: `the file ${path} is over the record's size bound: 16,777,217 bytes, more than 16.0 MiB`,
    })
  })

  test('a cancelled run throws its cancellation, reading or writing', async () => {
    const path = join(folder(), 'state.json.gz')
    const controller = new AbortController()
    controller.abort(new Error('cancelled'))
    const store = fileBytesStore(path)
    await expect(store.readNewest(KEY, controller.signal)).rejects.toThrow('cancelled')
    await expect(store.write(KEY, Buffer.from('x'), controller.signal)).rejects.toThrow('cancelled')
    expect(readdirSync(join(path, '..'))).toEqual([])
  })
})
