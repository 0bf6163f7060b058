// Streaming a big file keeps the memory of its spent read buffers small: they are collected every few MiB
// instead of piling up until V8 sees tens of MiB of outside-the-heap memory.
import { afterEach, beforeEach, expect, it } from '@jest/globals'
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openSelectedFile } from '../src/documents/read-guard.js'

const MiB = 1024 * 1024
let dir: string

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kb-sync-chunk-release-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

it('holds only a few MiB of spent read buffers while it streams 96 MiB', async () => {
  const path = join(dir, 'big.bin')
  writeFileSync(path, '')
  truncateSync(path, 96 * MiB)
  const file = { name: 'big.bin', path, size: 96 * MiB }
  let streamed = 0
  let chunks = 0
  // Growth above the lowest level seen so far: memory other test files left behind in this worker
  // (retained, or collected during the run) does not count.
  let lowest = process.memoryUsage().arrayBuffers
  let pile = 0
  for await (const chunk of await openSelectedFile(file)) {
    streamed += (chunk as Buffer).length
    // The chunk is dropped here, as a socket write would: only a collection returns its memory.
    if (++chunks % 8 === 0) {
      const now = process.memoryUsage().arrayBuffers
      lowest = Math.min(lowest, now)
      pile = Math.max(pile, now - lowest)
    }
  }
  expect(streamed).toBe(96 * MiB)
  // Without the collections V8 waits for ~32-64 MiB of such buffers before it collects them.
  expect(pile).toBeLessThan(16 * MiB)
})
