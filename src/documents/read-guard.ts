// Reading a selected file for sending. Between selection and sending the file may have been replaced
// (by a FIFO, a link, a bigger file): the open handle is checked again and the read is bounded by the
// size that selection recorded, so what is sent is exactly the planned number of bytes or nothing.
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs'
import { open, type FileHandle } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { displayName } from '../log.js'
import { chunkStreamed } from '../chunk-release.js'
import type { SelectedFile } from '../model.js'

/** The file on disk is no longer the one that was selected; the document is not sent. */
export class FileChangedError extends Error {}

const CHUNK = 64 * 1024
// No following a link in the last component, no blocking on a FIFO.
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW

/** The file could not be opened or read: `… could not be <what> (ENOENT).` */
function accessFailed(shown: string, what: string, error: unknown): FileChangedError {
  const code = (error as NodeJS.ErrnoException).code ?? 'error'
  return new FileChangedError(`${shown} could not be ${what} (${code}).`)
}

/** Why the opened file is not the selected one (not a regular file, another size), or undefined. */
function changedSinceSelected(stats: Stats, file: SelectedFile): FileChangedError | undefined {
  if (stats.isFile() && stats.size === file.size) return undefined
  const now = stats.isFile() ? `${stats.size} bytes` : 'not a regular file'
  return new FileChangedError(
    `${displayName(file.name)} changed since it was selected (${file.size} bytes, now ${now}).`,
  )
}

/**
 * A stream of the file's bytes: exactly `file.size` of them, or an error. Opened without following a
 * link and without blocking on a FIFO; the handle must be a regular file of the selected size.
 * Give `file.size` as form-data's `knownLength`. Consume or destroy the stream: either closes the file.
 */
export async function openSelectedFile(file: SelectedFile): Promise<Readable> {
  const shown = displayName(file.name)
  let handle
  try {
    handle = await open(file.path, OPEN_FLAGS)
  } catch (error) {
    throw accessFailed(shown, 'opened for sending', error)
  }
  const changed = changedSinceSelected(await handle.stat(), file)
  if (changed) {
    await handle.close()
    throw changed
  }
  return new SelectedFileStream(handle, file.size, shown)
}

/**
 * The whole file at once, read synchronously, with the checks of openSelectedFile; the file is closed
 * before it returns. For small files only (the caller bounds the size): there the thread-pool round
 * trips of async open, read and close cost more than the reads themselves. Reading asks for one byte
 * more than the size, so growth is seen; too few bytes mean the file shrank. `into` (size + 1 bytes)
 * receives the bytes instead of a new buffer.
 */
export function readSmallSelectedFile(file: SelectedFile, into?: Buffer): Buffer {
  // The name is made only for an error: most files have none.
  let fd: number
  try {
    fd = openSync(file.path, OPEN_FLAGS)
  } catch (error) {
    throw accessFailed(displayName(file.name), 'opened for sending', error)
  }
  try {
    const changed = changedSinceSelected(fstatSync(fd), file)
    if (changed) throw changed
    const buffer = into ?? Buffer.allocUnsafe(file.size + 1)
    if (buffer.length !== file.size + 1) throw new RangeError('readSmallSelectedFile needs size + 1 bytes')
    // The first read asks for size + 1 bytes: getting size means the file ends there (a regular file's
    // read comes back short only at its end), so no second read is made to find the end.
    let filled = 0
    let bytesRead: number
    do {
      bytesRead = readSync(fd, buffer, filled, buffer.length - filled, filled)
      filled += bytesRead
    } while (bytesRead > 0 && filled < file.size)
    if (filled > file.size)
      throw new FileChangedError(`${displayName(file.name)} grew while it was being read.`)
    if (filled < file.size)
      throw new FileChangedError(`${displayName(file.name)} shrank while it was being read.`)
    return buffer.subarray(0, filled)
  } catch (error) {
    // Read at opening time, a read error fails the document as an open error does.
    if (error instanceof FileChangedError) throw error
    throw accessFailed(displayName(file.name), 'read', error)
  } finally {
    closeSync(fd)
  }
}

/**
 * The file's bytes straight from the handle, one read per chunk and no other stream layer. The last read
 * asks for one byte more than is left, so growth is seen without a read of its own; a read that comes
 * back empty too early means the file shrank. Either error destroys the stream; destroying closes the file.
 */
class SelectedFileStream extends Readable {
  private position = 0

  constructor(
    private readonly handle: FileHandle,
    private readonly size: number,
    private readonly shown: string,
  ) {
    super({ highWaterMark: CHUNK })
  }

  override _read(): void {
    const left = this.size - this.position
    const buffer = Buffer.allocUnsafe(left <= CHUNK ? left + 1 : CHUNK)
    this.handle.read(buffer, 0, buffer.length, this.position).then(
      ({ bytesRead }) => {
        if (this.destroyed) return
        if (bytesRead > left)
          return this.destroy(new FileChangedError(`${this.shown} grew while it was being sent.`))
        if (bytesRead === 0 && left > 0)
          return this.destroy(new FileChangedError(`${this.shown} shrank while it was being sent.`))
        this.position += bytesRead
        if (bytesRead > 0) {
          chunkStreamed(bytesRead)
          this.push(buffer.subarray(0, bytesRead))
        }
        if (this.position === this.size && bytesRead < buffer.length) this.push(null)
      },
      (error: Error) => this.destroy(error),
    )
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.handle.close().then(
      () => callback(error),
      () => callback(error),
    )
  }
}

/** The whole file in memory, with the checks of openSelectedFile. */
export async function readSelectedFile(file: SelectedFile): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of await openSelectedFile(file)) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}
