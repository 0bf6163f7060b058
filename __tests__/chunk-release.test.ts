// Streaming a big file keeps the memory of its spent read buffers small: they are collected every few MiB
// instead of piling up until V8 sees tens of MiB of outside-the-heap memory.
import { afterEach, beforeEach, expect, it } from '@jest/globals'
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { constants, PerformanceObserver } from 'node:perf_hooks'
import { getHeapStatistics } from 'node:v8'
import { collectIfGrown } from '../src/chunk-release.js'
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

it('forces a full collection only when the heap has grown enough and is larger than the bound', async () => {
  let forced = 0
  let sentinelSeen: () => void = () => {}
  const sentinel = new Promise<void>((resolve) => (sentinelSeen = resolve))
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const { kind, flags } = (entry as unknown as { detail: { kind: number; flags: number } }).detail
      if (
        kind !== constants.NODE_PERFORMANCE_GC_MAJOR ||
        !(flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED)
      )
        continue
      forced += 1
      sentinelSeen()
    }
  })
  observer.observe({ entryTypes: ['gc'] })
  // Grown enough, but smaller than the bound.
  collectIfGrown(0, getHeapStatistics().used_heap_size + 64 * MiB)
  // Larger than the bound, but not grown enough.
  collectIfGrown(1024 * MiB, 0)
  // The last call must collect; its entry arrives after any the others made, so waiting for it needs no
  // guess of how long theirs would take.
  collectIfGrown(0, 0)
  await sentinel
  observer.disconnect()
  expect(forced).toBe(1)
})
