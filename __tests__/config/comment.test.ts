import { describe, expect, it } from '@jest/globals'
import { ConfigError } from '../../src/config/errors.js'
import type { InputReader } from '../../src/config/fields.js'
import { readIndexConfig } from '../../src/config/index-config.js'
import { readRunConfig } from '../../src/config/run.js'

const RUN = { 'org-id': 'org-1', 'flow-id': 'flow-1', 'public-key': 'pk-1', inputs: '{"in-0": "q"}' }
const INDEX = {
  'flow-id': 'flow-1',
  'org-id': 'org-1',
  'node-id': 'kb-1',
  'private-key': 'sk-1',
  files: 'docs/**',
}
const reader =
  (inputs: Record<string, string>): InputReader =>
  (name) =>
    inputs[name] ?? ''

function problems(run: () => unknown): string[] {
  try {
    run()
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.map((p) => p.message)
    throw error
  }
  return []
}

describe('comment inputs', () => {
  it.each([
    ['pull_request', '', true],
    ['push', '', false],
    ['pull_request_review', '', false],
    ['push', 'true', true],
    ['pull_request', 'false', false],
  ])('in %s with comment=%j the comment is %s', (eventName, comment, enabled) => {
    expect(readRunConfig(reader({ ...RUN, comment }), { eventName }).comment.enabled).toBe(enabled)
    expect(readIndexConfig(reader({ ...INDEX, comment }), { eventName }).comment.enabled).toBe(enabled)
  })

  it('carries the key and the token', () => {
    const config = readRunConfig(reader({ ...RUN, 'comment-key': 'smoke-1', 'github-token': 'ghs_x' }), {
      eventName: 'push',
    })
    expect(config.comment).toEqual({ enabled: false, key: 'smoke-1', githubToken: 'ghs_x' })
  })

  it.each([
    [{ comment: 'yes' }, 'Input "comment" must be true or false (got "yes").'],
    [
      { 'comment-key': 'a -->b' },
      'Input "comment-key" may contain only letters, digits, ".", "_", "~" and "-"',
    ],
  ])('%j is refused naming the input', (inputs, message) => {
    expect(problems(() => readRunConfig(reader({ ...RUN, ...inputs }), { eventName: 'push' }))[0]).toContain(
      message,
    )
  })

  it('pull-request is preview or index', () => {
    expect(readIndexConfig(reader(INDEX), { eventName: 'push' }).pullRequest).toBe('preview')
    expect(
      readIndexConfig(reader({ ...INDEX, 'pull-request': 'index' }), { eventName: 'push' }).pullRequest,
    ).toBe('index')
    expect(
      problems(() => readIndexConfig(reader({ ...INDEX, 'pull-request': 'publish' }), { eventName: 'push' })),
    ).toEqual(['Input "pull-request" must be one of preview, index (got "publish").'])
  })
})
