// Which listed pages are synced: filters, deduplication with `urls`, lastmod against the base commit's time.
import { describe, expect, it } from '@jest/globals'
import { lastmodLatest } from '../../src/sitemaps/lastmod.js'
import { selectPages, urlMatcher } from '../../src/sitemaps/select.js'

const at = (iso: string) => Date.parse(iso)

describe('lastmodLatest', () => {
  it.each([
    ['2026-11-25T10:00:00Z', '2026-11-25T10:00:00.999Z'],
    ['2026-11-25T10:00:00.250Z', '2026-11-25T10:00:00.250Z'],
    ['2026-11-25T10:00Z', '2026-11-25T10:00:59.999Z'],
    ['2026-11-25T12:00:00+02:00', '2026-11-25T10:00:00.999Z'],
    ['2026-11-25T05:00:00-05:00', '2026-11-25T10:00:00.999Z'],
    // Without a time zone: as late as the westernmost zone (UTC−12) makes it.
    ['2026-11-25', '2026-11-26T11:59:59.999Z'],
    ['2026-11', '2026-12-01T11:59:59.999Z'],
    ['2026', '2027-01-01T11:59:59.999Z'],
    ['2026-11-25T10:00:00', '2026-11-25T22:00:00.999Z'],
  ])('%s is at the latest %s', (lastmod, latest) => {
    expect(lastmodLatest(lastmod)).toBe(at(latest))
  })

  it.each(['yesterday', '2026-13-01', '2026-02-30', '25/11/2026', '2026-11-25T25:00Z', ''])(
    '%j is not W3C Datetime',
    (lastmod) => expect(lastmodLatest(lastmod)).toBeUndefined(),
  )
})

describe('urlMatcher', () => {
  it('matches whole URLs; a pattern also takes what lies below it', () => {
    const matches = urlMatcher([
      'https://docs.example.com/guides',
      '**/blog/**',
      'https://*.example.org/*.html',
    ])
    expect(matches('https://docs.example.com/guides')).toBe(true)
    expect(matches('https://docs.example.com/guides/install')).toBe(true)
    expect(matches('https://docs.example.com/guidesx')).toBe(false)
    expect(matches('https://other.example.com/blog/2026/post')).toBe(true)
    expect(matches('https://www.example.org/a.html')).toBe(true)
    expect(matches('https://www.example.org/a/b.html')).toBe(false)
  })
})

describe('selectPages', () => {
  const page = (path: string, lastmod?: string) => ({
    loc: `https://docs.example.com${path}`,
    ...(lastmod ? { lastmod } : {}),
  })
  const none = { include: [], exclude: [], known: [] }

  it('keeps every valid page once, in order, without rules', () => {
    const selection = selectPages(
      [page('/a'), page('/b'), page('/a'), { loc: 'HTTPS://DOCS.example.com:443/b' }],
      none,
    )
    expect(selection.urls).toEqual(['https://docs.example.com/a', 'https://docs.example.com/b'])
    expect(selection).toMatchObject({ listed: 4, duplicates: 2, filtered: 0, unchanged: 0, invalidCount: 0 })
  })

  it('applies url-include, then url-exclude', () => {
    const selection = selectPages([page('/docs/a'), page('/docs/old/b'), page('/blog/c')], {
      ...none,
      include: ['https://docs.example.com/docs/**'],
      exclude: ['**/old/**'],
    })
    expect(selection.urls).toEqual(['https://docs.example.com/docs/a'])
    expect(selection.filtered).toBe(2)
  })

  it('leaves out what `urls` syncs already', () => {
    const selection = selectPages([page('/a'), page('/b')], {
      ...none,
      known: ['https://docs.example.com/a'],
    })
    expect(selection.urls).toEqual(['https://docs.example.com/b'])
    expect(selection.duplicates).toBe(1)
  })

  it('counts locs that are not usable URLs and shows the first few, never their user info', () => {
    const bad = ['ftp://x.test/a', 'https://user:pw@x.test/', 'relative/page', 'https://x.test/a b', 'x', 'y']
    const selection = selectPages([...bad.map((loc) => ({ loc })), page('/ok')], none)
    expect(selection.urls).toEqual(['https://docs.example.com/ok'])
    expect(selection.invalidCount).toBe(6)
    expect(selection.invalid).toEqual([
      'ftp://x.test/a',
      'https://x.test/',
      'relative/page',
      'https://x.test/a b',
      'x',
    ])
  })

  it('with a base time: pages changed after it or without (a readable) lastmod', () => {
    const base = at('2026-11-20T12:00:00Z')
    const selection = selectPages(
      [
        page('/old', '2026-11-19'),
        page('/second-before', '2026-11-20T11:59:59Z'),
        // Within the base commit's second (git keeps whole seconds): it may be after, so it is sent.
        page('/same-second', '2026-11-20T12:00:00Z'),
        page('/after', '2026-11-20T12:00:01Z'),
        page('/that-day', '2026-11-20'),
        page('/none'),
        page('/unreadable', 'last week'),
      ],
      { ...none, changedAfter: base },
    )
    expect(selection.urls).toEqual([
      'https://docs.example.com/same-second',
      'https://docs.example.com/after',
      'https://docs.example.com/that-day',
      'https://docs.example.com/none',
      'https://docs.example.com/unreadable',
    ])
    expect(selection.unchanged).toBe(2)
  })

  it('without a base time every page is synced, whatever its lastmod', () => {
    expect(selectPages([page('/old', '2001-01-01')], none).urls).toEqual(['https://docs.example.com/old'])
  })
})
