// The emulator's settings, and their check before it starts.
import { checkFaultSettings, type FaultKind } from './faults.js'
import type { KnowledgeBaseId } from './store.js'

export interface EmulatorOptions {
  port?: number
  host?: string
  /** When omitted: a temp dir made now and removed by close(). */
  dataDir?: string
  privateKey: string
  publicKey: string
  latencyMs?: number
  /** 0..1 share of requests that get a fault, chosen with a seeded PRNG. */
  faultRate?: number
  seed?: number
  /** Default: all five. */
  faultKinds?: FaultKind[]
  /**
   * 0..1 share of flow runs answered as if nothing matched, chosen per question with `seed` (default 0:
   * every run of a question gets the same answer). Lets repeats of a check see different answers.
   */
  missRate?: number
  /** Value of Retry-After on 429/503 (default 1). */
  retryAfterSeconds?: number
  /** Tests: decide the fault of one request (takes precedence over faultRate). seq starts at 1. */
  inject?: (request: { method: string; path: string; seq: number }) => FaultKind | undefined
  /** Tests: answer 422 (FastAPI detail) for a request containing a document with this name; return the message. */
  rejectDocument?: (name: string) => string | undefined
  /**
   * The flows that exist, as the service knows them: any other flow or node answers 404, so a mistyped id
   * fails locally as it would on the service. Default: every well-formed id exists.
   */
  flows?: KnowledgeBaseId[]
  /**
   * Flow ids that answer as a judge flow (a deterministic grade of `in-1` by the key terms of the rubric
   * `in-2`, see judgeRunAnswer) instead of retrieving; never subject to `missRate`.
   */
  judgeFlows?: string[]
  /**
   * After an accepted upload or update, flows keep answering from the knowledge base's previous
   * documents for this long, as a service that indexes asynchronously does (default 0: at once).
   */
  indexDelayMs?: number
}

export function checkOptions(options: EmulatorOptions): void {
  if (typeof options.privateKey !== 'string' || options.privateKey.trim() === '')
    throw new TypeError('privateKey must be a non-empty string')
  if (typeof options.publicKey !== 'string' || options.publicKey.trim() === '')
    throw new TypeError('publicKey must be a non-empty string')
  if (options.privateKey === options.publicKey) throw new TypeError('privateKey and publicKey must differ')
  const latency = options.latencyMs ?? 0
  if (!(Number.isFinite(latency) && latency >= 0)) throw new RangeError('latencyMs must be a number >= 0')
  const retryAfter = options.retryAfterSeconds ?? 1
  if (!(Number.isInteger(retryAfter) && retryAfter >= 0))
    throw new RangeError('retryAfterSeconds must be an integer >= 0')
  checkFaultSettings(options)
  const missRate = options.missRate ?? 0
  if (!(Number.isFinite(missRate) && missRate >= 0 && missRate <= 1))
    throw new RangeError('missRate must be a number from 0 to 1')
  const indexDelay = options.indexDelayMs ?? 0
  if (!(Number.isFinite(indexDelay) && indexDelay >= 0))
    throw new RangeError('indexDelayMs must be a number >= 0')
}
