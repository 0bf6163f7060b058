// One HTTP exchange with the service: the request body streamed through a progress watchdog, the answer
// read with a size bound, and every way it can fail turned into one ServiceError with keys scrubbed.
import { Transform, type Writable } from 'node:stream'
import type { Dispatcher } from 'undici'
import type { Secrets } from '../log.js'
import { requestFinished } from '../chunk-release.js'
import { FileChangedError } from '../documents/read-guard.js'
import {
  excerpt,
  ServiceError,
  type HttpMethod,
  type OperationName,
  type ServiceErrorFields,
} from './errors.js'
import { isRetried } from './retry.js'

/** A request body that can be written once; a new one is built for every call. */
export interface RequestBody {
  contentType: string
  /** Exact byte length, sent as Content-Length. */
  length: number
  /** Writes the body into `destination`; `fail` is called when the source (e.g. a file) breaks. */
  writeTo(destination: Writable, fail: (error: Error) => void): void
  /** Releases what the body holds open (file handles), whatever state it is in. */
  dispose(): void
  /**
   * Called once the service answered with success after the whole body went out: the body's bytes are
   * no longer read by anyone and its memory may be used again.
   */
  reuse?(): void
}

export function jsonBody(value: unknown): RequestBody {
  const bytes = Buffer.from(JSON.stringify(value), 'utf8')
  return {
    contentType: 'application/json',
    length: bytes.length,
    writeTo: (destination) => void destination.end(bytes),
    dispose: () => undefined,
  }
}

export interface Exchange {
  operation: OperationName
  method: HttpMethod
  /** The contract path shown in errors. */
  path: string
  /** The base URL the client was made with, kept on errors. */
  baseUrl?: string
  url: URL
  key: string
  body: RequestBody
  headersTimeoutMs: number
  bodyIdleMs: number
  /** A successful answer longer than this fails the call (unless `readAnswer` reads it as it comes). */
  maxAnswerBytes: number
  /**
   * Reads a successful answer as it arrives instead of holding its text; the result is the answer's
   * `value` (its `text` is then ''). An error thrown by the reader fails the call as BAD_ANSWER.
   */
  readAnswer?: () => AnswerReader
  /**
   * A successful status is all the caller needs (indexing): the answer's text is read when it comes
   * whole within `withinMs` and `maxAnswerBytes`; a body that breaks off, is too long or is still coming
   * then is cut off and leaves the text empty, instead of failing (or holding) a call the service has
   * applied (and so having it sent again).
   */
  answerOptional?: { withinMs: number }
  signal?: AbortSignal
}

export interface AnswerReader {
  write(chunk: Uint8Array): void
  end(): unknown
}

export interface Answer {
  status: number
  contentType: string
  text: string
  /** What `readAnswer` made of the answer, when the call had one. */
  value?: unknown
}

// An error answer is only shown as an excerpt: reading more of it is pointless.
const ERROR_ANSWER_READ_LIMIT = 64 * 1024

/** Aborts an upload whose body stops moving; armed when the body starts to flow, stopped once it is all out. */
class BodyWatchdog {
  private timer: NodeJS.Timeout | undefined
  private stopped = false

  constructor(
    private readonly idleMs: number,
    private readonly onIdle: () => void,
  ) {}

  start(): void {
    if (this.stopped || this.timer) return
    this.timer = setTimeout(() => {
      this.stopped = true
      this.onIdle()
    }, this.idleMs)
    this.timer.unref()
  }

  touch(): void {
    this.timer?.refresh()
  }

  stop(): void {
    this.stopped = true
    clearTimeout(this.timer)
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string') return code
  // Connecting to several addresses (happy eyeballs) fails with an AggregateError of the attempts.
  if (error instanceof AggregateError) return errorCode(error.errors[0])
  return undefined
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

async function readText(
  body: Dispatcher.ResponseData['body'],
  limit: number,
): Promise<{ text: string; complete: boolean }> {
  const chunks: Buffer[] = []
  let length = 0
  for await (const chunk of body) {
    const bytes = chunk as Buffer
    if (length + bytes.length > limit) {
      chunks.push(bytes.subarray(0, limit - length))
      body.destroy()
      return { text: Buffer.concat(chunks).toString('utf8'), complete: false }
    }
    chunks.push(bytes)
    length += bytes.length
  }
  return { text: Buffer.concat(chunks).toString('utf8'), complete: true }
}

/** The answer's text when it comes whole within `withinMs` and `limit` bytes; otherwise '' (not waited for). */
async function readOptionalText(
  body: Dispatcher.ResponseData['body'],
  limit: number,
  withinMs: number,
): Promise<string> {
  const timer = setTimeout(() => body.destroy(new Error(`answer not read within ${withinMs} ms`)), withinMs)
  try {
    const { text, complete } = await readText(body, limit)
    return complete ? text : ''
  } catch {
    body.destroy()
    return ''
  } finally {
    clearTimeout(timer)
  }
}

/** What the answer's reader refused (kept apart from the connection's own failures while reading). */
class UnreadableAnswer extends Error {
  constructor(readonly refusal: unknown) {
    super(errorText(refusal))
  }
}

function feed(reader: AnswerReader, chunk: Buffer): void {
  try {
    reader.write(chunk)
  } catch (error) {
    throw new UnreadableAnswer(error)
  }
}

function finish(reader: AnswerReader): unknown {
  try {
    return reader.end()
  } catch (error) {
    throw new UnreadableAnswer(error)
  }
}

/** Sends one request and returns its 2xx answer; anything else throws a ServiceError. */
export async function exchange(agent: Dispatcher, secrets: Secrets, call: Exchange): Promise<Answer> {
  let bodySent = false
  let bodyError: Error | undefined
  let idle = false
  let answerStatus: number | undefined
  /** A 2xx answer was read: the call succeeds. */
  let answered = false
  const failure = (fields: Omit<ServiceErrorFields, 'operation' | 'method' | 'path' | 'bodySent'>) =>
    new ServiceError({
      operation: call.operation,
      method: call.method,
      path: call.path,
      baseUrl: call.baseUrl,
      bodySent,
      ...fields,
    })

  if (call.signal?.aborted) {
    call.body.dispose()
    throw failure({ code: 'ABORTED', retryable: false, reason: 'aborted before the request was sent' })
  }
  // One controller for the request, which the caller's signal aborts too: AbortSignal.any made a signal
  // more per request, kept as a dependant of the run's signal until collected.
  const requestAbort = new AbortController()
  const signal = requestAbort.signal
  const forwardAbort = () => requestAbort.abort(call.signal?.reason)
  const watchdog = new BodyWatchdog(call.bodyIdleMs, () => {
    idle = true
    requestAbort.abort(new Error('the request body made no progress'))
  })
  // Counts progress as the bytes pass on towards the socket (undici pauses this stream when the socket
  // is full, so a stalled upload stops calling transform).
  const progress = new Transform({
    transform(chunk, _encoding, callback) {
      watchdog.touch()
      callback(null, chunk)
    },
  })
  // undici listens for errors only while the request runs; a file failing later must not crash the process.
  progress.on('error', () => undefined)
  progress.once('resume', () => watchdog.start())
  progress.once('end', () => {
    bodySent = true
    watchdog.stop()
  })
  call.body.writeTo(progress, (error) => {
    bodyError ??= error
    progress.destroy(error)
  })

  call.signal?.addEventListener('abort', forwardAbort, { once: true })
  try {
    const response = await agent.request({
      origin: call.url.origin,
      path: call.url.pathname,
      method: call.method,
      headers: {
        authorization: `Bearer ${call.key}`,
        'content-type': call.body.contentType,
        'content-length': String(call.body.length),
        accept: 'application/json',
        'user-agent': 'kb-sync',
      },
      body: progress,
      signal,
      headersTimeout: call.headersTimeoutMs,
      bodyTimeout: call.bodyIdleMs,
    })
    const status = response.statusCode
    answerStatus = status
    // Destroying the answer early (a redirect, an over-long answer) emits an abort error nobody waits for.
    response.body.on('error', () => undefined)
    if (status >= 300 && status < 400) {
      response.body.destroy()
      throw failure({
        status,
        code: 'REDIRECT',
        retryable: false,
        reason: `HTTP ${status}: redirects are not followed (the key is only sent to the base URL)`,
      })
    }
    const success = status >= 200 && status < 300
    const contentType = headerValue(response.headers['content-type']) ?? ''
    if (success && call.readAnswer) {
      const reader = call.readAnswer()
      let value: unknown
      try {
        for await (const chunk of response.body) feed(reader, chunk as Buffer)
        value = finish(reader)
      } catch (error) {
        if (!(error instanceof UnreadableAnswer)) throw error
        response.body.destroy()
        throw failure({
          status,
          code: 'BAD_ANSWER',
          retryable: false,
          reason: `HTTP ${status}, but ${secrets.redact(errorText(error.refusal))}`,
        })
      }
      answered = true
      return { status, contentType, text: '', value }
    }
    if (success && call.answerOptional) {
      const text = await readOptionalText(response.body, call.maxAnswerBytes, call.answerOptional.withinMs)
      answered = true
      return { status, contentType, text }
    }
    const { text, complete } = await readText(
      response.body,
      success ? call.maxAnswerBytes : ERROR_ANSWER_READ_LIMIT,
    )
    if (!success) {
      // A cut answer ends in `…`, so a key cut there is found by its beginning (Secrets.redact).
      const shown = excerpt(secrets.redact(complete ? text : `${text}…`))
      const retryAfter = headerValue(response.headers['retry-after'])
      throw failure({
        status,
        body: shown,
        retryable: isRetried({ status }),
        retryAfter,
        reason: `HTTP ${status}${shown ? `: ${shown}` : ''}`,
      })
    }
    if (!complete) {
      throw failure({
        status,
        code: 'ANSWER_TOO_LARGE',
        retryable: false,
        reason: `HTTP ${status} with an answer longer than ${call.maxAnswerBytes} bytes`,
      })
    }
    answered = true
    return { status, contentType, text }
  } catch (error) {
    if (error instanceof ServiceError) throw error
    throw unanswered(error)
  } finally {
    call.signal?.removeEventListener('abort', forwardAbort)
    watchdog.stop()
    progress.destroy()
    call.body.dispose()
    // A success after the whole body went out: the service read every byte, so nothing reads them again.
    if (answered && bodySent) call.body.reuse?.()
    requestFinished()
  }

  function unanswered(error: unknown): ServiceError {
    // What the service did is unknown when the body went out and no complete answer came back.
    const ambiguity = bodySent ? '; the whole request had been sent, so it may have been applied' : ''
    const during = answerStatus === undefined ? '' : `reading the HTTP ${answerStatus} answer: `
    if (call.signal?.aborted)
      return failure({ code: 'ABORTED', retryable: false, reason: `aborted${ambiguity}` })
    if (idle) {
      return failure({
        code: 'BODY_IDLE_TIMEOUT',
        retryable: isRetried({ code: 'BODY_IDLE_TIMEOUT' }),
        reason: `BODY_IDLE_TIMEOUT: the request body made no progress for ${call.bodyIdleMs} ms`,
      })
    }
    if (bodyError) {
      const code = bodyError instanceof FileChangedError ? 'FILE_CHANGED' : 'FILE_READ_ERROR'
      return failure({ code, retryable: false, reason: `${code}: ${secrets.redact(bodyError.message)}` })
    }
    const code = errorCode(error) ?? (error instanceof Error ? error.name : 'ERROR')
    const detail =
      code === 'UND_ERR_HEADERS_TIMEOUT' ? `no answer within ${call.headersTimeoutMs} ms` : errorText(error)
    return failure({
      code,
      retryable: isRetried({ code }),
      reason: `${code}: ${during}${secrets.redact(detail)}${ambiguity}`,
    })
  }
}
