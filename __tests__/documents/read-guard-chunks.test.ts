// The read guard's stream at chunk boundaries: every size streams whole, and growth or shrinking is seen
// for files that end exactly on a 64 KiB chunk as well as inside one.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { randomBytes } from 'node:crypto'
import { appendFileSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { openSelectedFile, readSelectedFile } from '../../src/documents/read-guard.js'

const CHUNK = 64 * 1024
let dir: string

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kb-sync-chunks-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

function fileOf(size: number) {
  const path = join(dir, `f-${size}.bin`)
  const content = randomBytes(size)
  writeFileSync(path, content)
  return { file: { name: `f-${size}.bin`, path, size }, content }
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

describe('openSelectedFile', () => {
  it.each([0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK, 3 * CHUNK + 17])(
    'streams %i bytes whole',
    async (size) => {
      const { file, content } = fileOf(size)
      expect((await readSelectedFile(file)).equals(content)).toBe(true)
    },
  )

  it.each([0, CHUNK - 1, CHUNK, 2 * CHUNK])('sees a %i-byte file grow after it was opened', async (size) => {
    const { file } = fileOf(size)
    const stream = await openSelectedFile(file)
    appendFileSync(file.path, 'x')
    await expect(readAll(stream)).rejects.toThrow(/grew while it was being sent/)
  })

  it.each([CHUNK, 2 * CHUNK, 2 * CHUNK + 5])(
    'sees a %i-byte file shrink after it was opened',
    async (size) => {
      const { file } = fileOf(size)
      const stream = await openSelectedFile(file)
      truncateSync(file.path, CHUNK - 3)
      await expect(readAll(stream)).rejects.toThrow(/shrank while it was being sent/)
    },
  )
})
