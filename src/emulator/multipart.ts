// Receives a multipart body part by part, streaming every file part to a temp file while hashing it,
// so memory stays flat whatever the upload size. The caller decides what the parts mean.
import { createHash, randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import type { IncomingMessage } from 'node:http'
import path from 'node:path'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import busboy from 'busboy'

export interface ReceivedPart {
  /** The part's form field name. */
  field: string
  /** The decoded filename, or undefined when the part has none. */
  filename: string | undefined
  contentType: string
  size: number
  sha256: string
  /** Where the bytes are; undefined for parts without a filename (their content is not kept). */
  tempPath: string | undefined
}

export type MultipartResult = { ok: true; parts: ReceivedPart[] } | { ok: false; problem: string }

/**
 * Browsers and form-data (>= 4.0.6) percent-encode CR, LF and `"` in a multipart filename (WHATWG
 * HTML); undoing exactly those three gives back the name the client meant.
 */
export function decodeFilename(raw: string): string {
  return raw.replace(/%0D|%0A|%22/gi, (escape) => decodeURIComponent(escape))
}

const ABORTED = 'the client aborted the request'

/** Set up before any await: a request that closes while we wait for the disk has to be seen as aborted. */
function whenAborted(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    request.on('close', () => {
      if (!request.complete) resolve(ABORTED)
    })
  })
}

export async function receiveMultipart(request: IncomingMessage, tempDir: string): Promise<MultipartResult> {
  const aborted = whenAborted(request)
  await mkdir(tempDir, { recursive: true })
  const parts: ReceivedPart[] = []
  const writes: Promise<void>[] = []
  let parser: busboy.Busboy
  try {
    // preservePath: names are repo-relative paths, not basenames. utf8: clients send raw UTF-8 names.
    parser = busboy({ headers: request.headers, preservePath: true, defParamCharset: 'utf8' })
  } catch (error) {
    request.resume()
    return { ok: false, problem: (error as Error).message }
  }

  const parsed = new Promise<string | undefined>((resolve) => {
    parser.on('file', (field, stream, info) => {
      const filename = info.filename === undefined || info.filename === '' ? undefined : info.filename
      const part: ReceivedPart = {
        field,
        filename: filename === undefined ? undefined : decodeFilename(filename),
        contentType: info.mimeType,
        size: 0,
        sha256: '',
        tempPath: path.join(tempDir, `${randomUUID()}.part`),
      }
      parts.push(part)
      const hash = createHash('sha256')
      const meter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          hash.update(chunk)
          part.size += chunk.length
          callback(null, chunk)
        },
      })
      const sink = createWriteStream(part.tempPath!)
      // A destroyed pipeline settles before the file's open has finished; removing the file before then
      // would leave it behind, so a write counts as settled only once its file is closed.
      const closed = new Promise<void>((resolve) => sink.once('close', () => resolve()))
      writes.push(
        pipeline(stream, meter, sink)
          .then(() => {
            part.sha256 = hash.digest('hex')
          })
          .finally(() => closed),
      )
    })
    parser.on('field', (field, value, info) => {
      parts.push({
        field,
        filename: undefined,
        contentType: info.mimeType,
        size: Buffer.byteLength(value),
        sha256: createHash('sha256').update(value).digest('hex'),
        tempPath: undefined,
      })
    })
    parser.on('close', () => resolve(undefined))
    parser.on('error', (error: Error) => resolve(error.message))
  })

  request.pipe(parser)
  const problem = await Promise.race([parsed, aborted])
  if (problem !== undefined) {
    request.unpipe(parser)
    // Ends a file part cut off mid-way, so its temp file write settles instead of waiting forever.
    parser.destroy(new Error(problem))
  }
  const written = await Promise.allSettled(writes)
  const failed = written.find((result) => result.status === 'rejected')
  if (problem !== undefined || failed) {
    request.unpipe(parser)
    request.resume()
    await discardParts(parts)
    const reason = problem ?? String((failed as PromiseRejectedResult).reason)
    return { ok: false, problem: reason }
  }
  return { ok: true, parts }
}

export async function discardParts(parts: ReceivedPart[]): Promise<void> {
  await Promise.all(parts.map((part) => (part.tempPath ? rm(part.tempPath, { force: true }) : undefined)))
}
