// npm run bench -- record: the knowledge base's record (src/state/codec.ts) at 2,000 / 20,000 / 100,000
// documents with 80-byte names and git blob ids (40 hex digits; 64 for a SHA-256 repository): its size as
// JSON and compressed, and the time to encode and to decode it (decoding validates every name and id).
import { createHash } from 'node:crypto'

const COUNTS = [2_000, 20_000, 100_000]

/** An 80-byte name in a tree of 50 sections, as a documentation site has. */
function nameOf(index) {
  const stem = `docs/section-${String(index % 50).padStart(2, '0')}/guide-to-the-feature-number-${index}`
  return `${stem}${'-x'.repeat(40)}`.slice(0, 77) + '.md'
}

function recordOf(count, idLength) {
  const documents = {}
  for (let index = 0; index < count; index++)
    documents[nameOf(index)] = createHash(idLength === 40 ? 'sha1' : 'sha256')
      .update(String(index))
      .digest('hex')
  return {
    version: 1,
    phase: 'final',
    target: {
      host: 'api.stack-ai.com',
      flowId: 'f'.repeat(24),
      orgId: 'bench-org',
      nodeId: 'knowledgebase-1',
    },
    writtenBy: { at: new Date().toISOString(), repository: 'owner/docs', runId: 123456789, runAttempt: 1 },
    settings: { files: '0123456789ab' },
    documents,
    urls: {},
  }
}

export async function benchRecord({ row, load }) {
  const { encodeRecord, decodeRecord, MAX_RECORD_BYTES, MAX_RECORD_JSON_BYTES } =
    await load('src/state/codec.js')
  const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(2)} MiB`
  for (const idLength of [40, 64])
    for (const count of COUNTS) {
      const record = recordOf(count, idLength)
      const json = Buffer.byteLength(JSON.stringify(record))
      let start = performance.now()
      const encoded = encodeRecord(record)
      const encodeMs = performance.now() - start
      start = performance.now()
      const decoded = decodeRecord(encoded, record.target)
      const decodeMs = performance.now() - start
      if (!decoded.record || Object.keys(decoded.record.documents).length !== count)
        throw new Error(`the record of ${count} documents did not decode: ${decoded.why}`)
      row(
        `record of ${count.toLocaleString('en-US')} documents, ${idLength}-digit ids`,
        `${mib(encoded.length)} compressed`,
        `${mib(json)} JSON; encode ${encodeMs.toFixed(0)} ms, decode ${decodeMs.toFixed(0)} ms; bounds ` +
          `${mib(MAX_RECORD_BYTES)} / ${mib(MAX_RECORD_JSON_BYTES)}`,
      )
    }
}
