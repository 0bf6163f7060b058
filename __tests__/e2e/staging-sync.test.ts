// A staging node end to end: the built index action with `pull-request: index` in pull_request events,
// each run in a depth-1 checkout of the merge commit GitHub would make, the emulator as the service, and
// a local server listing this workflow's runs (each with the pull request it merged and its exit status).
// After every run the node holds exactly the checkout's selected documents, apart from the names the run
// reports as removed (blanking those is the `removed` input's job).
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { startCommentsServer, type CommentsServer } from '../helpers/github-comments-server.js'
import { GitFixture, type WorkingCopy } from '../helpers/git-fixture.js'
import { GITHUB_TOKEN, PRIVATE_KEY } from '../helpers/keys.js'
import { runAction } from '../helpers/run-action.js'
import { forwardTo, WorkflowRunsServer } from '../helpers/workflow-runs-server.js'
import { pullRequestExample } from '../helpers/webhook-examples.js'

const ids = { 'flow-id': 'flow-staging', 'org-id': 'org-staging', 'node-id': 'knowledgebase-staging' }
const target = `${ids['org-id']}/${ids['flow-id']}/${ids['node-id']}`

const synchronize = pullRequestExample('opened')

interface PullRequest {
  number: number
  base: string
  head: string
}

function pullRequestPayload(pr: PullRequest) {
  const payload = structuredClone(synchronize) as {
    number: number
    pull_request: { number: number; base: { sha: string }; head: { sha: string } }
  }
  payload.number = pr.number
  payload.pull_request.number = pr.number
  payload.pull_request.base.sha = pr.base
  payload.pull_request.head.sha = pr.head
  return payload
}

let fixture: GitFixture
let author: WorkingCopy
let emulator: Emulator
let runs: WorkflowRunsServer
let github: CommentsServer

beforeEach(async () => {
  fixture = GitFixture.create()
  author = fixture.author()
  emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: 'pub-unused-key' })
  github = await startCommentsServer({ owner: 'octo-org', repo: 'docs' })
  runs = new WorkflowRunsServer()
  runs.others = forwardTo(github.url)
  await runs.start()
})
afterEach(async () => {
  await Promise.all([emulator.close(), runs.close(), github.close()])
  fixture.cleanup()
})

const branch = (name: string, from: string, edit: (copy: WorkingCopy) => void) =>
  author.branch(name, from, edit)

/** Runs the action as the next run of staging.yml, for `pr`, and lists the run with its conclusion. */
async function stagingSync(pr: PullRequest, inputs: Record<string, string> = {}) {
  const number = runs.runs.length + 1
  // refs/pull/N/merge: the base merged with the head.
  author.git('checkout', '-q', '--detach', pr.base)
  author.git('merge', '-q', '--no-ff', '--no-edit', pr.head)
  author.push(`merge-${number}`)
  const checkout = fixture.checkout({ branch: `merge-${number}`, name: `run-${number}` })
  const run = await runAction({
    action: 'action.yml',
    workspace: checkout.dir,
    eventName: 'pull_request',
    payload: pullRequestPayload(pr),
    inputs: {
      'base-url': emulator.url,
      ...ids,
      'private-key': PRIVATE_KEY,
      files: 'docs/**',
      'pull-request': 'index',
      'github-token': GITHUB_TOKEN,
      comment: 'false',
      ...inputs,
    },
    env: {
      GITHUB_API_URL: runs.url,
      GITHUB_WORKFLOW_REF: `octo-org/docs/.github/workflows/docs.yml@refs/pull/${pr.number}/merge`,
      GITHUB_REF: `refs/pull/${pr.number}/merge`,
      GITHUB_RUN_ID: String(9_000_000 + number),
      GITHUB_RUN_NUMBER: String(number),
    },
  })
  runs.add({
    head_sha: pr.head,
    head_branch: `pr-${pr.number}`,
    event: 'pull_request',
    conclusion: run.status === 0 ? 'success' : 'failure',
    pull_requests: [pr],
  })
  return { run, dir: checkout.dir }
}

/** The checkout's documents (name → sha256 of the content). */
function checkoutDocuments(dir: string): Map<string, string> {
  const found = new Map<string, string>()
  for (const entry of fs.readdirSync(path.join(dir, 'docs'), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const file = path.join(entry.parentPath, entry.name)
    found.set(
      path.relative(dir, file).split(path.sep).join('/'),
      createHash('sha256').update(fs.readFileSync(file)).digest('hex'),
    )
  }
  return found
}

/** The node equals the checkout: every document with its content; any other name reported removed. */
function expectNodeEqualsCheckout(dir: string, removedOutput: string): void {
  const node = new Map(
    emulator.documents(ids['flow-id'], ids['org-id'], ids['node-id']).map((d) => [d.name, d.sha256]),
  )
  const checkout = checkoutDocuments(dir)
  for (const [name, sha256] of checkout) expect([name, node.get(name)]).toEqual([name, sha256])
  const extra = [...node.keys()].filter((name) => !checkout.has(name)).sort()
  expect(extra).toEqual((JSON.parse(removedOutput) as string[]).filter((name) => node.has(name)).sort())
}

describe('pull-request: index keeps a staging node equal to the checkout', () => {
  it('pull request 1, pull request 2, a push to main, pull request 1 again', async () => {
    author.write('docs/a.md').write('docs/b.md').write('docs/c.md').write('docs/keep.md').write('README.md')
    const main0 = author.commit('main')
    author.push()

    const pr1: PullRequest = {
      number: 1,
      base: main0,
      head: branch('pr-1', main0, (c) =>
        c.write('docs/a.md', 'a by pr 1\n').write('docs/new1.md').remove('docs/b.md'),
      ),
    }
    const first = await stagingSync(pr1)
    expect(first.run.status).toBe(0)
    // No earlier run: every selected file, with the warning, in the log and the summary.
    expect(first.run.stdout).toMatch(
      /^::warning::Change detection: what the staging node holds is unknown \(no earlier successful run of docs\.yml\)/m,
    )
    expect(first.run.summary).toContain(
      `change set: staging knowledge base ${target}: every selected file by upsert`,
    )
    expect(first.run.summary).toMatch(
      /^> Change detection: every selected file by upsert .*extra documents may remain\.$/m,
    )
    expectNodeEqualsCheckout(first.dir, first.run.outputs.removed)

    const pr2: PullRequest = {
      number: 2,
      base: main0,
      head: branch('pr-2', main0, (c) => c.write('docs/c.md', 'c by pr 2\n')),
    }
    const second = await stagingSync(pr2, { comment: 'true' })
    expect(second.run.status).toBe(0)
    // Pull request 1's names are sent again from this checkout (main's content); its new document is removed.
    expect(JSON.parse(second.run.outputs.updated).sort()).toEqual(['docs/a.md', 'docs/c.md'])
    expect(JSON.parse(second.run.outputs.uploaded)).toEqual(['docs/b.md'])
    expect(JSON.parse(second.run.outputs.removed)).toEqual(['docs/new1.md'])
    expectNodeEqualsCheckout(second.dir, second.run.outputs.removed)
    // The first line of the summary and of the comment (markdown escapes taken off).
    const firstLine =
      `change set: staging knowledge base ${target}: the names that can differ from what the last ` +
      'successful sync, run #1 (pull request #1), left in the node, sent from this checkout (git diff)'
    const unescaped = (text: string) => text.replace(/\\(.)/g, '$1')
    expect(unescaped(second.run.summary.split('\n')[2])).toContain(firstLine)
    expect(github.comments).toHaveLength(1)
    expect(github.comments[0].issue).toBe(2)
    expect(unescaped(github.comments[0].body)).toContain(firstLine)

    // A push to main, then pull request 1 again on the new main.
    author.git('checkout', '-q', 'main')
    author.write('docs/keep.md', 'keep on main\n').write('docs/main.md')
    const main1 = author.commit('main again')
    author.push()
    author.git('checkout', '-q', 'pr-1')
    author.write('docs/new1.md', 'new1, second\n')
    const pr1Again: PullRequest = { number: 1, base: main1, head: author.commit('pr 1 again') }
    author.push('pr-1')
    const third = await stagingSync(pr1Again)
    expect(third.run.status).toBe(0)
    expect(JSON.parse(third.run.outputs.removed)).toEqual(['docs/b.md'])
    expectNodeEqualsCheckout(third.dir, third.run.outputs.removed)
    // README.md is not selected: never sent, never removed.
    expect(
      emulator
        .requests()
        .flatMap((r) => r.documents ?? [])
        .map((d) => d.filename),
    ).not.toContain('README.md')
  })

  it('the runs API refusing the token: every selected file, and what the pull request deletes blanked', async () => {
    author.write('docs/a.md').write('docs/b.md').write('docs/gone.md')
    const main0 = author.commit('main')
    author.push()
    const pr1: PullRequest = {
      number: 1,
      base: main0,
      head: branch('pr-1', main0, (c) => c.write('docs/a.md', 'a by pr 1\n')),
    }
    expect((await stagingSync(pr1)).run.status).toBe(0)
    // The token loses actions: read; pull request 2 deletes a document the node holds.
    runs.failure = { status: 403, message: 'Resource not accessible by integration' }
    const pr2: PullRequest = {
      number: 2,
      base: main0,
      head: branch('pr-2', main0, (c) => c.remove('docs/gone.md')),
    }
    const mark = emulator.requests().length
    const second = await stagingSync(pr2)
    expect(second.run.status).toBe(0)
    expect(second.run.stdout).toMatch(
      /::warning::Change detection: what the staging node holds is unknown \(.*HTTP 403/,
    )
    expect(JSON.parse(second.run.outputs.removed)).toEqual(['docs/gone.md'])
    const patched = emulator
      .requests()
      .slice(mark)
      .filter((request) => request.method === 'PATCH' && request.status === 200)
      .flatMap((request) => (request.documents ?? []).map((document) => document.filename))
    expect(patched.sort()).toEqual(['docs/a.md', 'docs/b.md', 'docs/gone.md'])
    expectNodeEqualsCheckout(second.dir, second.run.outputs.removed)
  })
})
