// Change detection when git cannot answer: payload lists, then the compare API (a local server that
// answers like GitHub's compare endpoint), then a full sync with a warning. Also the event rules.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import fs from 'node:fs'
import path from 'node:path'
import type { PushEvent } from '@octokit/webhooks-types'
import { type ChangeContext, detectChanges } from '../../src/history/changes.js'
import { CompareServer } from '../helpers/compare-server.js'
import { GitFixture } from '../helpers/git-fixture.js'
import { GITHUB_TOKEN as TOKEN } from '../helpers/keys.js'
import { recordingLog } from '../helpers/log.js'
import { webhookExamples } from '../helpers/webhook-examples.js'
import { LookupBudget } from '../../src/github/lookup-budget.js'

const pushExamples = webhookExamples('push') as unknown as PushEvent[]

const BEFORE = '1'.repeat(40)
const AFTER = '2'.repeat(40)

let fixture: GitFixture
let server: CompareServer
let apiUrl: string
beforeEach(async () => {
  fixture = GitFixture.create()
  server = new CompareServer()
  apiUrl = await server.start()
})
afterEach(async () => {
  await server.close()
  fixture.cleanup()
})

function pushPayload(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ref: 'refs/heads/main',
    before: BEFORE,
    after: AFTER,
    created: false,
    deleted: false,
    forced: false,
    commits: [{ id: AFTER, message: 'change' }],
    ...extra,
  }
}

async function detect(payload: Record<string, unknown>, overrides: Partial<ChangeContext> = {}) {
  const { log, lines } = recordingLog()
  const decision = await detectChanges({
    eventName: 'push',
    github: new LookupBudget(),
    payload,
    workspace: fixture.plainFolder(),
    repository: { owner: 'acme', repo: 'docs' },
    githubToken: TOKEN,
    apiUrl,
    log,
    ...overrides,
  })
  return {
    decision,
    lines,
    warnings: lines.filter((line) => line.level === 'warning').map((line) => line.message),
  }
}

const reasonOf = (decision: { kind: string; reason?: string }): string => decision.reason ?? ''

describe('event rules', () => {
  it('syncs every selected file on other events', async () => {
    const { decision } = await detect({}, { eventName: 'workflow_dispatch' })
    expect(decision).toEqual({
      kind: 'all',
      source: 'full-sync',
      reason: 'workflow_dispatch event, not a push: every selected file',
    })
    expect(server.requests).toEqual([])
  })

  it('says so when there is no event at all (the CLI, a local run)', async () => {
    const { decision } = await detect({}, { eventName: '' })
    expect(reasonOf(decision)).toBe('no GitHub event, run outside a workflow: every selected file')
  })

  it('indexes nothing on a tag push (webhook example)', async () => {
    const tagPush = pushExamples.find((example) => example.ref.startsWith('refs/tags/') && !example.deleted)!
    const { decision } = await detect(tagPush as unknown as Record<string, unknown>)
    expect(decision).toEqual({ kind: 'none', reason: `tag push (${tagPush.ref}): nothing to index` })
  })

  it('indexes nothing when the branch was deleted', async () => {
    const payload = pushPayload({
      ref: 'refs/heads/feature',
      deleted: true,
      after: '0'.repeat(40),
      commits: [],
    })
    const { decision } = await detect(payload)
    expect(decision).toEqual({
      kind: 'none',
      reason: 'branch deleted (refs/heads/feature): nothing to index',
    })
    expect(server.requests).toEqual([])
  })

  it('syncs everything on the first push of a branch (webhook example, before is zeros)', async () => {
    const firstPush = pushExamples.find(
      (example) => example.ref.startsWith('refs/heads/') && example.created,
    )!
    expect(firstPush.before).toBe('0'.repeat(40))
    const { decision } = await detect(firstPush as unknown as Record<string, unknown>)
    expect(decision).toEqual({
      kind: 'all',
      source: 'full-sync',
      reason: `first push of ${firstPush.ref}: every selected file`,
    })
    expect(server.requests).toEqual([])
  })

  it('refuses commit ids that are not commit ids (they would become git arguments)', async () => {
    const { decision, warnings } = await detect(pushPayload({ before: '--upload-pack=touch pwned' }))
    expect(decision).toMatchObject({ kind: 'all', source: 'full-sync' })
    expect(reasonOf(decision)).toMatch(/no valid before\/after commit ids/)
    expect(warnings).toHaveLength(1)
    expect(server.requests).toEqual([])
  })
})

describe('payload per-commit lists', () => {
  /** The webhook example's push, made a push onto an existing branch, followed by more commits. */
  function webhookPush(more: { added: string[]; modified: string[]; removed: string[] }[] = []): PushEvent {
    const example = structuredClone(pushExamples.find((e) => e.commits.length > 0 && e.commits[0].added)!)
    const template = example.commits[0]
    const commits = [
      template,
      ...more.map((lists, i) => ({ ...template, id: `${i + 3}`.repeat(40), ...lists })),
    ]
    return {
      ...example,
      before: BEFORE,
      created: false,
      forced: false,
      commits,
      after: commits[commits.length - 1].id,
    }
  }

  it('uses the lists of a webhook-shaped payload in a workspace without .git', async () => {
    const payload = webhookPush()
    expect(payload.commits[0]).toMatchObject({ added: ['README.md'], modified: [], removed: [] })
    const { decision } = await detect(payload as unknown as Record<string, unknown>)
    expect(decision).toEqual({
      kind: 'changes',
      source: 'payload',
      added: ['README.md'],
      modified: [],
      removed: [],
    })
    expect(server.requests).toEqual([])
  })

  it('folds the commits of a webhook-shaped payload in order', async () => {
    const payload = webhookPush([
      { added: ['docs/a.md', 'docs/tmp.md'], modified: ['README.md'], removed: ['old.md'] },
      { added: ['old.md'], modified: ['docs/a.md', 'kept.md'], removed: ['docs/tmp.md'] },
      { added: [], modified: [], removed: ['gone.md'] },
    ])
    const { decision } = await detect(payload as unknown as Record<string, unknown>)
    expect(decision).toEqual({
      kind: 'changes',
      source: 'payload',
      added: ['README.md', 'docs/a.md'],
      modified: ['kept.md', 'old.md'],
      removed: ['gone.md'],
    })
  })

  it('prefers the tree difference of a real checkout to the payload lists', async () => {
    const author = fixture.author()
    const before = author.write('a.md').commit('seed')
    const after = author.write('a.md', 'changed\n').commit('change a')
    author.push()
    const payload = pushPayload({
      before,
      after,
      commits: [{ id: after, added: ['lie.md'], modified: [], removed: [] }],
    })
    const { decision } = await detect(payload, { workspace: fixture.checkout().dir })
    expect(decision).toEqual({
      kind: 'changes',
      source: 'fetched-before',
      added: [],
      modified: ['a.md'],
      removed: [],
    })
  })

  it.each([
    ['forced', { forced: true }],
    ['without a forced field', { forced: undefined }],
    [
      'with 2048 commits',
      { commits: Array.from({ length: 2048 }, () => ({ added: ['x.md'], modified: [], removed: [] })) },
    ],
    [
      'with a commit that has no lists',
      { commits: [{ added: ['x.md'], modified: [], removed: [] }, { id: AFTER }] },
    ],
  ])('does not trust the lists of a push %s: asks the compare API', async (_, extra) => {
    server.answers[`${BEFORE}...${AFTER}`] = { files: [{ filename: 'api.md', status: 'added' }] }
    const lists = { commits: [{ added: ['x.md'], modified: [], removed: [] }] }
    const { decision } = await detect(pushPayload({ ...lists, ...extra }))
    expect(decision).toEqual({
      kind: 'changes',
      source: 'compare-api',
      added: ['api.md'],
      modified: [],
      removed: [],
    })
  })
})

describe('compare API', () => {
  it('maps every file status of an answer', async () => {
    server.answers[`${BEFORE}...${AFTER}`] = {
      files: [
        { filename: 'new.md', status: 'added' },
        { filename: 'copy.md', status: 'copied' },
        { filename: 'edit.md', status: 'modified' },
        { filename: 'mode.md', status: 'changed' },
        { filename: 'gone.md', status: 'removed' },
        { filename: 'docs/moved.md', status: 'renamed', previous_filename: 'moved.md' },
        { filename: 'same.md', status: 'unchanged' },
      ],
    }
    const { decision, warnings } = await detect(pushPayload())
    expect(decision).toEqual({
      kind: 'changes',
      source: 'compare-api',
      added: ['copy.md', 'docs/moved.md', 'new.md'],
      modified: ['edit.md', 'mode.md'],
      removed: ['gone.md', 'moved.md'],
    })
    expect(warnings).toEqual([])
    expect(server.requests).toEqual([
      { path: `/repos/acme/docs/compare/${BEFORE}...${AFTER}`, authorization: `token ${TOKEN}` },
    ])
  })

  /** A force push: `before` exists only in a clone that never pushed it, so origin cannot serve it. */
  function forcePush(): { before: string; after: string; checkoutDir: string } {
    const author = fixture.author()
    author.write('a.md').write('b.md').write('c.md').commit('seed')
    author.push()
    const lost = fixture.author('lost')
    const before = lost.write('x.md').write('a.md', 'a on the lost branch\n').commit('never reaches origin')
    author.write('n.md').write('b.md', 'b on the new branch\n')
    const after = author.commit('the branch as pushed')
    author.push('main', { force: true })
    return { before, after, checkoutDir: fixture.checkout().dir }
  }

  it('combines both sides of a force push whose before is gone (git cannot fetch it)', async () => {
    const { before, after, checkoutDir } = forcePush()
    server.answers[`${before}...${after}`] = {
      status: 'diverged',
      files: [
        { filename: 'n.md', status: 'added' },
        { filename: 'b.md', status: 'modified' },
      ],
    }
    server.answers[`${after}...${before}`] = {
      status: 'diverged',
      files: [
        { filename: 'x.md', status: 'added' },
        { filename: 'a.md', status: 'modified' },
      ],
    }
    const { decision, lines } = await detect(pushPayload({ before, after, forced: true }), {
      workspace: checkoutDir,
    })
    expect(decision).toEqual({
      kind: 'changes',
      source: 'compare-api',
      added: ['n.md'],
      modified: ['a.md', 'b.md'],
      removed: ['x.md'],
    })
    expect(lines).toContainEqual({
      level: 'info',
      message: expect.stringMatching(
        new RegExp(`commit ${before.slice(0, 12)} is not in the checkout and fetching it failed`),
      ),
    })
  })

  it('syncs everything with a warning when the answer lists 300 files', async () => {
    const { before, after, checkoutDir } = forcePush()
    server.answers[`${before}...${after}`] = {
      status: 'diverged',
      files: Array.from({ length: 300 }, (_, i) => ({ filename: `f${i}.md`, status: 'added' })),
    }
    const { decision, warnings } = await detect(pushPayload({ before, after, forced: true }), {
      workspace: checkoutDir,
    })
    expect(decision).toMatchObject({ kind: 'all', source: 'full-sync' })
    expect(reasonOf(decision)).toMatch(/lists 300 files, the API's limit is 300/)
    expect(warnings).toEqual([`Change detection: ${reasonOf(decision)}`])
  })

  it('syncs everything when the comparison spans more than 250 commits', async () => {
    server.answers[`${BEFORE}...${AFTER}`] = {
      total_commits: 251,
      files: [{ filename: 'a.md', status: 'added' }],
    }
    const { decision, warnings } = await detect(pushPayload())
    expect(reasonOf(decision)).toMatch(/spans 251 commits/)
    expect(decision.kind).toBe('all')
    expect(warnings).toHaveLength(1)
  })

  it('syncs everything when the other side of a force push is truncated', async () => {
    server.answers[`${BEFORE}...${AFTER}`] = {
      status: 'diverged',
      files: [{ filename: 'a.md', status: 'added' }],
    }
    server.answers[`${AFTER}...${BEFORE}`] = {
      status: 'diverged',
      files: Array.from({ length: 301 }, (_, i) => ({ filename: `f${i}.md`, status: 'added' })),
    }
    const { decision } = await detect(pushPayload({ forced: true }))
    expect(decision.kind).toBe('all')
    expect(reasonOf(decision)).toMatch(/lists 301 files.*comparing back from before/)
  })

  it('syncs everything with a warning when the request fails, without showing the token', async () => {
    const { decision, warnings, lines } = await detect(pushPayload())
    expect(decision.kind).toBe('all')
    expect(reasonOf(decision)).toMatch(/compare API: the request failed \(HTTP 404\)/)
    expect(warnings).toHaveLength(1)
    expect(JSON.stringify(lines)).not.toContain(TOKEN)
  })

  it('syncs everything when there is no token, without a request', async () => {
    const { decision, warnings } = await detect(pushPayload(), { githubToken: '' })
    expect(reasonOf(decision)).toMatch(/compare API: no github-token/)
    expect(warnings).toHaveLength(1)
    expect(server.requests).toEqual([])
  })
})

describe('compare API names in other layouts', () => {
  /** A force push whose before origin cannot serve: git cannot answer in any checkout of it. */
  function lostBefore(): { before: string; after: string } {
    const author = fixture.author()
    author.write('docs/a.md').write('README.md').commit('seed')
    author.push()
    const before = fixture.author('lost').write('docs/x.md').commit('never reaches origin')
    const after = author.write('docs/a.md', 'a, second\n').commit('pushed')
    author.push('main', { force: true })
    return { before, after }
  }

  const answer = {
    status: 'ahead',
    files: [
      { filename: 'docs/a.md', status: 'modified' },
      { filename: 'docs/new.md', status: 'added' },
      { filename: 'README.md', status: 'modified' },
    ],
  }

  it('strips the folder of a workspace inside the repository and drops names outside it', async () => {
    const { before, after } = lostBefore()
    server.answers[`${before}...${after}`] = answer
    const workspace = path.join(fixture.checkout().dir, 'docs')
    const { decision } = await detect(pushPayload({ before, after }), { workspace, patterns: ['**'] })
    expect(decision).toEqual({
      kind: 'changes',
      source: 'compare-api',
      added: ['new.md'],
      modified: ['a.md'],
      removed: [],
    })
  })

  it('prefixes the folder of a repository checked out in the workspace (path: sub)', async () => {
    const { before, after } = lostBefore()
    server.answers[`${before}...${after}`] = answer
    const workspace = fixture.plainFolder('workspace')
    fixture.checkout({ name: 'workspace/sub' })
    const { decision } = await detect(pushPayload({ before, after }), {
      workspace,
      patterns: ['sub/docs/**'],
    })
    expect(decision).toEqual({
      kind: 'changes',
      source: 'compare-api',
      added: ['sub/docs/new.md'],
      modified: ['sub/README.md', 'sub/docs/a.md'],
      removed: [],
    })
  })

  it('sends every selected file of a submodule the answer shows as one entry, with a warning', async () => {
    server.answers[`${BEFORE}...${AFTER}`] = {
      files: [
        { filename: 'kb', status: 'modified' },
        { filename: 'top.md', status: 'modified' },
      ],
    }
    const workspace = fixture.plainFolder('workspace')
    fs.mkdirSync(path.join(workspace, 'kb', 'docs'), { recursive: true })
    const { decision } = await detect(pushPayload(), { workspace })
    expect(decision).toMatchObject({
      kind: 'changes',
      source: 'compare-api',
      added: [],
      modified: ['top.md'],
      everythingUnder: ['kb'],
    })
    expect(decision.kind === 'changes' && decision.warnings).toEqual([
      expect.stringMatching(/compare API shows the submodule kb as one entry.*`submodules: true`/),
    ])
  })
})
