// Git's blob id of a selected file's bytes, computed here: sha1 (or sha256 in a SHA-256 repository) of
// `blob <size>\0` followed by the content, as `git hash-object --no-filters` gives. No process per file
// and none at all outside a repository; the bytes hashed are the ones sending reads (the read guard:
// exactly the selected size, no link followed, no FIFO), so a file that changed since it was selected
// gets UNKNOWN, as sending will fail it.
import { createHash } from 'node:crypto'
import { setImmediate as yieldToEvents } from 'node:timers/promises'
import { mapLimited } from '../map-limited.js'
import type { SelectedFile } from '../model.js'
import { openSelectedFile, readSmallSelectedFile } from '../documents/read-guard.js'
import { UNKNOWN } from './record.js'

/** The hash of a repository's objects (`git rev-parse --show-object-format`); sha1 outside one. */
export type ObjectFormat = 'sha1' | 'sha256'

/** Files up to this size are read whole and synchronously (thread-pool round trips cost more). */
const SMALL_FILE_BYTES = 64 * 1024
/** Small files hashed between two turns of the event loop (where cancellation is seen). */
const SMALL_FILES_PER_TURN = 256
/** Larger files streamed at once. */
const LARGE_FILES_AT_ONCE = 4

/** The blob id of bytes held in memory. */
export function blobId(content: Uint8Array, format: ObjectFormat = 'sha1'): string {
  return createHash(format).update(`blob ${content.length}\0`).update(content).digest('hex')
}

async function streamedBlobId(
  file: SelectedFile,
  format: ObjectFormat,
  signal?: AbortSignal,
): Promise<string> {
  const hash = createHash(format).update(`blob ${file.size}\0`)
  const stream = await openSelectedFile(file)
  const onAbort = () => stream.destroy(signal?.reason as Error)
  signal?.addEventListener('abort', onAbort, { once: true })
  try {
    for await (const chunk of stream) hash.update(chunk as Buffer)
  } finally {
    signal?.removeEventListener('abort', onAbort)
  }
  return hash.digest('hex')
}

/**
 * The blob id of each file, set in `into` by name: UNKNOWN for a file that cannot be read as selected
 * (gone, replaced, another size). Rejects only with the signal's reason.
 */
export async function hashSelectedFiles(
  items: readonly { file: SelectedFile; format: ObjectFormat }[],
  into: Map<string, string>,
  signal?: AbortSignal,
): Promise<void> {
  const small = items.filter((item) => item.file.size <= SMALL_FILE_BYTES)
  const large = items.filter((item) => item.file.size > SMALL_FILE_BYTES)
  const buffer = Buffer.allocUnsafe(SMALL_FILE_BYTES + 1)
  for (let start = 0; start < small.length; start += SMALL_FILES_PER_TURN) {
    signal?.throwIfAborted()
    for (const { file, format } of small.slice(start, start + SMALL_FILES_PER_TURN)) {
      let id: string
      try {
        id = blobId(readSmallSelectedFile(file, buffer.subarray(0, file.size + 1)), format)
      } catch {
        id = UNKNOWN
      }
      into.set(file.name, id)
    }
    await yieldToEvents()
  }
  await mapLimited(large, LARGE_FILES_AT_ONCE, async ({ file, format }) => {
    signal?.throwIfAborted()
    let id: string
    try {
      id = await streamedBlobId(file, format, signal)
    } catch {
      signal?.throwIfAborted()
      id = UNKNOWN
    }
    into.set(file.name, id)
  })
  signal?.throwIfAborted()
}
