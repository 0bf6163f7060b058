// The built run-flow action started by a pull-request comment (`issue_comment`, "/kb-check", #36 §6): the
// checks run only for a commenter with write access, asked of a local server speaking GitHub's
// collaborators/{user}/permission; anyone else is refused with a clear message, and nothing runs.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { ServiceClient } from '../../src/service/client.js'
import { GitFixture } from '../helpers/git-fixture.js'
import { startCommentsServer, type CommentsServer } from '../helpers/github-comments-server.js'
import { GITHUB_TOKEN, PRIVATE_KEY, PUBLIC_KEY } from '../helpers/keys.js'
import { runAction } from '../helpers/run-action.js'
import { webhookExamples } from '../helpers/webhook-examples.js'

const ORG = 'b2a1c3d4-0000-4000-8000-000000000001'
const flow = { orgId: ORG, flowId: '65f0c0ffee0000000000beef', nodeId: 'knowledgebase-1' }
const PULL_REQUEST = 42

let emulator: Emulator
let github: CommentsServer
let git: GitFixture
let workspace: string
// The default branch's last commit, the event's GITHUB_SHA, and the pull request's head, checked out as
// the example workflow does (refs/pull/N/head).
let mainCommit: string
let headCommit: string

beforeAll(async () => {
  emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY })
  git = GitFixture.create()
  const author = git.author()
  author.write('docs/refunds.md', '# Refunds\n\nRefunds are granted within 14 days of a payment.\n')
  mainCommit = author.commit('main')
  author.push()
  headCommit = author.branch('pull-42', mainCommit, (copy) =>
    copy.write(
      '.github/flow-checks.yml',
      '- name: refund window\n  inputs: {in-0: "How long are refunds granted?"}\n  contains: 14 days\n',
    ),
  )
  workspace = git.checkout({ branch: 'pull-42' }).dir
  const client = new ServiceClient({ baseUrl: emulator.url, privateKey: PRIVATE_KEY })
  await client.uploadDocuments(flow, [{ name: 'refunds.md', path: `${workspace}/docs/refunds.md` }])
  await client.close()
})
afterAll(async () => {
  await emulator.close()
  await github.close()
  git.cleanup()
})
beforeEach(async () => {
  await github?.close()
  // The webhook example's repository: Codertocat/Hello-World.
  github = await startCommentsServer({ owner: 'Codertocat', repo: 'Hello-World' })
  github.permissions = {
    'a-writer': 'write',
    'a-maintainer': 'maintain',
    'a-reader': 'read',
    'a-triager': 'triage',
  }
})

/** A real issue_comment payload: "/kb-check" on pull request 42 by `login`, with this association. */
function commentPayload(login: string, association = 'OWNER', onPullRequest = true) {
  const payload = structuredClone(webhookExamples('issue_comment')[0]) as {
    issue: { number: number; pull_request?: unknown }
    comment: { body: string; user: { login: string }; author_association: string }
  }
  payload.issue.number = PULL_REQUEST
  if (onPullRequest)
    payload.issue.pull_request = {
      url: `https://api.github.com/repos/Codertocat/Hello-World/pulls/${PULL_REQUEST}`,
    }
  payload.comment.body = '/kb-check'
  payload.comment.user.login = login
  payload.comment.author_association = association
  return payload
}

function runOnComment(payload: object, inputs: Record<string, string> = {}) {
  return runAction({
    action: 'run-flow/action.yml',
    eventName: 'issue_comment',
    payload,
    workspace,
    inputs: {
      'base-url': emulator.url,
      'flow-id': flow.flowId,
      'org-id': ORG,
      'public-key': PUBLIC_KEY,
      'github-token': GITHUB_TOKEN,
      checks: '.github/flow-checks.yml',
      comment: 'true',
      ...inputs,
    },
    env: { GITHUB_API_URL: github.url, GITHUB_REPOSITORY: 'Codertocat/Hello-World', GITHUB_SHA: mainCommit },
  })
}

const flowRuns = () => emulator.requests().filter((r) => r.path.startsWith('/inference/'))

describe('/kb-check in a pull-request comment', () => {
  it.each(['a-writer', 'a-maintainer'])(
    'runs the checks for %s and answers on the pull request',
    async (login) => {
      const before = flowRuns().length
      const run = await runOnComment(commentPayload(login, 'CONTRIBUTOR'))
      expect(run.status).toBe(0)
      expect(run.outputs.passed).toBe('1')
      expect(flowRuns()).toHaveLength(before + 1)
      const answered = github.comments.filter((c) => c.issue === PULL_REQUEST)
      expect(answered).toHaveLength(1)
      // The commit named is the one checked, the pull request's head, not the event's default branch.
      expect(answered[0].body).toContain(`Ran on \`${headCommit.slice(0, 12)}\``)
      expect(answered[0].body).not.toContain(mainCommit.slice(0, 12))
      expect(github.requests[0].path).toBe(`/repos/Codertocat/Hello-World/collaborators/${login}/permission`)
    },
    60_000,
  )

  // The comment says OWNER: the association is not trusted, the permission is asked.
  it.each([
    ['a-reader', '"read" access'],
    ['a-triager', '"triage" access'],
    ['a-stranger', '"none" access'],
  ])(
    'refuses %s, whatever the comment says of them, and runs nothing',
    async (login, access) => {
      const before = flowRuns().length
      const run = await runOnComment(commentPayload(login, 'OWNER'))
      expect(run.status).toBe(1)
      expect(run.stdout).toContain(
        `::error::Not run: @${login} has ${access} to Codertocat/Hello-World; a comment starts the checks only for people with write access.`,
      )
      expect(run.summary).toContain('Flow checks: not run')
      expect(flowRuns()).toHaveLength(before)
      expect(github.comments).toEqual([])
    },
    60_000,
  )

  // Inputs refused before anything runs leave a "not run" comment, but only for a writer: a reader's
  // comment with a broken input must not make the bot comment either.
  it('refuses a-reader whose run has a broken input without commenting; tells a-writer in a comment', async () => {
    const broken = { checks: '.github/no-such-checks.yml' }
    const reader = await runOnComment(commentPayload('a-reader'), broken)
    expect(reader.status).toBe(1)
    expect(reader.stdout).toContain('::error::Not run: @a-reader has "read" access to Codertocat/Hello-World')
    expect(reader.stdout).not.toContain('no-such-checks.yml')
    expect(github.comments).toEqual([])
    const writer = await runOnComment(commentPayload('a-writer'), broken)
    expect(writer.status).toBe(1)
    expect(writer.stdout).toContain('no-such-checks.yml')
    expect(github.comments.filter((c) => c.issue === PULL_REQUEST)).toHaveLength(1)
  }, 60_000)

  it('refuses when the permission cannot be checked (the API fails): nothing runs', async () => {
    await github.close()
    const before = flowRuns().length
    const run = await runOnComment(commentPayload('a-writer'))
    expect(run.status).toBe(1)
    expect(run.stdout).toMatch(
      /::error::Not run: the permission of @a-writer on Codertocat\/Hello-World could not be checked/,
    )
    expect(flowRuns()).toHaveLength(before)
    github = await startCommentsServer({ owner: 'Codertocat', repo: 'Hello-World' })
  }, 60_000)

  it('refuses a comment on an issue that is not a pull request', async () => {
    const before = flowRuns().length
    const run = await runOnComment(commentPayload('a-writer', 'OWNER', false))
    expect(run.status).toBe(1)
    expect(run.stdout).toContain('::error::Not run: this comment is on an issue, not a pull request')
    expect(flowRuns()).toHaveLength(before)
  }, 60_000)
})
