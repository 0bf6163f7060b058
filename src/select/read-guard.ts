// Reading a selected file for sending. Between selection and sending the file may have been replaced
// (by a FIFO, a link, a bigger file): the open handle is checked again and the read is bounded by the
// size that selection recorded, so what is sent is exactly the planned number of bytes or nothing.
import { constants } from 'node:fs'
import { open } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { displayName } from '../log.js'
import type { SelectedFile } from '../model.js'

/** The file on disk is no longer the one that was selected; the document is not sent. */
export class FileChangedError extends Error {}

const CHUNK = 64 * 1024

/**
 * A stream of the file's bytes: exactly `file.size` of them, or an error. Opened without following a
 * link and without blocking on a FIFO; the handle must be a regular file of the selected size.
 * Give `file.size` as form-data's `knownLength`. Consume or destroy the stream: either closes the file.
 */
export async function openSelectedFile(file: SelectedFile): Promise<Readable> {
  const shown = displayName(file.name)
  let handle
  try {
    handle = await open(file.path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error'
    throw new FileChangedError(`${shown} could not be opened for sending (${code}).`)
  }
  const stats = await handle.stat()
  if (!stats.isFile() || stats.size !== file.size) {
    await handle.close()
    const now = stats.isFile() ? `${stats.size} bytes` : 'not a regular file'
    throw new FileChangedError(`${shown} changed since it was selected (${file.size} bytes, now ${now}).`)
  }
  const opened = handle
  let closing: Promise<void> | undefined
  const close = () => (closing ??= opened.close())
  async function* bytes(): AsyncGenerator<Buffer> {
    try {
      let position = 0
      while (position < file.size) {
        const buffer = Buffer.alloc(Math.min(CHUNK, file.size - position))
        const { bytesRead } = await opened.read(buffer, 0, buffer.length, position)
        if (bytesRead === 0) throw new FileChangedError(`${shown} shrank while it was being sent.`)
        position += bytesRead
        yield buffer.subarray(0, bytesRead)
      }
      const { bytesRead } = await opened.read(Buffer.alloc(1), 0, 1, position)
      if (bytesRead > 0) throw new FileChangedError(`${shown} grew while it was being sent.`)
    } finally {
      await close()
    }
  }
  const stream = Readable.from(bytes(), { objectMode: false })
  // A stream destroyed before its first read never enters the generator, so its finally would not run.
  stream.once('close', () => void close().catch(() => undefined))
  return stream
}

/** The whole file in memory, with the checks of openSelectedFile. */
export async function readSelectedFile(file: SelectedFile): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of await openSelectedFile(file)) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}
