// The record's bytes: a record comes back exactly as it was written, at the scale of 100,000 documents,
// and anything else (another version, target or shard, a bad name, id, URL or time, an extra field, too
// many bytes compressed or inflated, not gzip, not JSON) is refused whole, saying why.
import { describe, expect, test } from '@jest/globals'
import { createHash } from 'node:crypto'
import { gunzipSync, gzipSync } from 'node:zlib'
import { decodeRecord, encodeRecord, MAX_RECORD_BYTES, MAX_RECORD_JSON_BYTES } from '../../src/state/codec.js'
import {
  PLACEHOLDER,
  RECORD_VERSION,
  UNKNOWN,
  type KnowledgeBaseRecord,
  type RecordTarget,
} from '../../src/state/record.js'

const TARGET: RecordTarget = {
  host: 'api.example.com',
  flowId: '0123456789abcdef01234567',
  orgId: 'org-1',
  nodeId: 'knowledgebase-1',
}
const SHA1 = 'a'.repeat(40)
const SHA256 = 'b'.repeat(64)

function recordOf(parts: Partial<KnowledgeBaseRecord> = {}): KnowledgeBaseRecord {
  return {
    version: RECORD_VERSION,
    phase: 'final',
    target: TARGET,
    writtenBy: {
      at: '2026-11-28T10:00:00.000Z',
      repository: 'owner/docs',
      workflow: 'Sync docs',
      runId: 123456789,
      runAttempt: 2,
      runNumber: 17,
      event: 'push',
      commit: 'c'.repeat(40),
      pullRequest: 12,
    },
    settings: { files: '0123456789ab', shard: 'ba9876543210' },
    documents: {
      'docs/a.md': SHA1,
      'docs/b.md': SHA256,
      'docs/gone.md': PLACEHOLDER,
      'docs/sent.md': UNKNOWN,
    },
    urls: {
      'https://example.com/a': { sentAt: '2026-11-28T10:00:00.000Z' },
      'https://example.com/b': { sentAt: '2026-11-28T10:00:00+02:00', lastmod: '2026-11' },
    },
    ...parts,
  }
}

/** A record's JSON as it may be stored, with anything in it (an encoder would not write most of these). */
const gzipJson = (value: unknown): Buffer => gzipSync(JSON.stringify(value))

function whyOf(bytes: Buffer, expected: RecordTarget = TARGET): string {
  const decoded = decodeRecord(bytes, expected)
  if ('record' in decoded) throw new Error('the record was used')
  return decoded.why
}

describe('a record round trip', () => {
  test('comes back equal, with every field', () => {
    const record = recordOf()
    const decoded = decodeRecord(encodeRecord(record), TARGET)
    expect('record' in decoded && decoded.record).toEqual(record)
  })

  test('at 100,000 documents with 80-byte names, within the bounds', () => {
    // 64 hex digits each, as random as a hash's (they compress alike): one extendable-output hash cut
    // in 100,000 pieces costs a tenth of 100,000 hashes.
    const ids = createHash('shake256', { outputLength: 100_000 * 32 })
      .update('document ids')
      .digest('hex')
    const documents: Record<string, string> = {}
    for (let index = 0; index < 100_000; index++) {
      const name = `docs/section-${index % 50}/guide-to-the-feature-number-${index}-${'x'.repeat(80)}`
      documents[`${name.slice(0, 77)}.md`] = ids.slice(index * 64, (index + 1) * 64)
    }
    const record = recordOf({ documents })
    const encoded = encodeRecord(record)
    // Comfortably: a quarter of the compressed bound (bench/README.md has the measured sizes).
    expect(encoded.length).toBeLessThan(MAX_RECORD_BYTES / 3)
    const decoded = decodeRecord(encoded, TARGET)
    if (!('record' in decoded)) throw new Error(decoded.why)
    expect(Object.keys(decoded.record.documents)).toHaveLength(100_000)
    expect(JSON.stringify(decoded.record)).toBe(JSON.stringify(record))
  })

  test('its bytes are the JSON text of the record, also when it is compressed in several parts', () => {
    const documents: Record<string, string> = Object.fromEntries([['__proto__', SHA1]])
    // ~5 MB of JSON: more than one part; names JSON escapes (quotes, a backslash, non-ASCII) among them.
    for (let index = 0; index < 60_000; index++)
      documents[`docs/"quoted" \\ é ${index}-${'y'.repeat(40)}.md`] = index % 7 === 0 ? UNKNOWN : SHA256
    const urls = { 'https://example.com/a': { sentAt: '2026-11-28T10:00:00.000Z', lastmod: '2026-11' } }
    const { pullRequest: _, ...writtenBy } = recordOf().writtenBy
    for (const record of [
      recordOf({ documents, urls }),
      recordOf({ documents: {}, urls: {}, writtenBy: { ...writtenBy, pullRequest: undefined } }),
    ])
      expect(gunzipSync(encodeRecord(record)).toString('utf8')).toBe(JSON.stringify(record))
  })

  test('a name Object.prototype has is held or not as the record says, __proto__ included', () => {
    const documents = Object.fromEntries([
      ['__proto__', SHA1],
      ['constructor', SHA256],
      ['docs/toString', PLACEHOLDER],
    ])
    const decoded = decodeRecord(encodeRecord(recordOf({ documents })), TARGET)
    if (!('record' in decoded)) throw new Error(decoded.why)
    expect(Object.keys(decoded.record.documents).sort()).toEqual([
      '__proto__',
      'constructor',
      'docs/toString',
    ])
    expect(decoded.record.documents['__proto__']).toBe(SHA1)
    expect(decoded.record.documents['toString']).toBeUndefined()
    expect(decoded.record.urls['hasOwnProperty']).toBeUndefined()
  })

  test('a host differing only in case, and shard 1/1 for no shard, are the same target', () => {
    const record = recordOf({ target: { ...TARGET, host: 'API.Example.COM', shard: { index: 1, count: 1 } } })
    expect('record' in decodeRecord(encodeRecord(record), TARGET)).toBe(true)
    const sharded = recordOf({ target: { ...TARGET, shard: { index: 2, count: 4 } } })
    expect(
      'record' in decodeRecord(encodeRecord(sharded), { ...TARGET, shard: { index: 2, count: 4 } }),
    ).toBe(true)
  })

  test('URLs keep a W3C Datetime lastmod as the sitemap gave it', () => {
    for (const lastmod of [
      '2026',
      '2026-11',
      '2026-11-28',
      '2026-11-28T10:00+01:00',
      '2026-11-28T10:00:00.5Z',
    ]) {
      const record = recordOf({
        urls: { 'https://example.com/a': { sentAt: '2026-11-28T10:00:00Z', lastmod } },
      })
      const decoded = decodeRecord(encodeRecord(record), TARGET)
      expect('record' in decoded && decoded.record.urls['https://example.com/a'].lastmod).toBe(lastmod)
    }
  })
})

describe('a record is refused whole, saying why', () => {
  test('of another format version', () => {
    expect(whyOf(gzipJson({ ...recordOf(), version: 2 }))).toBe(
      `a record of format version 2 (this kb-sync reads version ${RECORD_VERSION})`,
    )
    expect(whyOf(gzipJson({ ...recordOf(), version: '1' }))).toBe(
      'a record without a readable format version',
    )
  })

  test.each<[string, RecordTarget, string]>([
    [
      'another host',
      { ...TARGET, host: 'staging.example.com' },
      "the record of another service (host api.example.com; this run's is staging.example.com)",
    ],
    [
      'another flow',
      { ...TARGET, flowId: 'ffffffffffffffffffffffff' },
      "the record of another node (flow-id 0123456789abcdef01234567; this run's is ffffffffffffffffffffffff)",
    ],
    [
      'another org',
      { ...TARGET, orgId: 'org-2' },
      "the record of another node (org-id org-1; this run's is org-2)",
    ],
    [
      'another node',
      { ...TARGET, nodeId: 'knowledgebase-2' },
      "the record of another node (node-id knowledgebase-1; this run's is knowledgebase-2)",
    ],
    [
      'a shard',
      { ...TARGET, shard: { index: 1, count: 4 } },
      'the record of the whole node (this run is shard 1/4)',
    ],
  ])('of %s', (_, expected, why) => {
    expect(whyOf(encodeRecord(recordOf()), expected)).toBe(why)
  })

  test('of another shard, or of a shard of another partition', () => {
    const record = encodeRecord(recordOf({ target: { ...TARGET, shard: { index: 2, count: 4 } } }))
    expect(whyOf(record, { ...TARGET, shard: { index: 1, count: 4 } })).toBe(
      'the record of shard 2/4 (this run is shard 1/4)',
    )
    expect(whyOf(record, { ...TARGET, shard: { index: 2, count: 3 } })).toBe(
      'the record of shard 2/4 (this run is shard 2/3)',
    )
    expect(whyOf(record)).toBe('the record of shard 2/4 (this run writes the whole node)')
  })

  test.each<[string, string]>([
    ['', 'is empty'],
    ['/etc/passwd', 'is absolute'],
    ['../secrets.md', 'is not inside the workspace'],
    ['..', 'is not inside the workspace'],
    ['.', 'is not inside the workspace'],
    ['docs/../../x.md', 'is not a normalised path (it has "." or ".." segments or "//")'],
    ['docs/./a.md', 'is not a normalised path (it has "." or ".." segments or "//")'],
    ['docs//a.md', 'is not a normalised path (it has "." or ".." segments or "//")'],
    ['docs/', 'ends with "/" (a folder, not a file)'],
    ['docs\\a.md', 'contains a backslash, which multipart filenames turn into "/"'],
    ['docs/a\u0000.md', 'contains a NUL character'],
    ['docs/a\nb.md', 'contains a control character'],
    ['docs/\ud800.md', 'is not valid Unicode text'],
  ])('a document named %j', (name, problem) => {
    const why = whyOf(encodeRecord(recordOf({ documents: { 'docs/ok.md': SHA1, [name]: SHA1 } })))
    expect(why).toMatch(/^an invalid record: documents\[".*"\]: the name /)
    expect(why.endsWith(`the name ${problem}`)).toBe(true)
  })

  test('a name is shown with its control characters escaped', () => {
    expect(whyOf(encodeRecord(recordOf({ documents: { 'docs/a\nb.md': SHA1 } })))).toBe(
      'an invalid record: documents["docs/a\\\\x0ab.md"]: the name contains a control character',
    )
  })

  test.each<[string, unknown]>([
    ['upper-case hex', 'A'.repeat(40)],
    ['39 digits', 'a'.repeat(39)],
    ['a short id', 'deadbeef'],
    ['65 digits', 'a'.repeat(65)],
    ['another mark', 'blanked'],
    ['a number', 5],
    ['null', null],
  ])('a content id that is %s', (_, id) => {
    expect(whyOf(gzipJson({ ...recordOf(), documents: { 'docs/a.md': id } }))).toBe(
      'an invalid record: documents["docs/a.md"]: must be a content id (40 or 64 lowercase hex digits), ' +
        '"placeholder" or "unknown"',
    )
  })

  test('a document named __proto__ with a bad id', () => {
    const json = JSON.stringify(recordOf({ documents: {} })).replace(
      '"documents":{}',
      '"documents":{"__proto__":"x"}',
    )
    expect(whyOf(gzipSync(json))).toBe(
      'an invalid record: documents["__proto__"]: must be a content id (40 or 64 lowercase hex digits), ' +
        '"placeholder" or "unknown"',
    )
  })

  test('a URL with credentials, never showing them', () => {
    const why = whyOf(
      encodeRecord(
        recordOf({
          urls: { 'https://user:Canary-secret@example.com/a': { sentAt: '2026-11-28T10:00:00Z' } },
        }),
      ),
    )
    expect(why).toBe(
      'an invalid record: urls["https://example.com/a"]: the URL must not contain user info (user:password@)',
    )
    expect(why).not.toContain('Canary')
  })

  test.each<[string, string]>([
    ['ftp://example.com/a', 'must start with http:// or https://'],
    ['not a url', 'contains white space or control characters'],
    ['example.com/a', 'is not a valid URL'],
  ])('the URL %j', (url, problem) => {
    expect(whyOf(encodeRecord(recordOf({ urls: { [url]: { sentAt: '2026-11-28T10:00:00Z' } } })))).toBe(
      `an invalid record: urls[${JSON.stringify(url)}]: the URL ${problem}`,
    )
  })

  test('times that are not ISO', () => {
    expect(whyOf(encodeRecord(recordOf({ writtenBy: { at: 'yesterday' } })))).toMatch(
      /^an invalid record: writtenBy\.at: /,
    )
    expect(
      whyOf(encodeRecord(recordOf({ urls: { 'https://example.com/a': { sentAt: '28/11/2026' } } }))),
    ).toMatch(/^an invalid record: urls\["https:\/\/example.com\/a"\]\.sentAt: /)
    expect(
      whyOf(
        encodeRecord(
          recordOf({
            urls: { 'https://example.com/a': { sentAt: '2026-11-28T10:00:00Z', lastmod: 'last week' } },
          }),
        ),
      ),
    ).toBe('an invalid record: urls["https://example.com/a"].lastmod: must be a W3C Datetime (ISO 8601) time')
  })

  test.each<[string, (record: Record<string, unknown>) => unknown, string]>([
    ['at the top', (record) => ({ ...record, content: 'x' }), 'an invalid record: unknown field "content"'],
    [
      'in the target',
      (record) => ({ ...record, target: { ...TARGET, privateKey: 'sk' } }),
      'an invalid record: target: unknown field "privateKey"',
    ],
    [
      'in the writer',
      (record) => ({ ...record, writtenBy: { at: '2026-11-28T10:00:00Z', token: 'x' } }),
      'an invalid record: writtenBy: unknown field "token"',
    ],
    [
      'in a URL',
      (record) => ({
        ...record,
        urls: { 'https://example.com/a': { sentAt: '2026-11-28T10:00:00Z', body: 'x' } },
      }),
      'an invalid record: urls["https://example.com/a"]: unknown field "body"',
    ],
  ])('an extra field %s', (_, change, why) => {
    expect(whyOf(gzipJson(change(recordOf() as unknown as Record<string, unknown>)))).toBe(why)
  })

  test('an extra __proto__ field, at the top or among the settings', () => {
    const json = JSON.stringify(recordOf())
    expect(whyOf(gzipSync(json.replace('{"version"', '{"__proto__":{"phase":"final"},"version"')))).toBe(
      'an invalid record: unknown field "__proto__"',
    )
    expect(whyOf(gzipSync(json.replace('"settings":{', '"settings":{"__proto__":"0123456789ab",')))).toBe(
      'an invalid record: settings["__proto__"]: the key must be a setting name',
    )
  })

  test('a missing field, a bad phase or a bad setting hash', () => {
    const { documents: _, ...withoutDocuments } = recordOf()
    expect(whyOf(gzipJson(withoutDocuments))).toMatch(/^an invalid record: documents: /)
    expect(whyOf(gzipJson({ ...recordOf(), phase: 'done' }))).toMatch(/^an invalid record: phase: /)
    expect(whyOf(gzipJson({ ...recordOf(), settings: { files: 'xyz' } }))).toBe(
      'an invalid record: settings.files: must be 12 lowercase hex digits',
    )
  })

  test('too large compressed, though valid', () => {
    // A valid record stored without compression (gzip level 0, as any writer may): ~18 MB of JSON, over
    // the compressed bound and under the inflated one. The bound is on the bytes, whatever made them.
    const folders = Array.from({ length: 4 }, (_, i) => `${i}${'z'.repeat(200)}`).join('/')
    const stored = (count: number) => {
      const documents: Record<string, string> = {}
      for (let index = 0; index < count; index++) documents[`docs/${folders}/${index}.md`] = UNKNOWN
      return gzipSync(JSON.stringify(recordOf({ documents })), { level: 0 })
    }
    const fewer = decodeRecord(stored(10), TARGET)
    expect('record' in fewer && Object.keys(fewer.record.documents)).toHaveLength(10)
    const encoded = stored(22_000)
    expect(encoded.length).toBeGreaterThan(MAX_RECORD_BYTES)
    expect(encoded.length).toBeLessThan(MAX_RECORD_JSON_BYTES)
    expect(whyOf(encoded)).toMatch(
      /^over its size bound: 1\d,\d{3},\d{3} bytes compressed, more than 16\.0 MiB$/,
    )
  })

  test('a gzip bomb: a few KiB that inflate past the bound stop at the bound', () => {
    // A valid record but for a writer's workflow name of 65 MiB.
    const json = JSON.stringify(recordOf()).replace(
      '"Sync docs"',
      `"${'a'.repeat(MAX_RECORD_JSON_BYTES + 1024)}"`,
    )
    const bomb = gzipSync(json, { level: 9 })
    expect(bomb.length).toBeLessThan(128 * 1024)
    expect(whyOf(bomb)).toBe('over its size bound: more than 64.0 MiB once decompressed')
  })

  test('not gzip', () => {
    expect(whyOf(Buffer.from(JSON.stringify(recordOf())))).toBe('not gzip data')
    expect(whyOf(Buffer.alloc(0))).toBe('not gzip data')
  })

  test('damaged gzip', () => {
    const encoded = encodeRecord(recordOf())
    expect(whyOf(encoded.subarray(0, encoded.length - 20))).toMatch(/^damaged gzip data \(Z_BUF_ERROR\)$/)
    const flipped = Buffer.from(encoded)
    flipped[20] ^= 0xff
    expect(whyOf(flipped)).toMatch(/^damaged gzip data \(Z_/)
  })

  test('not JSON, not an object, not UTF-8', () => {
    expect(whyOf(gzipSync('{"version": 1, '))).toBe('not JSON once decompressed')
    expect(whyOf(gzipJson([recordOf()]))).toBe('not a JSON object')
    // A valid record whose one name holds a byte that is not UTF-8: never read as U+FFFD.
    const json = Buffer.from(JSON.stringify(recordOf({ documents: { 'docs/a?.md': SHA1 } })))
    json[json.indexOf('docs/a?.md') + 6] = 0xff
    expect(whyOf(gzipSync(json))).toBe('not UTF-8 text once decompressed')
  })
})
