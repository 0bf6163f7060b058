// The least a client can do for the same requests as the action: list the folder, read each file, lay out
// each batch as one multipart body and POST it, `concurrency` at a time over kept-alive connections. No
// checks, no plan, no report. The side-by-side bench times it next to the action against the same service:
// what any client pays beyond the ideal schedule's round trips.
// With `checked` it first makes the system calls of the action's per-file checks, and nothing else of
// them: `lstat` of each file (type and size before anything is sent) and a read of its beginning (the
// drafts' front matter: `open`, one `read`, `close`). The floor of a client that checks what it sends.
// node bench/least-client.mjs <url> <folder> <batch size> <concurrency> <key> [checked]
import { closeSync, lstatSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs'
import http from 'node:http'
import { join } from 'node:path'

const [url, folder, batchSize, concurrency, key, checked] = process.argv.slice(2)
const agent = new http.Agent({ keepAlive: true, maxSockets: Number(concurrency) })
const boundary = '--------------------------least-client'
const names = readdirSync(folder).sort()
if (checked === 'checked') {
  const head = Buffer.allocUnsafe(64 * 1024)
  for (const name of names) {
    const path = join(folder, name)
    const { size } = lstatSync(path)
    const fd = openSync(path, 'r')
    readSync(fd, head, 0, Math.min(size, head.length), 0)
    closeSync(fd)
  }
}
const batches = []
for (let i = 0; i < names.length; i += Number(batchSize)) batches.push(names.slice(i, i + Number(batchSize)))

function body(batch) {
  const parts = []
  for (const name of batch) {
    const header =
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\n` +
      'Content-Type: text/markdown\r\n\r\n'
    parts.push(Buffer.from(header), readFileSync(join(folder, name)), Buffer.from('\r\n'))
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`))
  return Buffer.concat(parts)
}

function post(bytes) {
  return new Promise((resolve, reject) => {
    const headers = {
      authorization: `Bearer ${key}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': bytes.length,
    }
    const request = http.request(url, { method: 'POST', agent, headers }, (response) => {
      response.resume()
      response.on('end', () =>
        response.statusCode < 300 ? resolve() : reject(new Error(`HTTP ${response.statusCode}`)),
      )
    })
    request.on('error', reject)
    request.end(bytes)
  })
}

let next = 0
const worker = async () => {
  while (next < batches.length) await post(body(batches[next++]))
}
await Promise.all(Array.from({ length: Number(concurrency) }, worker))
agent.destroy()
