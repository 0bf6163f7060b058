// Drafts (skip-drafts): a markdown or MDX file whose front matter — YAML between `---` lines at its very
// top — says `draft: true` is not published. Only the file's beginning is read; front matter that does
// not parse is not a draft, and is reported so the author can fix it.
import path from 'node:path'
import type { SelectedFile } from '../model.js'
import { readHead } from './read-head.js'

/** Front matter longer than this is not looked for: the file is not a draft. */
export const FRONT_MATTER_MAX_BYTES = 64 * 1024

const DRAFT_EXTENSIONS = new Set(['.md', '.markdown', '.mdx'])

export interface BadFrontMatter {
  name: string
  /** The YAML parser's first error, one line. */
  why: string
}

export interface DraftScan {
  /** Names of the files that are drafts. */
  drafts: Set<string>
  /** Files whose front matter does not parse: not drafts. */
  unparsable: BadFrontMatter[]
}

/** Whether skip-drafts looks at this document (markdown and MDX). */
export function mayBeDraft(name: string): boolean {
  return DRAFT_EXTENSIONS.has(path.posix.extname(name).toLowerCase())
}

/** The YAML text of the front matter at the top of `text`, or undefined when it has none. */
export function frontMatterOf(text: string): string | undefined {
  const body = text.startsWith('\ufeff') ? text.slice(1) : text
  const opening = /^---[ \t]*\r?\n/.exec(body)
  if (!opening) return undefined
  const rest = body.slice(opening[0].length)
  // The closing line: `---` (or YAML's document end `...`), alone on its line.
  const closing = /^(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/m.exec(rest)
  return closing ? rest.slice(0, closing.index) : undefined
}

const DASHES = Buffer.from('---')
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf])

/** What front matter starts with: most documents have none, and are not decoded at all. */
function opensWithDashes(head: Buffer): boolean {
  const start = head.subarray(0, UTF8_BOM.length).equals(UTF8_BOM) ? UTF8_BOM.length : 0
  return head.subarray(start, start + DASHES.length).equals(DASHES)
}

type ParseYaml = (typeof import('yaml'))['parse']

/** Whether the front matter says `draft: true`; throws the YAML parser's error when it does not parse. */
function isDraftFrontMatter(yaml: string, parse: ParseYaml): boolean {
  const data: unknown = parse(yaml)
  return typeof data === 'object' && data !== null && (data as Record<string, unknown>).draft === true
}

/** The drafts among the selected files, and the files whose front matter does not parse. */
export async function findDrafts(files: readonly SelectedFile[]): Promise<DraftScan> {
  const scan: DraftScan = { drafts: new Set(), unparsable: [] }
  const buffer = Buffer.allocUnsafe(FRONT_MATTER_MAX_BYTES)
  let parse: ParseYaml | undefined
  for (const file of files) {
    if (!mayBeDraft(file.name)) continue
    const head = readHead(file.path, buffer, file.size)
    if (!opensWithDashes(head)) continue
    const yaml = frontMatterOf(head.toString('utf8'))
    if (yaml === undefined) continue
    // The YAML parser (~290 KB, its own chunk in the bundles) is loaded at the first front matter: most
    // syncs have none, and kept in the action's main file it would be compiled at every start.
    parse ??= (await import('yaml')).parse
    try {
      if (isDraftFrontMatter(yaml, parse)) scan.drafts.add(file.name)
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      scan.unparsable.push({ name: file.name, why: message.split('\n')[0] })
    }
  }
  return scan
}
