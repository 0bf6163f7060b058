// A 300 MB document is streamed from disk: the process's live memory (the JavaScript heap plus the
// buffers outside it) grows by less than 50 MB while it uploads. The receiving server, in this same
// process, hashes and discards the bytes, so it counts against the same limit.
import { createHash } from 'node:crypto'
import { createReadStream, mkdtempSync, rmSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { afterAll, beforeAll, expect, it } from '@jest/globals'
import { ServiceClient } from '../../src/service/client.js'
import { startRecordingServer, type RecordingServer } from './recording-server.js'

const SIZE = 300 * 1024 * 1024
const MB = 1024 * 1024

let dir: string
let file: string
let server: RecordingServer

/** The collector, without starting the process with --expose-gc. */
function exposeGc(): () => void {
  setFlagsFromString('--expose-gc')
  return runInNewContext('gc') as () => void
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kb-sync-client-memory-'))
  file = join(dir, 'large.bin')
  // Sparse: a few marked regions, zeros elsewhere (cheap to create, still checkable by hash).
  const handle = await open(file, 'w')
  await handle.truncate(SIZE)
  for (const [offset, text] of [
    [0, 'start'],
    [SIZE / 3, 'a third'],
    [SIZE / 2 + 7, 'middle'],
    [SIZE - 3, 'end'],
  ] as const) {
    await handle.write(Buffer.from(text), 0, text.length, offset)
  }
  await handle.close()
  server = await startRecordingServer()
})

afterAll(async () => {
  await server.close()
  rmSync(dir, { recursive: true, force: true })
})

async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(path, { highWaterMark: MB })) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

it('uploads a 300 MB file with live memory growing by less than 50 MB', async () => {
  const expected = await sha256OfFile(file)
  const gc = exposeGc()
  const live = () => {
    gc()
    const usage = process.memoryUsage()
    return usage.heapUsed + usage.arrayBuffers
  }
  const client = new ServiceClient({ baseUrl: server.url, privateKey: 'sk-memory' })
  const baseline = live()
  let peak = baseline
  // A full collection per sample is slow on a busy 2-core machine: sample twice a second.
  const sampler = setInterval(() => (peak = Math.max(peak, live())), 500)
  try {
    const answer = await client.uploadDocuments({ flowId: 'f', orgId: 'o', nodeId: 'n' }, [
      { name: 'large.bin', path: file, size: SIZE },
    ])
    expect(answer.status).toBe(200)
  } finally {
    clearInterval(sampler)
    await client.close()
  }
  peak = Math.max(peak, live())

  const [request] = server.requests
  expect(request.parts).toEqual([
    {
      field: 'files',
      filename: 'large.bin',
      mimeType: 'application/octet-stream',
      size: SIZE,
      sha256: expected,
    },
  ])
  expect(Number(request.headers['content-length'])).toBe(request.bytes)
  expect((peak - baseline) / MB).toBeLessThan(50)
}, 240_000)
