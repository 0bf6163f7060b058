// The wire format of the five operations of the service (../shared/SERVICE.md): the only place that builds
// a service URL, an Authorization header or a request body. One call sends one request; retries live
// above (send/send-plan.ts) and every call builds its body anew from the paths, so calling again is always safe.
import { Agent } from 'undici'
import { OUTPUT_LIMIT_BYTES } from './cut.js'
import { CutString, StreamJsonReader } from './stream-json.js'
import { Secrets } from '../log.js'
import type { FlowTarget, IndexTarget } from '../model.js'
import { FileChangedError } from '../documents/read-guard.js'
import { baseUrlProblem, normalizeBaseUrl } from './base-url.js'
import { ClientUsageError, ServiceError, type HttpMethod, type OperationName } from './errors.js'
import { exchange, jsonBody, type Answer, type Exchange, type RequestBody } from './http.js'
import { idProblem } from './ids.js'
import {
  bodyOf,
  checkDocuments,
  multipartBody,
  openDocuments,
  type DocumentRef,
  type OpenedDocuments,
  type PartNaming,
} from './multipart.js'

export { baseUrlProblem } from './base-url.js'
export { ClientUsageError, ServiceError, type OperationName } from './errors.js'
export { contentTypeFor, type DocumentRef, type OpenedDocuments } from './multipart.js'

export interface ClientTimeouts {
  connectMs: number
  /** Waiting for the answer's headers of an indexing call (counted from the end of the upload). */
  uploadHeadersMs: number
  /** Waiting for the answer's headers of a flow run. */
  runHeadersMs: number
  /** An upload body (or an answer body) that makes no progress for this long is aborted. */
  bodyIdleMs: number
  /**
   * Reading the body of a successful indexing answer, counted from its headers. The status decides an
   * indexing call and its body is not used: one still coming after this (or past INDEXING_ANSWER_BYTES)
   * is cut off and the call has succeeded, so a service trickling its answer cannot hold the step.
   */
  indexingAnswerMs: number
}

export const DEFAULT_TIMEOUTS: Readonly<ClientTimeouts> = Object.freeze({
  connectMs: 10_000,
  uploadHeadersMs: 120_000,
  runHeadersMs: 300_000,
  bodyIdleMs: 60_000,
  indexingAnswerMs: 5_000,
})

/** At most this much of a successful indexing answer is read (see indexingAnswerMs). */
export const INDEXING_ANSWER_BYTES = 64 * 1024

export interface ClientOptions {
  baseUrl: string
  /** For the four indexing operations. */
  privateKey?: string
  /** For the flow run. */
  publicKey?: string
  /** Keep-alive connections in the pool: the caller's concurrency (default 4). */
  connections?: number
  timeouts?: Partial<ClientTimeouts>
}

export interface CallOptions {
  signal?: AbortSignal
  /**
   * Document calls: the same documents, already being opened by `openDocuments` (e.g. while waiting for a
   * request slot), used instead of opening them again. The caller disposes them after the call.
   */
  opened?: Promise<OpenedDocuments>
}

export interface ServiceResponse {
  status: number
  /** Parsed JSON when the answer is JSON, else its text ('' when empty). */
  body: unknown
}

export interface FlowAnswer {
  outputs?: Record<string, unknown>
  run_id?: string
  [key: string]: unknown
}

// A run's answer is read as it arrives, each string kept only up to what a step output can hold
// (OUTPUT_LIMIT_BYTES characters are never fewer bytes), so memory does not grow with the answer: the
// strings of `outputs` together keep a few outputs' worth, the rest of the answer as much again, the
// named output and the short members of the answer (state, run_id) are kept on top, and an answer of
// more values than any flow gives is refused.
const KEPT_STRING_CHARS = OUTPUT_LIMIT_BYTES
const KEPT_CHARS = 4 * OUTPUT_LIMIT_BYTES
const MAX_ANSWER_VALUES = 1_000_000

// What an Authorization header can carry without being rejected or split.
const KEY_PATTERN = /^[\x21-\x7e]+$/

interface OperationSpec {
  method: HttpMethod
  area: 'indexing' | 'run'
}

const OPERATIONS: Readonly<Record<OperationName, OperationSpec>> = {
  uploadUrls: { method: 'POST', area: 'indexing' },
  updateUrls: { method: 'PATCH', area: 'indexing' },
  uploadDocuments: { method: 'POST', area: 'indexing' },
  updateDocuments: { method: 'PATCH', area: 'indexing' },
  runFlow: { method: 'POST', area: 'run' },
}

export class ServiceClient {
  private readonly origin: string
  private readonly prefix: string
  /** The base URL as errors name it: origin and path, without trailing slashes. */
  private readonly baseUrl: string
  private readonly routes = new Map<string, Route>()
  private readonly agent: Agent
  private readonly secrets = new Secrets()
  private readonly timeouts: ClientTimeouts
  private readonly privateKey?: string
  private readonly publicKey?: string

  constructor(options: ClientOptions) {
    const problem = baseUrlProblem(options.baseUrl)
    if (problem) throw new ClientUsageError(`base URL ${problem}`)
    const base = new URL(normalizeBaseUrl(options.baseUrl))
    this.origin = base.origin
    this.prefix = base.pathname.replace(/\/+$/, '')
    this.baseUrl = `${this.origin}${this.prefix}`
    this.privateKey = checkedKey('private key', options.privateKey)
    this.publicKey = checkedKey('public key', options.publicKey)
    this.secrets.add(this.privateKey)
    this.secrets.add(this.publicKey)
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...definedOnly(options.timeouts ?? {}) }
    for (const [name, value] of Object.entries(this.timeouts)) {
      if (!(Number.isFinite(value) && value > 0))
        throw new ClientUsageError(`timeout ${name} must be positive`)
    }
    const connections = options.connections ?? 4
    if (!(Number.isSafeInteger(connections) && connections >= 1))
      throw new ClientUsageError('connections must be a positive integer')
    this.agent = new Agent({
      connections,
      connect: { timeout: this.timeouts.connectMs },
      headersTimeout: this.timeouts.uploadHeadersMs,
      bodyTimeout: this.timeouts.bodyIdleMs,
    })
  }

  uploadUrls(target: IndexTarget, urls: string[], options?: CallOptions): Promise<ServiceResponse> {
    return this.sendUrls('uploadUrls', target, urls, options)
  }

  updateUrls(target: IndexTarget, urls: string[], options?: CallOptions): Promise<ServiceResponse> {
    return this.sendUrls('updateUrls', target, urls, options)
  }

  uploadDocuments(
    target: IndexTarget,
    documents: DocumentRef[],
    options?: CallOptions,
  ): Promise<ServiceResponse> {
    return this.sendDocuments('uploadDocuments', 'files', target, documents, options)
  }

  updateDocuments(
    target: IndexTarget,
    documents: DocumentRef[],
    options?: CallOptions,
  ): Promise<ServiceResponse> {
    return this.sendDocuments('updateDocuments', 'numbered', target, documents, options)
  }

  /** `options.outputKey` names the output whose text is kept first (default `out-0`). */
  async runFlow(
    target: FlowTarget,
    inputs: Record<string, string>,
    options?: CallOptions & { outputKey?: string },
  ): Promise<FlowAnswer> {
    const key = this.keyFor('runFlow')
    for (const [name, value] of Object.entries(inputs)) {
      if (typeof value !== 'string') throw new ClientUsageError(`flow input "${name}" must be a string`)
    }
    const route = this.route('runFlow', ['inference', 'v0', 'run'], [target.orgId, target.flowId])
    const answer = await this.send('runFlow', route, key, () => Promise.resolve(jsonBody(inputs)), {
      ...options,
      readAnswer: () =>
        new StreamJsonReader({
          maxStringChars: KEPT_STRING_CHARS,
          maxKeptChars: KEPT_CHARS,
          maxValues: MAX_ANSWER_VALUES,
          priorityPath: ['outputs', options?.outputKey ?? 'out-0'],
          ownBudgetUnder: 'outputs',
        }),
    })
    const parsed = answer.value
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new ServiceError({
        operation: 'runFlow',
        method: 'POST',
        path: route.path,
        baseUrl: this.baseUrl,
        status: answer.status,
        body: '',
        retryable: false,
        bodySent: true,
        code: 'BAD_ANSWER',
        reason: `HTTP ${answer.status} with an answer that is not a JSON object`,
      })
    }
    return parsed as FlowAnswer
  }

  /**
   * Opens a batch's files ahead of its request (hand the promise to the call as `opened`). Rejects with
   * the read guard's FileChangedError, which the call then reports as FILE_CHANGED.
   */
  openDocuments(documents: DocumentRef[]): Promise<OpenedDocuments> {
    return openDocuments(documents)
  }

  /** Closes the pooled connections (waits for calls in flight). */
  async close(): Promise<void> {
    await this.agent.close()
  }

  private async sendUrls(
    operation: 'uploadUrls' | 'updateUrls',
    target: IndexTarget,
    urls: string[],
    options?: CallOptions,
  ): Promise<ServiceResponse> {
    const key = this.keyFor(operation)
    if (urls.length === 0) throw new ClientUsageError('at least one URL is needed')
    if (urls.some((url) => typeof url !== 'string')) throw new ClientUsageError('every URL must be a string')
    const route = this.indexingRoute(operation, 'urls', target)
    return toResponse(await this.send(operation, route, key, () => Promise.resolve(jsonBody(urls)), options))
  }

  private async sendDocuments(
    operation: 'uploadDocuments' | 'updateDocuments',
    naming: PartNaming,
    target: IndexTarget,
    documents: DocumentRef[],
    options?: CallOptions,
  ): Promise<ServiceResponse> {
    const key = this.keyFor(operation)
    checkDocuments(documents)
    const route = this.indexingRoute(operation, 'documents', target)
    const opened = options?.opened
    const buildBody = () =>
      opened ? opened.then((files) => bodyOf(files, naming)) : multipartBody(documents, naming)
    return toResponse(await this.send(operation, route, key, buildBody, options))
  }

  private async send(
    operation: OperationName,
    route: Route,
    key: string,
    buildBody: () => Promise<RequestBody>,
    options: CallOptions & { readAnswer?: Exchange['readAnswer'] } = {},
  ): Promise<Answer> {
    const { method, area } = OPERATIONS[operation]
    let body: RequestBody
    try {
      body = await buildBody()
    } catch (error) {
      if (!(error instanceof FileChangedError)) throw error
      throw new ServiceError({
        operation,
        method,
        path: route.path,
        baseUrl: this.baseUrl,
        retryable: false,
        bodySent: false,
        code: 'FILE_CHANGED',
        reason: `FILE_CHANGED: ${this.secrets.redact(error.message)}`,
      })
    }
    return exchange(this.agent, this.secrets, {
      operation,
      method,
      path: route.path,
      baseUrl: this.baseUrl,
      url: route.url,
      key,
      body,
      headersTimeoutMs: area === 'run' ? this.timeouts.runHeadersMs : this.timeouts.uploadHeadersMs,
      bodyIdleMs: this.timeouts.bodyIdleMs,
      maxAnswerBytes: INDEXING_ANSWER_BYTES,
      readAnswer: options.readAnswer,
      answerOptional: area === 'indexing' ? { withinMs: this.timeouts.indexingAnswerMs } : undefined,
      signal: options.signal,
    })
  }

  private keyFor(operation: OperationName): string {
    const run = OPERATIONS[operation].area === 'run'
    const key = run ? this.publicKey : this.privateKey
    if (key === undefined) {
      throw new ClientUsageError(
        `${operation} needs the ${run ? 'public' : 'private'} key, and the client was created without it`,
      )
    }
    return key
  }

  private indexingRoute(operation: OperationName, kind: 'urls' | 'documents', target: IndexTarget): Route {
    return this.route(operation, ['indexing', 'v0', kind], [target.flowId, target.orgId, target.nodeId])
  }

  /**
   * The URL of an operation. Each id is checked and encoded, then the parsed URL must still have exactly
   * the segments that were joined: nothing a URL parser reinterprets (dot segments, even percent-encoded)
   * may move the request, and its key, to another path.
   */
  private route(operation: OperationName, fixed: string[], ids: string[]): Route {
    // Every request of a run goes to the same few routes: each is checked and parsed once.
    const key = `${operation}\0${fixed.join('/')}\0${ids.join('\0')}`
    const known = this.routes.get(key)
    if (known) return known
    const route = this.checkedRoute(operation, fixed, ids)
    this.routes.set(key, route)
    return route
  }

  private checkedRoute(operation: OperationName, fixed: string[], ids: string[]): Route {
    const labels = fixed[0] === 'indexing' ? ['flow id', 'org id', 'node id'] : ['org id', 'flow id']
    ids.forEach((id, index) => {
      const problem = typeof id === 'string' ? idProblem(id) : 'must be a string'
      if (problem) throw new ClientUsageError(`${operation}: the ${labels[index]} ${problem}`)
    })
    const segments = [...fixed, ...ids.map(encodeURIComponent)]
    const path = `/${segments.join('/')}`
    const url = new URL(`${this.prefix}${path}`, this.origin)
    const expected = [...this.prefix.split('/').filter(Boolean), ...segments]
    const actual = url.pathname.split('/').slice(1)
    if (
      url.origin !== this.origin ||
      url.search !== '' ||
      url.hash !== '' ||
      actual.length !== expected.length ||
      actual.some((segment, index) => segment !== expected[index])
    ) {
      throw new ClientUsageError(`${operation}: the ids do not make the expected path ${path}`)
    }
    return { path, url }
  }
}

interface Route {
  /** The contract path with its ids, shown in errors. */
  path: string
  url: URL
}

function checkedKey(label: string, key: string | undefined): string | undefined {
  if (key === undefined || key === '') return undefined
  if (!KEY_PATTERN.test(key))
    throw new ClientUsageError(`the ${label} must be one line of visible ASCII characters (not shown)`)
  return key
}

function definedOnly(values: Partial<ClientTimeouts>): Partial<ClientTimeouts> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined))
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function toResponse(answer: Answer): ServiceResponse {
  if (answer.text === '') return { status: answer.status, body: '' }
  if (/[/+]json\b/i.test(answer.contentType)) {
    const parsed = parseJson(answer.text)
    if (parsed !== undefined) return { status: answer.status, body: parsed }
  }
  return { status: answer.status, body: answer.text }
}

/**
 * One named output of a flow answer (default `out-0`): a string as it is, any other value as JSON text.
 * Throws an Error naming the key and the keys the answer has when it is missing.
 */
export function pickOutput(answer: FlowAnswer, key = 'out-0'): string {
  return String(namedOutput(answer, key))
}

/**
 * Like pickOutput, but a string the reader kept only in part stays a CutString, so that what is cut
 * from it can be told exactly.
 */
export function namedOutput(answer: FlowAnswer, key = 'out-0'): string | CutString {
  const outputs = answer.outputs
  if (typeof outputs !== 'object' || outputs === null || Array.isArray(outputs)) {
    throw new Error(`The flow's answer has no "outputs" object, so output "${key}" is missing.`)
  }
  if (!Object.hasOwn(outputs, key)) {
    const available = Object.keys(outputs)
    const listed = available.length > 0 ? available.map((name) => `"${name}"`).join(', ') : 'none'
    throw new Error(`The flow's answer has no output "${key}" (outputs: ${listed}).`)
  }
  const value = outputs[key]
  if (typeof value === 'string' || value instanceof CutString) return value
  return JSON.stringify(value) ?? String(value)
}
