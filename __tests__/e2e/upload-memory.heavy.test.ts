// A 300 MB document is streamed from disk: the built CLI's peak memory uploading it is less than 50 MB
// above its peak uploading a 1 MB one. The peak is the CLI process's own (see helpers/peak-rss.ts); the
// receiving server, in the test's process, hashes and discards the bytes.
import { createHash } from 'node:crypto'
import { createReadStream, mkdtempSync, rmSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from '@jest/globals'
import { runCliAsync } from '../helpers/cli.js'
import { peakRss } from '../helpers/peak-rss.js'
import { startRecordingServer, type RecordingServer } from '../helpers/recording-server.js'

const MB = 1024 * 1024
const LARGE = 300 * MB
const ids = ['--flow-id', '65f0c0ffee0000000000beef', '--org-id', 'b2a1c3d4-0000-4000-8000-000000000001']

let dir: string
let server: RecordingServer

/** A sparse file: a few marked regions, zeros elsewhere (cheap to create, still checkable by hash). */
async function sparseFile(name: string, size: number): Promise<string> {
  const path = join(dir, name)
  const handle = await open(path, 'w')
  await handle.truncate(size)
  for (const [offset, text] of [
    [0, 'start'],
    [Math.floor(size / 3), 'a third'],
    [Math.floor(size / 2) + 7, 'middle'],
    [size - 3, 'end'],
  ] as const) {
    await handle.write(Buffer.from(text), 0, text.length, offset)
  }
  await handle.close()
  return path
}

async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(path, { highWaterMark: MB })) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kb-sync-upload-memory-'))
  server = await startRecordingServer()
})

afterAll(async () => {
  await server.close()
  rmSync(dir, { recursive: true, force: true })
})

/** Uploads `name` with the CLI; its peak resident set in kB. */
async function peakUploading(name: string): Promise<number> {
  const peak = peakRss()
  try {
    const run = await runCliAsync(
      ['index', '--base-url', server.url, ...ids, '--node-id', 'knowledgebase-1', '--mode', 'upload'].concat([
        '--files',
        name,
        '--max-file-size',
        '400MB',
        '--workspace',
        dir,
      ]),
      { env: { KB_SYNC_PRIVATE_KEY: 'sk-memory', ...peak.env } },
    )
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    return peak.kilobytes()
  } finally {
    peak.remove()
  }
}

it('uploads a 300 MB file with peak memory less than 50 MB above that of a 1 MB upload', async () => {
  const small = await sparseFile('small.bin', MB)
  const large = await sparseFile('large.bin', LARGE)
  const smallPeakKb = await peakUploading('small.bin')
  const largePeakKb = await peakUploading('large.bin')

  expect(server.requests).toHaveLength(2)
  const parts = server.requests.map((request) => request.parts)
  expect(parts).toEqual([
    [
      {
        field: 'files',
        filename: 'small.bin',
        mimeType: 'application/octet-stream',
        size: MB,
        sha256: await sha256OfFile(small),
      },
    ],
    [
      {
        field: 'files',
        filename: 'large.bin',
        mimeType: 'application/octet-stream',
        size: LARGE,
        sha256: await sha256OfFile(large),
      },
    ],
  ])
  for (const request of server.requests) expect(Number(request.headers['content-length'])).toBe(request.bytes)
  process.stdout.write(`CLI peak RSS: 1 MB upload ${smallPeakKb} kB, 300 MB upload ${largePeakKb} kB\n`)
  expect((largePeakKb - smallPeakKb) / 1024).toBeLessThan(50)
})
