// Fetching one sitemap. Its own HTTP agent, apart from the service client's, so that nothing of the
// service (its key, its base URL) can reach a sitemap's host: the request carries no Authorization, no
// cookie, no user info. Redirects are followed by hand, and only on the same origin; the time and the size
// (compressed as sent, and uncompressed while inflating) are bounded, so a hostile or broken host can
// neither hold the run nor fill its memory.
import { promisify } from 'node:util'
import { gunzip } from 'node:zlib'
import { Agent, type Dispatcher } from 'undici'
import { formatBytes } from '../units.js'
import { followProblem, sitemapUrlProblem } from '../config/sitemap-address.js'

const gunzipBounded = promisify(gunzip)

/** The sitemaps protocol's limit: 50 MB uncompressed per sitemap. */
export const MAX_SITEMAP_BYTES = 50 * 1024 * 1024
/** Headers and body of one sitemap, redirects included. */
export const SITEMAP_DEADLINE_MS = 60_000
const MAX_REDIRECTS = 5
// A .xml.gz served with Content-Encoding: gzip is compressed twice; more layers than that are not a sitemap.
const MAX_GZIP_LAYERS = 2

/** Why a sitemap could not be read: a sentence about the sitemap, without its URL. */
export class SitemapError extends Error {
  constructor(reason: string) {
    super(reason)
    this.name = 'SitemapError'
  }
}

export interface SitemapFetchOptions {
  /** Bound on the body, as received and once inflated. @default MAX_SITEMAP_BYTES */
  maxBytes?: number
  /** Bound on the whole fetch, redirects included. @default SITEMAP_DEADLINE_MS */
  deadlineMs?: number
  signal?: AbortSignal
}

/** The agent sitemaps are fetched with: never the service client's. */
export function sitemapAgent(connectTimeoutMs = 10_000): Agent {
  return new Agent({ connections: 4, connect: { timeout: connectTimeoutMs } })
}

// Deliberately no Authorization, Cookie or proxy credentials: a sitemap's host is a stranger.
const HEADERS = {
  accept: 'application/xml, text/xml;q=0.9, application/gzip;q=0.8, */*;q=0.5',
  'accept-encoding': 'gzip',
  'user-agent': 'kb-sync (sitemaps)',
}

const isGzip = (bytes: Buffer) => bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b

/** The sitemap's bytes, inflated when gzip; a SitemapError says why it cannot be had. */
export async function fetchSitemap(
  agent: Dispatcher,
  address: string,
  options: SitemapFetchOptions = {},
): Promise<Buffer> {
  const problem = sitemapUrlProblem(address)
  if (problem) throw new SitemapError(`is refused: its URL ${problem}`)
  const maxBytes = options.maxBytes ?? MAX_SITEMAP_BYTES
  const deadlineMs = options.deadlineMs ?? SITEMAP_DEADLINE_MS
  const deadline = AbortSignal.timeout(deadlineMs)
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline
  try {
    const raw = await download(agent, address, maxBytes, signal)
    return await inflate(raw, maxBytes)
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason
    if (deadline.aborted) throw new SitemapError(`was not read within ${deadlineMs / 1000} s`)
    if (error instanceof SitemapError) throw error
    const code = (error as { code?: unknown }).code
    const text = error instanceof Error ? error.message : String(error)
    throw new SitemapError(`could not be fetched: ${typeof code === 'string' ? `${code}: ` : ''}${text}`)
  }
}

async function download(agent: Dispatcher, address: string, maxBytes: number, signal: AbortSignal) {
  const origin = new URL(address).origin
  let url = new URL(address)
  for (let redirects = 0; ; redirects++) {
    const response = await agent.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      headers: HEADERS,
      signal,
    })
    response.body.on('error', () => undefined)
    const status = response.statusCode
    if (status >= 300 && status < 400) {
      response.body.destroy()
      const location = response.headers.location
      if (typeof location !== 'string') throw new SitemapError(`answered HTTP ${status} without a Location`)
      if (redirects >= MAX_REDIRECTS) throw new SitemapError(`redirected more than ${MAX_REDIRECTS} times`)
      let next: string
      try {
        next = new URL(location, url).href
      } catch {
        throw new SitemapError(`answered HTTP ${status} with a Location that is not a URL`)
      }
      const refused = followProblem(next, origin)
      if (refused) throw new SitemapError(`redirects (HTTP ${status}) to a URL that ${refused}: not followed`)
      url = new URL(next)
      continue
    }
    if (status < 200 || status >= 300) {
      response.body.destroy()
      throw new SitemapError(`answered HTTP ${status}`)
    }
    return readBounded(response.body, maxBytes)
  }
}

async function readBounded(body: Dispatcher.ResponseData['body'], maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = []
  let length = 0
  for await (const chunk of body) {
    length += (chunk as Buffer).length
    if (length > maxBytes) {
      body.destroy()
      throw new SitemapError(`is larger than ${formatBytes(maxBytes)} (the sitemaps protocol's limit)`)
    }
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

async function inflate(raw: Buffer, maxBytes: number): Promise<Buffer> {
  let bytes = raw
  for (let layer = 0; layer < MAX_GZIP_LAYERS && isGzip(bytes); layer++) {
    try {
      // zlib stops inflating past maxOutputLength: a small bomb never grows beyond the bound in memory.
      bytes = await gunzipBounded(bytes, { maxOutputLength: maxBytes })
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE')
        throw new SitemapError(
          `is larger than ${formatBytes(maxBytes)} once uncompressed (the sitemaps protocol's limit)`,
        )
      throw new SitemapError(`is not valid gzip: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  return bytes
}
