import { describe, expect, test } from '@jest/globals'
import fc from 'fast-check'
import { MAX_URL_LENGTH, parseUrlEntries, urlEntryProblem } from '../../src/config/urls.js'

describe('parseUrlEntries', () => {
  test('trims, ignores blank lines and keeps the first of duplicates, in order', () => {
    const entries = parseUrlEntries(
      '  https://example.com/b \r\n\n\thttp://example.com/a\nhttps://example.com/b\n  \nhttps://medium.com/@team/post\n',
    )
    expect(entries).toEqual({
      urls: ['https://example.com/b', 'http://example.com/a', 'https://medium.com/@team/post'],
      problems: [],
    })
  })

  test('an empty text has no entries', () => {
    expect(parseUrlEntries('')).toEqual({ urls: [], problems: [] })
  })

  test.each([
    ['ftp://example.com/file', /must start with http:\/\/ or https:\/\//],
    ['file:///etc/passwd', /must start with http:\/\/ or https:\/\//],
    ['javascript:alert(1)', /must start with http:\/\/ or https:\/\//],
    ['example.com/page', /is not a valid URL/],
    ['https://', /is not a valid URL/],
    ['https://exa mple.com', /white space/],
    ['https://example.com/a\tb', /white space/],
    ['https://example.com/\u0007', /control characters/],
    ['https://example.com/\u0085', /control characters/],
    ['https://user@example.com', /user info/],
    ['https://user:pw@example.com', /user info/],
    ['https://:pw@example.com', /user info/],
    [`https://example.com/${'a'.repeat(MAX_URL_LENGTH)}`, /longer than 2048/],
  ])('%j is refused', (entry, reason) => {
    expect(urlEntryProblem(entry)).toMatch(reason)
    const { urls, problems } = parseUrlEntries(`https://ok.example.com\n${entry}`)
    expect(urls).toEqual(['https://ok.example.com'])
    expect(problems).toHaveLength(1)
    expect(problems[0]).toMatch(/^line 2: /)
  })

  test('a URL of exactly 2048 characters is accepted', () => {
    const url = `https://example.com/${'a'.repeat(MAX_URL_LENGTH - 20)}`
    expect(url).toHaveLength(MAX_URL_LENGTH)
    expect(parseUrlEntries(url).urls).toEqual([url])
  })

  test('line numbers count blank lines; every bad entry is reported', () => {
    const { problems } = parseUrlEntries('ftp://a\n\n\nnot a url\nhttps://ok.example.com\nhttp://u:p@x y')
    expect(problems.map((p) => p.split(':')[0])).toEqual(['line 1', 'line 4', 'line 6'])
  })

  test('user info is never shown in a problem', () => {
    const { problems } = parseUrlEntries(
      [
        'https://alice:s3cret@example.com',
        'ftp://bob:hunter2@example.com',
        'https://carol:pa ss@example.com',
      ].join('\n'),
    )
    expect(problems).toHaveLength(3)
    for (const word of ['alice', 's3cret', 'bob', 'hunter2', 'carol', 'pa ss']) {
      for (const problem of problems) expect(problem).not.toContain(word)
    }
  })

  test('control characters are shown escaped', () => {
    const { problems } = parseUrlEntries('https://example.com/\u001b[31m')
    expect(problems[0]).toContain('\\u001b')
    expect(problems[0]).not.toContain('\u001b')
  })

  test('property: accepted entries are http(s) URLs without user info, white space or control characters', () => {
    const line = fc.oneof(
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      fc.string({ maxLength: 80 }),
      fc.constantFrom('ftp://x', 'https://u:p@x', 'https://x/ y', 'https://x/\u0000'),
    )
    fc.assert(
      fc.property(fc.array(line, { maxLength: 8 }), (lines) => {
        const { urls, problems } = parseUrlEntries(lines.join('\n'))
        expect(new Set(urls).size).toBe(urls.length)
        for (const url of urls) {
          const parsed = new URL(url)
          expect(['http:', 'https:']).toContain(parsed.protocol)
          expect(parsed.username + parsed.password).toBe('')
          expect(url.length).toBeLessThanOrEqual(MAX_URL_LENGTH)
          // eslint-disable-next-line no-control-regex
          expect(url).not.toMatch(/[\s\u0000-\u001f\u007f-\u009f]/)
        }
        const nonBlank = lines.flatMap((l) => l.split(/\r?\n/)).filter((l) => l.trim() !== '')
        expect(new Set(urls).size + problems.length).toBeLessThanOrEqual(nonBlank.length)
      }),
    )
  })

  test('property: every web URL is accepted unchanged', () => {
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), (url) => {
        fc.pre(url.length <= MAX_URL_LENGTH)
        expect(parseUrlEntries(url)).toEqual({ urls: [url], problems: [] })
      }),
    )
  })
})
