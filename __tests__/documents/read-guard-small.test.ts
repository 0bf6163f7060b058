// The read guard's synchronous whole-file read for small documents: the same refusals as the stream
// (links, FIFOs, another size), growth and shrinking seen, and the descriptor closed on every path.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FileChangedError, readSmallSelectedFile } from '../../src/documents/read-guard.js'
import { SMALL_DOCUMENT_BYTES } from '../../src/service/multipart.js'
import { openDescriptors } from '../helpers/open-descriptors.js'

let dir: string

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kb-sync-small-read-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

function fileOf(name: string, content: Buffer) {
  const path = join(dir, name)
  writeFileSync(path, content)
  return { name, path, size: content.length }
}

function refusal(read: () => unknown): FileChangedError {
  try {
    read()
  } catch (error) {
    expect(error).toBeInstanceOf(FileChangedError)
    return error as FileChangedError
  }
  throw new Error('the read was not refused')
}

describe('readSmallSelectedFile', () => {
  it.each([0, 1, SMALL_DOCUMENT_BYTES - 1, SMALL_DOCUMENT_BYTES])(
    'reads %i bytes whole and closes the file',
    (size) => {
      const content = randomBytes(size)
      const file = fileOf(`f-${size}.bin`, content)
      const read = readSmallSelectedFile(file)
      expect(read.length).toBe(size)
      expect(read.equals(content)).toBe(true)
      expect(openDescriptors(dir)).toBe(0)
    },
  )

  it('refuses a FIFO in place of the file without blocking', () => {
    const fifo = join(dir, 'fifo.md')
    execFileSync('mkfifo', [fifo])
    const error = refusal(() => readSmallSelectedFile({ name: 'fifo.md', path: fifo, size: 0 }))
    expect(error.message).toBe('fifo.md changed since it was selected (0 bytes, now not a regular file).')
    expect(openDescriptors(dir)).toBe(0)
  })

  it('refuses a symbolic link, even to the selected file', () => {
    const file = fileOf('real.md', Buffer.from('hello'))
    const link = join(dir, 'link.md')
    symlinkSync(file.path, link)
    const error = refusal(() => readSmallSelectedFile({ ...file, name: 'link.md', path: link }))
    expect(error.message).toBe('link.md could not be opened for sending (ELOOP).')
    expect(openDescriptors(dir)).toBe(0)
  })

  it('refuses a file whose size differs from the selected size', () => {
    const file = fileOf('a.md', Buffer.from('hello'))
    writeFileSync(file.path, 'hello world')
    const error = refusal(() => readSmallSelectedFile(file))
    expect(error.message).toBe('a.md changed since it was selected (5 bytes, now 11 bytes).')
    expect(openDescriptors(dir)).toBe(0)
  })

  it('refuses a file that is gone', () => {
    const error = refusal(() =>
      readSmallSelectedFile({ name: 'gone.md', path: join(dir, 'gone.md'), size: 1 }),
    )
    expect(error.message).toBe('gone.md could not be opened for sending (ENOENT).')
  })

  // Kernel files whose stat size is not their length stand in for a file that changes between the
  // fstat and the read: /proc files stat as 0 bytes but have content, sysfs files stat as 4096 bytes
  // and hold a few.
  it('sees a file that has more bytes than its size, and closes it', () => {
    const path = `/proc/${process.pid}/status`
    const error = refusal(() => readSmallSelectedFile({ name: 'status', path, size: 0 }))
    expect(error.message).toBe('status grew while it was being read.')
    expect(openDescriptors(path)).toBe(0)
  })

  it('sees a file that has fewer bytes than its size, and closes it', () => {
    const path = '/sys/devices/system/cpu/online'
    const size = statSync(path).size
    expect(size).toBeGreaterThan(16)
    const error = refusal(() => readSmallSelectedFile({ name: 'online', path, size }))
    expect(error.message).toBe('online shrank while it was being read.')
    expect(openDescriptors(path)).toBe(0)
  })
})
