// Change detection when the workspace is not the repository: the repository checked out in a folder
// of the workspace (actions/checkout `path: sub`), two repositories checked out side by side, and a
// push adding a name that is not valid UTF-8.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import fs from 'node:fs'
import path from 'node:path'
import { detectChanges } from '../../src/history/changes.js'
import { GitFixture, type WorkingCopy } from '../helpers/git-fixture.js'
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
  author.write('docs/a.md', 'a, second\n').write('docs/c.md')
  const after = author.commit('change')
  author.push()
  return { before, after }
}

describe('detectChanges when the repository is a folder of the workspace', () => {
  // Built once: the cases check out copies of one depth-1 checkout, in workspaces of their own.
  let pushed: GitFixture
  let other: GitFixture
  let before: string
  let after: string
  let checkedOut: WorkingCopy
  let otherCheckedOut: WorkingCopy
  beforeAll(() => {
    pushed = GitFixture.create()
    other = GitFixture.create()
    ;({ before, after } = twoPushes(pushed))
    checkedOut = pushed.checkout({ name: 'checked-out' })
    const otherAuthor = other.author()
    otherAuthor.write('docs/other.md').commit('another repository')
    otherAuthor.push()
    otherCheckedOut = other.checkout({ name: 'checked-out' })
  })
  afterAll(() => {
    pushed.cleanup()
    other.cleanup()
  })
  let workspaces = 0
  /** A new workspace folder with a copy of the checkout (and of the other one) at the given folders. */
  function workspaceWith(folders: { pushed?: string; other?: string }): string {
    const workspace = pushed.plainFolder(`workspace-${++workspaces}`)
    const name = path.basename(workspace)
    if (folders.pushed) pushed.copy(checkedOut, `${name}/${folders.pushed}`)
    if (folders.other)
      fs.cpSync(otherCheckedOut.dir, path.join(workspace, folders.other), { recursive: true })
    return workspace
  }

  it('finds the repository from the patterns and prefixes its names with its folder', async () => {
    const workspace = workspaceWith({ pushed: 'sub' })

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
    const workspace = workspaceWith({ pushed: 'sub' })

    const { decision } = await detect(workspace, before, after, ['**/*.md'])
    expect(decision).toMatchObject({ kind: 'changes', added: ['sub/docs/c.md'], modified: ['sub/docs/a.md'] })
  })

  it('takes the checkout holding the pushed commit and sends every selected file of the other one', async () => {
    const workspace = workspaceWith({ pushed: 'main', other: 'other' })

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
    const workspace = workspaceWith({ pushed: 'one', other: 'two' })

    const { decision, warnings } = await detect(workspace, 'e'.repeat(40), 'f'.repeat(40), [
      'one/**',
      'two/**',
    ])
    expect(decision).toMatchObject({ kind: 'all', source: 'full-sync' })
    expect(decision.kind === 'all' && decision.reason).toMatch(/several git repositories \(one, two\)/)
    expect(warnings).toHaveLength(1)
  })

  it('sends everything, with a warning, when the workspace holds no repository of the selected files', async () => {
    const { decision, warnings } = await detect(workspaceWith({}), before, after, ['docs/**'])
    expect(decision).toMatchObject({ kind: 'all', source: 'full-sync' })
    expect(decision.kind === 'all' && decision.reason).toMatch(/is not a git repository, and no folder/)
    expect(warnings).toHaveLength(1)
  })

  it('finds the repository around a workspace whose path holds a line break', async () => {
    // git prints the top of the working tree on one line: such a path is asked about on its own.
    const checkout = pushed.copy(checkedOut, 'line\nbreak')

    const { decision } = await detect(path.join(checkout.dir, 'docs'), before, after, ['**'])
    expect(decision).toEqual({
      kind: 'changes',
      source: 'fetched-before',
      added: ['c.md'],
      modified: ['a.md'],
      removed: [],
    })
  })
})

describe('detectChanges with names that are not valid UTF-8', () => {
  it('reports an added name that is not UTF-8 as selection shows it, and keeps the other names', async () => {
    const repo = fixture()
    const author = repo.author()
    const before = author.write('docs/a.md').commit('seed')
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
