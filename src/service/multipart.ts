// The multipart body of the document operations: files are opened (and checked against their selected
// size) before the request starts; small ones are read whole right then, larger ones are streamed from
// disk only as the socket takes the bytes.
import { randomBytes } from 'node:crypto'
import { stat } from 'node:fs/promises'
import path from 'node:path'
import type { Readable, Writable } from 'node:stream'
import type FormData from 'form-data'
import { displayName } from '../log.js'
import { reuseBuffer, takeBuffer } from './body-buffers.js'
import { documentNameProblem, wireFilename } from '../documents/document-names.js'
import { FileChangedError, openSelectedFile, readSmallSelectedFile } from '../documents/read-guard.js'
import { ClientUsageError } from './errors.js'
import type { RequestBody } from './http.js'

export interface DocumentRef {
  /** Document name, sent as the part's filename (the repo-relative POSIX path). */
  name: string
  /** Where to read it. */
  path: string
  /** Size when selected; read from disk when absent. The body carries exactly this many bytes. */
  size?: number
}

// Types the service is likely to index, by extension; anything else goes as opaque bytes.
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  md: 'text/markdown',
  markdown: 'text/markdown',
  mdx: 'text/markdown',
  txt: 'text/plain',
  text: 'text/plain',
  html: 'text/html',
  htm: 'text/html',
  pdf: 'application/pdf',
  json: 'application/json',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  xml: 'application/xml',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  rst: 'text/x-rst',
  adoc: 'text/asciidoc',
  rtf: 'application/rtf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  odt: 'application/vnd.oasis.opendocument.text',
  epub: 'application/epub+zip',
}

export const DEFAULT_CONTENT_TYPE = 'application/octet-stream'

/** The part's content type, from the extension of the document name (case-insensitive). */
export function contentTypeFor(name: string): string {
  const extension = path.posix.extname(name).slice(1).toLowerCase()
  return Object.hasOwn(CONTENT_TYPES, extension) ? CONTENT_TYPES[extension] : DEFAULT_CONTENT_TYPE
}

/** Part names: every upload part is `files`; update parts are numbered `file1`, `file2`, … in order. */
export type PartNaming = 'files' | 'numbered'

export function partName(naming: PartNaming, index: number): string {
  return naming === 'files' ? 'files' : `file${index + 1}`
}

/** Refuses documents that cannot be sent as named (before any I/O). */
export function checkDocuments(documents: readonly DocumentRef[]): void {
  if (documents.length === 0) throw new ClientUsageError('at least one document is needed')
  for (const document of documents) {
    const problem = documentNameProblem(document.name)
    if (problem) throw new ClientUsageError(`document name "${displayName(document.name)}" ${problem}`)
    if (document.size !== undefined && !(Number.isSafeInteger(document.size) && document.size >= 0))
      throw new ClientUsageError(`document "${displayName(document.name)}" has an invalid size`)
  }
}

async function sizeOnDisk(document: DocumentRef): Promise<number> {
  try {
    return (await stat(document.path)).size
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error'
    throw new FileChangedError(`${displayName(document.name)} could not be read (${code}).`)
  }
}

/**
 * Documents up to this size are read whole, synchronously, when their batch is opened: for small files
 * the thread-pool round trips of async open, read and close cost more than the reads. The bytes wait in
 * memory for the request slot, so at most batch size × (batches in flight + batches opened ahead) ×
 * 16 KiB are held: 25 × (16 + 16) × 16 KiB = 12.5 MiB at the default batch size and concurrency, plus
 * one copy per batch in flight laid out as its body (25 × 16 × 16 KiB = 6.25 MiB).
 */
export const SMALL_DOCUMENT_BYTES = 16 * 1024

/** A batch's files, opened and checked against their selected size: the parts of one request body. */
export interface OpenedDocuments {
  readonly documents: readonly DocumentRef[]
  /** Per document: its bytes (a small file, already read and closed) or a stream of its open file. */
  readonly contents: readonly (Buffer | Readable)[]
  readonly sizes: readonly number[]
  /** Closes every file still open (idempotent). */
  dispose(): void
  /** Gives back the memory the small files were read into; call only when nothing reads `contents` again. */
  reuse(): void
}

/**
 * Opens every document at once (failing with the read guard's FileChangedError when one is no longer the
 * selected regular file of its size; then none stays open). Documents of at most SMALL_DOCUMENT_BYTES are
 * read whole and closed here; the others stay open as streams.
 */
export async function openDocuments(documents: readonly DocumentRef[]): Promise<OpenedDocuments> {
  // The small files of known size are read, one after another, into one buffer: each takes its size
  // plus the byte that shows growth, which the next file's bytes then overwrite.
  const isSmall = (size: number | undefined): size is number =>
    size !== undefined && size <= SMALL_DOCUMENT_BYTES
  const smallBytes = documents.reduce((n, document) => n + (isSmall(document.size) ? document.size : 0), 0)
  const shared = smallBytes > 0 ? takeBuffer(smallBytes + 1) : undefined
  if (shared && documents.every((document) => isSmall(document.size)))
    return readSmallDocuments(documents as readonly Required<DocumentRef>[], shared)
  let offset = 0
  const settled = await Promise.allSettled(
    documents.map(async (document) => {
      let into: Buffer | undefined
      if (shared && isSmall(document.size)) {
        into = shared.subarray(offset, offset + document.size + 1)
        offset += document.size
      }
      const size = document.size ?? (await sizeOnDisk(document))
      const file = { name: document.name, path: document.path, size }
      const content =
        size <= SMALL_DOCUMENT_BYTES ? readSmallSelectedFile(file, into) : await openSelectedFile(file)
      return { size, content }
    }),
  )
  const opened = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []))
  const dispose = () => {
    for (const { content } of opened) if (!Buffer.isBuffer(content)) content.destroy()
  }
  const failed = settled.find((result) => result.status === 'rejected')
  if (failed) {
    dispose()
    throw failed.reason
  }
  return {
    documents,
    contents: opened.map(({ content }) => content),
    sizes: opened.map(({ size }) => size),
    dispose,
    reuse: () => {
      if (shared) reuseBuffer(shared)
    },
  }
}

/**
 * The usual batch, small documents of known size only: read one after another, without a promise per
 * document (the first file that fails fails the batch, as in openDocuments).
 */
function readSmallDocuments(documents: readonly Required<DocumentRef>[], shared: Buffer): OpenedDocuments {
  const contents: Buffer[] = []
  let offset = 0
  for (const document of documents) {
    contents.push(readSmallSelectedFile(document, shared.subarray(offset, offset + document.size + 1)))
    offset += document.size
  }
  return {
    documents,
    contents,
    sizes: documents.map((document) => document.size),
    dispose: () => undefined,
    reuse: () => reuseBuffer(shared),
  }
}

/** Opens every document and returns the multipart body with its exact length. */
export async function multipartBody(
  documents: readonly DocumentRef[],
  naming: PartNaming,
): Promise<RequestBody> {
  return await bodyOf(await openDocuments(documents), naming)
}

/**
 * The multipart body of documents already opened; a streamed file is read as the socket takes the bytes.
 * A batch of small documents only, all in memory, is laid out as one buffer.
 */
export async function bodyOf(opened: OpenedDocuments, naming: PartNaming): Promise<RequestBody> {
  return opened.contents.every((content) => Buffer.isBuffer(content))
    ? bufferedBody(opened, opened.contents as readonly Buffer[], naming)
    : await streamedBody(opened, naming)
}

const LINE_BREAK = Buffer.from('\r\n')

// A boundary must not occur in any part: 64 random bits per process, then a count, make each one new and
// unguessable, where 12 random bytes for every body cost ~7 µs (~40 ms of 20,000 documents' send).
let boundaryPrefix: string | undefined
let boundariesMade = 0

/**
 * form-data's layout, byte for byte (a test holds it to form-data's own output), without its three stream
 * layers per part, and the socket takes the body in one write instead of three per document: for 2,000
 * small documents the action's CPU went 0.62-0.68 -> 0.50-0.57 s (bench/README.md).
 */
function bufferedBody(opened: OpenedDocuments, contents: readonly Buffer[], naming: PartNaming): RequestBody {
  boundaryPrefix ??= `--------------------------${randomBytes(8).toString('hex')}`
  const boundary = `${boundaryPrefix}${(boundariesMade++ % 2 ** 32).toString(16).padStart(8, '0')}`
  const headers = opened.documents.map(
    (document, index) =>
      // checkDocuments refused the names form-data would normalise, so the name goes as it is.
      `--${boundary}\r\n` +
      `Content-Disposition: form-data; name="${partName(naming, index)}"; ` +
      `filename="${wireFilename(document.name)}"\r\n` +
      `Content-Type: ${contentTypeFor(document.name)}\r\n\r\n`,
  )
  const closing = `--${boundary}--\r\n`
  const length = headers.reduce(
    (n, header, index) => n + Buffer.byteLength(header) + contents[index].length + LINE_BREAK.length,
    Buffer.byteLength(closing),
  )
  // Laid out in a buffer used again after a successful answer (body-buffers.ts); the files' buffer is
  // given back as soon as its bytes are copied.
  const bytes = takeBuffer(length)
  let at = 0
  for (const [index, header] of headers.entries()) {
    at += bytes.write(header, at)
    at += contents[index].copy(bytes, at)
    at += LINE_BREAK.copy(bytes, at)
  }
  bytes.write(closing, at)
  opened.reuse()
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length,
    // Not counted for chunk-release's collections: these bytes are used again, not left to the collector,
    // and a collection forced every few batches moved the objects of the requests in flight to the old
    // generation, which is collected only when it has grown far (100,000 documents: +100 MiB).
    writeTo(destination: Writable) {
      destination.end(bytes)
    },
    dispose: opened.dispose,
    reuse: () => reuseBuffer(bytes),
  }
}

async function streamedBody(opened: OpenedDocuments, naming: PartNaming): Promise<RequestBody> {
  let form: FormData
  try {
    // form-data and mime-db (~210 KB) are loaded at the first streamed file, from their own chunk in the
    // bundles: a sync of small files never uses them, and V8 would compile them at every start.
    const { default: Form } = await import('form-data')
    form = new Form()
    for (const [index, document] of opened.documents.entries()) {
      const content = opened.contents[index]
      // A function value makes form-data pipe a stream itself when its turn comes, without the
      // buffering wrapper it puts around streams appended directly.
      const value = Buffer.isBuffer(content) ? content : (next: (value: Readable) => void) => next(content)
      form.append(partName(naming, index), value, {
        filepath: document.name,
        contentType: contentTypeFor(document.name),
        knownLength: opened.sizes[index],
      })
    }
  } catch (error) {
    opened.dispose()
    throw error
  }
  return {
    contentType: form.getHeaders()['content-type'] as string,
    length: form.getLengthSync(),
    writeTo(destination: Writable, fail: (error: Error) => void) {
      form.on('error', fail)
      form.pipe(destination)
    },
    dispose: opened.dispose,
  }
}
