// The exact wire format of the five operations, as a real server receives it.
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals'
import {
  contentTypeFor,
  pickOutput,
  ServiceClient,
  type DocumentRef,
  type FlowAnswer,
} from '../../src/service/client.js'
import {
  decodeFilename,
  sha256,
  startRecordingServer,
  type ReceivedRequest,
  type RecordingServer,
} from '../helpers/recording-server.js'
import { PRIVATE_KEY, PUBLIC_KEY } from '../helpers/keys.js'

const TARGET = {
  flowId: '0123456789abcdef01234567',
  orgId: 'a1b2c3d4-0000-4000-8000-123456789abc',
  nodeId: 'knowledgebase-1',
}

let dir: string
let server: RecordingServer
let client: ServiceClient

interface Fixture {
  name: string
  content: Buffer
  type: string
}

const fixtures: Fixture[] = [
  { name: 'docs/guide.md', content: Buffer.from('# Guide\n\nHello.\n'), type: 'text/markdown' },
  { name: 'data/Table.CSV', content: Buffer.from('a,b\n1,2\n'), type: 'text/csv' },
  { name: 'weird/a"\r\nX-Injected: 1.md', content: Buffer.from('injected?'), type: 'text/markdown' },
  { name: 'ünïcødé/日本語 ファイル.txt', content: Buffer.from('テキスト'), type: 'text/plain' },
  { name: 'bin/blob.xyz', content: randomBytes(200_000), type: 'application/octet-stream' },
  { name: 'empty.pdf', content: Buffer.alloc(0), type: 'application/pdf' },
]

function documentsOf(list: Fixture[], withSize = true): DocumentRef[] {
  return list.map((fixture) => ({
    name: fixture.name,
    path: join(dir, `file-${fixtures.indexOf(fixture)}`),
    ...(withSize ? { size: fixture.content.length } : {}),
  }))
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kb-sync-client-wire-'))
  fixtures.forEach((fixture, index) => writeFileSync(join(dir, `file-${index}`), fixture.content))
  server = await startRecordingServer((request, response) => {
    if (request.url.startsWith('/inference/')) {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ outputs: { 'out-0': 'the answer', 'out-1': { n: 1 } }, run_id: 'r-1' }))
    } else if (request.url.endsWith('/text-answer')) {
      response.writeHead(200, { 'content-type': 'text/plain' })
      response.end('stored')
    } else if (request.url.endsWith('/empty-answer')) {
      response.writeHead(204)
      response.end()
    } else {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end('{"stored":true}')
    }
  })
  client = new ServiceClient({ baseUrl: server.url, privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY })
})

afterAll(async () => {
  await client.close()
  await server.close()
  rmSync(dir, { recursive: true, force: true })
})

afterEach(() => {
  server.requests.length = 0
})

function only(): ReceivedRequest {
  expect(server.requests).toHaveLength(1)
  return server.requests[0]
}

function expectMultipartHeaders(request: ReceivedRequest): void {
  expect(request.headers.authorization).toBe(`Bearer ${PRIVATE_KEY}`)
  expect(request.headers['content-type']).toMatch(/^multipart\/form-data; boundary=\S+$/)
  // Streamed yet with an exact length: never chunked.
  expect(request.headers['transfer-encoding']).toBeUndefined()
  expect(Number(request.headers['content-length'])).toBe(request.bytes)
}

function expectParts(request: ReceivedRequest, list: Fixture[], fieldOf: (index: number) => string): void {
  expect(request.parts).toHaveLength(list.length)
  request.parts!.forEach((part, index) => {
    expect(part.field).toBe(fieldOf(index))
    expect(decodeFilename(part.filename)).toBe(list[index].name)
    expect(part.mimeType).toBe(list[index].type)
    expect(part.size).toBe(list[index].content.length)
    expect(part.sha256).toBe(sha256(list[index].content))
  })
}

describe('uploadDocuments', () => {
  it('POSTs every file as a part named "files" with its name, type and exact bytes', async () => {
    const answer = await client.uploadDocuments(TARGET, documentsOf(fixtures))
    expect(answer).toEqual({ status: 200, body: { stored: true } })
    const request = only()
    expect(request.method).toBe('POST')
    expect(request.url).toBe(`/indexing/v0/documents/${TARGET.flowId}/${TARGET.orgId}/${TARGET.nodeId}`)
    expectMultipartHeaders(request)
    expectParts(request, fixtures, () => 'files')
  })

  it('escapes CR, LF and quotes inside the quoted filename, so no header can be injected', async () => {
    await client.uploadDocuments(TARGET, documentsOf(fixtures.slice(2, 4)))
    const raw = only().raw!.toString('utf8')
    expect(raw).toContain(
      'Content-Disposition: form-data; name="files"; filename="weird/a%22%0D%0AX-Injected: 1.md"',
    )
    expect(raw).not.toMatch(/(^|\r\n)X-Injected/)
    // Non-ASCII names travel as UTF-8 bytes.
    expect(raw).toContain('filename="ünïcødé/日本語 ファイル.txt"')
  })

  it('reads the size from disk when the caller does not give it', async () => {
    await client.uploadDocuments(TARGET, documentsOf(fixtures.slice(0, 2), false))
    const request = only()
    expectMultipartHeaders(request)
    expectParts(request, fixtures.slice(0, 2), () => 'files')
  })

  it('builds the body anew on every call (the same documents can be sent again)', async () => {
    const documents = documentsOf(fixtures.slice(0, 1))
    await client.uploadDocuments(TARGET, documents)
    await client.uploadDocuments(TARGET, documents)
    expect(server.requests).toHaveLength(2)
    for (const request of server.requests) expectParts(request, fixtures.slice(0, 1), () => 'files')
  })
})

describe('updateDocuments', () => {
  it('PATCHes parts named file1, file2, … in order', async () => {
    await client.updateDocuments(TARGET, documentsOf(fixtures))
    const request = only()
    expect(request.method).toBe('PATCH')
    expect(request.url).toBe(`/indexing/v0/documents/${TARGET.flowId}/${TARGET.orgId}/${TARGET.nodeId}`)
    expectMultipartHeaders(request)
    expectParts(request, fixtures, (index) => `file${index + 1}`)
  })
})

describe('URL operations', () => {
  const urls = ['https://example.com/docs', 'https://example.com/a?b=c&d=é']

  it.each([
    ['uploadUrls', 'POST'],
    ['updateUrls', 'PATCH'],
  ] as const)('%s sends %s with a JSON array of strings', async (operation, method) => {
    await client[operation](TARGET, urls)
    const request = only()
    expect(request.method).toBe(method)
    expect(request.url).toBe(`/indexing/v0/urls/${TARGET.flowId}/${TARGET.orgId}/${TARGET.nodeId}`)
    expect(request.headers.authorization).toBe(`Bearer ${PRIVATE_KEY}`)
    expect(request.headers['content-type']).toBe('application/json')
    expect(Number(request.headers['content-length'])).toBe(request.bytes)
    expect(JSON.parse(request.raw!.toString('utf8'))).toEqual(urls)
  })
})

describe('runFlow', () => {
  it('POSTs the inputs to /inference/v0/run/{org}/{flow} with the public key and returns the answer', async () => {
    // `__proto__` is an input name like any other (an own key, as JSON.parse makes it).
    const inputs = JSON.parse(
      '{"in-0": "How do I install it?", "string-0": "ü \\"q\\"", "__proto__": "a key"}',
    )
    const answer = await client.runFlow({ orgId: TARGET.orgId, flowId: TARGET.flowId }, inputs)
    expect(answer).toEqual({ outputs: { 'out-0': 'the answer', 'out-1': { n: 1 } }, run_id: 'r-1' })
    const request = only()
    expect(request.method).toBe('POST')
    expect(request.url).toBe(`/inference/v0/run/${TARGET.orgId}/${TARGET.flowId}`)
    expect(request.headers.authorization).toBe(`Bearer ${PUBLIC_KEY}`)
    expect(request.headers['content-type']).toBe('application/json')
    expect(JSON.parse(request.raw!.toString('utf8'))).toEqual(inputs)
  })
})

describe('answers', () => {
  it('gives JSON answers parsed, other answers as text and an empty answer as ""', async () => {
    const text = await client.uploadUrls({ ...TARGET, nodeId: 'text-answer' }, ['https://a.example'])
    expect(text).toEqual({ status: 200, body: 'stored' })
    const empty = await client.uploadUrls({ ...TARGET, nodeId: 'empty-answer' }, ['https://a.example'])
    expect(empty).toEqual({ status: 204, body: '' })
  })
})

describe('base URL with a path prefix', () => {
  it('keeps the prefix before the contract path', async () => {
    const prefixed = new ServiceClient({ baseUrl: `${server.url}/api/v1/`, privateKey: PRIVATE_KEY })
    try {
      await prefixed.uploadUrls(TARGET, ['https://example.com'])
    } finally {
      await prefixed.close()
    }
    expect(only().url).toBe(`/api/v1/indexing/v0/urls/${TARGET.flowId}/${TARGET.orgId}/${TARGET.nodeId}`)
  })
})

describe('content types', () => {
  it.each([
    ['a.md', 'text/markdown'],
    ['A.MARKDOWN', 'text/markdown'],
    ['notes.txt', 'text/plain'],
    ['index.HTM', 'text/html'],
    ['x.yml', 'application/yaml'],
    ['x.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['x.exe', 'application/octet-stream'],
    ['Makefile', 'application/octet-stream'],
    ['x.constructor', 'application/octet-stream'],
    ['.md', 'application/octet-stream'],
  ])('%s → %s', (name, type) => {
    expect(contentTypeFor(name)).toBe(type)
  })
})

describe('pickOutput', () => {
  const answer: FlowAnswer = { outputs: { 'out-0': 'text', 'out-1': { a: [1] }, 'out-2': null }, run_id: 'r' }

  it('returns out-0 by default, strings as they are and other values as JSON', () => {
    expect(pickOutput(answer)).toBe('text')
    expect(pickOutput(answer, 'out-1')).toBe('{"a":[1]}')
    expect(pickOutput(answer, 'out-2')).toBe('null')
  })

  it('names the missing key and the keys that exist', () => {
    expect(() => pickOutput(answer, 'out-9')).toThrow(
      'no output "out-9" (outputs: "out-0", "out-1", "out-2")',
    )
    expect(() => pickOutput({ run_id: 'r' })).toThrow('no "outputs" object')
    expect(() => pickOutput({ outputs: {} })).toThrow('(outputs: none)')
  })
})
