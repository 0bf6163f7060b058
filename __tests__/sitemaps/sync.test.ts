// The sitemaps as the job uses them: pages against the base commit's time (a real git repository), and
// what happens when that time cannot be known.
import { afterEach, describe, expect, it } from '@jest/globals'
import { syncSitemaps } from '../../src/sitemaps/sync.js'
import { GitFixture } from '../helpers/git-fixture.js'
import { recordingLog } from '../helpers/log.js'
import { startRecordingServer, type RecordingServer } from '../helpers/recording-server.js'
import { makeWorkspace } from '../helpers/workspace.js'

let server: RecordingServer | undefined
afterEach(async () => {
  await server?.close()
})

async function serveSitemap(lastmod: string): Promise<string> {
  const body = `<urlset><url><loc>https://docs.example.com/a</loc><lastmod>${lastmod}</lastmod></url></urlset>`
  server = await startRecordingServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/xml' })
    response.end(body)
  })
  return `${server.url}/sitemap.xml`
}

const request = { include: [], exclude: [], known: [], operation: 'update' as const }

describe('syncSitemaps', () => {
  it('compares lastmod with the base commit’s committer time', async () => {
    const fixture = GitFixture.create()
    try {
      const author = fixture.author()
      const sha = author.write('a.md').commit('base')
      const time = author.git('show', '-s', '--format=%cI', sha).trim()
      const { log } = recordingLog()
      const synced = await syncSitemaps({
        ...request,
        sitemaps: [await serveSitemap('2001-01-01')],
        base: { source: 'push', sha },
        workspace: author.dir,
        log,
      })
      expect(synced.urls).toEqual([])
      expect(synced.counts).toEqual({
        read: 1,
        failed: 0,
        listed: 1,
        filtered: 0,
        unchanged: 1,
        duplicates: 0,
        invalid: 0,
        synced: 0,
        since: new Date(time).toISOString(),
      })
    } finally {
      fixture.cleanup()
    }
  })

  it('sends every page, with a warning saying why, when the base commit’s time is unknown', async () => {
    const workspace = makeWorkspace({ 'a.md': 'a' })
    try {
      const recorded = recordingLog()
      const synced = await syncSitemaps({
        ...request,
        sitemaps: [await serveSitemap('2001-01-01')],
        base: { source: 'push', sha: 'a'.repeat(40) },
        workspace: workspace.dir,
        log: recorded.log,
      })
      expect(synced.urls).toEqual(['https://docs.example.com/a'])
      expect(synced.counts.since).toBeUndefined()
      expect(synced.notices).toEqual([
        expect.stringMatching(
          /^Sitemaps: every listed page is synced, lastmod is not compared: the base commit's time is unknown \(/,
        ),
      ])
      expect(recorded.of('warning').map((line) => line.message)).toEqual(synced.notices)
    } finally {
      workspace.remove()
    }
  })

  it('reports a sitemap that cannot be read as a failed item under its URL', async () => {
    server = await startRecordingServer((_request, response) => {
      response.writeHead(500)
      response.end()
    })
    const sitemap = `${server.url}/sitemap.xml`
    const synced = await syncSitemaps({
      ...request,
      sitemaps: [sitemap],
      workspace: '.',
      log: recordingLog().log,
    })
    expect(synced.failures).toEqual([
      {
        kind: 'url',
        name: sitemap,
        outcome: 'failed',
        operation: 'update',
        attempts: 0,
        error: 'The sitemap answered HTTP 500',
      },
    ])
    expect(synced.counts).toMatchObject({ read: 0, failed: 1, listed: 0, synced: 0 })
  })
})
