// The built run-flow action in a pull_request event: one sticky comment over real HTTP to a local
// GitHub REST server, with a real pull_request payload.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { ServiceClient } from '../../src/service/client.js'
import { startCommentsServer, type CommentsServer } from '../helpers/github-comments-server.js'
import { runAction } from '../helpers/run-action.js'
import { makeWorkspace } from '../helpers/workspace.js'
import { GITHUB_TOKEN, PRIVATE_KEY, PUBLIC_KEY } from '../helpers/keys.js'
import { pullRequestExample } from '../helpers/webhook-examples.js'

const target = {
  flowId: '65f0c0ffee0000000000beef',
  orgId: 'b2a1c3d4-0000-4000-8000-000000000001',
  nodeId: 'knowledgebase-1',
}

const payload = pullRequestExample('synchronize')
const prNumber = (payload.pull_request as { number: number }).number
const headSha = (payload.pull_request as { head: { sha: string } }).head.sha

let emulator: Emulator
let github: CommentsServer
let workspace: ReturnType<typeof makeWorkspace>

beforeEach(async () => {
  emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY })
  github = await startCommentsServer({ owner: 'octo-org', repo: 'docs' })
  workspace = makeWorkspace({
    'refunds.md': '# Refunds\n\nRefunds are granted within 14 days of a payment.\n',
  })
  const client = new ServiceClient({ baseUrl: emulator.url, privateKey: PRIVATE_KEY })
  await client.uploadDocuments(target, [{ name: 'refunds.md', path: `${workspace.dir}/refunds.md` }])
  await client.close()
})
afterEach(async () => {
  await emulator.close()
  await github.close()
  workspace.remove()
})

function ask(inputs: Record<string, string> = {}) {
  return runAction({
    action: 'run-flow/action.yml',
    eventName: 'pull_request',
    payload,
    inputs: {
      'base-url': emulator.url,
      'flow-id': target.flowId,
      'org-id': target.orgId,
      'public-key': PUBLIC_KEY,
      'github-token': GITHUB_TOKEN,
      inputs: '{"in-0": "How long are refunds granted?"}',
      expect: '14 days',
      ...inputs,
    },
    env: { GITHUB_API_URL: github.url, GITHUB_RUN_ID: '4242', GITHUB_SERVER_URL: 'https://github.com' },
  })
}

const ours = () => github.comments.filter((c) => c.body.startsWith('<!-- kb-sync'))

describe('run-flow pull-request comment', () => {
  it('the first run creates the comment, the second updates the same one', async () => {
    const first = await ask()
    expect(first.status).toBe(0)
    expect(ours()).toHaveLength(1)
    const id = ours()[0].id
    expect(ours()[0].issue).toBe(prNumber)
    expect(ours()[0].body).toContain(
      '### Flow check\n\n**✅ 1 of 1 checks passed (100.0%); threshold 100%.**',
    )
    expect(ours()[0].body).toContain('14 days')
    expect(ours()[0].body).toContain(headSha.slice(0, 12))
    expect(ours()[0].body).toContain('https://github.com/octo-org/docs/actions/runs/4242')

    const second = await ask({ expect: 'thirty days' })
    expect(second.status).toBe(1)
    expect(ours()).toHaveLength(1)
    expect(ours()[0].id).toBe(id)
    expect(ours()[0].body).toContain(
      '**❌ 0 of 1 checks passed (0.0%), below the threshold 100%: 1 failed.**',
    )
    expect(github.requests.filter((r) => r.method === 'POST')).toHaveLength(1)
    expect(github.requests.filter((r) => r.method === 'PATCH')).toHaveLength(1)
    for (const run of [first, second]) {
      // The runner's own mask registrations are the one place a secret is written.
      const printed = run.stdout.split('\n').filter((line) => !line.startsWith('::add-mask::'))
      expect(printed.join('\n') + run.summary + JSON.stringify(run.outputs)).not.toContain(GITHUB_TOKEN)
      expect(ours()[0].body).not.toContain(PUBLIC_KEY)
    }
  })

  it('two comment keys keep two comments', async () => {
    await ask({ 'comment-key': 'smoke' })
    await ask({ 'comment-key': 'release' })
    await ask({ 'comment-key': 'smoke' })
    expect(ours()).toHaveLength(2)
    expect(ours().map((c) => c.body.split('\n')[0])).toEqual([
      `<!-- kb-sync run-flow ${target.flowId} smoke -->`,
      `<!-- kb-sync run-flow ${target.flowId} release -->`,
    ])
  })

  it('a token that cannot write: a notice naming the permission, and the step keeps its own verdict', async () => {
    github.refuseWrites = 403
    const passing = await ask()
    expect(passing.status).toBe(0)
    expect(passing.stdout).toMatch(/^::notice::.*HTTP 403.*"pull-requests: write"/m)
    const failing = await ask({ expect: 'thirty days' })
    expect(failing.status).toBe(1)
    expect(failing.stdout).toMatch(/^::error::.*does not match "expect"/m)
    expect(github.comments).toHaveLength(0)
  })

  it('comment: false posts nothing; outside pull requests nothing is posted by default', async () => {
    expect((await ask({ comment: 'false' })).status).toBe(0)
    const push = await runAction({
      action: 'run-flow/action.yml',
      eventName: 'push',
      inputs: {
        'base-url': emulator.url,
        'flow-id': target.flowId,
        'org-id': target.orgId,
        'public-key': PUBLIC_KEY,
        'github-token': GITHUB_TOKEN,
        inputs: '{"in-0": "refunds"}',
      },
      env: { GITHUB_API_URL: github.url },
    })
    expect(push.status).toBe(0)
    expect(github.requests).toHaveLength(0)
  })
})
