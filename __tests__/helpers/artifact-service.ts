// A local stand-in of GitHub's artifact storage as @actions/artifact 6.2.1 speaks to it, on one server on
// 127.0.0.1:
// - the results service (Twirp, JSON with proto field names): CreateArtifact, FinalizeArtifact,
//   ListArtifacts, GetSignedArtifactURL, DeleteArtifact, authorised by the run's ACTIONS_RUNTIME_TOKEN
//   (a JWT whose `scp` names the run's and the job's backend ids; GitHub signs it, the client only decodes);
// - the blob upload of Azure's BlockBlobClient.uploadStream (PUT ?comp=block&blockid=…, then
//   PUT ?comp=blocklist with the block ids in order), and the signed download of the blob;
// - the REST API: GET /repos/{owner}/{repo}/actions/artifacts?name= (newest first, expired ones listed
//   with `expired: true`) and GET …/actions/artifacts/{id}/zip (302 to the signed blob URL; 410 once
//   expired).
// Artifacts belong to workflow runs: `envOf(runId)` gives the environment of a job of that run (a second
// call for one run is another job or a re-run attempt: the same run, so a name it used conflicts, 409).
// Switches for failures: expire an artifact, refuse the REST API (403, no `actions: read`), never answer
// a route, garble the file inside an artifact.
import { randomUUID } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { crc32, inflateRawSync } from 'node:zlib'

const TWIRP = '/twirp/github.actions.results.api.v1.ArtifactService/'
/** Azure's path style for an IP host: /{account}/{container}/{blob}. */
const BLOB_PREFIX = '/devstoreaccount1/actions-results/'

export type Route =
  | 'CreateArtifact'
  | 'FinalizeArtifact'
  | 'ListArtifacts'
  | 'GetSignedArtifactURL'
  | 'DeleteArtifact'
  | 'blob-upload'
  | 'blob-download'
  | 'rest-list'
  | 'rest-zip'

export interface StoredArtifact {
  id: number
  name: string
  runId: number
  runBackendId: string
  jobBackendId: string
  createdAt: string
  expiresAt?: string
  expired: boolean
  finalized: boolean
  /** The uploaded blob (a zip, as the client makes it). */
  blob: Buffer
  contentType: string
  /** The run's head repository: another id is a fork's pull request run. */
  headRepositoryId: number
}

interface RunInfo {
  runId: number
  backendId: string
  headRepositoryId: number
}

export interface RunEnvOptions {
  /** A fork's pull request run: its artifacts name the fork as head repository. */
  fromFork?: boolean
}

export const REPOSITORY_ID = 4242
const FORK_REPOSITORY_ID = 777

export class ArtifactService {
  readonly artifacts: StoredArtifact[] = []
  /** Every request, by route, in order. */
  readonly requests: Route[] = []
  readonly hung = new Set<Route>()
  /** Called with each request's route as it arrives. */
  onRequest?: (route: Route) => void
  /** The REST API answers 403 as for a token without `actions: read`. */
  refuseRest = false
  url = ''
  private nextId = 1000
  private readonly runs = new Map<number, RunInfo>()
  private readonly tokens = new Map<string, { run: RunInfo; jobBackendId: string }>()
  private readonly blocks = new Map<string, Map<string, Buffer>>()
  private readonly server = http.createServer((request, response) => {
    this.answer(request, response).catch((error: unknown) => {
      if (!response.headersSent) this.json(response, 500, { msg: String(error) })
    })
  })

  constructor(
    readonly owner = 'octo-org',
    readonly repo = 'docs',
  ) {}

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve))
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
    return this.url
  }

  close(): Promise<void> {
    this.server.closeAllConnections()
    return new Promise((resolve) => this.server.close(() => resolve()))
  }

  /**
   * The environment of a job of workflow run `runId`, as the runner gives it to an action. The server
   * host only has to pass the client's check (github.com, *.ghe.com or *.localhost): it is never reached.
   */
  envOf(runId: number, options: RunEnvOptions = {}): Record<string, string> {
    let run = this.runs.get(runId)
    if (!run) {
      run = {
        runId,
        backendId: randomUUID(),
        headRepositoryId: options.fromFork ? FORK_REPOSITORY_ID : REPOSITORY_ID,
      }
      this.runs.set(runId, run)
    }
    const jobBackendId = randomUUID()
    const token = unsignedJwt({
      scp: `Actions.GenericRead:00000000-0000-0000-0000-000000000000 Actions.Results:${run.backendId}:${jobBackendId}`,
      ac: '[]',
    })
    this.tokens.set(token, { run, jobBackendId })
    return {
      ACTIONS_RUNTIME_TOKEN: token,
      ACTIONS_RESULTS_URL: `${this.url}/`,
      GITHUB_API_URL: this.url,
      GITHUB_SERVER_URL: 'http://github.localhost',
      GITHUB_REPOSITORY: `${this.owner}/${this.repo}`,
      GITHUB_RUN_ID: String(runId),
    }
  }

  /** The artifacts listed under a name, newest first (as the REST API lists them). */
  named(name: string): StoredArtifact[] {
    return this.artifacts.filter((a) => a.finalized && a.name === name).sort(newestFirst)
  }

  /** The artifact expires now: listed with `expired: true`, its download answers 410. */
  expire(id: number): void {
    const artifact = this.byId(id)
    artifact.expired = true
    artifact.expiresAt = new Date().toISOString()
  }

  /** Every file inside the artifact holds `content` instead (same names). */
  garble(id: number, content: Buffer = Buffer.from('\u0000garbled, not a record\u0000')): void {
    const artifact = this.byId(id)
    artifact.blob = storedZip(zipEntryNames(artifact.blob).map((name) => ({ name, content })))
  }

  /** The file of an artifact holding one file, as uploaded. */
  fileOf(id: number): { name: string; content: Buffer } {
    const entries = readStoredOrDeflatedZip(this.byId(id).blob)
    if (entries.length !== 1) throw new Error(`artifact ${id} holds ${entries.length} files`)
    return entries[0]
  }

  private byId(id: number): StoredArtifact {
    const artifact = this.artifacts.find((a) => a.id === id)
    if (!artifact) throw new Error(`no artifact ${id}`)
    return artifact
  }

  private async answer(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.url)
    const body = await readBody(request)
    const route = routeOf(request.method ?? 'GET', url)
    if (route) {
      this.requests.push(route)
      this.onRequest?.(route)
      if (this.hung.has(route)) return // never answered; close() ends the connection
    }
    if (url.pathname.startsWith(TWIRP) && request.method === 'POST')
      return this.twirp(url.pathname.slice(TWIRP.length), request, body, response)
    if (url.pathname.startsWith(BLOB_PREFIX)) return this.blob(request.method, url, request, body, response)
    const rest = /^\/repos\/([^/]+)\/([^/]+)\/actions\/artifacts(?:\/(\d+)\/zip)?$/.exec(url.pathname)
    if (rest && request.method === 'GET') return this.rest(rest, url, request, response)
    this.json(response, 404, { message: 'Not Found' })
  }

  private twirp(
    method: string,
    request: http.IncomingMessage,
    body: Buffer,
    response: http.ServerResponse,
  ): void {
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1]
    const caller = bearer ? this.tokens.get(bearer) : undefined
    if (!caller) return this.twirpError(response, 401, 'unauthenticated', 'invalid runtime token')
    const input = JSON.parse(body.toString('utf8')) as Record<string, unknown>
    if (input.workflow_run_backend_id !== caller.run.backendId)
      return this.twirpError(response, 403, 'permission_denied', 'the token is not for this run')
    const inRun = (name: unknown) =>
      this.artifacts.find((a) => a.runBackendId === caller.run.backendId && a.name === name)
    switch (method) {
      case 'CreateArtifact': {
        if (inRun(input.name))
          return this.twirpError(
            response,
            409,
            'already_exists',
            'an artifact with this name already exists on the workflow run',
          )
        const artifact: StoredArtifact = {
          id: this.nextId++,
          name: String(input.name),
          runId: caller.run.runId,
          runBackendId: caller.run.backendId,
          jobBackendId: caller.jobBackendId,
          createdAt: new Date().toISOString(),
          expiresAt: typeof input.expires_at === 'string' ? input.expires_at : undefined,
          expired: false,
          finalized: false,
          blob: Buffer.alloc(0),
          contentType: 'application/octet-stream',
          headRepositoryId: caller.run.headRepositoryId,
        }
        this.artifacts.push(artifact)
        return this.json(response, 200, { ok: true, signed_upload_url: this.blobUrl(artifact) })
      }
      case 'FinalizeArtifact': {
        const artifact = inRun(input.name)
        if (!artifact) return this.twirpError(response, 404, 'not_found', 'artifact not found')
        artifact.finalized = true
        return this.json(response, 200, { ok: true, artifact_id: String(artifact.id) })
      }
      case 'ListArtifacts': {
        const nameFilter = input.name_filter
        const idFilter = input.id_filter === undefined ? undefined : Number(input.id_filter)
        const artifacts = this.artifacts
          .filter((a) => a.finalized && a.runBackendId === caller.run.backendId)
          .filter((a) => (nameFilter === undefined || a.name === nameFilter) && (idFilter ?? a.id) === a.id)
          .map((a) => ({
            workflow_run_backend_id: a.runBackendId,
            workflow_job_run_backend_id: a.jobBackendId,
            database_id: String(a.id),
            name: a.name,
            size: String(a.blob.length),
            created_at: a.createdAt,
          }))
        return this.json(response, 200, { artifacts })
      }
      case 'GetSignedArtifactURL': {
        const artifact = inRun(input.name)
        if (!artifact) return this.twirpError(response, 404, 'not_found', 'artifact not found')
        return this.json(response, 200, { signed_url: this.blobUrl(artifact) })
      }
      case 'DeleteArtifact': {
        const artifact = inRun(input.name)
        if (!artifact) return this.twirpError(response, 404, 'not_found', 'artifact not found')
        this.artifacts.splice(this.artifacts.indexOf(artifact), 1)
        return this.json(response, 200, { ok: true, artifact_id: String(artifact.id) })
      }
      default:
        return this.twirpError(response, 404, 'bad_route', `no method ${method}`)
    }
  }

  /** Azure Blob Storage: stage blocks, commit the list, and the signed GET. */
  private blob(
    method: string | undefined,
    url: URL,
    request: http.IncomingMessage,
    body: Buffer,
    response: http.ServerResponse,
  ): void {
    const artifact = this.artifacts.find((a) => url.pathname === new URL(this.blobUrl(a)).pathname)
    if (!artifact || url.searchParams.get('sig') !== signatureOf(artifact))
      return this.azureError(response, 403, 'AuthenticationFailed')
    const comp = url.searchParams.get('comp')
    const headers = { 'x-ms-request-id': randomUUID(), 'x-ms-version': '2025-01-05' }
    if (method === 'PUT' && comp === 'block') {
      const blockId = url.searchParams.get('blockid') ?? ''
      const staged = this.blocks.get(url.pathname) ?? new Map<string, Buffer>()
      staged.set(blockId, body)
      this.blocks.set(url.pathname, staged)
      response.writeHead(201, { ...headers, 'x-ms-request-server-encrypted': 'true' }).end()
      return
    }
    if (method === 'PUT' && comp === 'blocklist') {
      const staged = this.blocks.get(url.pathname) ?? new Map<string, Buffer>()
      const ids = [...body.toString('utf8').matchAll(/<(?:Latest|Uncommitted)>([^<]*)<\//g)].map((m) => m[1])
      if (ids.some((id) => !staged.has(id))) return this.azureError(response, 400, 'InvalidBlockList')
      artifact.blob = Buffer.concat(ids.map((id) => staged.get(id) as Buffer))
      artifact.contentType = String(request.headers['x-ms-blob-content-type'] ?? 'application/octet-stream')
      this.blocks.delete(url.pathname)
      const etag = `"0x${artifact.id.toString(16).toUpperCase()}"`
      response.writeHead(201, { ...headers, etag, 'last-modified': new Date().toUTCString() }).end()
      return
    }
    if (method === 'GET' && !comp) {
      response.writeHead(200, {
        ...headers,
        'content-type': artifact.contentType,
        'content-length': String(artifact.blob.length),
      })
      response.end(artifact.blob)
      return
    }
    this.azureError(response, 400, 'UnsupportedHttpVerb')
  }

  private rest(
    match: RegExpExecArray,
    url: URL,
    request: http.IncomingMessage,
    response: http.ServerResponse,
  ): void {
    const [, owner, repo, zipId] = match
    if (!request.headers.authorization)
      return this.json(response, 401, { message: 'Requires authentication' })
    if (owner !== this.owner || repo !== this.repo) return this.json(response, 404, { message: 'Not Found' })
    if (this.refuseRest)
      return this.json(response, 403, {
        message: 'Resource not accessible by integration',
        documentation_url: 'https://docs.github.com/rest/actions/artifacts',
        status: '403',
      })
    if (zipId) {
      const artifact = this.artifacts.find((a) => a.finalized && a.id === Number(zipId))
      if (!artifact) return this.json(response, 404, { message: 'Not Found' })
      if (artifact.expired) return this.json(response, 410, { message: 'Artifact has expired' })
      response.writeHead(302, { location: this.blobUrl(artifact), 'content-length': '0' }).end()
      return
    }
    const name = url.searchParams.get('name')
    const listed = this.artifacts
      .filter((a) => a.finalized && (name === null || a.name === name))
      .sort(newestFirst)
    const perPage = Math.min(Number(url.searchParams.get('per_page') ?? 30), 100)
    const page = Number(url.searchParams.get('page') ?? 1)
    const api = `${this.url}/repos/${this.owner}/${this.repo}/actions/artifacts`
    this.json(response, 200, {
      total_count: listed.length,
      artifacts: listed.slice((page - 1) * perPage, page * perPage).map((a) => ({
        id: a.id,
        node_id: `MDg6QXJ0aWZhY3Q${a.id}`,
        name: a.name,
        size_in_bytes: a.blob.length,
        url: `${api}/${a.id}`,
        archive_download_url: `${api}/${a.id}/zip`,
        expired: a.expired,
        digest: null,
        created_at: a.createdAt,
        updated_at: a.createdAt,
        expires_at: a.expiresAt ?? null,
        workflow_run: {
          id: a.runId,
          repository_id: REPOSITORY_ID,
          head_repository_id: a.headRepositoryId,
          head_branch: 'main',
          head_sha: '0'.repeat(40),
        },
      })),
    })
  }

  private blobUrl(artifact: StoredArtifact): string {
    return (
      `${this.url}${BLOB_PREFIX}${artifact.runBackendId}/${artifact.id}/${encodeURIComponent(artifact.name)}.zip` +
      `?sv=2025-01-05&se=2099-01-01T00%3A00%3A00Z&sp=rcw&sig=${signatureOf(artifact)}`
    )
  }

  private json(response: http.ServerResponse, status: number, body: unknown): void {
    // No keep-alive: a hung route's connection must not be reused for the next request.
    response.writeHead(status, { 'content-type': 'application/json', connection: 'close' })
    response.end(JSON.stringify(body))
  }

  private twirpError(response: http.ServerResponse, status: number, code: string, msg: string): void {
    this.json(response, status, { code, msg })
  }

  private azureError(response: http.ServerResponse, status: number, code: string): void {
    response.writeHead(status, { 'content-type': 'application/xml', 'x-ms-error-code': code })
    response.end(
      `<?xml version="1.0" encoding="utf-8"?><Error><Code>${code}</Code><Message>${code}</Message></Error>`,
    )
  }
}

function routeOf(method: string, url: URL): Route | undefined {
  if (url.pathname.startsWith(TWIRP)) return url.pathname.slice(TWIRP.length) as Route
  if (url.pathname.startsWith(BLOB_PREFIX)) return method === 'GET' ? 'blob-download' : 'blob-upload'
  if (/\/actions\/artifacts\/\d+\/zip$/.test(url.pathname)) return 'rest-zip'
  if (/\/actions\/artifacts$/.test(url.pathname)) return 'rest-list'
  return undefined
}

const newestFirst = (a: StoredArtifact, b: StoredArtifact): number =>
  b.createdAt.localeCompare(a.createdAt) || b.id - a.id

const signatureOf = (artifact: StoredArtifact): string =>
  `sig${artifact.id}x${artifact.runBackendId.slice(0, 8)}`

function readBody(request: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => resolve(Buffer.concat(chunks)))
    request.on('error', reject)
  })
}

const base64url = (value: string): string => Buffer.from(value).toString('base64url')

/** A JWT as the runner hands it to an action, without a signature (the client only decodes it). */
export function unsignedJwt(claims: Record<string, unknown>): string {
  const now = Math.floor(Date.now() / 1000)
  return `${base64url(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${base64url(
    JSON.stringify({ iat: now, exp: now + 3600, ...claims }),
  )}.`
}

/** The names of a zip's entries, from its central directory. */
function zipEntryNames(zip: Buffer): string[] {
  return centralEntries(zip).map((entry) => entry.name)
}

interface CentralEntry {
  name: string
  method: number
  compressedSize: number
  localOffset: number
}

function centralEntries(zip: Buffer): CentralEntry[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  if (end < 0) throw new Error('not a zip')
  const count = zip.readUInt16LE(end + 10)
  let at = zip.readUInt32LE(end + 16)
  const entries: CentralEntry[] = []
  for (let i = 0; i < count; i++) {
    const nameLength = zip.readUInt16LE(at + 28)
    entries.push({
      name: zip.toString('utf8', at + 46, at + 46 + nameLength),
      method: zip.readUInt16LE(at + 10),
      compressedSize: zip.readUInt32LE(at + 20),
      localOffset: zip.readUInt32LE(at + 42),
    })
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32)
  }
  return entries
}

/** The files of a zip whose entries are stored or deflated (what archiver writes). */
function readStoredOrDeflatedZip(zip: Buffer): { name: string; content: Buffer }[] {
  return centralEntries(zip)
    .filter((entry) => !entry.name.endsWith('/'))
    .map((entry) => {
      const start =
        entry.localOffset +
        30 +
        zip.readUInt16LE(entry.localOffset + 26) +
        zip.readUInt16LE(entry.localOffset + 28)
      const data = zip.subarray(start, start + entry.compressedSize)
      return { name: entry.name, content: entry.method === 0 ? Buffer.from(data) : inflateRawSync(data) }
    })
}

/** A zip of stored (uncompressed) entries. */
export function storedZip(files: { name: string; content: Buffer }[]): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const { name, content } of files) {
    const nameBytes = Buffer.from(name, 'utf8')
    const crc = crc32(content)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(0x0800, 6) // names in UTF-8
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(content.length, 18)
    local.writeUInt32LE(content.length, 22)
    local.writeUInt16LE(nameBytes.length, 26)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4)
    central.writeUInt16LE(20, 6)
    central.writeUInt16LE(0x0800, 8)
    central.writeUInt32LE(crc, 16)
    central.writeUInt32LE(content.length, 20)
    central.writeUInt32LE(content.length, 24)
    central.writeUInt16LE(nameBytes.length, 28)
    central.writeUInt32LE(offset, 42)
    locals.push(local, nameBytes, content)
    centrals.push(central, nameBytes)
    offset += 30 + nameBytes.length + content.length
  }
  const directory = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(files.length, 8)
  end.writeUInt16LE(files.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, directory, end])
}
