// The record as one local file (the CLI's `--state-file PATH`: other CI systems, a laptop, the emulator).
// One file holds one record: the key is not part of the path, so a file given to runs of two targets (or
// two shards) holds the last one's record, and the other finds it unusable ("the record of another
// node") and falls back. Use one file per target and shard.
import { randomBytes } from 'node:crypto'
import { mkdir, open, rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { MAX_RECORD_BYTES } from './codec.js'
import type { BytesStore, RecordWrite, StoredBytes } from './record.js'
import { formatBytes, formatCount } from '../units.js'
import { reasonOf } from '../temp-folder.js'

/** The file system calls the store makes that a test needs to fail (root can write anywhere). */
export interface FileOperations {
  rename: typeof rename
}

export function fileBytesStore(path: string, operations: FileOperations = { rename }): BytesStore {
  const where = `file ${path}`
  return {
    description: where,
    async readNewest(_key, signal) {
      signal?.throwIfAborted()
      try {
        return await readBounded(path, where)
      } catch (error) {
        signal?.throwIfAborted()
        if (reasonOf(error) === 'ENOENT') return { kind: 'missing', why: `there is no ${where} yet` }
        return { kind: 'unusable', why: `the ${where} cannot be read (${reasonOf(error)})` }
      }
    },
    async write(_key, bytes, signal) {
      signal?.throwIfAborted()
      // Written beside the record, then renamed over it: a reader (or a run killed mid-write) sees the
      // old record or the new one, never a part of one.
      const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`)
      try {
        await mkdir(dirname(path), { recursive: true })
        await writeSynced(temporary, bytes)
        await operations.rename(temporary, path)
        return { ok: true, where }
      } catch (error) {
        await rm(temporary, { force: true }).catch(() => undefined)
        signal?.throwIfAborted()
        return { ok: false, why: `the ${where} cannot be written (${reasonOf(error)})` } satisfies RecordWrite
      }
    },
  }
}

/** The file's bytes; a file over the record's bound is not read (the codec would refuse it anyway). */
async function readBounded(path: string, where: string): Promise<StoredBytes> {
  const handle = await open(path, 'r')
  try {
    const { size } = await handle.stat()
    if (size > MAX_RECORD_BYTES)
      return {
        kind: 'unusable',
        why: `the ${where} is over the record's size bound: ${formatCount(size)} bytes, more than ${formatBytes(MAX_RECORD_BYTES)}`,
      }
    return { kind: 'found', bytes: await handle.readFile(), from: where }
  } finally {
    await handle.close()
  }
}

/** Writes and flushes the file, so that the rename never makes a file whose bytes are still in flight. */
async function writeSynced(path: string, bytes: Buffer): Promise<void> {
  const handle = await open(path, 'wx', 0o644)
  try {
    await handle.writeFile(bytes)
    await handle.sync()
  } finally {
    await handle.close()
  }
}
