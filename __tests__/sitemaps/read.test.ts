// Reading the listed sitemaps from a real server: indexes followed on the same origin up to 3 levels below
// the listed sitemap, each sitemap that cannot be read a failure naming it, the others still read.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals'
import { gzipSync } from 'node:zlib'
import type { Agent } from 'undici'
import { sitemapAgent } from '../../src/sitemaps/fetch.js'
import { readSitemaps } from '../../src/sitemaps/read.js'
import { startRecordingServer, type RecordingServer } from '../helpers/recording-server.js'

let agent: Agent
let server: RecordingServer
/** What the server answers, by path: XML text, gzip bytes, or a status. */
let site: Record<string, string | Buffer | number> = {}

beforeAll(() => {
  agent = sitemapAgent()
})
afterAll(() => agent.close())
afterEach(async () => {
  await server?.close()
  site = {}
})

async function serve(pages: typeof site): Promise<string> {
  site = pages
  server = await startRecordingServer((request, response) => {
    const body = site[request.url]
    if (body === undefined || typeof body === 'number') {
      response.writeHead(body ?? 404)
      return void response.end()
    }
    response.writeHead(200, { 'content-type': 'application/xml' })
    response.end(body)
  })
  return server.url
}

const urlset = (...paths: string[]) =>
  `<urlset>${paths.map((path) => `<url><loc>https://docs.example.com${path}</loc></url>`).join('')}</urlset>`
const index = (...locs: string[]) =>
  `<sitemapindex>${locs.map((loc) => `<sitemap><loc>${loc}</loc></sitemap>`).join('')}</sitemapindex>`
const locs = (pages: { loc: string }[]) =>
  pages.map((page) => page.loc.replace('https://docs.example.com', ''))

describe('readSitemaps', () => {
  it('follows nested indexes three levels below the listed sitemap, gzip included', async () => {
    const base = await serve({})
    Object.assign(site, {
      '/index.xml': index(`${base}/level1.xml`, `${base}/a.xml.gz`),
      '/a.xml.gz': gzipSync(urlset('/a1', '/a2')),
      '/level1.xml': index(`${base}/level2.xml`),
      '/level2.xml': index(`${base}/level3.xml`),
      '/level3.xml': urlset('/deep'),
    })
    const read = await readSitemaps([`${base}/index.xml`], { agent })
    expect(read.failures).toEqual([])
    expect(locs(read.pages).sort()).toEqual(['/a1', '/a2', '/deep'])
    expect(read.read).toBe(5)
  })

  it('does not follow an index a fourth level down: one failure names it, what was read stays', async () => {
    const base = await serve({})
    Object.assign(site, {
      '/index.xml': index(`${base}/level1.xml`, `${base}/a.xml`),
      '/a.xml': urlset('/a'),
      '/level1.xml': index(`${base}/level2.xml`),
      '/level2.xml': index(`${base}/level3.xml`),
      '/level3.xml': index(`${base}/level4.xml`, `${base}/other.xml`),
      '/level4.xml': urlset('/too-deep'),
    })
    const read = await readSitemaps([`${base}/index.xml`], { agent })
    expect(locs(read.pages)).toEqual(['/a'])
    expect(read.failures).toEqual([
      {
        sitemap: `${base}/level3.xml`,
        listedBy: `${base}/level2.xml`,
        cause:
          'The sitemap is a sitemap index 3 levels below the listed sitemap: indexes are followed 3 levels deep, ' +
          `so its 2 sitemap(s) were not read (listed by ${base}/level2.xml)`,
      },
    ])
    expect(server.requests.map((r) => r.url)).not.toContain('/level4.xml')
  })

  it('refuses sitemaps an index lists on another host, and reads the rest', async () => {
    const base = await serve({})
    const port = new URL(base).port
    Object.assign(site, {
      '/index.xml': index(`http://localhost:${port}/b.xml`, 'https://evil.example/c.xml', `${base}/a.xml`),
      '/a.xml': urlset('/a'),
      '/b.xml': urlset('/b'),
    })
    const read = await readSitemaps([`${base}/index.xml`], { agent })
    expect(locs(read.pages)).toEqual(['/a'])
    expect(read.failures.map((f) => f.cause)).toEqual([
      `The sitemap lists 2 sitemap(s) that were not read, e.g. "http://localhost:${port}/b.xml": ` +
        `its URL is on another origin (http://localhost:${port}, not ${base})`,
    ])
    expect(server.requests.map((r) => r.url)).toEqual(['/index.xml', '/a.xml'])
  })

  it('refuses a sitemap an index lists on another port of the same host', async () => {
    const base = await serve({ '/a.xml': urlset('/a') })
    const main = server
    const otherPort = await serve({ '/b.xml': urlset('/b') })
    const other = server
    server = main
    site = {
      '/index.xml': index(`${otherPort}/b.xml`, `${base}/a.xml`),
      '/a.xml': urlset('/a'),
    }
    try {
      const read = await readSitemaps([`${base}/index.xml`], { agent })
      expect(locs(read.pages)).toEqual(['/a'])
      expect(read.failures.map((f) => f.cause)).toEqual([
        `The sitemap lists 1 sitemap(s) that were not read, e.g. "${otherPort}/b.xml": ` +
          `its URL is on another origin (${otherPort}, not ${base})`,
      ])
      expect(other.requests).toHaveLength(0)
    } finally {
      await other.close()
    }
  })

  it('never prints the user info of a sitemap an index lists', async () => {
    const base = await serve({})
    const { host } = new URL(base)
    Object.assign(site, {
      '/index.xml': index(`http://kb:hunter2@${host}/b.xml`, `${base}/a.xml`),
      '/a.xml': urlset('/a'),
    })
    const read = await readSitemaps([`${base}/index.xml`], { agent })
    expect(locs(read.pages)).toEqual(['/a'])
    expect(read.failures.map((f) => f.cause)).toEqual([
      `The sitemap lists 1 sitemap(s) that were not read, e.g. "${base}/b.xml": ` +
        'its URL must not contain user info (user:password@)',
    ])
    expect(JSON.stringify(read)).not.toContain('hunter2')
  })

  it('fails only the sitemap the XML parser rejects, whatever the reason', async () => {
    const deep = `<urlset>${'<x>'.repeat(5000)}${'</x>'.repeat(5000)}<url><loc>https://docs.example.com/d</loc></url></urlset>`
    const base = await serve({
      '/deep.xml': deep,
      '/a.xml': urlset('/a'),
    })
    const read = await readSitemaps([`${base}/deep.xml`, `${base}/a.xml`], { agent })
    expect(locs(read.pages)).toEqual(['/a'])
    expect(read.failures).toEqual([
      {
        sitemap: `${base}/deep.xml`,
        cause: 'The sitemap could not be parsed as XML: Maximum nested tags exceeded',
        listedBy: undefined,
      },
    ])
  })

  it('names each sitemap that cannot be read and why; the others are still read', async () => {
    const base = await serve({})
    Object.assign(site, {
      '/index.xml': index(`${base}/gone.xml`, `${base}/broken.xml`, `${base}/a.xml`),
      '/a.xml': urlset('/a'),
      '/broken.xml': '<urlset><url>',
      '/gone.xml': 410,
    })
    const read = await readSitemaps([`${base}/index.xml`, `${base}/missing.xml`], { agent })
    expect(locs(read.pages)).toEqual(['/a'])
    expect(read.failures.map((f) => [f.sitemap, f.cause])).toEqual([
      [`${base}/missing.xml`, 'The sitemap answered HTTP 404'],
      [`${base}/gone.xml`, `The sitemap answered HTTP 410 (listed by ${base}/index.xml)`],
      [
        `${base}/broken.xml`,
        expect.stringMatching(
          /^The sitemap is not well-formed XML: .* \(listed by http:\/\/127\.0\.0\.1:\d+\/index\.xml\)$/,
        ),
      ],
    ])
  })

  it('reads each sitemap once, even in a circle of indexes', async () => {
    const base = await serve({})
    Object.assign(site, {
      '/index.xml': index(`${base}/index.xml`, `${base}/a.xml`, `${base}/a.xml`),
      '/a.xml': urlset('/a'),
    })
    const read = await readSitemaps([`${base}/index.xml`], { agent })
    expect(locs(read.pages)).toEqual(['/a'])
    expect(server.requests.map((r) => r.url)).toEqual(['/index.xml', '/a.xml'])
  })

  it('keeps to the run’s bounds on sitemaps and pages, with one failure each', async () => {
    const base = await serve({})
    Object.assign(site, {
      '/index.xml': index(...['a', 'b', 'c', 'd'].map((name) => `${base}/${name}.xml`)),
      '/a.xml': urlset('/a1', '/a2'),
      '/b.xml': urlset('/b1', '/b2'),
      '/c.xml': urlset('/c1'),
      '/d.xml': urlset('/d1'),
    })
    const read = await readSitemaps([`${base}/index.xml`], { agent, maxSitemaps: 4, maxPages: 3 })
    expect(locs(read.pages)).toEqual(['/a1', '/a2', '/c1'])
    expect(read.failures.map((f) => [f.sitemap, f.cause])).toEqual([
      [
        `${base}/index.xml`,
        'The sitemap lists 1 sitemap(s) that were not read: the run reads at most 4 sitemaps',
      ],
      [
        `${base}/b.xml`,
        `The sitemap was not used: its 2 pages would pass the run's bound of 3 pages (listed by ${base}/index.xml)`,
      ],
    ])
    expect(server.requests).toHaveLength(4)
  })

  it('bounds all sitemaps of a run together: past the deadline, each unread one fails', async () => {
    server = await startRecordingServer(() => undefined)
    const listed = [`${server.url}/a.xml`, `${server.url}/b.xml`]
    const read = await readSitemaps(listed, { agent, totalDeadlineMs: 300 })
    expect(read.failures.map((f) => [f.sitemap, f.cause])).toEqual(
      listed.map((sitemap) => [
        sitemap,
        'The sitemap was not read: reading the sitemaps took longer than 0.3 s in all',
      ]),
    )
  })

  it('ends with the run’s cancellation instead of failing sitemaps', async () => {
    server = await startRecordingServer(() => undefined)
    const controller = new AbortController()
    const reading = readSitemaps([`${server.url}/a.xml`], { agent, signal: controller.signal })
    setTimeout(() => controller.abort(new Error('cancelled')), 50)
    await expect(reading).rejects.toThrow('cancelled')
  })
})
