// A batch of small documents is laid out as one buffer by our own code instead of form-data's streams.
// It must be form-data's body byte for byte (the emulator and the service read form-data's encoding of
// names): the same boundary is given to form-data, and the two bodies are compared whole.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough, Writable } from 'node:stream'
import FormData from 'form-data'
import {
  SMALL_DOCUMENT_BYTES,
  bodyOf,
  contentTypeFor,
  openDocuments,
  partName,
  type DocumentRef,
  type PartNaming,
} from '../../src/service/multipart.js'

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kb-sync-buffered-body-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const NAMES = [
  'README.md',
  'docs/guide/intro.mdx',
  'docs/ünïcödé — 日本語.txt',
  'quote"in"name.md',
  'line\nbreak\rname.json',
  'semi;colon = equals.csv',
  'UPPER.PDF',
  'no-extension',
  '.hidden',
]

function writeDocuments(sizes: number[]): { refs: DocumentRef[]; contents: Buffer[] } {
  const refs: DocumentRef[] = []
  const contents: Buffer[] = []
  sizes.forEach((size, index) => {
    const content = Buffer.alloc(size, `content of document ${index}\r\n--`)
    const path = join(dir, `file-${index}`)
    writeFileSync(path, content)
    refs.push({ name: NAMES[index % NAMES.length] + (index < NAMES.length ? '' : `.${index}`), path, size })
    contents.push(content)
  })
  return { refs, contents }
}

async function bytesOf(naming: PartNaming, refs: DocumentRef[]) {
  const body = await bodyOf(await openDocuments(refs), naming)
  const sink = new PassThrough()
  const collected: Buffer[] = []
  sink.on('data', (chunk: Buffer) => collected.push(chunk))
  const ended = new Promise((resolve) => sink.on('end', resolve))
  body.writeTo(sink, (error) => sink.destroy(error))
  await ended
  return { body, bytes: Buffer.concat(collected), writes: collected.length }
}

function formDataBytes(boundary: string, naming: PartNaming, refs: DocumentRef[], contents: Buffer[]) {
  const form = new FormData()
  form.setBoundary(boundary)
  refs.forEach((ref, index) =>
    form.append(partName(naming, index), contents[index], {
      filepath: ref.name,
      contentType: contentTypeFor(ref.name),
      knownLength: contents[index].length,
    }),
  )
  return { bytes: form.getBuffer(), contentType: form.getHeaders()['content-type'] as string }
}

describe.each<PartNaming>(['files', 'numbered'])('a batch of small documents, parts named %s', (naming) => {
  it('is form-data’s body byte for byte, in one write, with its content type and exact length', async () => {
    const sizes = [0, 1, 5500, SMALL_DOCUMENT_BYTES, 700, 12, 3, 4096, 9, 25, 16]
    const { refs, contents } = writeDocuments(sizes)
    const { body, bytes, writes } = await bytesOf(naming, refs)
    expect(writes).toBe(1)
    const boundary = /boundary=(.+)$/.exec(body.contentType)?.[1] ?? ''
    expect(boundary).toMatch(/^-{26}[0-9a-f]{24}$/)

    const expected = formDataBytes(boundary, naming, refs, contents)
    expect(body.contentType).toBe(expected.contentType)
    expect(bytes.toString('latin1')).toBe(expected.bytes.toString('latin1'))
    expect(body.length).toBe(expected.bytes.length)
  })
})

describe('the boundary', () => {
  it('is new for every body', async () => {
    const { refs } = writeDocuments([10, 20])
    const first = await bytesOf('files', refs)
    const second = await bytesOf('files', refs)
    expect(first.body.contentType).not.toBe(second.body.contentType)
  })
})

describe('sending many batches of small documents', () => {
  it('uses the same memory again once each body was answered: 100 MiB of bodies hold a few MiB', async () => {
    const MiB = 1024 * 1024
    const { refs } = writeDocuments(Array(25).fill(SMALL_DOCUMENT_BYTES))
    // A socket that takes each body and drops it; the service then answers with success, after which
    // the request gives the body's memory back (http.ts calls reuse), as it does the files' buffer.
    const socket = () => new Writable({ write: (_chunk, _encoding, callback) => callback() })
    // Growth above the lowest level seen so far, so what other test files left in this worker does not count.
    let lowest = process.memoryUsage().arrayBuffers
    let pile = 0
    for (let batch = 0; batch < 256; batch++) {
      const body = await bodyOf(await openDocuments(refs), 'files')
      body.writeTo(socket(), () => undefined)
      body.reuse?.()
      const now = process.memoryUsage().arrayBuffers
      lowest = Math.min(lowest, now)
      pile = Math.max(pile, now - lowest)
    }
    // 100 MiB of bodies (and as much again of file reads): fresh buffers would pile up to tens of MiB
    // before V8 collects them.
    expect(pile).toBeLessThan(4 * MiB)
  })
})
