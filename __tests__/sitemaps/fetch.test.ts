// Fetching a sitemap from a real server on 127.0.0.1: no credential is sent, redirects stay on the origin,
// and time and size are bounded by the code (its deadline, its byte bounds), whatever the server does.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals'
import type { ServerResponse } from 'node:http'
import { gzipSync } from 'node:zlib'
import type { Agent } from 'undici'
import { fetchSitemap, MAX_SITEMAP_BYTES, SitemapError, sitemapAgent } from '../../src/sitemaps/fetch.js'
import { startRecordingServer, type RecordingServer, type Responder } from '../helpers/recording-server.js'

const SITEMAP = '<urlset><url><loc>https://docs.example.com/a</loc></url></urlset>'

let agent: Agent
const servers: RecordingServer[] = []
beforeAll(() => {
  agent = sitemapAgent()
})
afterAll(() => agent.close())
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

async function serve(respond: Responder): Promise<RecordingServer> {
  const server = await startRecordingServer(respond)
  servers.push(server)
  return server
}

const answer =
  (body: Buffer | string, headers: Record<string, string> = {}): Responder =>
  (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/xml', ...headers })
    response.end(body)
  }

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(SitemapError)
  return (error as Error).message
}

/** Writes zeros until the client goes away; resolves with how many bytes were written. */
function endless(response: ServerResponse, chunk = Buffer.alloc(64 * 1024, 'a')): Promise<number> {
  return new Promise((resolve) => {
    let written = 0
    const pump = () => {
      while (!response.destroyed) {
        written += chunk.length
        if (!response.write(chunk)) return void response.once('drain', pump)
      }
    }
    response.once('close', () => resolve(written))
    response.writeHead(200, { 'content-type': 'application/xml' })
    pump()
  })
}

describe('fetchSitemap', () => {
  it('gets the body and sends no credential: no Authorization, no Cookie, nothing but the basics', async () => {
    const server = await serve(answer(SITEMAP))
    const bytes = await fetchSitemap(agent, `${server.url}/sitemap.xml?lang=en`)
    expect(bytes.toString()).toBe(SITEMAP)
    expect(server.requests).toHaveLength(1)
    const [request] = server.requests
    expect(request.url).toBe('/sitemap.xml?lang=en')
    expect(request.method).toBe('GET')
    expect(request.headers.authorization).toBeUndefined()
    expect(request.headers.cookie).toBeUndefined()
    expect(Object.keys(request.headers).sort()).toEqual(
      ['accept', 'accept-encoding', 'connection', 'host', 'user-agent'].filter(
        (name) => name in request.headers,
      ),
    )
    expect(request.headers['user-agent']).toBe('kb-sync (sitemaps)')
  })

  it('inflates a .xml.gz file, and a body sent with Content-Encoding: gzip', async () => {
    const file = await serve(answer(gzipSync(SITEMAP), { 'content-type': 'application/gzip' }))
    expect((await fetchSitemap(agent, `${file.url}/sitemap.xml.gz`)).toString()).toBe(SITEMAP)
    const encoded = await serve(answer(gzipSync(gzipSync(SITEMAP)), { 'content-encoding': 'gzip' }))
    expect((await fetchSitemap(agent, `${encoded.url}/sitemap.xml.gz`)).toString()).toBe(SITEMAP)
  })

  it('refuses a gzip bomb while inflating: small on the wire, past the bound once uncompressed', async () => {
    const bomb = gzipSync(Buffer.alloc(MAX_SITEMAP_BYTES + 1024 * 1024))
    expect(bomb.length).toBeLessThan(1024 * 1024)
    const server = await serve(answer(bomb, { 'content-type': 'application/gzip' }))
    expect(await refusal(fetchSitemap(agent, `${server.url}/bomb.xml.gz`))).toBe(
      "is larger than 50.0 MiB once uncompressed (the sitemaps protocol's limit)",
    )
  })

  it('refuses gzip that is broken', async () => {
    const server = await serve(answer(gzipSync(SITEMAP).subarray(0, 20)))
    expect(await refusal(fetchSitemap(agent, `${server.url}/cut.xml.gz`))).toMatch(/^is not valid gzip: /)
  })

  it('cuts an endless body at the 50 MB bound and closes the connection', async () => {
    let written: Promise<number> | undefined
    const server = await serve((_request, response) => {
      written = endless(response)
    })
    expect(await refusal(fetchSitemap(agent, `${server.url}/endless.xml`))).toBe(
      "is larger than 50.0 MiB (the sitemaps protocol's limit)",
    )
    // The server saw the connection go: it wrote little more than the bound (plus what sockets buffer).
    expect(await written!).toBeLessThan(MAX_SITEMAP_BYTES + 16 * 1024 * 1024)
  })

  it('stops at its deadline a server that trickles a body forever', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/xml' })
      response.write('<urlset>')
      const timer = setInterval(() => response.write('<!-- -->'), 20)
      response.once('close', () => clearInterval(timer))
    })
    expect(await refusal(fetchSitemap(agent, `${server.url}/slow.xml`, { deadlineMs: 300 }))).toBe(
      'was not read within 0.3 s',
    )
  })

  it('stops at its deadline a server that never answers', async () => {
    const server = await serve(() => undefined)
    expect(await refusal(fetchSitemap(agent, `${server.url}/silent.xml`, { deadlineMs: 200 }))).toBe(
      'was not read within 0.2 s',
    )
  })

  it('follows a redirect on the same origin', async () => {
    const server = await serve((request, response) => {
      if (request.url === '/old.xml') {
        response.writeHead(301, { location: '/new.xml' })
        response.end()
      } else answer(SITEMAP)(request, response, undefined as never)
    })
    expect((await fetchSitemap(agent, `${server.url}/old.xml`)).toString()).toBe(SITEMAP)
    expect(server.requests.map((r) => r.url)).toEqual(['/old.xml', '/new.xml'])
  })

  it('refuses a redirect to another host without sending anything there', async () => {
    const elsewhere = await serve(answer(SITEMAP))
    const server = await serve((_request, response) => {
      // Same machine, another host name: localhost is not 127.0.0.1.
      response.writeHead(302, { location: `http://localhost:${elsewhere.port}/sitemap.xml` })
      response.end()
    })
    expect(await refusal(fetchSitemap(agent, `${server.url}/sitemap.xml`))).toBe(
      `redirects (HTTP 302) to a URL that is on another origin (http://localhost:${elsewhere.port}, not ` +
        `http://127.0.0.1:${server.port}): not followed`,
    )
    expect(elsewhere.requests).toHaveLength(0)
  })

  it('refuses a redirect to another port of the same host: another origin, another server', async () => {
    const otherPort = await serve(answer(SITEMAP))
    const server = await serve((_request, response) => {
      response.writeHead(301, { location: `http://127.0.0.1:${otherPort.port}/sitemap.xml` })
      response.end()
    })
    expect(await refusal(fetchSitemap(agent, `${server.url}/sitemap.xml`))).toBe(
      `redirects (HTTP 301) to a URL that is on another origin (http://127.0.0.1:${otherPort.port}, not ` +
        `http://127.0.0.1:${server.port}): not followed`,
    )
    expect(otherPort.requests).toHaveLength(0)
  })

  it('refuses a redirect to a URL with user info without printing it', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(302, { location: `http://kb:hunter2@127.0.0.1:${server.port}/sitemap.xml` })
      response.end()
    })
    const message = await refusal(fetchSitemap(agent, `${server.url}/sitemap.xml`))
    expect(message).toBe(
      'redirects (HTTP 302) to a URL that must not contain user info (user:password@): not followed',
    )
    expect(server.requests).toHaveLength(1)
  })

  it('refuses a redirect to plain http off this machine, and endless redirects', async () => {
    const downgrade = await serve((_request, response) => {
      response.writeHead(307, { location: 'http://docs.example.com/sitemap.xml' })
      response.end()
    })
    expect(await refusal(fetchSitemap(agent, `${downgrade.url}/sitemap.xml`))).toMatch(
      /^redirects \(HTTP 307\) to a URL that must use https/,
    )
    const loop = await serve((request, response) => {
      response.writeHead(302, { location: `${request.url}x` })
      response.end()
    })
    expect(await refusal(fetchSitemap(agent, `${loop.url}/a`))).toBe('redirected more than 5 times')
    expect(loop.requests).toHaveLength(6)
  })

  it('says which status a failed answer had', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(404)
      response.end('gone')
    })
    expect(await refusal(fetchSitemap(agent, `${server.url}/missing.xml`))).toBe('answered HTTP 404')
  })

  it('refuses plain http off this machine and user info before any request', async () => {
    expect(await refusal(fetchSitemap(agent, 'http://docs.example.com/sitemap.xml'))).toMatch(
      /^is refused: its URL must use https/,
    )
    expect(await refusal(fetchSitemap(agent, 'https://user:secret@docs.example.com/sitemap.xml'))).toBe(
      'is refused: its URL must not contain user info (user:password@)',
    )
  })

  it('ends with the run’s cancellation, not as a sitemap failure', async () => {
    const server = await serve(() => undefined)
    const controller = new AbortController()
    const fetching = fetchSitemap(agent, `${server.url}/silent.xml`, { signal: controller.signal })
    controller.abort(new Error('cancelled'))
    await expect(fetching).rejects.toThrow('cancelled')
  })
})
