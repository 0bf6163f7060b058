// A sitemap's XML → its page URLs (a `urlset`) or the sitemaps it lists (a `sitemapindex`).
// Entities: a sitemap never needs a DOCTYPE, and a DOCTYPE is how entity expansion attacks (billion
// laughs, external entities) get in, so a document with one is refused before it is parsed. The parser
// expands no entity at all; the five predefined XML entities and character references are decoded here,
// where nothing can define more.
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { SitemapError } from './fetch.js'
import { formatCount } from '../units.js'

/** The sitemaps protocol's limit: 50,000 URLs per sitemap (and sitemaps per index). */
export const MAX_SITEMAP_ENTRIES = 50_000

export interface SitemapPage {
  /** The `<loc>`, decoded and trimmed; not yet checked as a URL. */
  loc: string
  /** The `<lastmod>` as written, when there is one. */
  lastmod?: string
}

export type ParsedSitemap = { kind: 'urlset'; pages: SitemapPage[] } | { kind: 'index'; sitemaps: string[] }

const CDATA = '#cdata'
const TEXT = '#text'

const parser = new XMLParser({
  ignoreAttributes: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  removeNSPrefix: true,
  parseTagValue: false,
  processEntities: false,
  htmlEntities: false,
  trimValues: true,
  cdataPropName: CDATA,
  textNodeName: TEXT,
  isArray: (name) => name === 'url' || name === 'sitemap',
})

const PREDEFINED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }
const REFERENCE = /&(?:#x([0-9a-fA-F]{1,6})|#([0-9]{1,7})|(amp|lt|gt|quot|apos));/g

function decodeReferences(text: string): string {
  return text.replace(REFERENCE, (whole, hex: string | undefined, decimal: string | undefined, name) => {
    if (name) return PREDEFINED[name as string]
    const code = hex !== undefined ? parseInt(hex, 16) : Number(decimal)
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
  })
}

/** An element's text: text decoded, CDATA as written. */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return decodeReferences(value).trim()
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
  const node = value as Record<string, unknown>
  const text = typeof node[TEXT] === 'string' ? decodeReferences(node[TEXT]) : ''
  const cdata = [node[CDATA]].flat().filter((part): part is string => typeof part === 'string')
  return `${text}${cdata.join('')}`.trim() || undefined
}

// Counted before parsing, so a sitemap of millions of tiny entries is refused before it becomes objects.
const ENTRY_START = /<(?:[A-Za-z_][\w.-]*:)?(?:url|sitemap)[\s>/]/g

function countEntries(text: string): number {
  let count = 0
  ENTRY_START.lastIndex = 0
  while (ENTRY_START.exec(text) !== null) count++
  return count
}

function tooMany(what: string, max: number): SitemapError {
  return new SitemapError(`lists more than ${formatCount(max)} ${what} (the sitemaps protocol's limit)`)
}

/** The document's objects; a SitemapError for whatever the validator or the parser rejects. */
function parseXml(text: string): Record<string, unknown> {
  let valid: ReturnType<typeof XMLValidator.validate>
  try {
    valid = XMLValidator.validate(text)
    if (valid === true) return parser.parse(text) as Record<string, unknown>
  } catch (error) {
    // The parser's own limits (more than 100 nested elements, …) and its bugs throw plain errors.
    const message = error instanceof Error ? error.message : String(error)
    throw new SitemapError(`could not be parsed as XML: ${message.split('\n')[0].slice(0, 200)}`)
  }
  const { msg, line, col } = valid.err
  const where = line !== undefined ? ` (line ${line}${col !== undefined ? `, column ${col}` : ''})` : ''
  throw new SitemapError(`is not well-formed XML: ${msg.slice(0, 200)}${where}`)
}

/** Parses a sitemap or a sitemap index; a SitemapError says why the bytes are not one. */
export function parseSitemap(bytes: Buffer, maxEntries = MAX_SITEMAP_ENTRIES): ParsedSitemap {
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '')
  if (/<!DOCTYPE/i.test(text))
    throw new SitemapError(
      'contains a DOCTYPE (refused: a sitemap needs none, and entity declarations are unsafe)',
    )
  if (countEntries(text) > maxEntries) throw tooMany('entries', maxEntries)
  if (text.trim() === '') throw new SitemapError('is empty')
  const document = parseXml(text)
  const roots = Object.keys(document)
  const root = roots.length === 1 ? roots[0] : undefined
  const body = root === undefined ? undefined : document[root]
  const children = (name: string): unknown[] => {
    if (typeof body !== 'object' || body === null) return []
    const list = (body as Record<string, unknown>)[name]
    return Array.isArray(list) ? list : []
  }
  const field = (entry: unknown, name: string): string | undefined =>
    typeof entry === 'object' && entry !== null ? textOf((entry as Record<string, unknown>)[name]) : undefined

  if (root === 'urlset') {
    const entries = children('url')
    if (entries.length > maxEntries) throw tooMany('URLs', maxEntries)
    const pages: SitemapPage[] = []
    for (const entry of entries) {
      const loc = field(entry, 'loc')
      if (!loc) continue
      const lastmod = field(entry, 'lastmod')
      pages.push(lastmod ? { loc, lastmod } : { loc })
    }
    return { kind: 'urlset', pages }
  }
  if (root === 'sitemapindex') {
    const entries = children('sitemap')
    if (entries.length > maxEntries) throw tooMany('sitemaps', maxEntries)
    const sitemaps = entries.map((entry) => field(entry, 'loc')).filter((loc): loc is string => !!loc)
    return { kind: 'index', sitemaps }
  }
  const found = root === undefined ? `${roots.length} root elements` : `<${root.slice(0, 40)}>`
  throw new SitemapError(`is neither a <urlset> nor a <sitemapindex> (found ${found})`)
}
