// Which sitemap addresses may be fetched. A sitemap is read by this program, not by the service, so its
// address must not lead the runner anywhere else: https only (http only on this machine, for tests), no
// user info (no credential of any kind is sent), and every sitemap an index lists, or a redirect leads to,
// on the origin of the sitemap the input listed: its scheme, host and port, as browsers draw the line (another
// port of the same host is another server).
import { urlEntryProblem } from './urls.js'
import { isLoopbackHost } from '../net/loopback.js'

/** Why `value` cannot be fetched as a sitemap, or undefined when it can. */
export function sitemapUrlProblem(value: string): string | undefined {
  const problem = urlEntryProblem(value)
  if (problem) return problem
  const url = new URL(value)
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname))
    return 'must use https (plain http is allowed only for localhost, 127.0.0.0/8 and [::1])'
  return undefined
}

/** Why `next` (listed by an index, or a redirect's target) may not be fetched for a sitemap of `origin`. */
export function followProblem(next: string, origin: string): string | undefined {
  const problem = sitemapUrlProblem(next)
  if (problem) return problem
  // `URL.origin` writes the default port away, so https://h and https://h:443 are one origin.
  const nextOrigin = new URL(next).origin
  if (nextOrigin !== origin) return `is on another origin (${nextOrigin}, not ${origin})`
  return undefined
}
