// A record store over a store of bytes (an artifact, a file): records are encoded on the way in and
// decoded, strictly, on the way out.
import { decodeRecord, encodeRecord } from './codec.js'
import { recordKeyOf, type BytesStore, type RecordStore } from './record.js'

export function recordStore(bytes: BytesStore): RecordStore {
  return {
    description: bytes.description,
    async read(target, signal) {
      const stored = await bytes.readNewest(recordKeyOf(target), signal)
      if (stored.kind !== 'found') return stored
      const decoded = decodeRecord(stored.bytes, target)
      if ('why' in decoded) return { kind: 'unusable', why: `${stored.from} is ${decoded.why}` }
      return { kind: 'found', record: decoded.record, from: stored.from }
    },
    async write(record, signal) {
      let encoded: Buffer
      try {
        encoded = encodeRecord(record)
      } catch (error) {
        // JSON.stringify's own limit (a string of 512 MiB), far past what any node holds.
        return { ok: false, why: `the record cannot be encoded (${String(error)})` }
      }
      // A record over the size bound is written all the same: the next run then finds it unusable and
      // falls back, instead of reading an older record that no longer says what the node holds.
      return bytes.write(recordKeyOf(record.target), encoded, signal)
    },
  }
}
