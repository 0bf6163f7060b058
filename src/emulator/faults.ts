// Fault injection: which requests the emulator answers with a transient failure instead of the truth.
// The choice is reproducible: an explicit per-request decision (tests), else a seeded PRNG drawn once
// per request in arrival order, so one seed gives the same fault sequence on every run.

export type FaultKind = 'rate-limit' | 'server-error' | 'unavailable' | 'reset-before' | 'reset-after'

export const ALL_FAULT_KINDS: readonly FaultKind[] = [
  'rate-limit',
  'server-error',
  'unavailable',
  'reset-before',
  'reset-after',
]

export interface FaultRequest {
  method: string
  path: string
  seq: number
}

export interface FaultSettings {
  faultRate?: number
  seed?: number
  faultKinds?: FaultKind[]
  inject?: (request: FaultRequest) => FaultKind | undefined
}

export type FaultPicker = (request: FaultRequest) => FaultKind | undefined

/** mulberry32: a tiny, well-known 32-bit PRNG; good enough to spread faults, and seedable. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export function checkFaultSettings(settings: FaultSettings): void {
  const rate = settings.faultRate ?? 0
  if (!(Number.isFinite(rate) && rate >= 0 && rate <= 1))
    throw new RangeError(`faultRate must be a number from 0 to 1 (got ${String(settings.faultRate)})`)
  if (settings.seed !== undefined && !Number.isFinite(settings.seed))
    throw new RangeError('seed must be a finite number')
  const kinds = settings.faultKinds
  if (kinds !== undefined) {
    if (kinds.length === 0) throw new RangeError('faultKinds must not be empty')
    const unknown = kinds.filter((kind) => !ALL_FAULT_KINDS.includes(kind))
    if (unknown.length > 0) throw new RangeError(`unknown fault kinds: ${unknown.join(', ')}`)
  }
}

export function createFaultPicker(settings: FaultSettings): FaultPicker {
  checkFaultSettings(settings)
  const { inject } = settings
  if (inject) return (request) => inject(request)
  const rate = settings.faultRate ?? 0
  const kinds = settings.faultKinds ?? ALL_FAULT_KINDS
  const random = seededRandom(settings.seed ?? 1)
  return () => {
    // Two draws per request whatever the outcome, so the sequence depends on the seed and the
    // request count only.
    const hit = random() < rate
    const kind = kinds[Math.floor(random() * kinds.length)]
    return hit ? kind : undefined
  }
}
