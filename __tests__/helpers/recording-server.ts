// A small real HTTP server for the client tests: records every request it receives (multipart parts
// parsed by busboy, hashed and discarded, so large uploads stay out of memory) and answers as scripted.
import { createHash } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import busboy from 'busboy'

export interface ReceivedPart {
  field: string
  /** As busboy read it: the multipart escapes (%0D, %0A, %22) are not undone. */
  filename: string
  mimeType: string
  size: number
  sha256: string
}

export interface ReceivedRequest {
  method: string
  url: string
  headers: IncomingHttpHeaders
  bytes: number
  /** The raw body when it is small (under 1 MiB). */
  raw?: Buffer
  parts?: ReceivedPart[]
}

export type Responder = (request: ReceivedRequest, response: ServerResponse, socket: Socket) => void

export interface RecordingServer {
  url: string
  port: number
  requests: ReceivedRequest[]
  close(): Promise<void>
}

const RAW_LIMIT = 1024 * 1024

export const ok: Responder = (_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' })
  response.end('{"ok":true}')
}

/** Undoes the percent-encoding form-data (and browsers) apply to CR, LF and `"` in a filename. */
export function decodeFilename(filename: string): string {
  return filename.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%22/g, '"')
}

export function sha256(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex')
}

function receive(request: IncomingMessage): Promise<ReceivedRequest> {
  return new Promise((resolve, reject) => {
    const received: ReceivedRequest = {
      method: request.method ?? '',
      url: request.url ?? '',
      headers: request.headers,
      bytes: 0,
    }
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => {
      received.bytes += chunk.length
      if (received.bytes <= RAW_LIMIT) chunks.push(chunk)
    })
    request.on('error', reject)
    const done = () => {
      if (received.bytes <= RAW_LIMIT) received.raw = Buffer.concat(chunks)
      resolve(received)
    }
    if (!(request.headers['content-type'] ?? '').startsWith('multipart/form-data')) {
      request.on('end', done)
      return
    }
    received.parts = []
    const parser = busboy({ headers: request.headers, preservePath: true, defParamCharset: 'utf8' })
    parser.on('file', (field, stream, info) => {
      const hash = createHash('sha256')
      let size = 0
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length
        hash.update(chunk)
      })
      stream.on('end', () =>
        received.parts!.push({
          field,
          filename: info.filename ?? '',
          mimeType: info.mimeType,
          size,
          sha256: hash.digest('hex'),
        }),
      )
    })
    parser.on('error', reject)
    parser.on('close', done)
    request.pipe(parser)
  })
}

/** Starts a server on 127.0.0.1 that reads each request whole, records it, then lets `respond` answer. */
export async function startRecordingServer(respond: Responder = ok): Promise<RecordingServer> {
  const requests: ReceivedRequest[] = []
  const sockets = new Set<Socket>()
  const server = createServer((request, response) => {
    receive(request).then(
      (received) => {
        requests.push(received)
        respond(received, response, request.socket)
      },
      () => request.socket.destroy(),
    )
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
