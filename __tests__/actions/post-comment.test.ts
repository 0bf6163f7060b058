// Which commit the sticky comment's footer names: the one whose files the step read.
import { describe, expect, it } from '@jest/globals'
import { commentFooter } from '../../src/actions/post-comment.js'

const MAIN = 'a'.repeat(40)
const HEAD = 'b'.repeat(40)
const env = { GITHUB_SHA: MAIN }
const onComment = { eventName: 'issue_comment', payload: { issue: { number: 42, pull_request: {} } } }

describe('commentFooter', () => {
  it('names the push commit (GITHUB_SHA) on a push', () => {
    expect(commentFooter({ eventName: 'push', payload: {} }, env).commit).toBe(MAIN)
  })

  it("names the pull request's head on a pull_request event, not the merge commit", () => {
    const payload = { pull_request: { number: 42, head: { sha: HEAD }, base: { sha: MAIN } } }
    expect(commentFooter({ eventName: 'pull_request', payload }, { GITHUB_SHA: 'c'.repeat(40) }).commit).toBe(
      HEAD,
    )
  })

  it('names the checked-out commit under issue_comment, whose GITHUB_SHA is the default branch', () => {
    expect(commentFooter({ ...onComment, checkedCommit: HEAD }, env).commit).toBe(HEAD)
  })

  it('names no commit under issue_comment when none was checked out, rather than the default branch', () => {
    expect(commentFooter(onComment, env).commit).toBeUndefined()
  })
})
