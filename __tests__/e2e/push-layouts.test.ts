// The built index action on pushes in the repository layouts real docs repositories use: docs in a
// submodule (checked out with `submodules: true`), the repository checked out in a folder of the
// workspace (`path: sub`, with git and with the compare API), and a push adding a name that is not
// valid UTF-8. The exact POST / PATCH sets are read from the emulator's request log.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import path from 'node:path'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { CompareServer } from '../helpers/compare-server.js'
import { GitFixture, WorkingCopy } from '../helpers/git-fixture.js'
import { runAction } from '../helpers/run-action.js'
import { PRIVATE_KEY, GITHUB_TOKEN as TOKEN } from '../helpers/keys.js'
import { sentByMethod } from '../helpers/emulator-sent.js'

const ZERO = '0'.repeat(40)

let fixtures: GitFixture[]
let emulator: Emulator
beforeEach(async () => {
  fixtures = []
  emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: 'pub-unused-key' })
})
afterEach(async () => {
  await emulator.close()
  for (const fixture of fixtures) fixture.cleanup()
})

function fixture(): GitFixture {
  const created = GitFixture.create()
  fixtures.push(created)
  return created
}

function indexPush(
  workspace: string,
  before: string,
  after: string,
  files: string,
  options: { eventName?: string; env?: Record<string, string>; inputs?: Record<string, string> } = {},
) {
  return runAction({
    action: 'action.yml',
    workspace,
    eventName: options.eventName ?? 'push',
    payload: {
      ref: 'refs/heads/main',
      before,
      after,
      created: before === ZERO,
      deleted: false,
      forced: false,
      commits: [],
    },
    env: options.env,
    inputs: {
      'base-url': emulator.url,
      'flow-id': '65f0c0ffee0000000000beef',
      'org-id': 'b2a1c3d4-0000-4000-8000-000000000001',
      'node-id': 'urlemb-0',
      'private-key': PRIVATE_KEY,
      files,
      mode: 'auto',
      ...options.inputs,
    },
  })
}

const sent = (from = 0) => sentByMethod(emulator, from)

const warningsOf = (stdout: string): string[] =>
  stdout.split('\n').filter((line) => line.startsWith('::warning'))

describe('docs in a submodule', () => {
  /**
   * A superproject with docs/top.md and the kb repository (docs/a.md, b.md, c.md) as submodule `kb`;
   * `move()` then changes kb (a modified, b removed, d added) and moves the superproject to it.
   */
  function superproject() {
    const kb = fixture()
    const kbAuthor = kb.author()
    kbAuthor.write('docs/a.md').write('docs/b.md').write('docs/c.md').commit('seed kb')
    kbAuthor.push()
    const top = fixture()
    const author = top.author()
    author.write('docs/top.md').addSubmodule(kb.originUrl, 'kb')
    const first = author.commit('seed')
    author.push()
    const move = (): string => {
      kbAuthor.write('docs/a.md', 'a, second\n').remove('docs/b.md').write('docs/d.md')
      const kbAfter = kbAuthor.commit('change kb')
      kbAuthor.push()
      const second = author.moveSubmodule('kb', kbAfter).commit('move kb')
      author.push()
      return second
    }
    return { top, first, move }
  }

  it('sends what changed inside the submodule when its commit moves', async () => {
    const { top, first, move } = superproject()
    const files = 'docs/**\nkb/docs/**'
    const seed = await indexPush(top.checkout({ name: 'first', submodules: true }).dir, ZERO, first, files)
    expect(seed.status).toBe(0)
    expect(sent()).toEqual({
      POST: ['docs/top.md', 'kb/docs/a.md', 'kb/docs/b.md', 'kb/docs/c.md'],
      PATCH: [],
    })
    const mark = emulator.requests().length

    const second = move()
    const run = await indexPush(top.checkout({ name: 'second', submodules: true }).dir, first, second, files)
    expect(run.status).toBe(0)
    expect(sent(mark)).toEqual({ POST: ['kb/docs/d.md'], PATCH: ['kb/docs/a.md', 'kb/docs/b.md'] })
    expect(JSON.parse(run.outputs.removed)).toEqual(['kb/docs/b.md'])
    expect(warningsOf(run.stdout)).toEqual([])
  })

  it('sends every selected file of the submodule, with a warning, when its old commit cannot be had', async () => {
    const { top, first, move } = superproject()
    const second = move()
    const checkout = top.checkout({ submodules: true })
    new WorkingCopy(path.join(checkout.dir, 'kb')).git(
      'remote',
      'set-url',
      'origin',
      path.join(top.root, 'gone.git'),
    )

    const run = await indexPush(checkout.dir, first, second, 'docs/**\nkb/docs/**')
    expect(run.status).toBe(0)
    // Not "Synced 0": every selected file below kb, by upsert (PATCH, 404 → POST on an empty node).
    expect(sent()).toEqual({ POST: ['kb/docs/a.md', 'kb/docs/c.md', 'kb/docs/d.md'], PATCH: [] })
    expect(emulator.requests().filter((request) => request.method === 'PATCH')).not.toHaveLength(0)
    const warnings = warningsOf(run.stdout)
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/the submodule kb: its commit [0-9a-f]{12} is not in the checkout/)
    expect(warnings[0]).toMatch(/`submodules: true` and `fetch-depth: 0`/)
    expect(run.summary).toMatch(/the submodule kb: its commit/)
  })
})

describe('docs in a submodule, in a pull request', () => {
  it('previews what the pull request changes inside the submodule', async () => {
    const kb = fixture()
    const kbAuthor = kb.author()
    kbAuthor.write('docs/a.md').write('docs/b.md').commit('seed kb')
    kbAuthor.push()
    const top = fixture()
    const author = top.author()
    const base = author.write('docs/top.md').addSubmodule(kb.originUrl, 'kb').commit('base')
    author.push()
    kbAuthor.write('docs/a.md', 'a, second\n').write('docs/c.md').remove('docs/b.md')
    const kbHead = kbAuthor.commit('change kb')
    kbAuthor.push()
    author.git('checkout', '-q', '-b', 'feature')
    const head = author.moveSubmodule('kb', kbHead).commit('move kb')
    author.push('feature')

    const run = await runAction({
      action: 'action.yml',
      workspace: top.checkout({ branch: 'feature', submodules: true }).dir,
      eventName: 'pull_request',
      payload: { pull_request: { number: 7, base: { sha: base }, head: { sha: head } } },
      inputs: {
        'base-url': emulator.url,
        'flow-id': '65f0c0ffee0000000000beef',
        'org-id': 'b2a1c3d4-0000-4000-8000-000000000001',
        'node-id': 'urlemb-0',
        'private-key': '',
        files: 'docs/**\nkb/docs/**',
        comment: 'false',
      },
    })
    expect(run.status).toBe(0)
    expect(emulator.requests()).toHaveLength(0)
    expect(run.summary).toContain('Would upload 1 · update 1 · remove from answers 1 · unchanged/skipped 0')
    expect(run.summary).toMatch(/<summary>Would upload \(1\)<\/summary>\n\n- kb\/docs\/c\.md/)
    expect(run.summary).toMatch(/<summary>Would update \(1\)<\/summary>\n\n- kb\/docs\/a\.md/)
    expect(run.summary).toMatch(
      /<summary>Would remove from answers[^<]*\(1\)<\/summary>\n\n- kb\/docs\/b\.md/,
    )
  })
})

describe('the repository checked out in a folder of the workspace (path: sub)', () => {
  /** docs/a.md and docs/b.md; `change()` then modifies a, adds c and removes b. */
  function pushes(repo: GitFixture) {
    const author = repo.author()
    author.write('docs/a.md').write('docs/b.md')
    const first = author.commit('seed')
    author.push()
    const change = (): string => {
      author.write('docs/a.md', 'a, second\n').write('docs/c.md').remove('docs/b.md')
      const second = author.commit('change')
      author.push()
      return second
    }
    return { first, change }
  }

  it('maps git names to the workspace: sub/docs/…', async () => {
    const repo = fixture()
    const { first, change } = pushes(repo)
    const seed = repo.plainFolder('seed')
    repo.checkout({ name: 'seed/sub' })
    expect((await indexPush(seed, ZERO, first, 'sub/docs/**')).status).toBe(0)
    expect(sent()).toEqual({ POST: ['sub/docs/a.md', 'sub/docs/b.md'], PATCH: [] })
    const mark = emulator.requests().length

    const second = change()
    const workspace = repo.plainFolder('workspace')
    repo.checkout({ name: 'workspace/sub' })
    const run = await indexPush(workspace, first, second, 'sub/docs/**')
    expect(run.status).toBe(0)
    expect(sent(mark)).toEqual({ POST: ['sub/docs/c.md'], PATCH: ['sub/docs/a.md', 'sub/docs/b.md'] })
    expect(JSON.parse(run.outputs.removed)).toEqual(['sub/docs/b.md'])
    expect(run.summary).toContain('git diff of the push')
  })

  it("maps the compare API's names to the workspace when git cannot answer", async () => {
    const repo = fixture()
    const { first, change } = pushes(repo)
    const second = change()
    const workspace = repo.plainFolder('workspace')
    const checkout = repo.checkout({ name: 'workspace/sub' })
    // The before commit cannot be fetched: git cannot answer, the compare API does.
    checkout.git('remote', 'set-url', 'origin', path.join(repo.root, 'gone.git'))
    const api = new CompareServer('octo-org/docs')
    api.answers[`${first}...${second}`] = {
      files: [
        { filename: 'docs/a.md', status: 'modified' },
        { filename: 'docs/c.md', status: 'added' },
        { filename: 'docs/b.md', status: 'removed' },
      ],
    }
    const apiUrl = await api.start()
    try {
      const run = await indexPush(workspace, first, second, 'sub/docs/**', {
        env: { GITHUB_API_URL: apiUrl },
        inputs: { 'github-token': TOKEN },
      })
      expect(run.status).toBe(0)
      expect(api.requests).not.toHaveLength(0)
      expect(sent()).toEqual({ POST: ['sub/docs/a.md', 'sub/docs/c.md'], PATCH: [] })
      expect(JSON.parse(run.outputs.removed)).toEqual(['sub/docs/b.md'])
      expect(run.summary).toContain('GitHub compare API')
    } finally {
      await api.close()
    }
  })
})

describe('a push adding a name that is not valid UTF-8', () => {
  it('skips it with its bytes shown, as a full sync does', async () => {
    const repo = fixture()
    const author = repo.author()
    const first = author.write('docs/a.md').commit('seed')
    author.push()
    author.writeBytes('docs', Buffer.from([0x66, 0xff, 0x2e, 0x6d, 0x64])).write('docs/ok.md')
    const second = author.commit('odd name')
    author.push()
    const checkout = repo.checkout().dir

    const push = await indexPush(checkout, first, second, 'docs/**')
    expect(push.status).toBe(0)
    expect(sent()).toEqual({ POST: ['docs/ok.md'], PATCH: [] })
    const full = await indexPush(checkout, ZERO, second, 'docs/**', { eventName: 'workflow_dispatch' })
    expect(JSON.parse(push.outputs.skipped)).toEqual(['docs/f\\xff.md'])
    expect(JSON.parse(push.outputs.skipped)).toEqual(JSON.parse(full.outputs.skipped))
    const skipLine = (stdout: string) => stdout.split('\n').find((line) => line.includes('f\\xff.md'))
    expect(skipLine(push.stdout)).toMatch(/not valid UTF-8/)
    expect(skipLine(push.stdout)).toBe(skipLine(full.stdout))
  })
})
