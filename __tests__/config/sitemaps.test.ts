// The `sitemaps`, `url-include` and `url-exclude` inputs: read into the config, and every mistake an error
// naming the input before any request.
import { describe, expect, test } from '@jest/globals'
import { ConfigError } from '../../src/config/errors.js'
import { readIndexConfig } from '../../src/config/index-config.js'

const GOOD: Record<string, string> = {
  'flow-id': 'flow-1',
  'org-id': 'org-1',
  'node-id': 'knowledgebase-1',
  'private-key': 'sk-private-Canary0123456789',
}
const read = (inputs: Record<string, string>) =>
  readIndexConfig((name) => ({ ...GOOD, ...inputs })[name]?.trim() ?? '', { eventName: 'push' })

function problems(inputs: Record<string, string>): { input: string; message: string }[] {
  try {
    read(inputs)
  } catch (error) {
    if (error instanceof ConfigError) return error.problems
    throw error
  }
  return []
}

describe('sitemap inputs', () => {
  test('sitemaps alone are enough to index: trimmed, each once, filters kept in order', () => {
    const config = read({
      sitemaps:
        ' https://docs.example.com/sitemap.xml \n\nhttps://docs.example.com/sitemap.xml\nhttp://127.0.0.1:8080/s.xml.gz',
      'url-include': 'https://docs.example.com/guides/**\n**/api/**',
      'url-exclude': '**/old/**',
    })
    expect(config.sitemaps).toEqual([
      'https://docs.example.com/sitemap.xml',
      'http://127.0.0.1:8080/s.xml.gz',
    ])
    expect(config.urlInclude).toEqual(['https://docs.example.com/guides/**', '**/api/**'])
    expect(config.urlExclude).toEqual(['**/old/**'])
    expect(config.files).toEqual([])
  })

  test.each([
    [
      'plain http off this machine',
      { sitemaps: 'http://docs.example.com/sitemap.xml' },
      'sitemaps',
      /must use https/,
    ],
    ['ftp', { sitemaps: 'ftp://docs.example.com/sitemap.xml' }, 'sitemaps', /http:\/\/ or https:\/\//],
    ['user info', { sitemaps: 'https://u:hunter2@docs.example.com/s.xml' }, 'sitemaps', /user info/],
    ['not a URL', { sitemaps: 'docs.example.com/sitemap.xml' }, 'sitemaps', /line 1: .* is not a valid URL/],
    [
      'too many',
      { sitemaps: Array.from({ length: 101 }, (_, i) => `https://x.test/${i}.xml`).join('\n') },
      'sitemaps',
      /101 sitemaps: at most 100/,
    ],
    [
      'a pattern that cannot match a URL',
      { sitemaps: 'https://x.test/s.xml', 'url-include': 'docs.example.com/**' },
      'url-include',
      /must match whole URLs/,
    ],
    [
      'a negated pattern',
      { sitemaps: 'https://x.test/s.xml', 'url-exclude': '!**/keep/**' },
      'url-exclude',
      /url-exclude instead/,
    ],
    [
      'a pattern with a space',
      { sitemaps: 'https://x.test/s.xml', 'url-exclude': 'https://x.test/a b' },
      'url-exclude',
      /white space/,
    ],
    [
      'a filter without sitemaps',
      { files: 'docs/**', 'url-include': '**/blog/**' },
      'url-include',
      /"sitemaps" is empty/,
    ],
  ])('%s: the error names the input', (_, inputs, input, message) => {
    const found = problems(inputs)
    expect(found.map((problem) => problem.input)).toEqual([input])
    expect(found[0].message).toContain(`Input "${input}"`)
    expect(found[0].message).toMatch(message)
  })

  test('user info in a refused sitemap is never shown', () => {
    const [problem] = problems({ sitemaps: 'ftp://user:hunter2@docs.example.com/s.xml' })
    expect(problem.message).not.toContain('hunter2')
  })

  test('nothing to index at all names the three inputs', () => {
    expect(problems({}).map((problem) => problem.message)).toEqual([
      'Inputs "files" and "urls" are both empty and so is "sitemaps": give at least one file pattern, URL or sitemap.',
    ])
  })
})
