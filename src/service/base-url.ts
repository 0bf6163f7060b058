// Where the keys are sent. The Authorization header goes to this origin on every request, so it must be
// encrypted (https) unless the service runs on this machine, and must not carry anything a URL parser
// could move elsewhere (credentials, a query, a fragment).
import { isLoopbackHost } from '../net/loopback.js'

// White space and control characters: the URL parser silently drops tabs and line breaks inside a URL,
// which would make the URL used differ from the one written.
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\s\u0000-\u001f\u007f-\u009f]/

/** Why `value` is not a usable base URL, or undefined when it is. The reason never repeats the value. */
export function baseUrlProblem(value: string): string | undefined {
  if (value.length === 0) return 'must not be empty'
  if (INVISIBLE.test(value)) return 'must not contain white space or control characters'
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return 'is not a valid URL'
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must start with https://'
  if (url.username !== '' || url.password !== '' || /^[a-z][a-z0-9+.-]*:\/*[^/?#]*@/i.test(value))
    return 'must not contain user info (user:password@): the key is the only credential'
  if (value.includes('?')) return 'must not contain a query (?...)'
  if (value.includes('#')) return 'must not contain a fragment (#...)'
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname))
    return 'must use https (plain http is allowed only for localhost, 127.0.0.0/8 and [::1])'
  return undefined
}

/** The base URL with its trailing slashes removed; call only when baseUrlProblem is undefined. */
export function normalizeBaseUrl(value: string): string {
  const url = new URL(value)
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`
}
