// The record as a GitHub Actions artifact on nodes that several runs write: a staging node through pull
// requests (another branch, a re-run of an older run, a pull request closed), and shards of one matrix.
// The built index action, the real @actions/artifact client against the stand-in of GitHub's artifact
// service, real git checkouts, the emulator as the service; after every run the node equals the checkout.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import {
  checkoutDocuments,
  entries,
  nodeContents,
  recordKey,
  runRecorded,
  startArtifactWorld,
  type ArtifactWorld,
} from '../helpers/artifact-runs.js'
import { sentByMethod } from '../helpers/emulator-sent.js'
import { GitFixture, type WorkingCopy } from '../helpers/git-fixture.js'
import { PRIVATE_KEY } from '../helpers/keys.js'
import { pullRequestExample } from '../helpers/webhook-examples.js'

const ids = { 'flow-id': 'flow-staging', 'org-id': 'org-staging', 'node-id': 'knowledgebase-staging' }

let fixture: GitFixture
let author: WorkingCopy
let emulator: Emulator
let world: ArtifactWorld

beforeEach(async () => {
  fixture = GitFixture.create()
  author = fixture.author()
  emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: 'pub-unused-key' })
  world = await startArtifactWorld()
})
afterEach(async () => {
  await Promise.all([emulator.close(), world.close()])
  fixture.cleanup()
})

/** The summary's markdown without its escapes. */
const unescaped = (text: string) => text.replace(/\\(.)/g, '$1')

/** The node holds the checkout's documents, and a placeholder under each of `blanked`. */
function expectNode(dir: string, blanked: string[]): void {
  const expected = checkoutDocuments(dir)
  for (const name of blanked) expected.set(name, 'placeholder')
  const commits = author.git('rev-list', '--all').trim().split('\n')
  expect(entries(nodeContents(emulator, ids, commits))).toEqual(entries(expected))
}

describe('a staging node (pull-request: index) through several pull requests', () => {
  interface PullRequest {
    number: number
    base: string
    head: string
  }

  function payloadOf(pr: PullRequest, action = 'synchronize') {
    const payload = structuredClone(pullRequestExample(action)) as {
      number: number
      after?: string
      pull_request: { number: number; base: { sha: string }; head: { sha: string } }
    }
    payload.number = pr.number
    payload.pull_request.number = pr.number
    payload.pull_request.base.sha = pr.base
    payload.pull_request.head.sha = pr.head
    // synchronize: the pull request's new head.
    payload.after = pr.head
    return payload
  }

  /** refs/pull/N/merge: the base merged with the head, checked out at depth 1. */
  function mergeCheckout(pr: PullRequest, name: string): string {
    author.git('checkout', '-q', '--detach', pr.base)
    author.git('merge', '-q', '--no-ff', '--no-edit', pr.head)
    author.push(name)
    return fixture.checkout({ branch: name, name }).dir
  }

  async function stagingRun(
    pr: PullRequest,
    dir: string,
    run: { id: number; number: number; attempt?: number },
  ) {
    const result = await runRecorded({
      world,
      emulator,
      ids,
      workspace: dir,
      runId: run.id,
      runNumber: run.number,
      runAttempt: run.attempt,
      eventName: 'pull_request',
      payload: payloadOf(pr),
      ref: `refs/pull/${pr.number}/merge`,
      inputs: { 'pull-request': 'index' },
    })
    world.runs.add({
      head_sha: pr.head,
      head_branch: `pr-${pr.number}`,
      event: 'pull_request',
      conclusion: result.status === 0 ? 'success' : 'failure',
      pull_requests: [pr],
    })
    return result
  }

  it('another pull request, a re-run of an older run, a closed pull request: the node equals each checkout', async () => {
    author.write('docs/a.md').write('docs/b.md').write('docs/keep.md')
    const main0 = author.commit('main')
    author.push()
    const pr1: PullRequest = {
      number: 1,
      base: main0,
      head: author.branch('pr-1', main0, (c) => c.write('docs/a.md', 'a by pr 1\n').write('docs/new1.md')),
    }
    const pr2: PullRequest = {
      number: 2,
      base: main0,
      head: author.branch('pr-2', main0, (c) => c.write('docs/b.md', 'b by pr 2\n').write('docs/new2.md')),
    }

    const pr1Dir = mergeCheckout(pr1, 'merge-1')
    const first = await stagingRun(pr1, pr1Dir, { id: 9001, number: 1 })
    expect(first.status).toBe(0)
    expect(first.stdout).toContain('::notice::No record of this knowledge base yet')
    expectNode(pr1Dir, [])

    // Pull request 2's branch lacks new1.md: blanked; a.md back to main's; its own new2.md uploaded.
    const pr2Dir = mergeCheckout(pr2, 'merge-2')
    const from = emulator.requests().length
    const second = await stagingRun(pr2, pr2Dir, { id: 9002, number: 2 })
    expect(second.status).toBe(0)
    expect(second.outputs['base-source']).toBe('state')
    expect(JSON.parse(second.outputs.removed)).toEqual(['docs/new1.md'])
    expect(sentByMethod(emulator, from)).toEqual({
      POST: ['docs/new2.md'],
      PATCH: ['docs/a.md', 'docs/b.md', 'docs/new1.md'],
    })
    expectNode(pr2Dir, ['docs/new1.md'])

    // A re-run of pull request 1's run: the same run id, attempt 2, reads the record run 9002 wrote.
    const rerun = await stagingRun(pr1, pr1Dir, { id: 9001, number: 1, attempt: 2 })
    expect(rerun.status).toBe(0)
    expect(rerun.outputs['base-source']).toBe('state')
    expect(rerun.outputs.record).toContain('of run 9002')
    expect(unescaped(rerun.summary)).toContain(
      "Base: the knowledge base's record, written by run #2 (id 9002), pull_request, pull request #2 at",
    )
    expect(JSON.parse(rerun.outputs.removed)).toEqual(['docs/new2.md'])
    expectNode(pr1Dir, ['docs/new2.md'])

    // Pull request 1 closed: GitHub empties its runs' pull_requests; pull request 3 runs next.
    for (const listed of world.runs.runs) if (listed.head_branch === 'pr-1') listed.pull_requests = []
    const pr3: PullRequest = {
      number: 3,
      base: main0,
      head: author.branch('pr-3', main0, (c) => c.write('docs/new3.md')),
    }
    const pr3Dir = mergeCheckout(pr3, 'merge-3')
    const later = await stagingRun(pr3, pr3Dir, { id: 9003, number: 3 })
    expect(later.status).toBe(0)
    expect(later.outputs['base-source']).toBe('state')
    expect(unescaped(later.summary)).toContain(
      "Base: the knowledge base's record, written by run #1 (id 9001, attempt 2), pull_request, pull request #1 at",
    )
    // What only pull request 1 had is blanked, from the record, whatever the runs' listing says.
    expect(JSON.parse(later.outputs.removed)).toEqual(['docs/new1.md'])
    expectNode(pr3Dir, ['docs/new1.md', 'docs/new2.md'])
  })
})

describe('shards of one matrix', () => {
  const NAMES = Array.from({ length: 12 }, (_, i) => `docs/page-${String(i).padStart(2, '0')}.md`)

  /** The jobs of workflow run `runId`, one per shard, at once. */
  function matrix(runId: number, count: number, dir: string, event: { name: string; payload?: unknown }) {
    return Promise.all(
      Array.from({ length: count }, (_, i) =>
        runRecorded({
          world,
          emulator,
          ids,
          workspace: dir,
          runId,
          eventName: event.name,
          payload: event.payload,
          inputs: { shard: `${i + 1}/${count}` },
        }),
      ),
    )
  }

  it('three shards each keep their record; a later run of each sends nothing; four shards fall back and complete the node', async () => {
    for (const name of NAMES) author.write(name)
    const main0 = author.commit('seed')
    author.push()
    const dir0 = fixture.checkout({ name: 'run-1' }).dir

    const three = await matrix(701, 3, dir0, { name: 'workflow_dispatch' })
    for (const run of three) expect(run.status).toBe(0)
    world.runs.add({ head_sha: main0, event: 'workflow_dispatch', conclusion: 'success' })
    for (let i = 1; i <= 3; i++) {
      const written = world.artifacts.artifacts.filter((a) =>
        a.name.startsWith(recordKey(emulator, ids, { index: i, count: 3 })),
      )
      expect(written.map((a) => a.runId)).toEqual([701, 701])
    }
    expectNode(dir0, [])

    const before = emulator.requests().length
    const again = await matrix(702, 3, dir0, { name: 'workflow_dispatch' })
    world.runs.add({ head_sha: main0, event: 'workflow_dispatch', conclusion: 'success' })
    for (const [i, run] of again.entries()) {
      expect(run.status).toBe(0)
      expect(run.outputs['base-source']).toBe('state')
      expect(run.outputs.record).toContain(`${recordKey(emulator, ids, { index: i + 1, count: 3 })}`)
    }
    expect(emulator.requests().length).toBe(before)

    // Four shards after a push: no record of that partition, each infers its part from history.
    author.git('checkout', '-q', 'main')
    author.write(NAMES[0], 'changed\n').write('docs/page-new.md')
    const main1 = author.commit('push')
    author.push()
    const dir1 = fixture.checkout({ name: 'run-3' }).dir
    const from = emulator.requests().length
    const four = await matrix(703, 4, dir1, {
      name: 'push',
      payload: {
        ref: 'refs/heads/main',
        before: main0,
        after: main1,
        created: false,
        deleted: false,
        forced: false,
      },
    })
    for (const run of four) {
      expect(run.status).toBe(0)
      expect(run.stdout).toContain('::notice::No record of this knowledge base yet')
      expect(run.outputs['base-source']).not.toBe('state')
    }
    const sent = sentByMethod(emulator, from)
    expect([...sent.POST, ...sent.PATCH].sort()).toEqual([NAMES[0], 'docs/page-new.md'])
    expectNode(dir1, [])
    for (const document of emulator.documents(ids['flow-id'], ids['org-id'], ids['node-id']))
      expect([document.name, document.created]).toEqual([document.name, 1])

    // Their records are exact: a later run of the four sends nothing.
    world.runs.add({ head_sha: main1, event: 'push', conclusion: 'success' })
    const settled = emulator.requests().length
    for (const run of await matrix(704, 4, dir1, { name: 'workflow_dispatch' })) {
      expect(run.status).toBe(0)
      expect(run.outputs['base-source']).toBe('state')
    }
    expect(emulator.requests().length).toBe(settled)
  })
})
