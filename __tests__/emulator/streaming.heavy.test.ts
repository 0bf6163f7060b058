// Uploads are streamed to disk: the emulator's peak memory (`kb-sync serve`, measured in its own process,
// see helpers/peak-rss.ts) receiving a 128 MB document is less than half of that above its peak receiving
// a 1 MB one (held whole, the upload alone would add 128 MB), and the stored bytes hash as sent. The peak
// resident set counts garbage not yet collected: 25–40 MB above the small upload's, by the machine's load.
import { afterAll, beforeAll, expect, it } from '@jest/globals'
import { createHash } from 'node:crypto'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { EmulatorStore } from '../../src/emulator/store.js'
import { startServe } from '../helpers/cli.js'
import { peakRss } from '../helpers/peak-rss.js'
import { PRIVATE_KEY } from '../helpers/keys.js'

const MB = 1024 * 1024
const kb = { flowId: 'f', orgId: 'o', nodeId: 'n' }

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kb-sync-streaming-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** POSTs one document of `size` bytes (each MB filled with its own number) to `url`; its sha256. */
async function upload(url: string, size: number): Promise<string> {
  const boundary = 'streaming-boundary'
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="big.bin"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  )
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
  const hash = createHash('sha256')
  async function* body() {
    yield head
    for (let sent = 0; sent < size; sent += MB) {
      // Varying bytes, so a hash mix-up of chunks would show.
      const chunk = Buffer.alloc(MB, sent / MB)
      hash.update(chunk)
      yield chunk
    }
    yield tail
  }
  const status = await new Promise<number>((resolve, reject) => {
    const request = http.request(`${url}/indexing/v0/documents/${kb.flowId}/${kb.orgId}/${kb.nodeId}`, {
      method: 'POST',
      agent: false,
      headers: {
        authorization: `Bearer ${PRIVATE_KEY}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': head.length + size + tail.length,
      },
    })
    request.on('response', (response) => {
      response.resume()
      resolve(response.statusCode!)
    })
    pipeline(Readable.from(body()), request).catch(reject)
  })
  expect(status).toBe(200)
  return hash.digest('hex')
}

/** Starts `kb-sync serve` on its own data folder, uploads `size` bytes, stops it; its peak in kB. */
async function peakReceiving(size: number): Promise<{ peakKb: number; dataDir: string; sha256: string }> {
  const dataDir = join(dir, `data-${size}`)
  const peak = peakRss()
  try {
    const serve = await startServe(['--data-dir', dataDir], { KB_SYNC_PRIVATE_KEY: PRIVATE_KEY, ...peak.env })
    const exited = once(serve.child, 'exit')
    const sha256 = await upload(serve.url, size)
    serve.stop()
    await exited
    return { peakKb: peak.kilobytes(), dataDir, sha256 }
  } finally {
    peak.remove()
  }
}

it('a 128 MB upload peaks less than 64 MB above a 1 MB one and is stored with its hash', async () => {
  const small = await peakReceiving(MB)
  const large = await peakReceiving(128 * MB)
  for (const [run, size] of [
    [small, MB],
    [large, 128 * MB],
  ] as const) {
    expect(new EmulatorStore(run.dataDir).documents(kb)).toEqual([
      {
        name: 'big.bin',
        contentType: 'application/octet-stream',
        size,
        sha256: run.sha256,
        created: 1,
        updated: 0,
      },
    ])
  }
  process.stdout.write(
    `emulator peak RSS: 1 MB upload ${small.peakKb} kB, 128 MB upload ${large.peakKb} kB\n`,
  )
  expect((large.peakKb - small.peakKb) / 1024).toBeLessThan(64)
})
