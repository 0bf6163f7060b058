// The client against the local emulator of the service, for all five operations: what the emulator
// stored (names, bytes, sha256) is what the client was given.
import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startEmulator } from '../../src/emulator/server.js'
import { pickOutput, ServiceClient, ServiceError, type DocumentRef } from '../../src/service/client.js'

const PRIVATE_KEY = 'sk-emulator/private+key'
const PUBLIC_KEY = 'pk-emulator/public+key'
const TARGET = {
  flowId: '0123456789abcdef01234567',
  orgId: 'a1b2c3d4-0000-4000-8000-123456789abc',
  nodeId: 'knowledgebase-1',
}
const RUN = { orgId: TARGET.orgId, flowId: TARGET.flowId }

// Created at load: the describe blocks write their documents while they are collected.
const dir = mkdtempSync(join(tmpdir(), 'kb-sync-client-emulator-'))
let dataDir: string
let emulator: Awaited<ReturnType<typeof startEmulator>>
let client: ServiceClient

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/** Writes the documents to disk and returns them with their contents. */
function documents(entries: [string, Buffer][]): { refs: DocumentRef[]; contents: Map<string, Buffer> } {
  const contents = new Map<string, Buffer>()
  const refs = entries.map(([name, content], index) => {
    const path = join(dir, `${sha256(Buffer.from(name)).slice(0, 12)}-${index}`)
    writeFileSync(path, content)
    contents.set(name, content)
    return { name, path, size: content.length }
  })
  return { refs, contents }
}

function stored(): Map<string, { size: number; sha256: string; created: number; updated: number }> {
  const list = emulator.documents(TARGET.flowId, TARGET.orgId, TARGET.nodeId)
  return new Map(
    list.map(({ name, size, sha256, created, updated }) => [name, { size, sha256, created, updated }]),
  )
}

/** Each name stored with exactly these bytes, created once and updated `updated` times. */
function expectStored(contents: Map<string, Buffer>, updated = 0): void {
  const now = stored()
  for (const [name, content] of contents) {
    expect([name, now.get(name)]).toEqual([
      name,
      { size: content.length, sha256: sha256(content), created: 1, updated },
    ])
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'kb-sync-client-emulator-data-'))
  emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY, dataDir, port: 0 })
  client = new ServiceClient({ baseUrl: emulator.url, privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY })
})

afterAll(async () => {
  await client.close()
  await emulator.close()
  rmSync(dir, { recursive: true, force: true })
  rmSync(dataDir, { recursive: true, force: true })
})

describe('documents', () => {
  const first = documents([
    ['docs/install.md', Buffer.from('# Installing Lumen\n\nRun `lumen setup` and pick the blue theme.\n')],
    ['docs/ünïcødé/日本語.txt', Buffer.from('Lumen の説明\n')],
    ['data/blob.bin', randomBytes(300_000)],
    ['empty.md', Buffer.alloc(0)],
  ])

  it('uploadDocuments stores every file under its name with its exact bytes', async () => {
    const answer = await client.uploadDocuments(TARGET, first.refs)
    expect(answer.status).toBeLessThan(300)
    expect(stored().size).toBe(first.refs.length)
    expectStored(first.contents)
  })

  it('updateDocuments replaces the content of existing documents', async () => {
    const changed = documents([
      ['docs/install.md', Buffer.from('# Installing Lumen\n\nRun `lumen setup --quiet` now.\n')],
      ['data/blob.bin', randomBytes(1234)],
    ])
    await client.updateDocuments(TARGET, changed.refs)
    expectStored(changed.contents, 1)
    expectStored(new Map([['docs/ünïcødé/日本語.txt', first.contents.get('docs/ünïcødé/日本語.txt')!]]))
    expect(stored().size).toBe(first.refs.length)
  })

  it('keeps names with quotes and line breaks intact', async () => {
    const quoted = documents([
      ['docs/the "quoted" guide.md', Buffer.from('quoted')],
      ['docs/a"\r\nX-Injected: 1.md', Buffer.from('injected?')],
    ])
    await client.uploadDocuments(TARGET, quoted.refs)
    expectStored(quoted.contents)
  })

  it('answers an upload of an existing name and an update of an unknown one with a non-retryable error', async () => {
    const again = documents([['empty.md', Buffer.from('again')]])
    const conflict = await client.uploadDocuments(TARGET, again.refs).catch((error: unknown) => error)
    expect(conflict).toBeInstanceOf(ServiceError)
    expect((conflict as ServiceError).status).toBe(409)
    expect((conflict as ServiceError).retryable).toBe(false)

    const unknown = documents([['never-uploaded.md', Buffer.from('x')]])
    const missing = await client.updateDocuments(TARGET, unknown.refs).catch((error: unknown) => error)
    expect((missing as ServiceError).status).toBe(404)
    expect(stored().has('never-uploaded.md')).toBe(false)
  })
})

describe('URLs', () => {
  it('uploadUrls and updateUrls store the URLs', async () => {
    await client.uploadUrls(TARGET, ['https://lumen.example/docs', 'https://lumen.example/faq'])
    await client.updateUrls(TARGET, ['https://lumen.example/docs'])
    expect([...emulator.urls(TARGET.flowId, TARGET.orgId, TARGET.nodeId)].sort()).toEqual([
      'https://lumen.example/docs',
      'https://lumen.example/faq',
    ])
  })
})

describe('run', () => {
  it('runFlow answers from the indexed documents', async () => {
    const answer = await client.runFlow(RUN, { 'in-0': 'How do I install Lumen?' })
    expect(typeof answer.run_id).toBe('string')
    const text = pickOutput(answer)
    expect(text).toContain('docs/install.md')
    expect(text).toContain('lumen setup --quiet')
  })
})

describe('keys', () => {
  it('the emulator refuses the wrong kind of key, and the error never shows either key', async () => {
    const swapped = new ServiceClient({
      baseUrl: emulator.url,
      privateKey: PUBLIC_KEY,
      publicKey: PRIVATE_KEY,
    })
    try {
      const indexing = await swapped
        .uploadUrls(TARGET, ['https://lumen.example/x'])
        .catch((error: unknown) => error)
      const run = await swapped.runFlow(RUN, { 'in-0': 'q' }).catch((error: unknown) => error)
      for (const error of [indexing, run]) {
        expect(error).toBeInstanceOf(ServiceError)
        expect((error as ServiceError).status).toBe(403)
        for (const key of [
          PRIVATE_KEY,
          PUBLIC_KEY,
          encodeURIComponent(PRIVATE_KEY),
          encodeURIComponent(PUBLIC_KEY),
        ])
          expect((error as ServiceError).message).not.toContain(key)
      }
    } finally {
      await swapped.close()
    }
  })
})
