// What the client refuses before any I/O: ids that would move the request, missing keys, base URLs
// that would send the key where it should not go. The server proves that nothing reached it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { baseUrlProblem, ClientUsageError, ServiceClient } from '../../src/service/client.js'
import { idProblem } from '../../src/service/ids.js'
import { startRecordingServer, type RecordingServer } from '../helpers/recording-server.js'
import { PRIVATE_KEY, PUBLIC_KEY } from '../helpers/keys.js'

const GOOD = { flowId: 'flow', orgId: 'org', nodeId: 'node' }

let dir: string
let file: string
let server: RecordingServer
let client: ServiceClient

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kb-sync-client-refusals-'))
  file = join(dir, 'a.md')
  writeFileSync(file, 'a')
  server = await startRecordingServer()
  client = new ServiceClient({ baseUrl: server.url, privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY })
})

afterAll(async () => {
  await client.close()
  await server.close()
  rmSync(dir, { recursive: true, force: true })
})

const hostileIds = [
  '..',
  '.',
  'a/b',
  '%2E%2E',
  '%2e%2e',
  '',
  'x'.repeat(129),
  'a?b',
  'a#b',
  'a b',
  '..%2F',
  'é',
]

/** Every operation with `id` in each position it can take. */
function callsWith(id: string): [string, () => Promise<unknown>][] {
  const documents = [{ name: 'a.md', path: file, size: 1 }]
  const indexTargets = [
    { ...GOOD, flowId: id },
    { ...GOOD, orgId: id },
    { ...GOOD, nodeId: id },
  ]
  return [
    ...indexTargets.flatMap((target): [string, () => Promise<unknown>][] => [
      ['uploadUrls', () => client.uploadUrls(target, ['https://a.example'])],
      ['updateUrls', () => client.updateUrls(target, ['https://a.example'])],
      ['uploadDocuments', () => client.uploadDocuments(target, documents)],
      ['updateDocuments', () => client.updateDocuments(target, documents)],
    ]),
    ['runFlow (org)', () => client.runFlow({ orgId: id, flowId: 'flow' }, { 'in-0': 'q' })],
    ['runFlow (flow)', () => client.runFlow({ orgId: 'org', flowId: id }, { 'in-0': 'q' })],
  ]
}

describe('ids', () => {
  it.each(hostileIds.map((id) => [JSON.stringify(id).slice(0, 40), id]))(
    'refuses %s in every position with 0 requests',
    async (_shown, id) => {
      for (const [label, call] of callsWith(id)) {
        await expect(call()).rejects.toBeInstanceOf(ClientUsageError)
        expect([label, server.requests.length]).toEqual([label, 0])
      }
    },
  )

  it('names the id that is wrong', async () => {
    await expect(client.uploadUrls({ ...GOOD, nodeId: '..' }, ['https://a.example'])).rejects.toThrow(
      'uploadUrls: the node id must not be "." or ".."',
    )
    await expect(client.runFlow({ orgId: 'a/b', flowId: 'f' }, {})).rejects.toThrow(
      'runFlow: the org id may contain only',
    )
  })

  it('accepts ids made of the unreserved characters, dots included', async () => {
    await client.uploadUrls({ flowId: '...', orgId: 'A-z_0.9~', nodeId: 'x'.repeat(128) }, [
      'https://a.example',
    ])
    expect(server.requests.map((request) => request.url)).toEqual([
      `/indexing/v0/urls/.../A-z_0.9~/${'x'.repeat(128)}`,
    ])
    server.requests.length = 0
  })
})

describe('ids (property)', () => {
  // Pieces a URL parser treats specially, mixed with arbitrary text.
  const piece = fc.oneof(
    fc.constantFrom(
      '.',
      '..',
      '%2e',
      '%2E%2E',
      '/',
      '\\',
      '?',
      '#',
      '%',
      '%2F',
      ';',
      '~',
      '-',
      '_',
      'a',
      'Z',
      '9',
      'é',
    ),
    fc.string({ maxLength: 4 }),
  )
  const id = fc.oneof(
    fc.array(piece, { maxLength: 6 }).map((pieces) => pieces.join('')),
    fc.stringMatching(/^[A-Za-z0-9._~-]{1,8}$/),
  )

  it('either refuses before any request or the request arrives at exactly the ids given', async () => {
    await fc.assert(
      fc.asyncProperty(id, id, id, async (flowId, orgId, nodeId) => {
        const before = server.requests.length
        const call = client.uploadUrls({ flowId, orgId, nodeId }, ['https://a.example'])
        if ([flowId, orgId, nodeId].some((value) => idProblem(value) !== undefined)) {
          await expect(call).rejects.toBeInstanceOf(ClientUsageError)
          expect(server.requests.length).toBe(before)
          return
        }
        await call
        const path = server.requests[before].url.split('/').slice(1)
        expect(path.slice(0, 3)).toEqual(['indexing', 'v0', 'urls'])
        expect(path.slice(3).map(decodeURIComponent)).toEqual([flowId, orgId, nodeId])
      }),
      { numRuns: 300 },
    )
    server.requests.length = 0
  })
})

describe('keys', () => {
  it('refuses the indexing operations without the private key, with 0 requests', async () => {
    const publicOnly = new ServiceClient({ baseUrl: server.url, publicKey: PUBLIC_KEY })
    const documents = [{ name: 'a.md', path: file }]
    try {
      await expect(publicOnly.uploadUrls(GOOD, ['https://a.example'])).rejects.toThrow(
        'uploadUrls needs the private key',
      )
      await expect(publicOnly.updateUrls(GOOD, ['https://a.example'])).rejects.toBeInstanceOf(
        ClientUsageError,
      )
      await expect(publicOnly.uploadDocuments(GOOD, documents)).rejects.toBeInstanceOf(ClientUsageError)
      await expect(publicOnly.updateDocuments(GOOD, documents)).rejects.toBeInstanceOf(ClientUsageError)
    } finally {
      await publicOnly.close()
    }
    expect(server.requests).toHaveLength(0)
  })

  it('refuses the run without the public key, with 0 requests', async () => {
    const privateOnly = new ServiceClient({ baseUrl: server.url, privateKey: PRIVATE_KEY, publicKey: '' })
    try {
      await expect(privateOnly.runFlow({ orgId: 'o', flowId: 'f' }, { 'in-0': 'q' })).rejects.toThrow(
        'runFlow needs the public key',
      )
    } finally {
      await privateOnly.close()
    }
    expect(server.requests).toHaveLength(0)
  })

  it('refuses a key that cannot be one header line, without showing it', () => {
    for (const key of ['sk-with\r\nX-Injected: 1', 'sk with space', 'sk-ü']) {
      let error: unknown
      try {
        new ServiceClient({ baseUrl: server.url, privateKey: key })
      } catch (caught) {
        error = caught
      }
      expect(error).toBeInstanceOf(ClientUsageError)
      expect((error as Error).message).toContain('private key must be one line of visible ASCII')
      expect((error as Error).message).not.toContain('sk')
    }
  })
})

describe('other bad input', () => {
  it('refuses empty lists, document names that multipart would change and non-string inputs', async () => {
    await expect(client.uploadUrls(GOOD, [])).rejects.toThrow('at least one URL')
    await expect(client.uploadDocuments(GOOD, [])).rejects.toThrow('at least one document')
    for (const name of ['a\\b.md', 'a/../b.md', './a.md', 'a//b.md', '', 'a\0.md']) {
      await expect(client.uploadDocuments(GOOD, [{ name, path: file }])).rejects.toBeInstanceOf(
        ClientUsageError,
      )
    }
    const inputs = { 'in-0': 1 } as unknown as Record<string, string>
    await expect(client.runFlow({ orgId: 'o', flowId: 'f' }, inputs)).rejects.toThrow(
      'flow input "in-0" must be a string',
    )
    expect(server.requests).toHaveLength(0)
  })
})

describe('base URL', () => {
  it.each([
    ['http://api.example.com', 'must use https'],
    ['http://10.0.0.1:8080', 'must use https'],
    ['http://127.0.0.1.example.com', 'must use https'],
    ['https://user:pass@api.example.com', 'user info'],
    ['https://token@api.example.com', 'user info'],
    ['https://api.example.com/?x=1', 'query'],
    ['https://api.example.com/#frag', 'fragment'],
    ['https://api.example.com/\n', 'white space'],
    ['ftp://api.example.com', 'https'],
    ['not a url', ''],
    ['', 'empty'],
  ])('refuses %j', (value, reason) => {
    expect(baseUrlProblem(value)).toContain(reason)
    expect(() => new ServiceClient({ baseUrl: value, privateKey: PRIVATE_KEY })).toThrow(ClientUsageError)
  })

  it.each([
    'https://api.stack-ai.com',
    'https://api.example.com/prefix/',
    'http://localhost:8080',
    'http://127.0.0.1:1234',
    'http://127.1.2.3',
    'http://[::1]:9000',
  ])('accepts %s', async (value) => {
    expect(baseUrlProblem(value)).toBeUndefined()
    await new ServiceClient({ baseUrl: value }).close()
  })
})
