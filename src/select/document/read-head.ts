// The first bytes of a selected file, read synchronously: the checks that look at a file's beginning
// (Git LFS pointers, draft front matter) read a few hundred bytes to 64 KiB of small files, where the
// thread-pool round trips of asynchronous reads cost more than the reads.
import { closeSync, constants, openSync, readSync } from 'node:fs'

// As the read guard opens: no following a link, no blocking on a FIFO.
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW

/**
 * Fills `buffer` from the file's start, up to `size` bytes (the size selection recorded: a file of that
 * size takes one read, without the read that would only find its end), and returns the part filled;
 * empty when the file cannot be read here (sending reads it again and reports why).
 */
export function readHead(file: string, buffer: Buffer, size: number): Buffer {
  let fd: number
  try {
    fd = openSync(file, OPEN_FLAGS)
  } catch {
    return buffer.subarray(0, 0)
  }
  try {
    const wanted = Math.min(size, buffer.length)
    let filled = 0
    let bytesRead: number
    do {
      bytesRead = readSync(fd, buffer, filled, wanted - filled, filled)
      filled += bytesRead
    } while (bytesRead > 0 && filled < wanted)
    return buffer.subarray(0, filled)
  } catch {
    return buffer.subarray(0, 0)
  } finally {
    closeSync(fd)
  }
}
