// Each placeholder is a valid document of its format that says the document was removed and by which
// commit, and names nothing of the old document (a question about its topic must not find it).
import { describe, expect, it } from '@jest/globals'
import { XMLValidator } from 'fast-xml-parser'
import { parse as parseYaml } from 'yaml'
import { placeholderFor } from '../src/placeholders.js'

const COMMIT = '0123456789abcdef0123456789abcdef01234567'
const NOTE = /removed from the repository by commit 0123456789abcdef0123456789abcdef01234567/

function placeholder(name: string): string {
  const text = placeholderFor(name, COMMIT)
  if (text === undefined) throw new Error(`no placeholder for ${name}`)
  return text
}

describe('placeholderFor', () => {
  it.each(['docs/guides/jest.md', 'docs/guides/jest.markdown', 'docs/guides/jest.MDX', 'notes/jest.txt'])(
    '%s: text that says it was removed and by which commit, without the old name',
    (name) => {
      const text = placeholder(name)
      expect(text).toMatch(NOTE)
      expect(text).not.toMatch(/jest|guides/i)
    },
  )

  it('JSON: an object that parses, with the note and the commit', () => {
    expect(JSON.parse(placeholder('data/jest.json'))).toEqual({
      removed: true,
      note: expect.stringMatching(NOTE),
      commit: COMMIT,
    })
  })

  it.each(['config/jest.yaml', 'config/jest.YML'])('%s: YAML that parses to the same record', (name) => {
    expect(parseYaml(placeholder(name))).toEqual({
      removed: true,
      note: expect.stringMatching(NOTE),
      commit: COMMIT,
    })
  })

  it('YAML: a commit id of digits only stays a string; without a commit, no commit key', () => {
    const digits = '1234567890123456789012345678901234567890'
    expect(parseYaml(placeholderFor('a.yaml', digits)!)).toEqual({
      removed: true,
      note: expect.stringContaining(digits),
      commit: digits,
    })
    expect(parseYaml(placeholderFor('a.yml', undefined)!)).toEqual({
      removed: true,
      note: expect.not.stringContaining('commit'),
    })
  })

  it('CSV: a header line and one row of as many fields', () => {
    const [header, row, end] = placeholder('tables/jest.csv').split('\n')
    expect(header).toBe('removed,note,commit')
    expect(row).toMatch(/^true,"[^"]+",/)
    expect(row.match(/"[^"]*"|[^,]+/g)).toHaveLength(3)
    expect(end).toBe('')
    expect(placeholder('tables/jest.tsv').split('\n')[0].split('\t')).toEqual(['removed', 'note', 'commit'])
  })

  it('HTML: a minimal page; XML: a well-formed document', () => {
    const page = placeholder('site/jest.html')
    expect(page).toMatch(/^<!DOCTYPE html>\n<html lang="en">/)
    expect(page).toContain('<title>Removed</title>')
    expect(page).toMatch(NOTE)
    expect(
      XMLValidator.validate(
        page.replace('<!DOCTYPE html>\n', '').replace('<meta charset="utf-8">', '<meta charset="utf-8"/>'),
      ),
    ).toBe(true)
    expect(XMLValidator.validate(placeholder('feeds/jest.xml'))).toBe(true)
  })

  it('reStructuredText and AsciiDoc: a title and the note', () => {
    expect(placeholder('docs/jest.rst')).toMatch(/^Removed\n=======\n\n/)
    expect(placeholder('docs/jest.adoc')).toMatch(/^= Removed\n\n/)
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

  it('without a known commit the note says only that it was removed', () => {
    const text = placeholderFor('a.md', undefined)!
    expect(text).toContain('This document was removed from the repository;')
    expect(JSON.parse(placeholderFor('a.json', undefined)!)).toEqual({
      removed: true,
      note: expect.any(String),
    })
  })
})
