// Whether a page's front matter keeps it out of the site, by the rules of the generators themselves
// (checked against `hugo list drafts|future|expired`, Hugo 0.111: __tests__/fixtures/hugo-site/README.md).
// Pure: the front matter's data, the cascade it inherits, and the run's clock in; a reason out.

/** Front matter keys, lower-cased (Hugo's keys are case-insensitive), with their values. */
export type Params = ReadonlyMap<string, unknown>

/** The keys of a front matter object, lower-cased; empty when it is not an object. */
export function paramsOf(data: unknown): Map<string, unknown> {
  const params = new Map<string, unknown>()
  if (typeof data !== 'object' || data === null || Array.isArray(data) || data instanceof Date) return params
  for (const [key, value] of Object.entries(data)) {
    const lower = key.toLowerCase()
    if (!params.has(lower)) params.set(lower, value)
  }
  return params
}

/**
 * Hugo's reading of a value as a boolean (spf13/cast's ToBoolE): a boolean; an integer, true unless 0
 * (YAML integers only: the YAML parser gives them as BigInt; TOML and JSON numbers are not booleans to
 * Hugo); a string strconv.ParseBool takes; null is false. Anything else is no boolean (undefined).
 */
export function hugoBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value
  if (value === null) return false
  if (typeof value === 'bigint') return value !== 0n
  if (typeof value === 'string') {
    if (TRUE_STRINGS.has(value)) return true
    if (FALSE_STRINGS.has(value)) return false
  }
  return undefined
}

const TRUE_STRINGS = new Set(['1', 't', 'T', 'TRUE', 'true', 'True'])
const FALSE_STRINGS = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False'])

// Hugo's default front matter date keys, in the order it looks for them.
const PUBLISH_DATE_KEYS = ['publishdate', 'pubdate', 'published', 'date']
const EXPIRY_DATE_KEYS = ['expirydate', 'unpublishdate']

/**
 * Why a page with these parameters is not published at `now`, or undefined when it is; `cascaded`: some
 * come from its sections' cascades (the reason says so).
 */
export function unpublishedBecause(params: Params, now: Date, cascaded = false): string | undefined {
  const says = cascaded ? "its section's cascade says" : 'its front matter says'
  const by = cascaded ? " (by its section's cascade)" : ''
  const draft = params.get('draft')
  const published = params.has('published') ? hugoBoolean(params.get('published')) : undefined
  if (draft !== undefined) {
    // With both, Hugo goes by `draft` (and warns).
    if (hugoBoolean(draft) === true) return `${says} draft: ${shown(draft)}`
  } else if (published === false) {
    return `${says} published: ${shown(params.get('published'))}`
  }
  const publishDate = firstDate(params, PUBLISH_DATE_KEYS)
  if (publishDate && publishDate.date.getTime() > now.getTime())
    return `its ${publishDate.key} (${publishDate.date.toISOString()}) is in the future${by}`
  const expiryDate = firstDate(params, EXPIRY_DATE_KEYS)
  if (expiryDate && expiryDate.date.getTime() < now.getTime())
    return `its ${expiryDate.key} (${expiryDate.date.toISOString()}) has passed${by}`
  return undefined
}

function shown(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value)
}

function firstDate(params: Params, keys: readonly string[]): { key: string; date: Date } | undefined {
  for (const key of keys) {
    const date = dateOf(params.get(key))
    if (date) return { key: KEY_NAMES[key] ?? key, date }
  }
  return undefined
}

const KEY_NAMES: Record<string, string> = { publishdate: 'publishDate', expirydate: 'expiryDate' }

// A date, a date and time, with an optional offset: what front matter writes (TOML and YAML dates come
// parsed already; JSON and quoted ones as strings). No offset is UTC, Hugo's default time zone.
const DATE_STRING =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?\s*(Z|z|[+-]\d{2}:?\d{2})?$/

/** The instant a front matter value names, or undefined when it names none. */
export function dateOf(value: unknown): Date | undefined {
  // As a plain Date: a TOML date prints itself as written.
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : new Date(value.getTime())
  if (typeof value !== 'string') return undefined
  const match = DATE_STRING.exec(value.trim())
  if (!match) return undefined
  const [, year, month, day, hour = '00', minute = '00', second = '00', fraction = '', zone = 'Z'] = match
  const offset = /^[Zz]$/.test(zone) ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`
  const date = new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}${fraction}${offset}`)
  return Number.isNaN(date.getTime()) ? undefined : date
}
