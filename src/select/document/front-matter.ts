// Front matter at a document's very top, in the three forms Hugo reads (Jekyll, Docusaurus, MkDocs and
// Astro read the first): YAML between `---` lines, TOML between `+++` lines, a JSON object. Only the
// file's beginning is given; the parsers are loaded at the first front matter that needs them.

export type FrontMatterFormat = 'yaml' | 'toml' | 'json'

export interface FrontMatterText {
  format: FrontMatterFormat
  text: string
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf])
const DASH = 0x2d
const PLUS = 0x2b
const BRACE = 0x7b

/**
 * Whether the head may open with front matter (`---`, `+++` or `{` after an optional BOM): most documents
 * have none, and are not decoded at all.
 */
export function mayOpenFrontMatter(head: Buffer): boolean {
  const start = head.subarray(0, UTF8_BOM.length).equals(UTF8_BOM) ? UTF8_BOM.length : 0
  const first = head[start]
  if (first === BRACE) return true
  if (first !== DASH && first !== PLUS) return false
  return head[start + 1] === first && head[start + 2] === first
}

/** The front matter at the top of `text` and its format, or undefined when it has none (or is not closed). */
export function frontMatterOf(text: string): FrontMatterText | undefined {
  const body = text.startsWith('\ufeff') ? text.slice(1) : text
  if (body.startsWith('{')) {
    // A JSON object's first key (or its end); not MDX's `{/* … */}`, Liquid's `{%`, a template's `{{`.
    if (!/^\{\s*["}]/.test(body)) return undefined
    const end = jsonObjectEnd(body)
    return end === undefined ? undefined : { format: 'json', text: body.slice(0, end) }
  }
  const format = body.startsWith('+++') ? 'toml' : 'yaml'
  const fence = format === 'toml' ? '\\+\\+\\+' : '---'
  const opening = new RegExp(`^${fence}[ \\t]*\\r?\\n`).exec(body)
  if (!opening) return undefined
  const rest = body.slice(opening[0].length)
  // The closing line alone on its line (for YAML, its document end `...` too).
  const closingFence = format === 'toml' ? fence : `(?:---|\\.\\.\\.)`
  const closing = new RegExp(`^${closingFence}[ \\t]*(?:\\r?\\n|$)`, 'm').exec(rest)
  return closing ? { format, text: rest.slice(0, closing.index) } : undefined
}

/** Where the JSON object that opens `text` ends (its closing brace, outside strings), if it does. */
function jsonObjectEnd(text: string): number | undefined {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
    } else if (c === '"') inString = true
    else if (c === '{') depth++
    else if (c === '}' && --depth === 0) return i + 1
  }
  return undefined
}

type ParseYaml = (typeof import('yaml'))['parse']
type ParseToml = (typeof import('smol-toml'))['parse']

/** The parsers, each loaded at the first front matter of its format. */
export class FrontMatterParsers {
  private yaml: ParseYaml | undefined
  private toml: ParseToml | undefined

  /** Whether `format` can be parsed now, without loading its parser first. */
  ready(format: FrontMatterFormat): boolean {
    return format === 'json' || (format === 'yaml' ? this.yaml : this.toml) !== undefined
  }

  /**
   * Loads the parser of `format`. The YAML parser (~290 KB) and the TOML one are chunks of their own in
   * the bundles: most syncs have no front matter, and kept in the action's main file they would be
   * compiled at every start.
   */
  async load(format: FrontMatterFormat): Promise<void> {
    if (format === 'yaml') this.yaml ??= (await import('yaml')).parse
    else if (format === 'toml') this.toml ??= (await import('smol-toml')).parse
  }

  /** The front matter's data; throws the parser's error when it does not parse (its parser must be ready). */
  parse({ format, text }: FrontMatterText): unknown {
    if (format === 'json') return JSON.parse(text)
    if (format === 'toml') return this.toml!(text)
    // YAML 1.1, as Hugo's and Jekyll's parsers read it (`draft: yes` is true); integers as BigInt, so that
    // an integer (Hugo: non-zero is true) is told apart from a float (Hugo: not a boolean).
    return this.yaml!(text, { version: '1.1', intAsBigInt: true })
  }
}
