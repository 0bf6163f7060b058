// Uploads are streamed to disk: the emulator's live memory (heap + buffers, after collection) stays
// flat while a large document arrives, and the stored bytes hash as sent.
import { afterAll, beforeAll, expect, it } from '@jest/globals'
import { createHash } from 'node:crypto'
import http from 'node:http'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'

const PRIVATE_KEY = 'sk-stream-private'
const MB = 1024 * 1024
const SIZE = 128 * MB

let emulator: Emulator
beforeAll(async () => {
  emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: 'pk-stream-public' })
})
afterAll(async () => {
  await emulator.close()
})

/** The collector, without starting the process with --expose-gc. */
function exposeGc(): () => void {
  setFlagsFromString('--expose-gc')
  return runInNewContext('gc') as () => void
}

it('a 128 MB upload keeps live memory growth under 40 MB and is stored with its hash', async () => {
  const gc = exposeGc()
  const live = () => {
    gc()
    const usage = process.memoryUsage()
    return usage.heapUsed + usage.arrayBuffers
  }
  const boundary = 'streaming-boundary'
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="big.bin"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  )
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
  const chunk = Buffer.alloc(MB)
  const hash = createHash('sha256')
  const baseline = live()
  // Growth can be negative (a collection frees more than the upload holds): count the samples instead.
  let peak = -Infinity
  let samples = 0

  async function* body() {
    yield head
    for (let sent = 0; sent < SIZE; sent += MB) {
      // Varying bytes, so a hash mix-up of chunks would show.
      chunk.fill(sent / MB)
      hash.update(chunk)
      yield Buffer.from(chunk)
      if (sent % (16 * MB) === 0) {
        peak = Math.max(peak, live() - baseline)
        samples++
      }
    }
    yield tail
  }

  const status = await new Promise<number>((resolve, reject) => {
    const request = http.request(`${emulator.url}/indexing/v0/documents/f/o/n`, {
      method: 'POST',
      agent: false,
      headers: {
        authorization: `Bearer ${PRIVATE_KEY}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': head.length + SIZE + tail.length,
      },
    })
    request.on('response', (response) => {
      response.resume()
      resolve(response.statusCode!)
    })
    pipeline(Readable.from(body()), request).catch(reject)
  })

  expect(status).toBe(200)
  expect(emulator.documents('f', 'o', 'n')).toEqual([
    { name: 'big.bin', size: SIZE, sha256: hash.digest('hex'), created: 1, updated: 0 },
  ])
  expect(samples).toBe(SIZE / (16 * MB))
  expect(peak).toBeLessThan(40 * MB)
})
