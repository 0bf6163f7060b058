import type { Secrets } from '../log.js'
import type { IndexReport } from './types.js'

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
  if (isListView(value)) return redactedView(value, secrets) as T
  if (value !== null && typeof value === 'object') {
    // Own enumerable keys, as Object.entries lists them, without a pair made per field of every item.
    const record = value as Record<string, unknown>
    let out: Record<string, unknown> | undefined
    for (const k in record) {
      if (!Object.prototype.propertyIsEnumerable.call(record, k)) continue
      const v = record[k]
      if (typeof v !== 'string' && (v === null || typeof v !== 'object')) continue
      const redacted = redactDeep(v, secrets)
      if (redacted !== v) (out ??= { ...record })[k] = redacted
    }
    return (out ?? value) as T
  }
  return value
}

interface ListView extends Iterable<unknown> {
  readonly length: number
}

/** A list made item by item when it is iterated (the plan's items): not an array, not a Map or Set. */
function isListView(value: unknown): value is ListView {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as Partial<Iterable<unknown>>)[Symbol.iterator] === 'function' &&
    typeof (value as { length?: unknown }).length === 'number' &&
    !ArrayBuffer.isView(value)
  )
}

/** The same list, each item redacted as it is listed: nothing is copied until something reads it. */
function redactedView(view: ListView, secrets: Secrets): ListView {
  return {
    length: view.length,
    *[Symbol.iterator]() {
      for (const item of view) yield redactDeep(item, secrets)
    },
  }
}

/** Masks the keys in one text; the same text when it holds none. */
export type TextRedaction = (text: string) => string

/**
 * A report to render with its keys masked, in proportion to what is shown: every field now but the lists
 * of items (`items`, `skipped`, `left`), whose texts the renderer masks with `maskItemText` as it shows
 * each item. A run of 100,000 documents is not walked whole for a summary that lists part of it.
 */
export function redactForSummary(
  report: IndexReport,
  secrets: Secrets,
): { report: IndexReport; maskItemText: TextRedaction } {
  const { items, skipped, left, ...rest } = report
  return {
    report: { ...redactDeep(rest, secrets), items, skipped, left },
    maskItemText: (text) => secrets.redact(text),
  }
}
