// The baseline flow's results kept per key (#36 §5): production answers change only when the base
// branch's documents or the checks change, so a pull request's pushes (and other pull requests on the
// same base commit) reuse them instead of running the baseline flow again. Kept in a store of bytes (the
// run's GitHub Actions artifact), one name per key; what a store hands back is checked whole before any
// of it is used, as the knowledge base's record is: a garbled, foreign or old one is not used.
import { createHash } from 'node:crypto'
import { gunzipSync, gzipSync } from 'node:zlib'
import { z } from 'zod'
import type { CheckResult } from '../checks/verdict.js'
import { OBJECT_ID, type FlowTarget } from '../model.js'
import { formatBytes, formatCount } from '../units.js'
import type { BytesStore, RecordWrite } from './record.js'

/** The stored baseline's format; another version is not used (the baseline runs live and is stored again). */
export const BASELINE_VERSION = 1
/** A stored baseline older than this is stale: production's flow may have changed outside the repository. */
export const MAX_BASELINE_AGE_DAYS = 7
export const MAX_BASELINE_BYTES = 16 * 1024 * 1024
export const MAX_BASELINE_JSON_BYTES = 64 * 1024 * 1024

/** What the baseline flow's results depend on: the same key, the same answers and verdicts. */
export interface BaselineKey {
  /** The service root's host (and port), lowercase. */
  host: string
  /** The baseline flow (`baseline-flow-id`, `baseline-org-id`). */
  baseline: FlowTarget
  /** The commit the baseline flow stands for: the pull request's base commit (40 or 64 hex digits). */
  commit: string
  /** The checks text and the JSON Schema files they name, digested (checks/suite-digest.ts). */
  checks: string
  /** `repeat` and `min-pass`. */
  repeat: number
  minPass?: number
  /** The judge flow grading the rubrics and `judge-min-score`, when checks have a rubric graded. */
  judge?: FlowTarget & { minScore: number }
}

/** The run that measured the baseline. */
export interface BaselineMeasurement {
  /** ISO time the baseline flow's results were stored. */
  at: string
  /** The base branch's name (`main`), as the event named it. */
  baseRef?: string
  repository?: string
  runId?: number
  runNumber?: number
  pullRequest?: number
}

export interface StoredBaseline {
  version: typeof BASELINE_VERSION
  key: BaselineKey
  measured: BaselineMeasurement
  /** The baseline flow's results, in suite order, keys redacted. */
  results: CheckResult[]
}

/** The key's fields in one fixed order: the same key is the same text on every runner. */
const keyText = (key: BaselineKey): string =>
  JSON.stringify([
    BASELINE_VERSION,
    key.host.toLowerCase(),
    key.baseline.orgId,
    key.baseline.flowId,
    key.commit,
    key.checks,
    key.repeat,
    key.minPass ?? null,
    key.judge ? [key.judge.orgId, key.judge.flowId, key.judge.minScore] : null,
  ])

/** The store's name of a key: the whole key digested, so another key is another artifact. */
export function baselineNameOf(key: BaselineKey): string {
  return `kb-sync-baseline-${createHash('sha256').update(keyText(key)).digest('hex').slice(0, 32)}`
}

/** What reading a stored baseline found; `why` completes "the stored baseline is not used: …". */
export type BaselineRead =
  | { kind: 'found'; stored: StoredBaseline; from: string }
  | { kind: 'missing' | 'stale' | 'unusable'; why: string }

const text = (max: number) => z.string().max(max)
// A checks file is at most 1 MiB, and an answer is cut under 1 MiB before it is judged: no text of a
// result is longer; the whole is bounded by MAX_BASELINE_JSON_BYTES.
const LONGEST = 1024 * 1024
const id = z.string().min(1).max(1_000)
const seconds = z.number().min(0).finite()
const judgeGrade = z.strictObject({
  verdict: z.enum(['pass', 'fail']),
  score: z.number().min(0).max(1),
  reason: text(LONGEST),
  runId: id.optional(),
})
const verdict = z.enum(['passed', 'failed', 'error'])
const answer = text(LONGEST)
const runResult = z.strictObject({
  run: z.int().min(1),
  verdict,
  failed: z.array(text(LONGEST)),
  answer,
  runId: id.optional(),
  seconds,
  started: z.boolean(),
  judge: judgeGrade.optional(),
  judgeSent: z.boolean().optional(),
})
const checkResult = z.strictObject({
  name: text(LONGEST),
  question: text(LONGEST),
  verdict,
  failed: z.array(text(LONGEST)),
  answer,
  runId: id.optional(),
  seconds,
  runs: z.array(runResult).max(10),
  minPass: z.int().min(1).max(10),
  judge: judgeGrade.optional(),
  advisory: z.boolean().optional(),
})
const target = z.strictObject({ orgId: id, flowId: id })
const storedSchema = z.strictObject({
  version: z.literal(BASELINE_VERSION),
  key: z.strictObject({
    host: z.string().min(1).max(300),
    baseline: target,
    commit: z.string().regex(OBJECT_ID),
    checks: z.string().regex(/^[0-9a-f]{64}$/),
    repeat: z.int().min(1).max(10),
    minPass: z.int().min(1).max(10).optional(),
    judge: target
      .extend({ minScore: z.number().min(0).max(1) })
      .strict()
      .optional(),
  }),
  measured: z.strictObject({
    at: z.iso.datetime({ offset: true }),
    baseRef: text(1_000).optional(),
    repository: text(300).optional(),
    runId: z.int().positive().optional(),
    runNumber: z.int().positive().optional(),
    pullRequest: z.int().positive().optional(),
  }),
  results: z.array(checkResult),
})

export function encodeBaseline(stored: StoredBaseline): Buffer {
  return gzipSync(JSON.stringify(stored))
}

/**
 * The stored baseline in `bytes` when it is whole, of `key`, of the checks named `names` (in order) and
 * younger than MAX_BASELINE_AGE_DAYS at `now`; else why not. Never throws.
 */
export function decodeBaseline(
  bytes: Buffer,
  key: BaselineKey,
  names: readonly string[],
  now: Date,
): { stored: StoredBaseline } | { kind: 'stale' | 'unusable'; why: string } {
  const unusable = (why: string) => ({ kind: 'unusable' as const, why })
  if (bytes.length > MAX_BASELINE_BYTES)
    return unusable(
      `it is over its size bound (${formatCount(bytes.length)} bytes, more than ${formatBytes(MAX_BASELINE_BYTES)})`,
    )
  let parsed: unknown
  try {
    const json = gunzipSync(bytes, { maxOutputLength: MAX_BASELINE_JSON_BYTES })
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(json))
  } catch {
    return unusable('it is not gzip-compressed JSON text within its size bound (garbled)')
  }
  const version = (parsed as { version?: unknown } | null)?.version
  if (typeof version === 'number' && version !== BASELINE_VERSION)
    return {
      kind: 'stale',
      why: `it is of format version ${version} (this kb-sync reads version ${BASELINE_VERSION})`,
    }
  const checked = storedSchema.safeParse(parsed)
  if (!checked.success) {
    const issue = checked.error.issues[0]
    return unusable(
      `it is not a stored baseline (${[...issue.path].join('.') || 'the whole'}: ${issue.message})`,
    )
  }
  const stored = checked.data as StoredBaseline
  // The name is a digest of the key; the key inside must be the key itself (not a planted artifact's).
  if (keyText(stored.key) !== keyText(key)) return unusable('it holds the results of another key')
  const storedNames = stored.results.map((result) => result.name)
  if (storedNames.length !== names.length || storedNames.some((name, index) => name !== names[index]))
    return unusable("its checks are not this suite's checks")
  const age = now.getTime() - Date.parse(stored.measured.at)
  if (age > MAX_BASELINE_AGE_DAYS * 86_400_000)
    return {
      kind: 'stale',
      why: `it was measured ${Math.floor(age / 86_400_000)} days ago, more than ${MAX_BASELINE_AGE_DAYS} (the baseline flow may have changed since)`,
    }
  return { stored }
}

/** The stored baseline of `key` in `store`, or why there is none to use. Never throws but for cancellation. */
export async function readStoredBaseline(
  store: BytesStore,
  key: BaselineKey,
  names: readonly string[],
  now: Date,
  signal?: AbortSignal,
): Promise<BaselineRead> {
  const found = await store.readNewest(baselineNameOf(key), signal)
  if (found.kind !== 'found') return found
  const decoded = decodeBaseline(found.bytes, key, names, now)
  if ('why' in decoded) return { kind: decoded.kind, why: `${found.from}: ${decoded.why}` }
  return { kind: 'found', stored: decoded.stored, from: found.from }
}

export function writeStoredBaseline(
  store: BytesStore,
  stored: StoredBaseline,
  signal?: AbortSignal,
): Promise<RecordWrite> {
  return store.write(baselineNameOf(stored.key), encodeBaseline(stored), signal)
}
