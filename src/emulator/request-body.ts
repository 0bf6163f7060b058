// Reading a request to the emulator: its bearer token, and its body up to a limit (or drained unread).
import type { IncomingMessage } from 'node:http'
import { finished } from 'node:stream/promises'

export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer[ \t]+(\S.*?)\s*$/i.exec(header ?? '')
  return match?.[1]
}

/** Reads the rest of the body and throws it away, so the client can finish sending before the answer. */
export async function drain(request: IncomingMessage): Promise<void> {
  if (request.readableEnded) return
  request.resume()
  await finished(request).catch(() => undefined)
}

export async function readBody(request: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > limit) {
      await drain(request)
      return undefined
    }
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}
