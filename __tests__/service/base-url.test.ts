import { describe, expect, test } from '@jest/globals'
import { isLoopbackHost } from '../../src/net/loopback.js'
import { baseUrlProblem, normalizeBaseUrl } from '../../src/service/base-url.js'

describe('baseUrlProblem', () => {
  test.each([
    'https://api.stack-ai.com',
    'https://api.stack-ai.com/',
    'https://example.com:8443/prefix/v1',
    'http://localhost:3000',
    'http://127.0.0.1:8080',
    'http://127.255.0.9',
    'http://[::1]:8080/',
  ])('%s is accepted', (value) => {
    expect(baseUrlProblem(value)).toBeUndefined()
  })

  test.each([
    ['', /empty/],
    ['api.stack-ai.com', /not a valid URL/],
    ['ftp://example.com', /https/],
    ['http://example.com', /must use https/],
    ['http://10.0.0.1', /must use https/],
    ['http://localhost.example.com', /must use https/],
    ['http://128.0.0.1', /must use https/],
    ['http://[::2]', /must use https/],
    ['https://user:pass@example.com', /user info/],
    ['https://token@example.com', /user info/],
    ['https://example.com/?region=eu', /query/],
    ['https://example.com/?', /query/],
    ['https://example.com/#top', /fragment/],
    ['https://example.com#', /fragment/],
    ['https://exa\tmple.com', /white space/],
    [' https://example.com', /white space/],
    ['https://example.com/\n', /white space/],
  ])('%j is refused', (value, reason) => {
    expect(baseUrlProblem(value)).toMatch(reason)
  })

  test('the reason never repeats the value', () => {
    expect(baseUrlProblem('https://user:hunter2@example.com')).not.toContain('hunter2')
  })
})

describe('normalizeBaseUrl', () => {
  test.each([
    ['https://api.stack-ai.com/', 'https://api.stack-ai.com'],
    ['https://api.stack-ai.com', 'https://api.stack-ai.com'],
    ['https://Example.COM:443/prefix/v1//', 'https://example.com/prefix/v1'],
    ['http://127.0.0.1:8080/', 'http://127.0.0.1:8080'],
  ])('%s becomes %s', (value, normalized) => {
    expect(normalizeBaseUrl(value)).toBe(normalized)
  })
})

test('loopback hosts', () => {
  expect(['localhost', '127.0.0.1', '127.1.2.3', '[::1]'].every(isLoopbackHost)).toBe(true)
  expect(['localhost.', '0.0.0.0', '::1', '1.127.0.0.1', 'example.com'].some(isLoopbackHost)).toBe(false)
})
