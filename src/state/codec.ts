// The record's bytes: JSON, gzip-compressed. Whatever the store hands back (an artifact anyone with write
// access can replace, a file anyone can edit) is checked whole before any of it is used: its size while
// it is inflated (a gzip bomb stops at the bound), its JSON, its schema, its target, every name and id.
// A record that fails any check is not used at all: the run falls back to inferring the change set.
import { gunzipSync, gzipSync } from 'node:zlib'
import { z } from 'zod'
import { withoutUserInfo } from '../config/errors.js'
import { formatBytes, formatCount } from '../units.js'
import { urlEntryProblem } from '../config/urls.js'
import { displayName } from '../log.js'
import { selectableNameProblem } from '../documents/document-names.js'
import { lastmodLatest } from '../sitemaps/lastmod.js'
import {
  PLACEHOLDER,
  RECORD_VERSION,
  UNKNOWN,
  type KnowledgeBaseRecord,
  type RecordTarget,
} from './record.js'

/**
 * The bounds of a stored record. 100,000 documents with 80-byte names and 64-digit ids are ~15 MiB of
 * JSON and ~4 MiB compressed (bench/README.md, "The record"): the bounds leave four times that, and keep
 * what a hostile record can cost (memory, time) to what reading the largest real one costs.
 */
export const MAX_RECORD_BYTES = 16 * 1024 * 1024
export const MAX_RECORD_JSON_BYTES = 64 * 1024 * 1024

/** JSON text compressed per part: at 100,000 documents the record's ~6 MB of JSON is never one string. */
const PART_CHARS = 1024 * 1024
/** Entries given to JSON.stringify at once: one string per slice, not three per entry. */
const SLICE_ENTRIES = 1024

/**
 * The record as gzip'd JSON: the same text as `JSON.stringify(record)`, made and compressed a part at a
 * time (each part a gzip member; gunzip reads the members as one stream). At 100,000 documents the whole
 * string and its bytes were ~20 MB of transient memory, twice a run (bench/README.md).
 */
export function encodeRecord(record: KnowledgeBaseRecord): Buffer {
  const members: Buffer[] = []
  let parts: string[] = []
  let length = 0
  // Each part's UTF-8 bytes in one buffer used again: gzipSync of a string makes a buffer of it per part,
  // outside the heap until a collection finds it (~6 MB at 100,000 documents, bench/README.md).
  let bytes = Buffer.allocUnsafe(0)
  const flush = () => {
    const text = parts.join('')
    const size = Buffer.byteLength(text)
    if (bytes.length < size) bytes = Buffer.allocUnsafe(size)
    bytes.write(text)
    members.push(gzipSync(bytes.subarray(0, size)))
    parts = []
    length = 0
  }
  const add = (part: string) => {
    parts.push(part)
    length += part.length
    if (length >= PART_CHARS) flush()
  }
  const addEntries = (entries: Readonly<Record<string, unknown>>) => {
    let separator = '{'
    const keys = Object.keys(entries)
    for (let start = 0; start < keys.length; start += SLICE_ENTRIES) {
      // No prototype: a name such as `__proto__` is an entry like any other.
      const slice = Object.create(null) as Record<string, unknown>
      for (const key of keys.slice(start, start + SLICE_ENTRIES)) slice[key] = entries[key]
      const text = JSON.stringify(slice)
      if (text === '{}') continue
      add(separator + text.slice(1, -1))
      separator = ','
    }
    add(separator === '{' ? '{}' : '}')
  }
  let separator = '{'
  for (const [key, value] of Object.entries(record)) {
    if (key === 'documents' || key === 'urls') {
      add(`${separator}${JSON.stringify(key)}:`)
      addEntries(value as Record<string, unknown>)
    } else {
      const text = JSON.stringify(value)
      if (text === undefined) continue
      add(`${separator}${JSON.stringify(key)}:${text}`)
    }
    separator = ','
  }
  add(separator === '{' ? '{}' : '}')
  flush()
  return members.length === 1 ? members[0] : Buffer.concat(members)
}

const CONTENT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/
const isHeldContent = (value: string): boolean =>
  value === PLACEHOLDER || value === UNKNOWN || CONTENT_ID.test(value)

const text = (max: number) => z.string().min(1).max(max)
const isoTime = z.iso.datetime({ offset: true })

const CONTENT_RULE = `must be a content id (40 or 64 lowercase hex digits), "${PLACEHOLDER}" or "${UNKNOWN}"`
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
// The documents and URLs are checked in one pass of their own (checkedDocuments, checkedUrls): a schema
// per entry costs twice as much at 100,000 entries, and zod's records pass over a `__proto__` key.
const entries = z.custom<Record<string, unknown>>(isPlainObject, { error: 'must be an object' })

// A sitemap's <lastmod> is W3C Datetime (a profile of ISO 8601 that allows a year or a date alone).
const lastmod = z
  .string()
  .max(64)
  .refine((value) => lastmodLatest(value) !== undefined && value.trim() === value, {
    error: 'must be a W3C Datetime (ISO 8601) time',
  })

const recordSchema = z.strictObject({
  version: z.literal(RECORD_VERSION),
  phase: z.enum(['pending', 'final']),
  target: z.strictObject({
    host: text(300),
    flowId: text(200),
    orgId: text(200),
    nodeId: text(200),
    shard: z
      .strictObject({ index: z.int().min(1), count: z.int().min(1).max(256) })
      .refine((shard) => shard.index <= shard.count, { error: 'index must be at most count' })
      .optional(),
  }),
  writtenBy: z.strictObject({
    at: isoTime,
    repository: text(300).optional(),
    workflow: text(1024).optional(),
    runId: z.int().positive().optional(),
    runAttempt: z.int().positive().optional(),
    runNumber: z.int().positive().optional(),
    event: text(100).optional(),
    commit: z.string().regex(CONTENT_ID, { error: 'must be 40 or 64 lowercase hex digits' }).optional(),
    pullRequest: z.int().positive().optional(),
  }),
  settings: z.record(
    z.string().regex(/^[a-z][a-z0-9-]{0,63}$/, { error: 'must be a setting name' }),
    z.string().regex(/^[0-9a-f]{12}$/, { error: 'must be 12 lowercase hex digits' }),
  ),
  documents: entries,
  urls: entries,
})
const heldUrl = z.strictObject({ sentAt: isoTime, lastmod: lastmod.optional() })

/**
 * What decoding found: the record, or why it is not used, as a phrase that completes "the record in … is"
 * ("not gzip data", "a record of format version 2 …", "the record of another node …").
 */
export type DecodedRecord = { record: KnowledgeBaseRecord } | { why: string }

/**
 * The record in `bytes`, if every part of it is valid and it is the record of `expected` (its host
 * compared case-insensitively, the same shard); else why not. Never throws. Its `documents` and `urls`
 * have no prototype, so a lookup of any name (`constructor`, `__proto__`) answers only what the record holds.
 */
export function decodeRecord(bytes: Buffer, expected: RecordTarget): DecodedRecord {
  if (bytes.length > MAX_RECORD_BYTES)
    return {
      why: `over its size bound: ${formatCount(bytes.length)} bytes compressed, more than ${formatBytes(MAX_RECORD_BYTES)}`,
    }
  if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) return { why: 'not gzip data' }
  let inflated: Buffer
  try {
    // The bound holds while inflating: a bomb stops at MAX_RECORD_JSON_BYTES, whatever it would expand to.
    inflated = gunzipSync(bytes, { maxOutputLength: MAX_RECORD_JSON_BYTES })
  } catch (error) {
    const code = (error as { code?: unknown }).code
    if (code === 'ERR_BUFFER_TOO_LARGE')
      return { why: `over its size bound: more than ${formatBytes(MAX_RECORD_JSON_BYTES)} once decompressed` }
    return { why: `damaged gzip data (${typeof code === 'string' ? code : String(error)})` }
  }
  let json: string
  try {
    json = new TextDecoder('utf-8', { fatal: true }).decode(inflated)
  } catch {
    return { why: 'not UTF-8 text once decompressed' }
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(json)
  } catch {
    return { why: 'not JSON once decompressed' }
  }
  if (!isPlainObject(parsed)) return { why: 'not a JSON object' }
  if (parsed.version !== RECORD_VERSION)
    return {
      why:
        typeof parsed.version === 'number'
          ? `a record of format version ${parsed.version} (this kb-sync reads version ${RECORD_VERSION})`
          : 'a record without a readable format version',
    }
  const checked = recordSchema.safeParse(parsed)
  if (!checked.success) return { why: `an invalid record: ${issueText(checked.error.issues[0])}` }
  // zod's records pass over a `__proto__` key.
  if (Object.hasOwn(parsed.settings as object, '__proto__'))
    return { why: 'an invalid record: settings["__proto__"]: the key must be a setting name' }
  const otherTarget = targetDifference(checked.data.target, expected)
  if (otherTarget) return { why: otherTarget }
  const documents = checkedDocuments(checked.data.documents)
  if (typeof documents === 'string') return { why: `an invalid record: ${documents}` }
  const urls = checkedUrls(checked.data.urls)
  if (typeof urls === 'string') return { why: `an invalid record: ${urls}` }
  return { record: { ...checked.data, documents, urls } }
}

/** The documents without a prototype (a lookup answers only what the record holds), or what is wrong. */
function checkedDocuments(raw: Record<string, unknown>): KnowledgeBaseRecord['documents'] | string {
  const documents = Object.create(null) as KnowledgeBaseRecord['documents']
  for (const name of Object.keys(raw)) {
    const problem = selectableNameProblem(name)
    if (problem) return `documents[${quotedKey(name)}]: the name ${problem}`
    const id = raw[name]
    if (typeof id !== 'string' || !isHeldContent(id)) return `documents[${quotedKey(name)}]: ${CONTENT_RULE}`
    documents[name] = id
  }
  return documents
}

/** The URLs without a prototype, or what is wrong; a URL's user info is never shown. */
function checkedUrls(raw: Record<string, unknown>): KnowledgeBaseRecord['urls'] | string {
  const urls = Object.create(null) as KnowledgeBaseRecord['urls']
  for (const url of Object.keys(raw)) {
    const problem = urlEntryProblem(url)
    if (problem) return `urls[${quotedKey(url)}]: the URL ${problem}`
    const held = heldUrl.safeParse(raw[url])
    if (!held.success) return issueText(held.error.issues[0], `urls[${quotedKey(url)}]`)
    urls[url] = held.data
  }
  return urls
}

/** One issue as a sentence part, naming where it is. */
function issueText(issue: z.core.$ZodIssue, within = ''): string {
  const where = [within, ...issue.path.map(String)].filter((part) => part !== '').join('.')
  const message =
    issue.code === 'invalid_key' && issue.issues[0]
      ? issue.issues[0].message
      : issue.code === 'unrecognized_keys'
        ? `unknown field ${quotedKey(issue.keys[0] ?? '')}`
        : issue.message
  return where === '' ? message : `${where}: ${message}`
}

const quotedKey = (key: string): string => JSON.stringify(shown(key))

/** A key as a message may show it: user info removed, control characters escaped, at most 200 characters. */
function shown(key: string): string {
  const clean = displayName(withoutUserInfo(key))
  return clean.length > 200 ? `${clean.slice(0, 200)}…` : clean
}

function shardText(shard: RecordTarget['shard']): string | undefined {
  return shard && shard.count > 1 ? `${shard.index}/${shard.count}` : undefined
}

/** Why a record of `found` is not the record of `expected`, or undefined when it is. */
function targetDifference(found: RecordTarget, expected: RecordTarget): string | undefined {
  if (found.host.toLowerCase() !== expected.host.toLowerCase())
    return `the record of another service (host ${shown(found.host)}; this run's is ${shown(expected.host)})`
  for (const [key, input] of [
    ['flowId', 'flow-id'],
    ['orgId', 'org-id'],
    ['nodeId', 'node-id'],
  ] as const)
    if (found[key] !== expected[key])
      return `the record of another node (${input} ${shown(found[key])}; this run's is ${shown(expected[key])})`
  const [foundShard, expectedShard] = [shardText(found.shard), shardText(expected.shard)]
  if (foundShard !== expectedShard)
    return `the record of ${foundShard ? `shard ${foundShard}` : 'the whole node'} (this run ${
      expectedShard ? `is shard ${expectedShard}` : 'writes the whole node'
    })`
  return undefined
}
