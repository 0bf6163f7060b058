// Renders markdown the way GitHub does for summaries and comments (GFM) and describes its structure.
import { marked, type Token } from 'marked'

export interface Structure {
  headings: string[]
  tables: { header: string[]; rows: string[][] }[]
  /** Texts of the `<summary>` elements, in order. */
  summaries: string[]
  html: string
}

function walk(tokens: Token[], visit: (token: Token) => void): void {
  for (const token of tokens) {
    visit(token)
    const children =
      (token as { tokens?: Token[]; items?: Token[] }).tokens ?? (token as { items?: Token[] }).items
    if (children) walk(children, visit)
  }
}

export function structureOf(markdown: string): Structure {
  const tokens = marked.lexer(markdown, { gfm: true })
  const structure: Structure = { headings: [], tables: [], summaries: [], html: '' }
  walk(tokens, (token) => {
    if (token.type === 'heading') structure.headings.push(token.text)
    if (token.type === 'table') {
      const t = token as unknown as { header: { text: string }[]; rows: { text: string }[][] }
      structure.tables.push({
        header: t.header.map((c) => c.text),
        rows: t.rows.map((r) => r.map((c) => c.text)),
      })
    }
  })
  structure.html = marked.parse(markdown, { gfm: true, async: false })
  for (const match of structure.html.matchAll(/<summary>([\s\S]*?)<\/summary>/g))
    structure.summaries.push(match[1])
  return structure
}

/** Tag names in the rendered HTML (what GitHub would then sanitise). */
export function tagsOf(html: string): Set<string> {
  return new Set([...html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9-]*)/g)].map((m) => m[1].toLowerCase()))
}

/** The tags our own markdown produces; anything else came from untrusted text. */
export const OUR_TAGS = new Set([
  'h2',
  'h3',
  'p',
  'strong',
  'em',
  'code',
  'pre',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'details',
  'summary',
  'ul',
  'li',
  'blockquote',
  'br',
  'a',
])

export function balanced(html: string, tag: string): boolean {
  return (
    (html.match(new RegExp(`<${tag}>`, 'g')) ?? []).length ===
    (html.match(new RegExp(`</${tag}>`, 'g')) ?? []).length
  )
}
