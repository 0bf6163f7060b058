// Small documents are read whole when their batch is opened and closed at once; larger ones stay open
// and are streamed. Either way the emulator receives every part whole, in order, under its name.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startEmulator } from '../../src/emulator/server.js'
import { FileChangedError } from '../../src/documents/read-guard.js'
import { ServiceClient, ServiceError, type DocumentRef } from '../../src/service/client.js'
import { SMALL_DOCUMENT_BYTES } from '../../src/service/multipart.js'
import { openDescriptors, settledOpenDescriptors } from '../helpers/open-descriptors.js'
import { PRIVATE_KEY, PUBLIC_KEY } from '../helpers/keys.js'

const TARGET = {
  flowId: '0123456789abcdef01234567',
  orgId: 'a1b2c3d4-0000-4000-8000-123456789abc',
  nodeId: 'knowledgebase-1',
}

let emulator: Awaited<ReturnType<typeof startEmulator>>
let client: ServiceClient
let dataDir: string
let dir: string

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'kb-sync-small-documents-data-'))
  emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY, dataDir, port: 0 })
  client = new ServiceClient({ baseUrl: emulator.url, privateKey: PRIVATE_KEY })
})
afterAll(async () => {
  await client.close()
  await emulator.close()
  rmSync(dataDir, { recursive: true, force: true })
})
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kb-sync-small-documents-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/** Documents of these sizes, with random bytes, named in order. */
function documents(prefix: string, sizes: number[]): { refs: DocumentRef[]; contents: Buffer[] } {
  const contents = sizes.map((size) => randomBytes(size))
  const refs = contents.map((content, index) => {
    const name = `${prefix}-${String(index).padStart(2, '0')}.md`
    const path = join(dir, name)
    writeFileSync(path, content)
    return { name, path, size: content.length }
  })
  return { refs, contents }
}

const openInDir = () => openDescriptors(dir)
const settledOpenInDir = () => settledOpenDescriptors(dir)

/** The parts of the emulator's last request: field, filename, size and sha256, in order. */
function lastRequestParts() {
  const requests = emulator.requests()
  return (requests.at(-1)?.documents ?? []).map(({ field, filename, size, sha256 }) => ({
    field,
    filename,
    size,
    sha256,
  }))
}

function expectedParts(refs: DocumentRef[], contents: Buffer[], field: (index: number) => string) {
  return refs.map((ref, index) => ({
    field: field(index),
    filename: ref.name,
    size: contents[index].length,
    sha256: sha256(contents[index]),
  }))
}

function storedSha256(names: string[]): (string | undefined)[] {
  const stored = new Map(
    emulator.documents(TARGET.flowId, TARGET.orgId, TARGET.nodeId).map((d) => [d.name, d.sha256]),
  )
  return names.map((name) => stored.get(name))
}

describe('a batch of small documents', () => {
  it('is read and closed when opened, and arrives whole', async () => {
    const sizes = [0, 1, 700, 5500, SMALL_DOCUMENT_BYTES - 1, SMALL_DOCUMENT_BYTES, ...Array(19).fill(5500)]
    const { refs, contents } = documents('small', sizes)
    const opened = await client.openDocuments(refs)
    expect(openInDir()).toBe(0)

    await client.uploadDocuments(TARGET, refs, { opened: Promise.resolve(opened) })
    opened.dispose()
    expect(lastRequestParts()).toEqual(expectedParts(refs, contents, () => 'files'))
    expect(storedSha256(refs.map((ref) => ref.name))).toEqual(contents.map(sha256))
  })
})

describe('a batch mixing small and large documents', () => {
  const sizes = [
    100,
    SMALL_DOCUMENT_BYTES + 1,
    SMALL_DOCUMENT_BYTES,
    300_000,
    0,
    SMALL_DOCUMENT_BYTES - 1,
    3 * 64 * 1024 + 17,
  ]

  it('keeps only the large files open, and every part arrives whole and in order', async () => {
    const { refs, contents } = documents('mixed', sizes)
    const opened = await client.openDocuments(refs)
    expect(openInDir()).toBe(3)

    await client.uploadDocuments(TARGET, refs, { opened: Promise.resolve(opened) })
    opened.dispose()
    expect(lastRequestParts()).toEqual(expectedParts(refs, contents, () => 'files'))
    expect(await settledOpenInDir()).toBe(0)
  })

  it('is updated with parts numbered file1, file2, … in order', async () => {
    const before = documents('update', sizes)
    await client.uploadDocuments(TARGET, before.refs)
    const { refs, contents } = documents('update', [...sizes].reverse())

    await client.updateDocuments(TARGET, refs)
    expect(lastRequestParts()).toEqual(expectedParts(refs, contents, (index) => `file${index + 1}`))
    expect(storedSha256(refs.map((ref) => ref.name))).toEqual(contents.map(sha256))
    expect(await settledOpenInDir()).toBe(0)
  })

  it('with a small file changed since selection: refused before sending, nothing left open', async () => {
    const { refs } = documents('changed', sizes)
    writeFileSync(refs[2].path, 'now different')
    const requestsBefore = emulator.requests().length

    await expect(client.openDocuments(refs)).rejects.toThrow(FileChangedError)
    expect(await settledOpenInDir()).toBe(0)

    const error = await client.uploadDocuments(TARGET, refs, { opened: client.openDocuments(refs) }).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(error).toBeInstanceOf(ServiceError)
    expect((error as ServiceError).code).toBe('FILE_CHANGED')
    expect((error as ServiceError).message).toContain(
      `changed-02.md changed since it was selected (${SMALL_DOCUMENT_BYTES} bytes, now 13 bytes)`,
    )
    expect(emulator.requests()).toHaveLength(requestsBefore)
    expect(await settledOpenInDir()).toBe(0)
  })
})
