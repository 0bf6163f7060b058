// Sitemap XML → pages or listed sitemaps; what is not a sitemap, too large, or unsafe is refused with a reason.
import { describe, expect, it } from '@jest/globals'
import { MAX_SITEMAP_ENTRIES, parseSitemap } from '../../src/sitemaps/parse.js'

const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
const xml = (text: string) => Buffer.from(text, 'utf8')
const urlset = (entries: string) =>
  xml(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${NS}>${entries}</urlset>`)
const refusal = (bytes: Buffer) => {
  try {
    parseSitemap(bytes)
  } catch (error) {
    return (error as Error).message
  }
  throw new Error('parsed')
}

describe('parseSitemap', () => {
  it('reads a urlset: every loc, its lastmod when given, in order', () => {
    const parsed = parseSitemap(
      urlset(
        '<url><loc>https://docs.example.com/a</loc><lastmod>2026-11-01</lastmod><changefreq>daily</changefreq></url>' +
          '<!-- a comment --><url>\n  <loc>\n https://docs.example.com/b \n</loc>\n</url>' +
          '<url><lastmod>2026-01-01</lastmod></url>',
      ),
    )
    expect(parsed).toEqual({
      kind: 'urlset',
      pages: [
        { loc: 'https://docs.example.com/a', lastmod: '2026-11-01' },
        { loc: 'https://docs.example.com/b' },
      ],
    })
  })

  it('reads a sitemap index: the sitemaps it lists', () => {
    const parsed = parseSitemap(
      xml(
        `<sitemapindex ${NS}><sitemap><loc>https://x.test/a.xml</loc><lastmod>2026-01-01</lastmod></sitemap>` +
          '<sitemap><loc>https://x.test/b.xml.gz</loc></sitemap></sitemapindex>',
      ),
    )
    expect(parsed).toEqual({ kind: 'index', sitemaps: ['https://x.test/a.xml', 'https://x.test/b.xml.gz'] })
  })

  it('reads namespace prefixes, a byte order mark and an empty urlset', () => {
    expect(
      parseSitemap(
        xml(`\uFEFF<sm:urlset xmlns:sm="x"><sm:url><sm:loc>https://x.test/</sm:loc></sm:url></sm:urlset>`),
      ),
    ).toEqual({ kind: 'urlset', pages: [{ loc: 'https://x.test/' }] })
    expect(parseSitemap(urlset(''))).toEqual({ kind: 'urlset', pages: [] })
  })

  it('decodes the predefined entities and character references once; CDATA stays as written', () => {
    const parsed = parseSitemap(
      urlset(
        '<url><loc>https://x.test/?a=1&amp;b=2&#38;c=3&#x26;d=4&amp;#38;</loc></url>' +
          '<url><loc><![CDATA[https://x.test/?e=5&amp;]]></loc></url>',
      ),
    )
    expect(parsed.kind === 'urlset' && parsed.pages.map((p) => p.loc)).toEqual([
      'https://x.test/?a=1&b=2&c=3&d=4&#38;',
      'https://x.test/?e=5&amp;',
    ])
  })

  it('refuses a billion-laughs DOCTYPE before parsing: nothing is expanded', () => {
    const levels = Array.from(
      { length: 10 },
      (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`,
    ).join('')
    const bomb = `<?xml version="1.0"?><!DOCTYPE urlset [<!ENTITY lol0 "lol">${levels}]><urlset ${NS}><url><loc>https://x.test/&lol10;</loc></url></urlset>`
    expect(refusal(xml(bomb))).toMatch(/DOCTYPE/)
  })

  it('refuses external entities and a DOCTYPE anywhere, whatever its case', () => {
    const external = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><urlset><url><loc>&x;</loc></url></urlset>`
    expect(refusal(xml(external))).toMatch(/DOCTYPE/)
    expect(refusal(urlset('<url><loc>x</loc></url><!doctype urlset>'))).toMatch(/DOCTYPE/)
  })

  it('leaves an undefined entity as text: no entity is ever looked up', () => {
    const parsed = parseSitemap(urlset('<url><loc>https://x.test/&lol9;</loc></url>'))
    expect(parsed).toEqual({ kind: 'urlset', pages: [{ loc: 'https://x.test/&lol9;' }] })
  })

  it('refuses malformed XML with where it breaks', () => {
    expect(refusal(urlset('<url><loc>https://x.test/</url>'))).toMatch(
      /^is not well-formed XML: .*\(line \d+/,
    )
    expect(refusal(xml('https://x.test/a\nhttps://x.test/b\n'))).toMatch(/^is not well-formed XML/)
    expect(refusal(xml(''))).toBe('is empty')
  })

  it('refuses as a SitemapError what the parser itself throws on (its nesting limit)', () => {
    const nested = `${'<x>'.repeat(200)}${'</x>'.repeat(200)}`
    expect(refusal(urlset(`<url><loc>https://x.test/</loc>${nested}</url>`))).toBe(
      'could not be parsed as XML: Maximum nested tags exceeded',
    )
  })

  it('refuses XML that is not a sitemap', () => {
    expect(refusal(xml('<html><body>Not found</body></html>'))).toBe(
      'is neither a <urlset> nor a <sitemapindex> (found <html>)',
    )
    expect(refusal(xml('<rss version="2.0"><channel/></rss>'))).toMatch(/found <rss>/)
  })

  it(`takes ${MAX_SITEMAP_ENTRIES} URLs, and refuses one more (the protocol's limit)`, () => {
    const entries = (n: number) =>
      Array.from({ length: n }, (_, i) => `<url><loc>https://x.test/${i}</loc></url>`)
    const full = parseSitemap(urlset(entries(MAX_SITEMAP_ENTRIES).join('')))
    expect(full.kind === 'urlset' && full.pages.length).toBe(MAX_SITEMAP_ENTRIES)
    expect(refusal(urlset(entries(MAX_SITEMAP_ENTRIES + 1).join('')))).toBe(
      "lists more than 50,000 entries (the sitemaps protocol's limit)",
    )
  })

  it('counts entries against a lower bound too, for indexes as well', () => {
    const index = xml(
      `<sitemapindex>${'<sitemap><loc>https://x.test/s.xml</loc></sitemap>'.repeat(4)}</sitemapindex>`,
    )
    expect(() => parseSitemap(index, 3)).toThrow('lists more than 3 entries')
    expect(parseSitemap(index, 4)).toMatchObject({ kind: 'index' })
  })
})
