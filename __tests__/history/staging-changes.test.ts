// The staging node's change set across a sequence of pull requests and pushes: real repositories (an
// origin, GitHub-like merge commits checked out at depth 1) and a local server listing this workflow's
// runs, each pull_request run with the base and head it merged.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import fs from 'node:fs'
import path from 'node:path'
import type { WorkflowRunOutcome } from '../../src/github/workflow.js'
import { detectStagingChanges, MAX_RUNS_SINCE } from '../../src/history/staging-changes.js'
import { stagingRemovals } from '../../src/history/staging-removals.js'
import { CompareServer } from '../helpers/compare-server.js'
import { GitFixture, type WorkingCopy } from '../helpers/git-fixture.js'
import { GITHUB_TOKEN } from '../helpers/keys.js'
import { recordingLog } from '../helpers/log.js'
import { type ListedRun, WorkflowRunsServer } from '../helpers/workflow-runs-server.js'
import { LookupBudget } from '../../src/github/lookup-budget.js'

let fixture: GitFixture
let author: WorkingCopy
let runs: WorkflowRunsServer
let main0: string

/** Branches committed but not pushed yet: they go to origin with the next merge commit, in one push. */
let unpushed: Set<string>
beforeEach(async () => {
  fixture = GitFixture.create()
  mergedBranches = new Map()
  runs = new WorkflowRunsServer()
  await runs.start()
})

/** For the cases that use git: main with four docs, committed (pushed with the first merge commit). */
function seededMain(): void {
  beforeEach(() => {
    author = fixture.author()
    author.write('docs/a.md').write('docs/b.md').write('docs/c.md').write('docs/keep.md')
    main0 = author.commit('main')
    unpushed = new Set(['main'])
  })
}
afterEach(async () => {
  await runs.close()
  fixture.cleanup()
})

/** A pull request's branch from `from`, edited by `edit` and committed (pushed with the next merge). */
function pullRequestBranch(name: string, from: string, edit: (copy: WorkingCopy) => void): string {
  author.git('checkout', '-q', '-B', name, from)
  edit(author)
  const head = author.commit(name)
  unpushed.add(name)
  return head
}

/**
 * What GitHub's refs/pull/N/merge holds: base merged with head, pushed so a checkout can clone it
 * (with the branches committed since the last push).
 */
let merges = 0
let checkouts = 0
/** The merge branch of each base..head merged so far in the case: GitHub's is one commit too. */
let mergedBranches: Map<string, string>
function mergeCommit(base: string, head: string): string {
  const merged = mergedBranches.get(`${base}..${head}`)
  if (merged) return merged
  author.git('checkout', '-q', '--detach', base)
  author.git('merge', '-q', '--no-ff', '--no-edit', head)
  const branch = `merge-${++merges}`
  const branches = [...unpushed].map((name) => `refs/heads/${name}:refs/heads/${name}`)
  author.git('push', '-q', 'origin', ...branches, `HEAD:refs/heads/${branch}`)
  unpushed.clear()
  mergedBranches.set(`${base}..${head}`, branch)
  return branch
}

interface PullRequest {
  number: number
  base: string
  head: string
}

/** Runs the change detection as run `number` of docs.yml in a checkout of the merge commit (depth 1). */
async function stagingRun(
  pr: PullRequest,
  options: { workspace?: string; depth?: number; payload?: Record<string, unknown> } = {},
) {
  const number = runs.runs.length + 1
  const dir =
    options.workspace ??
    fixture.checkout({
      branch: mergeCommit(pr.base, pr.head),
      name: `run-${number}-${++checkouts}`,
      depth: options.depth,
    }).dir
  const { log, of } = recordingLog()
  const workflow: WorkflowRunOutcome = {
    ok: true,
    run: {
      owner: 'octo-org',
      repo: 'docs',
      workflowFile: 'docs.yml',
      branch: '',
      runId: 9_000_000 + number,
      runNumber: number,
    },
  }
  const changes = await detectStagingChanges({
    github: new LookupBudget(),
    payload: {
      ...options.payload,
      pull_request: { number: pr.number, base: { sha: pr.base }, head: { sha: pr.head } },
    },
    workspace: dir,
    patterns: ['docs/**'],
    repository: { owner: 'octo-org', repo: 'docs' },
    githubToken: GITHUB_TOKEN,
    apiUrl: runs.url,
    workflow,
    log,
  })
  return { changes, warnings: of('warning').map((line) => line.message), dir }
}

/** Lists a pull_request run as GitHub does. */
function listPullRequestRun(pr: PullRequest, conclusion: ListedRun['conclusion'] = 'success'): ListedRun {
  return runs.add({
    head_sha: pr.head,
    head_branch: `pr-${pr.number}`,
    event: 'pull_request',
    conclusion,
    pull_requests: [pr],
  })
}

describe('staging change set across pull requests and pushes', () => {
  seededMain()

  it('restores what earlier pull requests changed, removes what they added, follows main and failed runs', async () => {
    // Pull request 1 changes a.md, adds new1.md and deletes b.md.
    const pr1: PullRequest = {
      number: 1,
      base: main0,
      head: pullRequestBranch('pr-1', main0, (c) =>
        c.write('docs/a.md', 'a by pr 1\n').write('docs/new1.md').remove('docs/b.md'),
      ),
    }
    const first = await stagingRun(pr1)
    // Nothing synced the node before: every selected file, and a warning that extra documents may remain;
    // the name the pull request itself deletes is removed even so.
    expect(first.changes.decision).toEqual({
      kind: 'all',
      source: 'full-sync',
      reason: 'what the staging node holds is unknown (no earlier successful run of docs.yml)',
      removed: ['docs/b.md'],
    })
    expect(first.warnings).toEqual([
      expect.stringContaining(
        'documents that earlier pull requests added and this checkout lacks may remain',
      ),
    ])
    listPullRequestRun(pr1)

    // Pull request 2 touches only c.md: pull request 1's names come back as main has them.
    const pr2: PullRequest = {
      number: 2,
      base: main0,
      head: pullRequestBranch('pr-2', main0, (c) => c.write('docs/c.md', 'c by pr 2\n')),
    }
    const second = await stagingRun(pr2)
    expect(second.changes.decision).toEqual({
      kind: 'changes',
      source: 'staging',
      added: [],
      modified: ['docs/a.md', 'docs/b.md', 'docs/c.md'],
      removed: ['docs/new1.md'],
    })
    expect(second.changes.description).toBe(
      'the names that can differ from what the last successful sync, run #1 (pull request #1), left in the ' +
        'node, sent from this checkout (git diff)',
    )
    expect(second.warnings).toEqual([])
    expect(fs.readFileSync(path.join(second.dir, 'docs/a.md'), 'utf8')).toBe('content of docs/a.md\n')
    listPullRequestRun(pr2)

    // A push to main changes keep.md and adds main.md; pull request 1 pushes again (new1.md changed).
    author.git('checkout', '-q', 'main')
    author.write('docs/keep.md', 'keep on main\n').write('docs/main.md')
    const main1 = author.commit('main again')
    author.git('checkout', '-q', 'pr-1')
    author.write('docs/new1.md', 'new1, second\n')
    const pr1Again: PullRequest = { number: 1, base: main1, head: author.commit('pr 1 again') }
    unpushed.add('main').add('pr-1')
    const third = await stagingRun(pr1Again)
    expect(third.changes.decision).toEqual({
      kind: 'changes',
      source: 'staging',
      added: [],
      modified: ['docs/a.md', 'docs/c.md', 'docs/keep.md', 'docs/main.md', 'docs/new1.md'],
      removed: ['docs/b.md'],
    })
    listPullRequestRun(pr1Again)

    // Pull request 2 again, on main1: its run fails part-way (it may have sent c.md).
    const pr2Again: PullRequest = { number: 2, base: main1, head: pr2.head }
    listPullRequestRun(pr2Again, 'failure')
    // A cancelled dry run and a skipped run sent nothing of their own.
    runs.add({
      head_sha: pr2.head,
      event: 'pull_request',
      conclusion: 'success',
      display_title: 'x [dry-run]',
    })
    // Pull request 1 once more, unchanged: the failed run's names are sent again, from this checkout.
    // In a depth-1 checkout the pull requests' own names are their base..head: main's keep.md and
    // main.md, which their branches lack, are sent again too.
    const fourth = await stagingRun(pr1Again)
    expect(fourth.changes.decision).toEqual({
      kind: 'changes',
      source: 'staging',
      added: [],
      modified: ['docs/a.md', 'docs/c.md', 'docs/keep.md', 'docs/main.md', 'docs/new1.md'],
      removed: ['docs/b.md'],
    })
    // With the whole history, from their merge bases: exactly what the two pull requests changed.
    const fullHistory = await stagingRun(pr1Again, { depth: 0 })
    expect(fullHistory.changes.decision).toEqual({
      kind: 'changes',
      source: 'staging',
      added: [],
      modified: ['docs/a.md', 'docs/c.md', 'docs/new1.md'],
      removed: ['docs/b.md'],
    })
    expect(fourth.changes.description).toBe(
      'the names that can differ from what the last successful sync, run #3 (pull request #1), and the 1 ' +
        'run(s) that failed part-way or re-ran since left in the node, sent from this checkout (git diff)',
    )
    // Every run of the workflow is listed: any branch, any event, any conclusion, pull requests included.
    for (const request of runs.requests)
      expect(Object.keys(request.query).sort()).toEqual(['page', 'per_page'])
  })

  it('counts an older run re-run after the last success: it wrote the node later', async () => {
    const pr1: PullRequest = {
      number: 1,
      base: main0,
      head: pullRequestBranch('pr-1', main0, (c) => c.write('docs/new1.md').remove('docs/b.md')),
    }
    const pr2: PullRequest = {
      number: 2,
      base: main0,
      head: pullRequestBranch('pr-2', main0, (c) => c.write('docs/c.md', 'c by pr 2\n')),
    }
    const first = listPullRequestRun(pr1, 'failure')
    const second = listPullRequestRun(pr2)
    // "Re-run all jobs" on run 1 after run 2: listed where it was created, started last, succeeded.
    Object.assign(first, {
      conclusion: 'success',
      run_attempt: 2,
      run_started_at: new Date(Date.UTC(2026, 0, 1, 1, second.run_number)).toISOString(),
    })
    const pr3: PullRequest = {
      number: 3,
      base: main0,
      head: pullRequestBranch('pr-3', main0, (c) => c.write('docs/d.md')),
    }
    const { changes } = await stagingRun(pr3)
    expect(changes.decision).toEqual({
      kind: 'changes',
      source: 'staging',
      added: [],
      modified: ['docs/b.md', 'docs/c.md', 'docs/d.md'],
      removed: ['docs/new1.md'],
    })
    expect(changes.description).toContain(
      'the last successful sync, run #2 (pull request #2), and the 1 run(s) that failed part-way or re-ran since',
    )
  })

  it('after a push run of the same workflow: the names that differ from its commit', async () => {
    author.write('docs/a.md', 'a on main\n').remove('docs/c.md')
    const main1 = author.commit('main')
    runs.add({ head_sha: main1, event: 'push', conclusion: 'success' })
    const pr: PullRequest = {
      number: 3,
      base: main1,
      head: pullRequestBranch('pr-3', main1, (c) => c.write('docs/d.md')),
    }
    const { changes } = await stagingRun(pr)
    expect(changes.decision).toEqual({
      kind: 'changes',
      source: 'staging',
      added: [],
      modified: ['docs/d.md'],
      removed: [],
    })
  })
})

describe('staging change set fallbacks: every selected file, with a warning', () => {
  seededMain()

  const pr = (): PullRequest => ({
    number: 5,
    base: main0,
    head: pullRequestBranch('pr-5', main0, (c) => c.write('docs/e.md')),
  })
  const expectFallback = (outcome: Awaited<ReturnType<typeof stagingRun>>, why: string | RegExp): void => {
    expect(outcome.changes.decision).toMatchObject({ kind: 'all', source: 'full-sync' })
    expect(outcome.changes.description).toMatch(
      /^every selected file by upsert — what the node holds is unknown/,
    )
    expect(outcome.changes.description).toMatch(/earlier pull requests' extra documents may remain$/)
    expect(outcome.changes.description).toMatch(why)
    expect(outcome.warnings).toHaveLength(1)
    expect(outcome.warnings[0]).toMatch(why)
  }

  it("a fork's run, which lists no pull request", async () => {
    runs.add({ head_sha: main0, head_branch: 'fork-main', event: 'pull_request', conclusion: 'success' })
    expectFallback(
      await stagingRun(pr()),
      "run #1 (pull_request) lists no pull request (a fork's?), so what it synced is unknown",
    )
  })

  it('the runs API refusing the token names the permission', async () => {
    runs.failure = { status: 403, message: 'Resource not accessible by integration' }
    expectFallback(await stagingRun(pr()), /HTTP 403.*grant `permissions: actions: read`/)
  })

  it('the runs API refusing: what the pull request removes, and what its new head dropped, are removed even so', async () => {
    let first = ''
    const head = pullRequestBranch('pr-3', main0, (c) => {
      c.write('docs/idea.md').remove('docs/b.md')
      first = c.commit('first head')
      c.remove('docs/idea.md')
    })
    runs.failure = { status: 403, message: 'Resource not accessible by integration' }
    const run = await stagingRun(
      { number: 3, base: main0, head },
      { payload: { action: 'synchronize', before: first, after: head } },
    )
    expect(run.changes.decision).toMatchObject({ kind: 'all', removed: ['docs/b.md', 'docs/idea.md'] })
    expect(run.changes.description).toContain('the names this pull request removes are removed')
  })

  it('no github-token, and off a runner', async () => {
    const { log, of } = recordingLog()
    const base = { payload: {}, workspace: fixture.plainFolder(), log }
    const noToken = await detectStagingChanges({
      github: new LookupBudget(),
      ...base,
      workflow: { ok: true, run: { owner: 'o', repo: 'r', workflowFile: 'docs.yml', branch: '' } },
    })
    expect(noToken.description).toContain('no github-token to list the earlier runs')
    const offRunner = await detectStagingChanges({ ...base, github: new LookupBudget() })
    expect(offRunner.description).toContain('not on a runner, so no earlier run is known')
    expect(of('warning')).toHaveLength(2)
    expect(runs.requests).toHaveLength(0)
  })

  it('full-sync: every selected file, no run looked up', async () => {
    const { log, of } = recordingLog()
    const changes = await detectStagingChanges({
      github: new LookupBudget(),
      payload: {},
      workspace: fixture.plainFolder(),
      githubToken: GITHUB_TOKEN,
      apiUrl: runs.url,
      workflow: { ok: true, run: { owner: 'octo-org', repo: 'docs', workflowFile: 'docs.yml', branch: '' } },
      fullSync: true,
      log,
    })
    expect(changes.decision).toEqual({
      kind: 'all',
      source: 'full-sync',
      reason: 'input full-sync is true: every selected file',
    })
    expect(of('warning')).toHaveLength(0)
    expect(runs.requests).toHaveLength(0)
  })

  it(`more than ${MAX_RUNS_SINCE} failed runs since the last success`, async () => {
    listPullRequestRun({ number: 1, base: main0, head: main0 })
    for (let i = 0; i <= MAX_RUNS_SINCE; i++)
      listPullRequestRun({ number: 1, base: main0, head: main0 }, i % 2 ? 'cancelled' : 'failure')
    expectFallback(
      await stagingRun(pr()),
      `${MAX_RUNS_SINCE + 1} runs since the last successful one failed, were cancelled or re-ran`,
    )
  })

  it('neither history nor the compare API: says both', async () => {
    listPullRequestRun({
      number: 1,
      base: main0,
      head: pullRequestBranch('pr-1', main0, (c) => c.write('docs/x.md')),
    })
    const plain = fixture.plainFolder()
    expectFallback(await stagingRun(pr(), { workspace: plain }), /git: .*; compare API: .*HTTP 404/)
  })
})

describe('staging change set from the compare API (no git history)', () => {
  it('reads HEAD as this pull request base..head, and the previous one base..head', async () => {
    const compare = new CompareServer('octo-org/docs')
    runs.others = compare.handle
    const previous: PullRequest = { number: 1, base: 'a'.repeat(40), head: 'b'.repeat(40) }
    const current: PullRequest = { number: 2, base: 'c'.repeat(40), head: 'd'.repeat(40) }
    listPullRequestRun(previous)
    compare.answers = {
      [`${previous.base}...${current.base}`]: { files: [{ filename: 'docs/main.md', status: 'added' }] },
      [`${current.base}...${current.head}`]: { files: [{ filename: 'docs/mine.md', status: 'modified' }] },
      [`${previous.base}...${previous.head}`]: {
        files: [
          { filename: 'docs/theirs.md', status: 'added' },
          { filename: 'README.md', status: 'modified' },
        ],
      },
    }
    // The checkout as it is on disk (no .git): theirs.md is not in it.
    const plain = fixture.plainFolder()
    for (const name of ['docs/main.md', 'docs/mine.md', 'README.md']) {
      fs.mkdirSync(path.dirname(path.join(plain, name)), { recursive: true })
      fs.writeFileSync(path.join(plain, name), 'text\n')
    }
    const { changes, warnings } = await stagingRun(current, { workspace: plain })
    expect(changes.decision).toEqual({
      kind: 'changes',
      source: 'staging',
      added: [],
      modified: ['README.md', 'docs/main.md', 'docs/mine.md'],
      removed: ['docs/theirs.md'],
    })
    expect(changes.description).toMatch(/\(git and GitHub's compare API\)$/)
    expect(warnings).toEqual([])
  })
})

describe('stagingRemovals', () => {
  it('removes changed names the selection no longer takes as documents, not name conflicts', () => {
    const changes = {
      kind: 'changes' as const,
      source: 'staging' as const,
      added: [],
      modified: ['docs/big.md', 'docs/link.md', 'docs/twin.md', 'docs/ok.md'],
      removed: [],
    }
    const skipped = [
      { kind: 'document' as const, name: 'docs/big.md', reason: 'too-large' as const, detail: '' },
      { kind: 'document' as const, name: 'docs/link.md', reason: 'symlink' as const, detail: '' },
      { kind: 'document' as const, name: 'docs/twin.md', reason: 'name-conflict' as const, detail: '' },
      { kind: 'document' as const, name: 'docs/other.md', reason: 'too-large' as const, detail: '' },
    ]
    expect(stagingRemovals(changes, { files: [], skipped })).toEqual(['docs/big.md', 'docs/link.md'])
  })
})
