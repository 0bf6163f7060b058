// Each placeholder is a valid document of its format with no words in its body: what a reader needs (the
// commit that removed it) is in the format's metadata where it has some, else nowhere. It names nothing
// of the old document (a question about its topic must not find it), and says no sentence retrieval
// could find (issue 38: "This document was removed …" was cited for unrelated questions).
import { describe, expect, it } from '@jest/globals'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { parse as parseYaml } from 'yaml'
import { frontMatterOf } from '../src/select/document/front-matter.js'
import { PLACEHOLDER_EXTENSIONS, placeholderFor } from '../src/placeholders.js'

const COMMIT = '0123456789abcdef0123456789abcdef01234567'

/** The placeholder synced at COMMIT, or at the commit given (`null`: none known). */
function placeholder(name: string, commit: string | null = COMMIT): string {
  const text = placeholderFor(name, commit ?? undefined)
  if (text === undefined) throw new Error(`no placeholder for ${name}`)
  return text
}

describe('placeholderFor', () => {
  it('no format says a sentence, names the old document, or is empty', () => {
    for (const extension of PLACEHOLDER_EXTENSIONS) {
      const text = placeholder(`docs/guides/jest.${extension}`)
      expect({ extension, sentence: /removed from|no longer|document/i.test(text) }).toEqual({
        extension,
        sentence: false,
      })
      expect(text).not.toMatch(/jest|guides/i)
      expect(text.length).toBeGreaterThan(0)
    }
  })

  it.each(['docs/guides/jest.md', 'docs/guides/jest.markdown', 'docs/guides/jest.MDX'])(
    '%s: front matter with the commit, and no body',
    (name) => {
      const text = placeholder(name)
      const matter = frontMatterOf(text)
      expect(matter?.format).toBe('yaml')
      expect(parseYaml(matter!.text)).toEqual({ removed: true, commit: COMMIT })
      expect(text.endsWith('---\n')).toBe(true)
      expect(text.split('---').at(-1)).toBe('\n')
    },
  )

  it('markdown: a commit id of digits only stays a string; without a commit, no commit key', () => {
    const digits = '1234567890123456789012345678901234567890'
    expect(parseYaml(frontMatterOf(placeholder('a.md', digits))!.text)).toEqual({
      removed: true,
      commit: digits,
    })
    expect(parseYaml(frontMatterOf(placeholder('a.md', null))!.text)).toEqual({ removed: true })
  })

  it('JSON and YAML: an empty object, which parses', () => {
    expect(JSON.parse(placeholder('data/jest.json'))).toEqual({})
    expect(parseYaml(placeholder('config/jest.yaml'))).toEqual({})
    expect(parseYaml(placeholder('config/jest.YML'))).toEqual({})
  })

  it.each(['notes/jest.txt', 'notes/jest.text', 'docs/jest.rst', 'tables/jest.csv', 'tables/jest.tsv'])(
    '%s: no metadata in the format, so an empty line',
    (name) => {
      expect(placeholder(name)).toBe('\n')
    },
  )

  it('HTML: a minimal page with the commit in its head and an empty body', () => {
    const page = placeholder('site/jest.html')
    expect(page).toMatch(/^<!DOCTYPE html>\n<html lang="en">/)
    expect(page).toContain('<title>Removed</title>')
    expect(page).toContain(`<meta name="removed-by-commit" content="${COMMIT}">`)
    expect(page).toContain('<body></body>')
    const xml = page.replace('<!DOCTYPE html>\n', '').replace(/(<meta [^>]*)>/g, '$1/>')
    expect(XMLValidator.validate(xml)).toBe(true)
    expect(placeholder('site/jest.htm', null)).not.toContain('removed-by-commit')
  })

  it('XML: one empty element, the commit as its attribute', () => {
    const text = placeholder('feeds/jest.xml')
    expect(XMLValidator.validate(text)).toBe(true)
    const parsed = new XMLParser({ ignoreAttributes: false }).parse(text) as Record<string, unknown>
    expect(parsed.removed).toEqual({ '@_commit': COMMIT })
    expect(placeholder('feeds/jest.xml', null)).toMatch(/<removed\/>\n$/)
  })

  it('AsciiDoc: one attribute entry, no title, no body', () => {
    expect(placeholder('docs/jest.adoc')).toBe(`:removed: ${COMMIT}\n`)
    expect(placeholder('docs/jest.asciidoc', null)).toBe(':removed:\n')
  })

  it.each([
    'manual.pdf',
    'deck.pptx',
    'sheet.xlsx',
    'letter.docx',
    'shot.png',
    'photo.jpeg',
    'archive.zip',
    'LICENSE',
  ])('%s: no placeholder (left in the knowledge base)', (name) => {
    expect(placeholderFor(name, COMMIT)).toBeUndefined()
  })
})
