// The change set from the record: what the checkout selects now (desired: name → content id) minus what
// the node holds (the record). Pure, one pass over each side with hash lookups, so 100,000 names take
// milliseconds (bench: `npm run bench -- state`).
import { compareNames } from '../plan.js'
import { lastmodLatest } from '../sitemaps/lastmod.js'
import { type HeldContent, type HeldUrl, PLACEHOLDER, UNKNOWN } from './record.js'

export interface Difference {
  /** Selected, not in the node: the exact operation is an upload. */
  upload: string[]
  /** Selected, in the node with other content (another id, a placeholder, or content not known). */
  update: string[]
  /** In the node (content or not known), no longer selected: blanked, or listed as left, by policy. */
  blank: string[]
  /** Selected and in the node with the same content id: nothing is sent. */
  unchanged: number
  /** Not selected and already holding a placeholder: nothing is sent. */
  alreadyBlank: number
}

/**
 * The record's values are looked up as own properties only: a document may be named `constructor` or
 * `__proto__`, which a plain `held[name]` would find on Object.prototype.
 */
function heldOf<T>(held: Readonly<Record<string, T>>, name: string): T | undefined {
  return Object.hasOwn(held, name) ? held[name] : undefined
}

/**
 * - selected and not held → upload;
 * - selected and held with the same content id → unchanged;
 * - selected and held with anything else → update: another id is other content; a placeholder must be
 *   replaced by the document; UNKNOWN (a request whose answer is not known, or an unreadable file's id)
 *   never equals anything, so it is sent again rather than trusted;
 * - held (an id or UNKNOWN) and not selected → blank: the node may hold content the checkout no longer
 *   has (UNKNOWN included: a placeholder that answers 404 costs one request, a document left answering
 *   would break the promise);
 * - held as a placeholder and not selected → already blank, nothing sent.
 */
export function difference(
  desired: ReadonlyMap<string, string>,
  held: Readonly<Record<string, HeldContent>>,
): Difference {
  const upload: string[] = []
  const update: string[] = []
  const blank: string[] = []
  let unchanged = 0
  let alreadyBlank = 0
  for (const [name, id] of desired) {
    const holds = heldOf(held, name)
    if (holds === undefined) upload.push(name)
    else if (holds === id && holds !== UNKNOWN && holds !== PLACEHOLDER) unchanged++
    else update.push(name)
  }
  for (const name of Object.keys(held)) {
    if (desired.has(name)) continue
    if (held[name] === PLACEHOLDER) alreadyBlank++
    else blank.push(name)
  }
  return {
    upload: upload.sort(compareNames),
    update: update.sort(compareNames),
    blank: blank.sort(compareNames),
    unchanged,
    alreadyBlank,
  }
}

export interface SitemapPage {
  url: string
  lastmod?: string
}

/**
 * Whether a sitemap page is the one the node got when it was sent, so it need not be sent again. It is
 * sent again when:
 * - the node never got it (or its last send failed: the record then forgets it, next-record.ts);
 * - it has no `lastmod`, or one that cannot be read: nothing says it did not change since it was sent;
 * - its `lastmod`, taken at the latest instant it can mean (a date alone: the end of that day in the
 *   westernmost time zone, sitemaps/lastmod.ts), is after the time it was sent;
 * - its `lastmod` is not the one it had when it was sent: a page changed later on the day it was sent
 *   shows a new date-only `lastmod` that is not after the send once the day is over, and a site that
 *   moves `lastmod` back still changed the page.
 */
export function unchangedSinceSent(page: SitemapPage, held: Readonly<Record<string, HeldUrl>>): boolean {
  const sent = heldOf(held, page.url)
  if (sent === undefined || page.lastmod === undefined) return false
  const latest = lastmodLatest(page.lastmod)
  const sentAt = Date.parse(sent.sentAt)
  return (
    latest !== undefined &&
    !Number.isNaN(sentAt) &&
    latest <= sentAt &&
    (sent.lastmod === undefined || sent.lastmod === page.lastmod)
  )
}
