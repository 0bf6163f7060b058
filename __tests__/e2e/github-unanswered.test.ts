// A GitHub API that accepts connections and never answers, end to end: the built index action on a
// real push (a payload from @octokit/webhooks-examples, a real origin and depth-1 checkouts), the
// emulator as the service. All of a run's GitHub requests share one budget, set short here through
// KB_SYNC_GITHUB_DEADLINE_SECONDS (the code enforces it): the first request that gets no answer gives
// the API up, the sync goes on with its fallback, and no later request is sent — the server counts them.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { sentByMethod } from '../helpers/emulator-sent.js'
import { GitFixture, type WorkingCopy } from '../helpers/git-fixture.js'
import { GITHUB_TOKEN, PRIVATE_KEY } from '../helpers/keys.js'
import { runAction } from '../helpers/run-action.js'
import { pullRequestExample, webhookExamples } from '../helpers/webhook-examples.js'
import { makeWorkspace } from '../helpers/workspace.js'
import { WorkflowRunsServer } from '../helpers/workflow-runs-server.js'

const ids = { 'flow-id': 'flow-silent', 'org-id': 'org-silent', 'node-id': 'knowledgebase-1' }
const ZERO = '0'.repeat(40)
const DEADLINE_SECONDS = '1'
const UNANSWERED = "GitHub's API did not answer within 1 s; it is not asked again in this run"

let fixture: GitFixture
let author: WorkingCopy
let emulator: Emulator
let api: WorkflowRunsServer

beforeEach(async () => {
  fixture = GitFixture.create()
  author = fixture.author()
  emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: 'pub-unused-key' })
  // Every path of it (runs, compare, comments) accepts the request and never answers.
  api = new WorkflowRunsServer()
  await api.start()
})
afterEach(async () => {
  await Promise.all([emulator.close(), api.close()])
  fixture.cleanup()
})

/** A real push payload from GitHub, for this repository's before..after. */
function pushPayload(before: string, after: string, forced = false): Record<string, unknown> {
  return {
    ...structuredClone(webhookExamples('push')[0]),
    ref: 'refs/heads/main',
    before,
    after,
    created: before === ZERO,
    deleted: false,
    forced,
    // The payload a workflow gets has no per-commit file lists.
    commits: [],
  }
}

async function pushRun(payload: Record<string, unknown>, number: number) {
  return runAction({
    action: 'action.yml',
    workspace: fixture.checkout({ name: `run-${number}` }).dir,
    eventName: 'push',
    payload,
    inputs: {
      'base-url': emulator.url,
      ...ids,
      'private-key': PRIVATE_KEY,
      files: 'docs/**',
      'github-token': GITHUB_TOKEN,
    },
    env: {
      GITHUB_API_URL: api.url,
      GITHUB_REPOSITORY: 'octo-org/docs',
      GITHUB_WORKFLOW_REF: 'octo-org/docs/.github/workflows/docs.yml@refs/heads/main',
      GITHUB_REF: 'refs/heads/main',
      GITHUB_RUN_ID: String(9_000_000 + number),
      GITHUB_RUN_NUMBER: String(number),
      KB_SYNC_GITHUB_DEADLINE_SECONDS: DEADLINE_SECONDS,
    },
  })
}

const warnings = (stdout: string) => stdout.split('\n').filter((line) => line.startsWith('::warning::'))

describe('a GitHub API that never answers', () => {
  it("goes on with the push's before..after, its removals blanked, after one request", async () => {
    author.write('docs/a.md').write('docs/b.md').write('docs/gone.md')
    const seed = author.commit('seed')
    author.push()
    // The first sync, while the API still answered (no run yet: every selected file).
    expect((await pushRun(pushPayload(ZERO, seed), 1)).status).toBe(0)
    author.write('docs/a.md', 'a, second\n').remove('docs/gone.md')
    const after = author.commit('edit a, delete gone')
    author.push()
    api.failure = { hang: true }
    const mark = { service: emulator.requests().length, api: api.requests.length }

    const run = await pushRun(pushPayload(seed, after), 2)
    expect(run.status).toBe(0)
    expect(sentByMethod(emulator, mark.service)).toEqual({ POST: [], PATCH: ['docs/a.md', 'docs/gone.md'] })
    expect(JSON.parse(run.outputs.removed)).toEqual(['docs/gone.md'])
    expect(run.outputs).toMatchObject({ base: seed, 'base-source': 'push' })
    expect(warnings(run.stdout)).toEqual([
      `::warning::Change detection: the last successful sync cannot be looked up (the workflow runs API cannot answer: ${UNANSWERED}); using the push's before commit.`,
    ])
    expect(api.requests.slice(mark.api).map((request) => request.path)).toEqual([
      '/repos/octo-org/docs/actions/workflows/docs.yml/runs',
    ])
  })

  it('does not ask the compare API after the runs API went silent: every selected file, one request', async () => {
    author.write('docs/a.md').write('docs/b.md')
    author.commit('seed')
    author.push()
    author.write('docs/a.md', 'a, second\n')
    const after = author.commit('edit a')
    author.push()
    api.failure = { hang: true }
    // A force push from a commit that origin no longer has: git cannot tell, the payload lists cannot
    // be used, and the compare API would be next.
    const lost = 'f'.repeat(40)

    const run = await pushRun(pushPayload(lost, after, true), 2)
    expect(run.status).toBe(0)
    expect(sentByMethod(emulator)).toEqual({ POST: ['docs/a.md', 'docs/b.md'], PATCH: [] })
    expect(run.outputs).toMatchObject({ base: '', 'base-source': 'none' })
    const [lookup, changeSet] = warnings(run.stdout)
    expect(lookup).toContain(`the workflow runs API cannot answer: ${UNANSWERED}`)
    expect(changeSet).toContain(`compare API: ${UNANSWERED}`)
    expect(changeSet).toContain('every selected file')
    // The runs request only: the compare API was not asked.
    expect(api.requests).toHaveLength(1)
  })

  it("a pull request's preview: the compare API goes silent, and no comment is attempted", async () => {
    // No checkout: what merging would change is asked of the compare API.
    const workspace = makeWorkspace({ 'docs/a.md': 'a\n', 'docs/b.md': 'b\n' })
    api.failure = { hang: true }
    try {
      const run = await runAction({
        action: 'action.yml',
        workspace: workspace.dir,
        eventName: 'pull_request',
        payload: pullRequestExample('synchronize'),
        inputs: {
          'base-url': emulator.url,
          ...ids,
          'private-key': PRIVATE_KEY,
          files: 'docs/**',
          'github-token': GITHUB_TOKEN,
        },
        env: {
          GITHUB_API_URL: api.url,
          GITHUB_REPOSITORY: 'octo-org/docs',
          KB_SYNC_GITHUB_DEADLINE_SECONDS: DEADLINE_SECONDS,
        },
      })
      expect(run.status).toBe(0)
      expect(JSON.parse(run.outputs.planned)).toEqual([
        { name: 'docs/a.md', operation: 'upsert' },
        { name: 'docs/b.md', operation: 'upsert' },
      ])
      expect(run.stdout).toContain(`compare API: ${UNANSWERED}`)
      expect(run.stdout).toContain(`::notice::The pull-request comment could not be posted: ${UNANSWERED}.`)
      // The compare request only: neither its other side nor the comment's listing was sent.
      expect(api.requests.map((request) => request.path)).toEqual([
        expect.stringMatching(/^\/repos\/.+\/compare\//),
      ])
    } finally {
      workspace.remove()
    }
  })
})
