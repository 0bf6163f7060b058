// The base of mode auto's change set: the last successful run of the workflow on the branch (a local
// server listing runs like GitHub, reached through octokit), diffed with git in real repositories;
// and every fallback, each with the warning that says why.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { ConfigError } from '../../src/config/errors.js'
import type { WorkflowRun } from '../../src/github/workflow.js'
import { type ChangeBaseRequest, decideChangeBase } from '../../src/history/change-base.js'
import { GitFixture, type WorkingCopy } from '../helpers/git-fixture.js'
import { recordingLog } from '../helpers/log.js'
import { WorkflowRunsServer, type ListedRun } from '../helpers/workflow-runs-server.js'
import { GITHUB_TOKEN as TOKEN } from '../helpers/keys.js'
import { LookupBudget } from '../../src/github/lookup-budget.js'

let fixture: GitFixture
let author: WorkingCopy
let server: WorkflowRunsServer
beforeEach(async () => {
  server = new WorkflowRunsServer()
  await server.start()
})
afterEach(async () => {
  await server.close()
})

/** A new origin and its author for each case: for cases that write their own history. */
function repositoryPerCase(): void {
  beforeEach(() => {
    fixture = GitFixture.create()
    author = fixture.author()
  })
  afterEach(() => fixture.cleanup())
}

/** One origin and author for a describe whose cases only read the history `build` writes. */
function repositoryPerDescribe(build: () => void): void {
  beforeAll(() => {
    fixture = GitFixture.create()
    author = fixture.author()
    build()
  })
  afterAll(() => fixture.cleanup())
}

let copies = 0
/** A case's own copy of a checkout made once (deciding may fetch into it). */
const copyOf = (checkout: WorkingCopy): WorkingCopy => fixture.copy(checkout, `copy-${++copies}`)

function pushPayload(before: string, after: string, extra: Record<string, unknown> = {}) {
  return {
    ref: 'refs/heads/main',
    before,
    after,
    created: false,
    deleted: false,
    forced: false,
    commits: [{ id: after, message: 'change' }],
    ...extra,
  }
}

/** The run being decided: the next run number of the workflow. */
function thisRun(overrides: Partial<WorkflowRun> = {}): WorkflowRun {
  const number = server.runs.length + 1
  return {
    owner: 'octo-org',
    repo: 'docs',
    workflowFile: 'docs.yml',
    branch: 'main',
    runId: 9_000_000 + number,
    runNumber: number,
    ...overrides,
  }
}

async function decide(workspace: string, overrides: Partial<ChangeBaseRequest> = {}) {
  const { log, lines } = recordingLog()
  const result = await decideChangeBase({
    eventName: 'push',
    github: new LookupBudget(),
    payload: {},
    workspace,
    repository: { owner: 'octo-org', repo: 'docs' },
    githubToken: TOKEN,
    apiUrl: server.url,
    log,
    fullSync: false,
    workflow: { ok: true, run: thisRun() },
    ...overrides,
  })
  return { ...result, lines, warningLines: lines.filter((l) => l.level === 'warning').map((l) => l.message) }
}

const success = (sha: string, extra: Partial<ListedRun> = {}) =>
  server.add({ head_sha: sha, conclusion: 'success', ...extra })

/** docs a, b, c committed and synced by a successful run (pushed with what the case adds). */
function seedSynced(): { seed: string; run: ListedRun } {
  author.write('a.md').write('b.md').write('c.md')
  const seed = author.commit('seed')
  return { seed, run: success(seed) }
}

describe('the last successful sync as the base', () => {
  repositoryPerCase()

  it('heals a failed sync: the next push sends the union of both pushes', async () => {
    const { seed, run } = seedSynced()
    author.write('a.md', 'a, second\n').remove('b.md').write('d.md')
    const first = author.commit('push A: modify a, remove b, add d')
    server.add({ head_sha: first, conclusion: 'failure' })
    author.write('c.md', 'c, second\n').write('d.md', 'd, second\n').write('e.md')
    const second = author.commit('push B: modify c and d, add e')
    author.push()

    const checkout = fixture.checkout()
    const result = await decide(checkout.dir, { payload: pushPayload(first, second) })
    expect(result.decision).toEqual({
      kind: 'changes',
      source: 'last-success',
      added: ['d.md', 'e.md'],
      modified: ['a.md', 'c.md'],
      removed: ['b.md'],
    })
    expect(result.base).toEqual({
      source: 'last-success',
      sha: seed,
      run: { id: run.id, number: 1, url: `https://github.com/octo-org/docs/actions/runs/${run.id}` },
    })
    expect(result.notices).toEqual([])
    expect(server.requests).toHaveLength(1)
  })

  it('makes a dispatch after a success send only what changed since', async () => {
    const { seed } = seedSynced()
    author.write('b.md', 'b, second\n').write('f.md')
    author.commit('after the sync')
    author.push()
    const result = await decide(fixture.checkout().dir, { eventName: 'workflow_dispatch', payload: {} })
    expect(result.decision).toEqual({
      kind: 'changes',
      source: 'last-success',
      added: ['f.md'],
      modified: ['b.md'],
      removed: [],
    })
    expect(result.base).toMatchObject({ source: 'last-success', sha: seed })
  })

  it('sends nothing on a schedule when nothing changed since the last success', async () => {
    seedSynced()
    author.push()
    const result = await decide(fixture.checkout().dir, { eventName: 'schedule', payload: {} })
    expect(result.decision).toEqual({
      kind: 'changes',
      source: 'last-success',
      added: [],
      modified: [],
      removed: [],
    })
  })

  it('diffs the trees when the last success is not an ancestor (force push)', async () => {
    author.write('a.md').write('b.md')
    const seed = author.commit('seed')
    author.write('a.md', 'a, changed then dropped\n').write('x.md')
    const synced = author.commit('later rewritten away')
    author.push()
    success(synced)
    author.git('reset', '-q', '--hard', seed)
    author.write('y.md')
    const rewritten = author.commit('rewritten history')
    server.add({ head_sha: rewritten, conclusion: 'failure' })
    author.write('b.md', 'b, second\n')
    const head = author.commit('on top of the rewrite')
    author.push('main', { force: true })

    const result = await decide(fixture.checkout().dir, { payload: pushPayload(rewritten, head) })
    // The knowledge base holds `synced`: x goes, a returns to its old text, y and b are new to it.
    expect(result.decision).toEqual({
      kind: 'changes',
      source: 'last-success',
      added: ['y.md'],
      modified: ['a.md', 'b.md'],
      removed: ['x.md'],
    })
    expect(result.base.sha).toBe(synced)
  })
})

describe('fallbacks', () => {
  let pushes: { before: string; after: string }
  /** A depth-1 checkout of main, made once: each case decides in a copy of it. */
  let checkedOut: WorkingCopy
  /** Two commits, both pushed: the seed (a, b) and one modifying a. */
  repositoryPerDescribe(() => {
    author.write('a.md').write('b.md')
    const before = author.commit('seed')
    author.write('a.md', 'a, second\n')
    const after = author.commit('modify a')
    author.push()
    pushes = { before, after }
    checkedOut = fixture.checkout()
  })
  const twoPushes = () => pushes
  const checkout = () => copyOf(checkedOut)

  it.each([
    ['401', { status: 401, message: 'Bad credentials' }],
    ['403', { status: 403, message: 'Resource not accessible by integration' }],
    ['404', { status: 404, message: 'Not Found' }],
  ])(
    'sends every selected file, with a warning naming actions: read, when the API refuses with HTTP %s',
    async (status, failure) => {
      const { before, after } = twoPushes()
      server.failure = failure
      const result = await decide(checkout().dir, { payload: pushPayload(before, after) })
      const why = `the workflow runs API refused (HTTP ${status}), grant actions: read`
      expect(result.decision).toEqual({
        kind: 'all',
        source: 'full-sync',
        reason: `${why}: every selected file`,
      })
      expect(result.base).toEqual({ source: 'none', sha: '', why: `every selected file — ${why}` })
      expect(result.notices).toEqual([
        expect.stringMatching(
          new RegExp(
            `^the last successful sync cannot be looked up \\(the workflow runs API refused: HTTP ${status}: ` +
              `${failure.message}.*\\); sending every selected file \\(by upsert\\) so the knowledge base is ` +
              'complete\\. Grant the job `permissions: actions: read`',
          ),
        ),
      ])
      expect(result.warningLines).toEqual([`Change detection: ${result.notices[0]}`])
      expect(result.lines.filter((line) => line.level === 'notice')).toEqual([])
    },
  )

  it.each([
    ['HTTP 500', { status: 500, message: 'Server Error' }, /HTTP 500/],
    [
      'a rate limit',
      { status: 403, message: 'API rate limit exceeded', headers: { 'x-ratelimit-remaining': '0' } },
      /HTTP 403.*rate limited/,
    ],
    ['garbage', { garbage: '<!doctype html><p>unicorn</p>' }, /not a list of workflow runs/],
  ])("falls back to the push's before with a warning on %s", async (_, failure, why) => {
    const { before, after } = twoPushes()
    server.failure = failure
    const result = await decide(checkout().dir, { payload: pushPayload(before, after) })
    expect(result.decision).toEqual({
      kind: 'changes',
      source: 'fetched-before',
      added: [],
      modified: ['a.md'],
      removed: [],
    })
    expect(result.base).toEqual({
      source: 'push',
      sha: before,
      why: expect.stringMatching(
        /^the push's before commit — the last successful sync cannot be looked up \(/,
      ),
    })
    expect(result.base.why).toMatch(why)
    expect(result.notices).toEqual([expect.stringMatching(why)])
    expect(result.notices[0]).toMatch(
      /the last successful sync cannot be looked up .*; using the push's before commit\.$/,
    )
    expect(result.warningLines).toEqual([`Change detection: ${result.notices[0]}`])
  })

  it("falls back to the push's before with a warning when the API does not answer at all", async () => {
    const { before, after } = twoPushes()
    await server.close()
    const result = await decide(checkout().dir, { payload: pushPayload(before, after) })
    expect(result.decision).toMatchObject({ kind: 'changes', modified: ['a.md'] })
    expect(result.base).toMatchObject({ source: 'push', sha: before })
    expect(result.warningLines).toEqual([
      expect.stringMatching(/cannot be looked up \(.*the request failed: /),
    ])
    server = new WorkflowRunsServer()
    await server.start()
  })

  it('syncs everything on a dispatch when the API cannot answer', async () => {
    twoPushes()
    server.failure = { status: 500 }
    const result = await decide(checkout().dir, { eventName: 'workflow_dispatch' })
    expect(result.decision).toEqual({
      kind: 'all',
      source: 'full-sync',
      reason: 'workflow_dispatch event, not a push: every selected file',
    })
    expect(result.base).toEqual({
      source: 'none',
      sha: '',
      why: expect.stringMatching(
        /^every selected file — the last successful sync cannot be looked up \(.*HTTP 500/,
      ),
    })
    expect(result.notices).toEqual([expect.stringMatching(/HTTP 500.*; using every selected file\.$/)])
  })

  it("falls back to the push's before when the last success's commit is not on the remote", async () => {
    const { before, after } = twoPushes()
    author.write('c.md')
    const unpushed = author.commit('never pushed')
    success(unpushed)
    const result = await decide(checkout().dir, { payload: pushPayload(before, after) })
    expect(result.decision).toMatchObject({ kind: 'changes', source: 'fetched-before', modified: ['a.md'] })
    expect(result.base).toEqual({
      source: 'push',
      sha: before,
      why: expect.stringMatching(
        new RegExp(
          `^the push's before commit — the commit ${unpushed.slice(0, 12)} of the last successful sync cannot be used \\(.*fetching it failed`,
        ),
      ),
    })
    expect(result.warningLines).toHaveLength(1)
    expect(result.notices).toEqual([
      expect.stringMatching(
        new RegExp(
          `^the commit ${unpushed.slice(0, 12)} of the last successful sync \\(run #1\\) cannot be used .*fetching it failed`,
        ),
      ),
    ])
  })

  it('syncs everything when neither the last success nor before can be fetched', async () => {
    const { after } = twoPushes()
    const gone = 'f'.repeat(40)
    success(gone)
    const result = await decide(checkout().dir, { payload: pushPayload('e'.repeat(40), after) })
    expect(result.decision).toMatchObject({ kind: 'all', source: 'full-sync' })
    expect(result.base).toEqual({
      source: 'none',
      sha: '',
      why: expect.stringMatching(
        /^every selected file — the commit ffffffffffff of the last successful sync cannot be used/,
      ),
    })
    expect(result.notices).toHaveLength(1)
  })

  it('syncs everything when the workflow never succeeded on the branch, even with a before', async () => {
    const { before, after } = twoPushes()
    server.add({ head_sha: before, conclusion: 'failure' })
    const result = await decide(checkout().dir, { payload: pushPayload(before, after) })
    expect(result.decision).toEqual({
      kind: 'all',
      source: 'full-sync',
      reason: 'no earlier successful run of docs.yml on branch main: every selected file',
    })
    expect(result.base.source).toBe('none')
  })

  it('asks nothing with full-sync', async () => {
    const { before, after } = twoPushes()
    success(before)
    const result = await decide(checkout().dir, {
      payload: pushPayload(before, after),
      fullSync: true,
    })
    expect(result.decision).toEqual({
      kind: 'all',
      source: 'full-sync',
      reason: 'input full-sync is true: every selected file',
    })
    expect(server.requests).toEqual([])
  })

  it('keeps the push rules, quietly, off a runner (no GITHUB_WORKFLOW_REF)', async () => {
    const { before, after } = twoPushes()
    const result = await decide(checkout().dir, {
      payload: pushPayload(before, after),
      workflow: undefined,
    })
    expect(result.decision).toMatchObject({ kind: 'changes', source: 'fetched-before', modified: ['a.md'] })
    expect(result.notices).toEqual([])
    expect(result.lines.filter((line) => line.level !== 'info' && line.level !== 'debug')).toEqual([])
    expect(server.requests).toEqual([])
  })

  it('says so when there is no token', async () => {
    const { before, after } = twoPushes()
    const result = await decide(checkout().dir, {
      payload: pushPayload(before, after),
      githubToken: '',
    })
    expect(result.base).toEqual({
      source: 'push',
      sha: before,
      why: "the push's before commit — the last successful sync cannot be looked up (no github-token)",
    })
    expect(result.notices).toEqual([expect.stringContaining('(no github-token)')])
    expect(result.warningLines).toHaveLength(1)
    expect(server.requests).toEqual([])
  })

  it('indexes nothing on a tag push without asking', async () => {
    const { after } = twoPushes()
    const result = await decide(checkout().dir, {
      payload: pushPayload(after, after, { ref: 'refs/tags/v1' }),
    })
    expect(result.decision.kind).toBe('none')
    expect(server.requests).toEqual([])
  })
})

describe('--since REF (CLI)', () => {
  let first: string
  let full: WorkingCopy
  let shallow: WorkingCopy
  /** Three commits (a and b; b modified, c added; a removed), a full clone and a depth-1 one. */
  repositoryPerDescribe(() => {
    author.write('a.md').write('b.md')
    first = author.commit('seed')
    author.write('b.md', 'b, second\n').write('c.md')
    author.commit('second')
    author.remove('a.md')
    author.commit('third')
    author.push()
    full = fixture.checkout({ depth: 0, name: 'full' })
    shallow = fixture.checkout({ name: 'shallow' })
  })

  it('diffs a commit or ref against HEAD, fetching a commit a shallow clone lacks', async () => {
    const byRef = await decide(full.dir, { eventName: '', workflow: undefined, since: 'HEAD~1' })
    expect(byRef.decision).toEqual({
      kind: 'changes',
      source: 'since-ref',
      added: [],
      modified: [],
      removed: ['a.md'],
    })
    expect(byRef.base).toEqual({ source: 'ref', sha: full.git('rev-parse', 'HEAD~1').trim() })

    const byCommit = await decide(copyOf(shallow).dir, { eventName: '', workflow: undefined, since: first })
    expect(byCommit.decision).toEqual({
      kind: 'changes',
      source: 'since-ref',
      added: ['c.md'],
      modified: ['b.md'],
      removed: ['a.md'],
    })
  })

  it.each([['no-such-branch'], ['--output=/tmp/x'], ['0'.repeat(40)]])(
    'refuses %s with an error naming --since',
    async (ref) => {
      const error = await decide(shallow.dir, {
        eventName: '',
        workflow: undefined,
        since: ref,
      }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ConfigError)
      expect((error as ConfigError).problems[0].input).toBe('since')
      expect((error as Error).message).toMatch(/^Option --since /)
    },
  )

  it('looks up the last success with --since last-success, and syncs everything when there is none', async () => {
    // On top of the describe's history: the last case writes to it.
    const { seed } = seedSynced()
    author.write('z.md')
    author.commit('more')
    author.push()
    const checkout = fixture.checkout({ name: 'last-success' })
    const [again, refusing] = [copyOf(checkout), copyOf(checkout)]
    const found = await decide(checkout.dir, { eventName: '', since: 'last-success' })
    expect(found.decision).toMatchObject({ source: 'last-success', added: ['z.md'] })
    expect(found.base.sha).toBe(seed)
    server.failure = { status: 500 }
    const none = await decide(again.dir, {
      eventName: '',
      since: 'last-success',
    })
    expect(none.decision).toEqual({
      kind: 'all',
      source: 'full-sync',
      reason: 'no base commit: every selected file',
    })
    expect(none.notices).toEqual([expect.stringMatching(/HTTP 500/)])
    server.failure = { status: 404 }
    const refused = await decide(refusing.dir, {
      eventName: '',
      since: 'last-success',
    })
    expect(refused.decision).toEqual({
      kind: 'all',
      source: 'full-sync',
      reason: 'the workflow runs API refused (HTTP 404), grant actions: read: every selected file',
    })
  })
})

describe('repository layouts', () => {
  repositoryPerCase()

  it('reaches into a submodule that moved since the last successful sync', async () => {
    const kb = GitFixture.create()
    try {
      const kbAuthor = kb.author()
      kbAuthor.write('docs/a.md').write('docs/b.md').commit('seed kb')
      kbAuthor.push()
      const seed = author.write('top.md').addSubmodule(kb.originUrl, 'kb').commit('seed')
      author.push()
      success(seed)
      kbAuthor.write('docs/a.md', 'a, second\n').write('docs/c.md')
      const kbAfter = kbAuthor.commit('change kb')
      kbAuthor.push()
      author.moveSubmodule('kb', kbAfter).commit('move kb')
      author.push()

      const checkout = fixture.checkout({ submodules: true })
      const result = await decide(checkout.dir, { eventName: 'workflow_dispatch', patterns: ['kb/**'] })
      expect(result.decision).toEqual({
        kind: 'changes',
        source: 'last-success',
        added: ['kb/docs/c.md'],
        modified: ['kb/docs/a.md'],
        removed: [],
      })
    } finally {
      kb.cleanup()
    }
  })

  it("--since in a workspace inside a submodule: the ref is the submodule's, names relative to the workspace", async () => {
    const kb = GitFixture.create()
    try {
      const kbAuthor = kb.author()
      const kbFirst = kbAuthor.write('docs/a.md').commit('seed kb')
      kbAuthor.write('docs/b.md').commit('add b')
      kbAuthor.push()
      author.write('top.md').addSubmodule(kb.originUrl, 'kb').commit('seed')
      author.push()
      const workspace = `${fixture.checkout({ submodules: true }).dir}/kb/docs`
      const result = await decide(workspace, {
        eventName: '',
        workflow: undefined,
        since: kbFirst,
        patterns: ['**'],
      })
      expect(result.decision).toEqual({
        kind: 'changes',
        source: 'since-ref',
        added: ['b.md'],
        modified: [],
        removed: [],
      })
    } finally {
      kb.cleanup()
    }
  })

  /** docs/a.md and README.md, then a commit modifying a, adding b and changing the README. */
  function twoCommits(): string {
    author.write('docs/a.md').write('README.md')
    const first = author.commit('seed')
    author.write('docs/a.md', 'a, second\n').write('docs/b.md').write('README.md', 'changed\n')
    author.commit('second')
    author.push()
    return first
  }

  it('--since in a workspace inside the repository: names relative to it, the rest left out', async () => {
    const first = twoCommits()
    const workspace = `${fixture.checkout().dir}/docs`
    const result = await decide(workspace, {
      eventName: '',
      workflow: undefined,
      since: first,
      patterns: ['**'],
    })
    expect(result.decision).toEqual({
      kind: 'changes',
      source: 'since-ref',
      added: ['b.md'],
      modified: ['a.md'],
      removed: [],
    })
  })

  it('--since with the repository in a folder of the workspace: a ref resolved there, names below it', async () => {
    twoCommits()
    const workspace = fixture.plainFolder('workspace')
    fixture.checkout({ name: 'workspace/sub', depth: 0 })
    const result = await decide(workspace, {
      eventName: '',
      workflow: undefined,
      since: 'HEAD~1',
      patterns: ['sub/docs/**'],
    })
    expect(result.decision).toEqual({
      kind: 'changes',
      source: 'since-ref',
      added: ['sub/docs/b.md'],
      modified: ['sub/README.md', 'sub/docs/a.md'],
      removed: [],
    })
  })
})

describe('a push that sends every selected file still blanks its own removals', () => {
  let push: { before: string; after: string }
  /** A depth-1 checkout of main, made once: each case decides in a copy of it. */
  let checkedOut: WorkingCopy
  /** Seed a, b, c; the push removes b and edits a. */
  repositoryPerDescribe(() => {
    author.write('a.md').write('b.md').write('c.md')
    const before = author.commit('seed')
    author.write('a.md', 'a, second\n').remove('b.md')
    const after = author.commit('edit a, remove b')
    author.push()
    push = { before, after }
    checkedOut = fixture.checkout()
  })
  const pushRemovingB = () => push

  it.each([
    ['the runs API refusing the token', { refused: true }],
    ['no successful run yet', {}],
    ['full-sync: true', { fullSync: true }],
  ])('%s', async (_name, options: { refused?: boolean; fullSync?: boolean }) => {
    const { before, after } = pushRemovingB()
    if (options.refused) server.failure = { status: 403, message: 'Resource not accessible by integration' }
    const result = await decide(copyOf(checkedOut).dir, {
      payload: pushPayload(before, after),
      fullSync: options.fullSync === true,
    })
    expect(result.decision).toMatchObject({ kind: 'all', source: 'full-sync', removed: ['b.md'] })
    expect(result.lines.map((line) => line.message)).toContain(
      "Change detection: the push's own before..after removes 1 file(s): they are blanked too.",
    )
  })

  it('says so when the range is unknown too, and warns no more than before', async () => {
    const { after } = pushRemovingB()
    server.failure = { status: 403, message: 'Resource not accessible by integration' }
    const result = await decide(fixture.plainFolder(), {
      // No checkout, and the compare API is refused too (the server answers 403 to everything).
      payload: pushPayload('f'.repeat(40), after, { forced: true }),
    })
    expect(result.decision).toMatchObject({ kind: 'all' })
    expect('removed' in result.decision).toBe(false)
    expect(result.warningLines).toHaveLength(1)
    expect(result.lines.map((line) => line.message).join('\n')).toMatch(
      /the push's own removals are unknown \(.*\); documents it deleted stay/,
    )
  })

  it('a dispatch has no range: nothing more', async () => {
    pushRemovingB()
    const result = await decide(copyOf(checkedOut).dir, { eventName: 'workflow_dispatch', fullSync: true })
    expect(result.decision).toEqual({
      kind: 'all',
      source: 'full-sync',
      reason: 'input full-sync is true: every selected file',
    })
  })
})
