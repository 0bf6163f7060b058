// The built index action (dist/index.js) with `sitemaps`: a real sitemap server on 127.0.0.1 (an index, a
// gzip sitemap, hostile ones), the emulator's urls operation, and a real git history for lastmod.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { runCliAsync } from '../helpers/cli.js'
import { GitFixture } from '../helpers/git-fixture.js'
import { PRIVATE_KEY, PUBLIC_KEY } from '../helpers/keys.js'
import { startRecordingServer, type RecordingServer } from '../helpers/recording-server.js'
import { runAction } from '../helpers/run-action.js'
import { makeWorkspace } from '../helpers/workspace.js'

const ids = {
  'flow-id': '65f0c0ffee0000000000beef',
  'org-id': 'b2a1c3d4-0000-4000-8000-000000000001',
  'node-id': 'urlemb-0',
}
const SITE = 'https://docs.example.com'

let emulator: Emulator
let sitemaps: RecordingServer
let other: RecordingServer
/** What the sitemap server answers, by path. */
let site: Record<string, string | Buffer> = {}

beforeEach(async () => {
  emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY })
  other = await startRecordingServer()
  sitemaps = await startRecordingServer((request, response) => {
    const body = site[request.url]
    if (request.url === '/elsewhere.xml') {
      // The same machine under another name: another host.
      response.writeHead(302, { location: `http://localhost:${other.port}/sitemap.xml` })
      return void response.end()
    }
    if (request.url === '/other-port.xml') {
      // The same host on another port: another origin.
      response.writeHead(301, { location: `http://127.0.0.1:${other.port}/sitemap.xml` })
      return void response.end()
    }
    if (body === undefined) {
      response.writeHead(404)
      return void response.end()
    }
    response.writeHead(200, { 'content-type': 'application/xml' })
    response.end(body)
  })
})
afterEach(async () => {
  await Promise.all([emulator.close(), sitemaps.close(), other.close()])
  site = {}
})

const urlset = (pages: { path: string; lastmod?: string }[]) =>
  '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
  pages
    .map(
      ({ path, lastmod }) =>
        `<url><loc>${SITE}${path}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`,
    )
    .join('') +
  '</urlset>'
const index = (...paths: string[]) =>
  `<sitemapindex>${paths.map((path) => `<sitemap><loc>${sitemaps.url}${path}</loc></sitemap>`).join('')}</sitemapindex>`

const storedUrls = () => [...emulator.urls(ids['flow-id'], ids['org-id'], ids['node-id'])].sort()
const storedDocuments = () =>
  emulator
    .documents(ids['flow-id'], ids['org-id'], ids['node-id'])
    .map((document) => document.name)
    .sort()
const summaryLine = (summary: string) => summary.split('\n').find((line) => line.startsWith('Sitemaps:'))

function index_(
  workspace: string,
  inputs: Record<string, string>,
  event: { eventName?: string; payload?: unknown } = {},
) {
  return runAction({
    action: 'action.yml',
    workspace,
    inputs: { 'base-url': emulator.url, ...ids, 'private-key': PRIVATE_KEY, ...inputs },
    ...event,
  })
}

describe('index action with sitemaps', () => {
  it('syncs the pages of an index and a gzip sitemap, filtered and deduplicated, and counts them', async () => {
    site = {
      '/sitemap_index.xml': index('/guides.xml', '/blog.xml.gz'),
      '/guides.xml': urlset([
        { path: '/guides/install' },
        { path: '/guides/old/v1' },
        { path: '/guides/usage' },
      ]),
      '/blog.xml.gz': gzipSync(urlset([{ path: '/blog/launch' }, { path: '/pricing' }])),
    }
    const workspace = makeWorkspace({ 'docs/a.md': '# A\n' })
    try {
      const run = await index_(workspace.dir, {
        files: 'docs/**',
        urls: `${SITE}/guides/usage`,
        sitemaps: `${sitemaps.url}/sitemap_index.xml`,
        'url-include': `${SITE}/guides/**\n**/blog/**`,
        'url-exclude': '**/old/**',
      })
      expect(run.stderr).toBe('')
      expect(run.status).toBe(0)
      expect(storedUrls()).toEqual([`${SITE}/blog/launch`, `${SITE}/guides/install`, `${SITE}/guides/usage`])
      expect(storedDocuments()).toEqual(['docs/a.md'])
      expect(summaryLine(run.summary)).toBe(
        'Sitemaps: 3 sitemap(s) read · 5 page(s) listed · 2 filtered out · 0 unchanged by lastmod · ' +
          '1 already listed · 2 to sync',
      )
      // The sitemap host never saw the key, nor any other credential.
      expect(sitemaps.requests.map((request) => request.url).sort()).toEqual([
        '/blog.xml.gz',
        '/guides.xml',
        '/sitemap_index.xml',
      ])
      for (const request of sitemaps.requests) {
        expect(request.headers.authorization).toBeUndefined()
        expect(request.headers.cookie).toBeUndefined()
        expect(JSON.stringify(request.headers)).not.toContain(PRIVATE_KEY)
      }
    } finally {
      workspace.remove()
    }
  })

  it('fails the run for sitemaps that cannot be read, naming each and why; everything else still syncs', async () => {
    const bomb =
      '<?xml version="1.0"?><!DOCTYPE urlset [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>' +
      `<urlset><url><loc>${SITE}/&b;</loc></url></urlset>`
    site = { '/good.xml': urlset([{ path: '/ok' }]), '/bomb.xml': bomb }
    const workspace = makeWorkspace({ 'docs/a.md': '# A\n' })
    try {
      const listed = ['/good.xml', '/gone.xml', '/elsewhere.xml', '/bomb.xml'].map(
        (path) => `${sitemaps.url}${path}`,
      )
      const run = await index_(workspace.dir, { files: 'docs/**', sitemaps: listed.join('\n') })
      expect(run.status).toBe(1)
      expect(storedDocuments()).toEqual(['docs/a.md'])
      expect(storedUrls()).toEqual([`${SITE}/ok`])
      expect(JSON.parse(run.outputs.failed)).toEqual(listed.slice(1))
      expect(JSON.parse(run.outputs.uploaded)).toEqual(['docs/a.md', `${SITE}/ok`])
      // Each failed sitemap is an item of its own: its URL, and why (the log has every cause whole).
      expect(run.summary).toContain(`| The sitemap answered HTTP 404 | 1 | ${listed[1]} |`)
      expect(run.stdout).toContain(
        `url ${listed[2]} failed after 0 attempt(s): The sitemap redirects (HTTP 302) to a URL that is on ` +
          `another origin (http://localhost:${other.port}, not ${sitemaps.url}): not followed`,
      )
      expect(run.stdout).toContain(
        `url ${listed[3]} failed after 0 attempt(s): The sitemap contains a DOCTYPE`,
      )
      expect(other.requests).toHaveLength(0)
      expect(summaryLine(run.summary)).toMatch(
        /^Sitemaps: 1 sitemap\(s\) read · 3 failed · 1 page\(s\) listed/,
      )
    } finally {
      workspace.remove()
    }
  })

  it('fails alone a sitemap the parser rejects, one on another port, and never prints a loc’s credentials', async () => {
    const deep = `<urlset>${'<x>'.repeat(3000)}${'</x>'.repeat(3000)}</urlset>`
    const withCredentials =
      '<urlset>' +
      `<url><loc>https://kb:hunter2@docs.example.com/secret</loc></url>` +
      `<url><loc>${SITE}/fine</loc></url>` +
      '</urlset>'
    site = {
      '/deep.xml': deep,
      '/credentials.xml': withCredentials,
      '/index.xml':
        '<sitemapindex>' +
        `<sitemap><loc>http://127.0.0.1:${other.port}/sitemap.xml</loc></sitemap>` +
        `<sitemap><loc>http://kb:hunter2@127.0.0.1:${sitemaps.port}/credentials.xml</loc></sitemap>` +
        `<sitemap><loc>${sitemaps.url}/good.xml</loc></sitemap>` +
        '</sitemapindex>',
      '/good.xml': urlset([{ path: '/ok' }]),
    }
    const workspace = makeWorkspace({ 'docs/a.md': '# A\n' })
    const runnerTemp = mkdtempSync(join(tmpdir(), 'kb-sync-sitemaps-'))
    try {
      const listed = ['/deep.xml', '/other-port.xml', '/index.xml', '/credentials.xml'].map(
        (path) => `${sitemaps.url}${path}`,
      )
      const run = await runAction({
        action: 'action.yml',
        workspace: workspace.dir,
        inputs: {
          'base-url': emulator.url,
          ...ids,
          'private-key': PRIVATE_KEY,
          files: 'docs/**',
          sitemaps: listed.join('\n'),
        },
        env: { RUNNER_TEMP: runnerTemp },
      })
      expect(run.stderr).toBe('')
      expect(run.status).toBe(1)
      // Every document and every readable sitemap's pages still synced.
      expect(storedDocuments()).toEqual(['docs/a.md'])
      expect(storedUrls()).toEqual([`${SITE}/fine`, `${SITE}/ok`])
      expect(JSON.parse(run.outputs.failed)).toEqual([listed[0], listed[1], listed[2]])
      expect(run.stdout).toContain(
        `url ${listed[0]} failed after 0 attempt(s): The sitemap could not be parsed as XML: Maximum nested tags exceeded`,
      )
      expect(run.stdout).toContain(
        `url ${listed[1]} failed after 0 attempt(s): The sitemap redirects (HTTP 301) to a URL that is on ` +
          `another origin (http://127.0.0.1:${other.port}, not ${sitemaps.url}): not followed`,
      )
      expect(run.stdout).toContain(
        `url ${listed[2]} failed after 0 attempt(s): The sitemap lists 2 sitemap(s) that were not read, e.g. ` +
          `"http://127.0.0.1:${other.port}/sitemap.xml": its URL is on another origin`,
      )
      expect(run.stdout).toContain('"https://docs.example.com/secret"')
      // Neither server on the other port was asked, and the credentials appear nowhere.
      expect(other.requests).toHaveLength(0)
      const reports = readdirSync(runnerTemp).map((name) => readFileSync(join(runnerTemp, name), 'utf8'))
      expect(reports.length).toBeGreaterThan(0)
      for (const text of [run.stdout, run.summary, JSON.stringify(run.outputs), ...reports])
        expect(text).not.toContain('hunter2')
    } finally {
      workspace.remove()
      rmSync(runnerTemp, { recursive: true, force: true })
    }
  })

  it('in mode auto sends only pages whose lastmod is after the base commit; a full sync sends all', async () => {
    const fixture = GitFixture.create()
    try {
      const author = fixture.author()
      author.write('docs/a.md')
      const before = author.commit('seed')
      author.write('docs/b.md')
      const after = author.commit('add b')
      author.push()
      const baseTime = Date.parse(author.git('show', '-s', '--format=%cI', before).trim())
      const day = 24 * 3_600_000
      site = {
        '/sitemap.xml': urlset([
          { path: '/unchanged', lastmod: new Date(baseTime - day).toISOString() },
          { path: '/changed', lastmod: new Date(baseTime + day).toISOString() },
          { path: '/undated' },
        ]),
      }
      const checkout = fixture.checkout().dir
      const inputs = { files: 'docs/**', sitemaps: `${sitemaps.url}/sitemap.xml` }
      const push = {
        eventName: 'push',
        payload: {
          ref: 'refs/heads/main',
          before,
          after,
          created: false,
          deleted: false,
          forced: false,
          commits: [],
        },
      }
      const run = await index_(checkout, inputs, push)
      expect(run.status).toBe(0)
      expect(run.outputs.base).toBe(before)
      expect(storedUrls()).toEqual([`${SITE}/changed`, `${SITE}/undated`])
      expect(summaryLine(run.summary)).toBe(
        `Sitemaps: 1 sitemap(s) read · 3 page(s) listed · 0 filtered out · 1 unchanged by lastmod (not after ` +
          `${new Date(baseTime).toISOString()}) · 2 to sync`,
      )

      const full = await index_(checkout, { ...inputs, 'full-sync': 'true' }, push)
      expect(full.status).toBe(0)
      const sent = [...JSON.parse(full.outputs.uploaded), ...JSON.parse(full.outputs.updated)] as string[]
      expect(sent.filter((name) => name.startsWith(SITE)).sort()).toEqual([
        `${SITE}/changed`,
        `${SITE}/unchanged`,
        `${SITE}/undated`,
      ])
      expect(summaryLine(full.summary)).toMatch(/ · 0 unchanged by lastmod · 3 to sync$/)
    } finally {
      fixture.cleanup()
    }
  })

  it('refuses a bad sitemaps input before any request, naming the input', async () => {
    const workspace = makeWorkspace({ 'docs/a.md': '# A\n' })
    try {
      const run = await index_(workspace.dir, {
        files: 'docs/**',
        sitemaps: 'http://docs.example.com/sitemap.xml',
      })
      expect(run.status).toBe(1)
      expect(run.stdout).toContain(
        'Input "sitemaps", line 1: "http://docs.example.com/sitemap.xml" must use https',
      )
      expect(emulator.requests()).toHaveLength(0)
    } finally {
      workspace.remove()
    }
  })
})

describe('kb-sync index with sitemaps', () => {
  it('takes --sitemaps, --url-include and --url-exclude and prints the counts; a dry run lists the pages', async () => {
    site = {
      '/sitemap.xml': urlset([{ path: '/guides/a' }, { path: '/guides/drafts/b' }, { path: '/blog/c' }]),
    }
    const workspace = makeWorkspace({})
    try {
      const run = await runCliAsync(
        [
          'index',
          '--base-url',
          emulator.url,
          '--flow-id',
          ids['flow-id'],
          '--org-id',
          ids['org-id'],
          '--node-id',
          ids['node-id'],
          '--sitemaps',
          `${sitemaps.url}/sitemap.xml`,
          '--url-include',
          `${SITE}/guides`,
          '--url-exclude',
          '**/drafts/**',
          '--dry-run',
          '--json',
        ],
        { cwd: workspace.dir },
      )
      expect(run.status).toBe(0)
      expect(JSON.parse(run.stdout)).toMatchObject({
        planned: [{ name: `${SITE}/guides/a`, operation: 'upsert' }],
        failed: [],
      })
      const text = await runCliAsync(
        ['index', '--base-url', emulator.url, '--flow-id', ids['flow-id'], '--org-id', ids['org-id']].concat([
          '--node-id',
          ids['node-id'],
          '--sitemaps',
          `${sitemaps.url}/sitemap.xml`,
          '--dry-run',
        ]),
        { cwd: workspace.dir },
      )
      expect(text.stdout).toContain(
        'Sitemaps: 1 sitemap(s) read · 3 page(s) listed · 0 filtered out · 0 unchanged by lastmod · 3 to sync',
      )
      expect(emulator.requests()).toHaveLength(0)
    } finally {
      workspace.remove()
    }
  })
})
