import type { Secrets } from '../log.js'

/**
 * Every string inside a value with the keys masked. Rendering escapes text (`_` becomes `\_`), after
 * which a key would no longer be found, so keys are removed before anything is rendered.
 */
export function redactDeep<T>(value: T, secrets: Secrets): T {
  if (typeof value === 'string') return secrets.redact(value) as T
  // A list or object in which nothing changed is returned as it is: a report of 100,000 documents is
  // not copied whole (twice: outputs and summary) only to find no key in it.
  if (Array.isArray(value)) {
    let out: unknown[] | undefined
    for (let i = 0; i < value.length; i++) {
      const redacted = redactDeep(value[i] as unknown, secrets)
      if (redacted !== value[i]) (out ??= value.slice())[i] = redacted
    }
    return (out ?? value) as T
  }
  if (value !== null && typeof value === 'object') {
    let out: Record<string, unknown> | undefined
    for (const [k, v] of Object.entries(value)) {
      const redacted = redactDeep(v, secrets)
      if (redacted !== v) (out ??= { ...(value as Record<string, unknown>) })[k] = redacted
    }
    return (out ?? value) as T
  }
  return value
}
