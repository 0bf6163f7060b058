import type { Secrets } from '../log.js'

/**
 * Every string inside a value with the keys masked. Rendering escapes text (`_` becomes `\_`), after
 * which a key would no longer be found, so keys are removed before anything is rendered.
 */
export function redactDeep<T>(value: T, secrets: Secrets): T {
  if (typeof value === 'string') return secrets.redact(value) as T
  if (Array.isArray(value)) return value.map((v: unknown) => redactDeep(v, secrets)) as T
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) out[k] = redactDeep(v, secrets)
    return out as T
  }
  return value
}
