// The items of a run split by how they ended, each list made at its size: grown item by item, a list of
// 100,000 passes through ~2 MB of copies, at the end of a run when every list is made at once.
import type { ItemOutcome, Outcome } from '../model.js'

/** What `pick` makes of each item, in one list per outcome, in the items' order. */
export function splitByOutcome<T>(
  items: readonly ItemOutcome[],
  pick: (item: ItemOutcome) => T,
): Record<Outcome, T[]> {
  const counts: Record<Outcome, number> = { uploaded: 0, updated: 0, removed: 0, failed: 0 }
  for (const item of items) counts[item.outcome] += 1
  const lists: Record<Outcome, T[]> = {
    uploaded: new Array<T>(counts.uploaded),
    updated: new Array<T>(counts.updated),
    removed: new Array<T>(counts.removed),
    failed: new Array<T>(counts.failed),
  }
  const filled: Record<Outcome, number> = { uploaded: 0, updated: 0, removed: 0, failed: 0 }
  for (const item of items) lists[item.outcome][filled[item.outcome]++] = pick(item)
  return lists
}

/** The items by outcome; when all ended alike (a sync that went well), their list is the items. */
export function itemsByOutcome(items: readonly ItemOutcome[]): Record<Outcome, readonly ItemOutcome[]> {
  const only = items[0]?.outcome
  if (only !== undefined && items.every((item) => item.outcome === only))
    return { uploaded: [], updated: [], removed: [], failed: [], [only]: items }
  return splitByOutcome(items, (item) => item)
}
