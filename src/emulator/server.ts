// The local emulator of the indexing/inference service: the five operations of the contract over real
// HTTP, with the checks the contract implies, a store on disk, a retrieval flow, injectable latency and
// faults, and a request log for tests.
//
// Documented choices (the contract shows no responses):
// - Success: 200 with {"uploaded": [...]} (POST) or {"updated": [...]} (PATCH) naming the documents or
//   URLs; the run answers {"outputs": {"out-0": "..."}, "run_id": "<uuid>", "state": "COMPLETED", "error": null,
//   "pause": null, "citations": [...]}.
// - POST of a document name / URL that exists: 409; PATCH of one that does not: 404. A request is applied
//   all-or-nothing; the detail names every offender.
// - Errors are FastAPI-style: {"detail": "..."} (401/403/404/405/409/413/429/500/503) and
//   {"detail": [{"loc", "msg", "type"}]} for validation (422).
// - 401/403 details deliberately echo the token received, like a careless real service might: it lets
//   tests prove that clients scrub keys from the errors they show.
import { randomUUID } from 'node:crypto'
import { appendFileSync } from 'node:fs'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { createFaultPicker, type FaultKind } from './faults.js'
import { createMissPicker, flowRunAnswer, judgeRunAnswer, questionOf, type FlowDocument } from './flow.js'
import { IndexLag } from './index-lag.js'
import { knowledgeOf } from './knowledge.js'
import { checkOptions, type EmulatorOptions } from './options.js'
import { bearerToken, drain, readBody } from './request-body.js'
import { matchRoute, type Route } from './routes.js'
import { discardParts, receiveMultipart, type ReceivedPart } from './multipart.js'
import { EmulatorStore, type ChangeMode, type KnowledgeBaseId, type ReceivedDocument } from './store.js'
import {
  checkDocumentParts,
  checkJsonContentType,
  checkMultipartContentType,
  checkRunInputs,
  checkUrlList,
  parseJson,
  type Checked,
  type ValidationIssue,
} from './validation.js'

export type { FaultKind } from './faults.js'
export type { EmulatorOptions } from './options.js'

export interface DocumentPart {
  field: string
  filename: string
  size: number
  sha256: string
  contentType: string
}

export interface RequestLogEntry {
  seq: number
  time: string
  method: string
  path: string
  /** null when the connection was reset. */
  status: number | null
  fault?: FaultKind
  key: 'private' | 'public' | 'none' | 'unknown'
  /** Whether the store changed. */
  applied: boolean
  documents?: DocumentPart[]
  urls?: string[]
  inputs?: Record<string, string>
}

export interface StoredDocumentInfo {
  name: string
  size: number
  sha256: string
  /** How many times the name was created. */
  created: number
  /** How many times it was patched. */
  updated: number
}

export interface Emulator {
  /** e.g. http://127.0.0.1:PORT (no trailing slash). */
  url: string
  dataDir: string
  /** In-memory copy of the request log (also appended as JSON lines to <dataDir>/requests.jsonl). */
  requests(): RequestLogEntry[]
  /** Sorted by name. */
  documents(flowId: string, orgId: string, nodeId: string): StoredDocumentInfo[]
  urls(flowId: string, orgId: string, nodeId: string): string[]
  close(): Promise<void>
}

/** Largest JSON body accepted (URL lists and run inputs). */
const JSON_BODY_LIMIT = 16 * 1024 * 1024

type KeyKind = RequestLogEntry['key']

interface Answer {
  status: number
  body: unknown
  headers?: Record<string, string>
}

const detail = (status: number, message: string, headers?: Record<string, string>): Answer => ({
  status,
  body: { detail: message },
  headers,
})
const invalid = (issues: ValidationIssue[]): Answer => ({ status: 422, body: { detail: issues } })

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

class EmulatorServer {
  private seq = 0
  private readonly log: RequestLogEntry[] = []
  private readonly logFile: string
  private readonly pickFault
  private readonly missed: (question: string) => boolean
  readonly store: EmulatorStore
  private readonly lag: IndexLag

  constructor(
    private readonly options: EmulatorOptions,
    dataDir: string,
  ) {
    this.lag = new IndexLag(options.indexDelayMs ?? 0)
    this.store = new EmulatorStore(dataDir, (kb) => this.lag.changing(kb, () => knowledgeOf(this.store, kb)))
    this.logFile = path.join(this.store.dataDir, 'requests.jsonl')
    this.pickFault = createFaultPicker(options)
    this.missed = createMissPicker(options.seed ?? 0, options.missRate ?? 0)
  }

  requests(): RequestLogEntry[] {
    return structuredClone(this.log)
  }

  private record(entry: RequestLogEntry): void {
    this.log.push(entry)
    appendFileSync(this.logFile, `${JSON.stringify(entry)}\n`)
  }

  private keyKind(token: string | undefined): KeyKind {
    if (token === undefined) return 'none'
    if (token === this.options.privateKey) return 'private'
    if (token === this.options.publicKey) return 'public'
    return 'unknown'
  }

  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const rawPath = (request.url ?? '').split('?')[0]
    const method = request.method ?? ''
    const token = bearerToken(request.headers.authorization)
    const entry: RequestLogEntry = {
      seq: ++this.seq,
      time: new Date().toISOString(),
      method,
      path: rawPath,
      status: null,
      key: this.keyKind(token),
      applied: false,
    }
    const fault = this.pickFault({ method, path: rawPath, seq: entry.seq })
    if (fault) entry.fault = fault

    if (fault === 'reset-before') {
      await this.delay()
      this.record(entry)
      request.socket.destroy()
      return
    }

    let answer: Answer
    if (fault === 'rate-limit' || fault === 'server-error' || fault === 'unavailable') {
      await drain(request)
      answer = this.faultAnswer(fault)
    } else {
      try {
        answer = await this.route(request, rawPath, method, token, entry)
      } catch (error) {
        await drain(request)
        answer = detail(500, `Internal emulator error: ${(error as Error).message}`)
      }
    }

    await this.delay()
    if (fault === 'reset-after' || response.destroyed || request.socket.destroyed) {
      this.record(entry)
      request.socket.destroy()
      return
    }
    entry.status = answer.status
    this.record(entry)
    const body = JSON.stringify(answer.body)
    response.writeHead(answer.status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      ...answer.headers,
    })
    response.end(body)
  }

  private exists(route: Route): boolean {
    const flows = this.options.flows
    if (!flows) return true
    return route.operation === 'run'
      ? flows.some((f) => f.orgId === route.orgId && f.flowId === route.flowId)
      : flows.some(
          (f) => f.orgId === route.kb.orgId && f.flowId === route.kb.flowId && f.nodeId === route.kb.nodeId,
        )
  }

  private delay(): Promise<unknown> {
    const ms = this.options.latencyMs ?? 0
    return ms > 0 ? sleep(ms) : Promise.resolve()
  }

  private faultAnswer(fault: 'rate-limit' | 'server-error' | 'unavailable'): Answer {
    const retryAfter = { 'retry-after': String(this.options.retryAfterSeconds ?? 1) }
    if (fault === 'rate-limit') return detail(429, 'Too many requests (injected fault)', retryAfter)
    if (fault === 'unavailable') return detail(503, 'Service unavailable (injected fault)', retryAfter)
    return detail(500, 'Internal server error (injected fault)')
  }

  private async route(
    request: IncomingMessage,
    rawPath: string,
    method: string,
    token: string | undefined,
    entry: RequestLogEntry,
  ): Promise<Answer> {
    const route = matchRoute(rawPath)
    if (!route || !this.exists(route)) {
      await drain(request)
      return detail(404, 'Not Found')
    }
    const methodAllowed =
      route.operation === 'run' ? method === 'POST' : method === 'POST' || method === 'PATCH'
    if (!methodAllowed) {
      await drain(request)
      return detail(405, 'Method Not Allowed', { allow: route.allow })
    }
    const denied = this.authorize(route, token, entry.key)
    if (denied) {
      await drain(request)
      return denied
    }
    const mode: ChangeMode = method === 'POST' ? 'create' : 'update'
    if (route.operation === 'run') return this.run(request, route.flowId, route.orgId, entry)
    if (route.operation === 'documents') return this.documents(request, route.kb, mode, entry)
    return this.urls(request, route.kb, mode, entry)
  }

  private authorize(route: Route, token: string | undefined, kind: KeyKind): Answer | undefined {
    const needed = route.operation === 'run' ? 'public' : 'private'
    const bearer = { 'www-authenticate': 'Bearer' }
    if (kind === 'none') return detail(401, 'Not authenticated: send "Authorization: Bearer <key>"', bearer)
    if (kind === 'unknown') return detail(401, `Invalid API key "${token}"`, bearer)
    if (kind !== needed) {
      const operation = route.operation === 'run' ? 'running a flow' : 'indexing'
      return detail(
        403,
        `The ${kind} key "${token}" cannot be used for ${operation}; it needs the ${needed} key`,
      )
    }
    return undefined
  }

  private async readJson(request: IncomingMessage): Promise<Checked<unknown> | Answer> {
    const typeIssue = checkJsonContentType(request.headers['content-type'])
    if (typeIssue) {
      await drain(request)
      return invalid([typeIssue])
    }
    const body = await readBody(request, JSON_BODY_LIMIT)
    if (body === undefined) return detail(413, `Request body larger than ${JSON_BODY_LIMIT} bytes`)
    return parseJson(body.toString('utf8'))
  }

  private async urls(
    request: IncomingMessage,
    kb: KnowledgeBaseId,
    mode: ChangeMode,
    entry: RequestLogEntry,
  ): Promise<Answer> {
    const json = await this.readJson(request)
    if ('status' in json) return json
    if (!json.ok) return invalid(json.issues)
    const checked = checkUrlList(json.value)
    if (!checked.ok) return invalid(checked.issues)
    entry.urls = checked.value
    const result = await this.store.changeUrls(kb, mode, checked.value)
    if (!result.ok) return conflictAnswer(result.reason, 'URLs', result.names)
    entry.applied = true
    return { status: 200, body: mode === 'create' ? { uploaded: result.names } : { updated: result.names } }
  }

  private async documents(
    request: IncomingMessage,
    kb: KnowledgeBaseId,
    mode: ChangeMode,
    entry: RequestLogEntry,
  ): Promise<Answer> {
    const typeIssue = checkMultipartContentType(request.headers['content-type'])
    if (typeIssue) {
      await drain(request)
      return invalid([typeIssue])
    }
    const received = await receiveMultipart(request, this.store.tempDir)
    if (!received.ok)
      return invalid([
        { loc: ['body'], msg: `Malformed multipart body: ${received.problem}`, type: 'value_error' },
      ])
    const { parts } = received
    entry.documents = parts.map(partInfo)
    const issues = checkDocumentParts(parts, mode, this.options.rejectDocument)
    if (issues.length > 0) {
      await discardParts(parts)
      return invalid(issues)
    }
    const documents = parts.map(asReceivedDocument)
    const result = await this.store.changeDocuments(kb, mode, documents)
    if (!result.ok) {
      await this.store.discard(documents)
      return conflictAnswer(result.reason, 'Documents', result.names)
    }
    entry.applied = true
    return { status: 200, body: mode === 'create' ? { uploaded: result.names } : { updated: result.names } }
  }

  private async run(
    request: IncomingMessage,
    flowId: string,
    orgId: string,
    entry: RequestLogEntry,
  ): Promise<Answer> {
    const json = await this.readJson(request)
    if ('status' in json) return json
    if (!json.ok) return invalid(json.issues)
    const checked = checkRunInputs(json.value)
    if (!checked.ok) return invalid(checked.issues)
    entry.inputs = checked.value
    if (this.options.judgeFlows?.includes(flowId))
      return { status: 200, body: judgeRunAnswer(checked.value, randomUUID()) }
    const documents: FlowDocument[] = []
    const urls: string[] = []
    for (const nodeId of this.store.nodeIds(flowId, orgId)) {
      const kb = { flowId, orgId, nodeId }
      const knowledge = this.lag.answered(kb) ?? (await knowledgeOf(this.store, kb))
      documents.push(...knowledge.documents)
      urls.push(...knowledge.urls)
    }
    const question = questionOf(checked.value)
    const answer = flowRunAnswer(
      question,
      { documents, urls },
      `flow ${flowId} in org ${orgId}`,
      randomUUID(),
      this.missed(question),
    )
    return { status: 200, body: answer }
  }
}

function partInfo(part: ReceivedPart): DocumentPart {
  return {
    field: part.field,
    filename: part.filename ?? '',
    size: part.size,
    sha256: part.sha256,
    contentType: part.contentType,
  }
}

function asReceivedDocument(part: ReceivedPart): ReceivedDocument {
  return {
    name: part.filename!,
    size: part.size,
    sha256: part.sha256,
    contentType: part.contentType,
    tempPath: part.tempPath!,
  }
}

function conflictAnswer(reason: 'exists' | 'missing', what: string, names: string[]): Answer {
  const list = names.map((name) => JSON.stringify(name)).join(', ')
  return reason === 'exists'
    ? detail(409, `${what} already in the knowledge base (POST does not replace; use PATCH): ${list}`)
    : detail(404, `${what} not in the knowledge base (PATCH only replaces; use POST): ${list}`)
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve(server.address() as AddressInfo)
    })
  })
}

export async function startEmulator(options: EmulatorOptions): Promise<Emulator> {
  checkOptions(options)
  const ownsDataDir = options.dataDir === undefined
  const dataDir = options.dataDir
    ? path.resolve(options.dataDir)
    : await mkdtemp(path.join(os.tmpdir(), 'kb-sync-emulator-'))
  let emulator: EmulatorServer
  let server: Server
  let address: AddressInfo
  try {
    await mkdir(dataDir, { recursive: true })
    emulator = new EmulatorServer(options, dataDir)
    server = createServer((request, response) => {
      emulator.handle(request, response).catch(() => request.socket.destroy())
    })
    // Large uploads may take longer than Node's default whole-request timeout.
    server.requestTimeout = 0
    address = await listen(server, options.port ?? 0, options.host ?? '127.0.0.1')
  } catch (error) {
    // Whatever fails once the temp directory exists (a port in use) removes it.
    if (ownsDataDir) await rm(dataDir, { recursive: true, force: true })
    throw error
  }
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address
  let closing: Promise<void> | undefined

  return {
    url: `http://${urlHost}:${address.port}`,
    dataDir,
    requests: () => emulator.requests(),
    documents: (flowId, orgId, nodeId) =>
      emulator.store
        .documents({ flowId, orgId, nodeId })
        .map(({ name, size, sha256, created, updated }) => ({ name, size, sha256, created, updated })),
    urls: (flowId, orgId, nodeId) => emulator.store.urls({ flowId, orgId, nodeId }),
    close: () => {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()))
        server.closeAllConnections()
        await closed
        if (ownsDataDir) await rm(dataDir, { recursive: true, force: true })
      })()
      return closing
    },
  }
}
