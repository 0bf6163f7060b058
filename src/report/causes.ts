// Failures grouped by cause: a 401 that fails 10,000 files is one cause, not 10,000 lines. The cause is
// the item's error text (the service layer gives every item of one failure the same text).
import type { ItemOutcome } from '../model.js'

export interface FailureCause {
  cause: string
  items: ItemOutcome[]
}

const UNKNOWN = 'unknown error'
// "uploadDocuments POST /indexing/v0/documents/<flow>/<org>/<node> failed: <reason>": the ids fill the
// first hundred characters, so the cause leads with the reason and names the operation after it.
const REQUEST_FAILED = /^(\w+) (?:GET|POST|PATCH|PUT|DELETE) \S+ failed: ([\s\S]+)$/

/** The text a failure is grouped and shown by: the reason first. */
export function causeOf(error: string | undefined): string {
  const text = error?.trim() || UNKNOWN
  const request = REQUEST_FAILED.exec(text)
  return request ? `${request[2]} (${request[1]})` : text
}

/** Causes, most items first (then first seen), each with its items in their original order. */
export function groupFailures(items: readonly ItemOutcome[]): FailureCause[] {
  const byCause = new Map<string, ItemOutcome[]>()
  for (const item of items) {
    if (item.outcome !== 'failed') continue
    const cause = causeOf(item.error)
    const list = byCause.get(cause)
    if (list) list.push(item)
    else byCause.set(cause, [item])
  }
  return [...byCause.entries()]
    .map(([cause, list]) => ({ cause, items: list }))
    .sort((a, b) => b.items.length - a.items.length)
}

/** "a.md, b.md, c.md and 12 more" */
export function firstNames(names: readonly string[], count: number, show: (name: string) => string): string {
  const shown = names.slice(0, count).map(show).join(', ')
  return names.length > count ? `${shown} and ${names.length - count} more` : shown
}
