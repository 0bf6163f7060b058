// What the node holds after a run, from what it held before (the record read at the start) and what the
// run did (each item's outcome). The pending record written before the first request (markPending) and
// the final one written at the end, on failure and cancellation too (settlePending), are made in place in
// the previous record's documents; nextHeld makes the final one in a copy when no pending one was made.
import type { ItemOutcome } from '../model.js'
import { type HeldContent, type HeldUrl, PLACEHOLDER, UNKNOWN } from './record.js'

export interface NextHeldInput {
  /** The documents of the record read at the start; undefined when none could be read (the run fell back). */
  previous?: Readonly<Record<string, HeldContent>>
  /** Selected, in the shard, published: name → content id (content-ids.ts). */
  desired: ReadonlyMap<string, string>
  /** Every planned item's outcome (URLs are ignored here: nextUrls). */
  outcomes: readonly ItemOutcome[]
  /**
   * The names this record covers (`shard: I/N`): a previous record of another partition holds other
   * shards' names, which this shard's record must not claim.
   */
  inShard?: (name: string) => boolean
}

/**
 * The documents the node holds after the run. Each rule, and why:
 * - Start from the previous record: a name the run did not touch holds what it held. That includes a
 *   held name that is no longer selected and got no outcome (`removed: keep`, or a format without a
 *   placeholder: `left`): the node still answers from it, so the record keeps it, and a later run that
 *   can blank it will.
 * - No previous record: the run's change set came from today's history-based inference, which judged
 *   every selected name it did not plan unchanged since the last sync; the record trusts that judgement
 *   (each such name held with its current id), or there would be no first record to be exact from.
 *   A selected name it planned but never sent (attempts 0) is UNKNOWN: the inference said it changed,
 *   so the node holds an older version of it or nothing.
 * - Uploaded or updated → the selected content id: the node answered that it holds it. UNKNOWN if the
 *   name is not selected (not expected: what was sent was selected).
 * - Removed → PLACEHOLDER: the node holds the placeholder. Removed because it answered 404 (`absent`):
 *   the node holds nothing under that name, so it leaves the record.
 * - Failed after at least one attempt → UNKNOWN: a request was sent and its answer is not known (or
 *   was an error after the service may have applied it), so the node may hold the old content, the new
 *   one, or nothing; UNKNOWN is sent again (or blanked) by the next run, never trusted.
 * - Failed without an attempt (refused, cancelled before sending) → as before: nothing reached the node
 *   (with a previous record: what it held; absent stays absent).
 */
export function nextHeld(input: NextHeldInput): Record<string, HeldContent> {
  const { previous, desired, outcomes, inShard } = input
  // Made in place, without a prototype (a document named `__proto__` stays a name): at 100,000 documents a
  // map beside it, and the arrays of [name, id] pairs before that, were ~20 MB of the heap at its peak
  // (bench/README.md).
  const held = heldFrom(previous, desired)
  // Without a record, a planned name holds what its outcome says (nothing, when it got none).
  if (!previous) for (const item of outcomes) if (item.kind === 'document') delete held[item.name]
  applyOutcomes(held, outcomes, desired, previous !== undefined)
  return inShard ? onlyIn(held, inShard) : held
}

/** The previous record's documents, or without one every selected name (the inference's judgement). */
function heldFrom(
  previous: Readonly<Record<string, HeldContent>> | undefined,
  desired: ReadonlyMap<string, string>,
): Record<string, HeldContent> {
  const held = Object.create(null) as Record<string, HeldContent>
  if (previous) for (const name of Object.keys(previous)) held[name] = previous[name]
  else for (const [name, id] of desired) held[name] = id
  return held
}

function onlyIn(
  held: Record<string, HeldContent>,
  inShard: (name: string) => boolean,
): Record<string, HeldContent> {
  for (const name of Object.keys(held)) if (!inShard(name)) delete held[name]
  return held
}

/** A pending record made in place, and what the final record needs of it. */
export interface PendingHeld {
  held: Record<string, HeldContent>
  /**
   * With a previous record, what each planned name held before it was marked UNKNOWN (undefined:
   * nothing); without one, what it held is what the selection gives it, so only the planned names are
   * kept (the caller's own list: no map of 100,000 names on a full sync).
   */
  before: Map<string, HeldContent | undefined> | readonly string[]
  hadPrevious: boolean
}

/**
 * What the node may hold once the run has sent what it plans: every planned document as if it failed
 * after an attempt (UNKNOWN). Written before the first request, so a run killed after its first batch
 * leaves the next run every name it may have written, to be sent (or blanked) again. Made without a copy:
 * the previous record's own documents (not needed as they were once the plan is made) become the pending
 * record, and what each planned name held is kept aside for the final record (settlePending). At 100,000
 * documents a copy was ~10 MB of heap at the run's peak.
 */
export function markPending(
  previous: Record<string, HeldContent> | undefined,
  desired: ReadonlyMap<string, string>,
  planned: readonly string[],
): PendingHeld {
  const held = previous ?? heldFrom(undefined, desired)
  if (!previous) {
    for (const name of planned) held[name] = UNKNOWN
    return { held, before: planned, hadPrevious: false }
  }
  const before = new Map<string, HeldContent | undefined>()
  for (const name of planned) {
    if (!before.has(name)) before.set(name, Object.hasOwn(held, name) ? held[name] : undefined)
    held[name] = UNKNOWN
  }
  return { held, before, hadPrevious: true }
}

/**
 * The final record made in place over the pending one: the same documents nextHeld gives for the same
 * previous record, selection and outcomes (a planned name without an outcome, or never sent, holds what it
 * held before; the others what their outcome says).
 */
export function settlePending(
  pending: PendingHeld,
  desired: ReadonlyMap<string, string>,
  outcomes: readonly ItemOutcome[],
): Record<string, HeldContent> {
  const { held, before, hadPrevious } = pending
  const restore = (name: string, restored: HeldContent | undefined) => {
    if (restored === undefined) delete held[name]
    else held[name] = restored
  }
  if (before instanceof Map)
    for (const [name, was] of before) restore(name, hadPrevious ? was : desired.get(name))
  else for (const name of before) restore(name, desired.get(name))
  applyOutcomes(held, outcomes, desired, hadPrevious)
  return held
}

/**
 * What each document's outcome leaves the node holding (nextHeld's rules), over `held` as it was before
 * the run for the names planned. Without a previous record a name never sent holds nothing unless selected.
 */
function applyOutcomes(
  held: Record<string, HeldContent>,
  outcomes: readonly ItemOutcome[],
  desired: ReadonlyMap<string, string>,
  hadPrevious: boolean,
): void {
  for (const item of outcomes) {
    if (item.kind !== 'document') continue
    const { name } = item
    switch (item.outcome) {
      case 'uploaded':
      case 'updated':
        held[name] = desired.get(name) ?? UNKNOWN
        break
      case 'removed':
        if (item.absent) delete held[name]
        else held[name] = PLACEHOLDER
        break
      case 'failed':
        if (item.attempts > 0) held[name] = UNKNOWN
        else if (!hadPrevious) {
          if (desired.has(name)) held[name] = UNKNOWN
          else delete held[name]
        }
        break
    }
  }
}

/**
 * The URLs the node holds after the run:
 * - uploaded or updated → sent now, with the `lastmod` the page had (a later `lastmod` sends it again);
 * - failed → forgotten, whatever the attempts: the node may hold an old version, a part, or nothing,
 *   and a URL cannot be blanked, so the only way to be sure is to send it again; a URL the record does
 *   not hold is sent by the next run;
 * - not sent → as before.
 */
export function nextUrls(
  previous: Readonly<Record<string, HeldUrl>> | undefined,
  outcomes: readonly ItemOutcome[],
  lastmods: ReadonlyMap<string, string>,
  now: Date,
): Record<string, HeldUrl> {
  const held = new Map<string, HeldUrl>(previous ? Object.entries(previous) : [])
  const sentAt = now.toISOString()
  for (const item of outcomes) {
    if (item.kind !== 'url') continue
    if (item.outcome === 'uploaded' || item.outcome === 'updated') {
      const lastmod = lastmods.get(item.name)
      held.set(item.name, lastmod === undefined ? { sentAt } : { sentAt, lastmod })
    } else if (item.outcome === 'failed') {
      held.delete(item.name)
    }
  }
  return Object.fromEntries(held)
}
