// Change detection when the workspace is not the repository: the repository checked out in a folder
// of the workspace (actions/checkout `path: sub`), two repositories checked out side by side, and a
// push adding a name that is not valid UTF-8.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import fs from 'node:fs'
import path from 'node:path'
import { detectChanges } from '../../src/history/changes.js'
import { GitFixture } from '../helpers/git-fixture.js'
import { recordingLog } from '../helpers/log.js'
import { LookupBudget } from '../../src/github/lookup-budget.js'

let fixtures: GitFixture[]
beforeEach(() => {
  fixtures = []
})
afterEach(() => {
  for (const fixture of fixtures) fixture.cleanup()
})

function fixture(): GitFixture {
  const created = GitFixture.create()
  fixtures.push(created)
  return created
}

async function detect(workspace: string, before: string, after: string, patterns: string[]) {
  const { log, lines } = recordingLog()
  const decision = await detectChanges({
    eventName: 'push',
    github: new LookupBudget(),
    payload: { ref: 'refs/heads/main', before, after, deleted: false, forced: false, commits: [] },
    workspace,
    patterns,
    log,
  })
  return { decision, warnings: lines.filter((line) => line.level === 'warning') }
}

/** docs/a.md and docs/b.md, then a push modifying a and adding c: returns before and after. */
function twoPushes(repo: GitFixture): { before: string; after: string } {
  const author = repo.author()
  author.write('docs/a.md').write('docs/b.md')
  const before = author.commit('seed')
  author.push()
  author.write('docs/a.md', 'a, second\n').write('docs/c.md')
  const after = author.commit('change')
  author.push()
  return { before, after }
}

describe('detectChanges when the repository is a folder of the workspace', () => {
  it('finds the repository from the patterns and prefixes its names with its folder', async () => {
    const repo = fixture()
    const { before, after } = twoPushes(repo)
    const workspace = repo.plainFolder('workspace')
    repo.checkout({ name: 'workspace/sub' })

    const { decision, warnings } = await detect(workspace, before, after, ['sub/docs/**'])
    expect(decision).toEqual({
      kind: 'changes',
      source: 'fetched-before',
      added: ['sub/docs/c.md'],
      modified: ['sub/docs/a.md'],
      removed: [],
    })
    expect(warnings).toEqual([])
  })

  it('finds the one checkout in the workspace when the patterns name no folder', async () => {
    const repo = fixture()
    const { before, after } = twoPushes(repo)
    const workspace = repo.plainFolder('workspace')
    repo.checkout({ name: 'workspace/sub' })

    const { decision } = await detect(workspace, before, after, ['**/*.md'])
    expect(decision).toMatchObject({ kind: 'changes', added: ['sub/docs/c.md'], modified: ['sub/docs/a.md'] })
  })

  it('takes the checkout holding the pushed commit and sends every selected file of the other one', async () => {
    const pushed = fixture()
    const other = fixture()
    const { before, after } = twoPushes(pushed)
    const otherAuthor = other.author()
    otherAuthor.write('docs/other.md').commit('another repository')
    otherAuthor.push()
    const workspace = pushed.plainFolder('workspace')
    pushed.checkout({ name: 'workspace/main' })
    other.checkout({ name: 'workspace/other' })
    fs.renameSync(path.join(other.root, 'workspace', 'other'), path.join(workspace, 'other'))

    const { decision } = await detect(workspace, before, after, ['main/docs/**', 'other/docs/**'])
    expect(decision).toMatchObject({
      kind: 'changes',
      added: ['main/docs/c.md'],
      modified: ['main/docs/a.md'],
      everythingUnder: ['other'],
    })
    expect(decision.kind === 'changes' && decision.warnings).toEqual([
      expect.stringMatching(/^other is another git repository .*every selected file below other\/ is sent/),
    ])
  })

  it('sends everything, with a warning, when several checkouts are reached and none holds the pushed commit', async () => {
    const one = fixture()
    const two = fixture()
    twoPushes(one)
    twoPushes(two)
    const workspace = one.plainFolder('workspace')
    one.checkout({ name: 'workspace/one' })
    fs.renameSync(two.checkout().dir, path.join(workspace, 'two'))

    const { decision, warnings } = await detect(workspace, 'e'.repeat(40), 'f'.repeat(40), [
      'one/**',
      'two/**',
    ])
    expect(decision).toMatchObject({ kind: 'all', source: 'full-sync' })
    expect(decision.kind === 'all' && decision.reason).toMatch(/several git repositories \(one, two\)/)
    expect(warnings).toHaveLength(1)
  })

  it('sends everything, with a warning, when the workspace holds no repository of the selected files', async () => {
    const repo = fixture()
    const { before, after } = twoPushes(repo)
    const { decision, warnings } = await detect(repo.plainFolder('workspace'), before, after, ['docs/**'])
    expect(decision).toMatchObject({ kind: 'all', source: 'full-sync' })
    expect(decision.kind === 'all' && decision.reason).toMatch(/is not a git repository, and no folder/)
    expect(warnings).toHaveLength(1)
  })
})

describe('detectChanges with names that are not valid UTF-8', () => {
  it('reports an added name that is not UTF-8 as selection shows it, and keeps the other names', async () => {
    const repo = fixture()
    const author = repo.author()
    const before = author.write('docs/a.md').commit('seed')
    author.push()
    author.writeBytes('docs', Buffer.from([0x66, 0xff, 0x2e, 0x6d, 0x64])) // f\xff.md
    author.writeBytes('docs', Buffer.concat([Buffer.from([0xc3, 0x28]), Buffer.from('/inner.md')]))
    author.write('docs/ok.md')
    const after = author.commit('odd bytes')
    author.push()

    const { decision } = await detect(repo.checkout().dir, before, after, ['docs/**'])
    expect(decision).toEqual({
      kind: 'changes',
      source: 'fetched-before',
      added: ['docs/ok.md'],
      modified: [],
      removed: [],
      undecodable: [
        { shown: 'docs/\\xc3(', lossy: 'docs/\uFFFD(/inner.md', isFolder: true },
        { shown: 'docs/f\\xff.md', lossy: 'docs/f\uFFFD.md', isFolder: false },
      ],
    })
  })
})
