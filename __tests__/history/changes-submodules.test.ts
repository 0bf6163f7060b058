// Change detection through submodules, with real repositories: a superproject whose docs live in a
// submodule (`git submodule add` of a local repository), checked out like actions/checkout with
// `submodules: true` (depth 1, so the submodule's old commit must be fetched).
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import path from 'node:path'
import { detectChanges } from '../../src/history/changes.js'
import { GitFixture, WorkingCopy } from '../helpers/git-fixture.js'
import { recordingLog } from '../helpers/log.js'
import { LookupBudget } from '../../src/github/lookup-budget.js'

let fixtures: GitFixture[]
let kb: GitFixture
let top: GitFixture
beforeEach(() => {
  kb = GitFixture.create()
  top = GitFixture.create()
  fixtures = [kb, top]
})
afterEach(() => {
  for (const fixture of fixtures) fixture.cleanup()
})

function pushPayload(before: string, after: string) {
  return { ref: 'refs/heads/main', before, after, deleted: false, forced: false, commits: [] }
}

async function detect(workspace: string, before: string, after: string, patterns = ['**']) {
  const { log, lines } = recordingLog()
  const decision = await detectChanges({
    eventName: 'push',
    github: new LookupBudget(),
    payload: pushPayload(before, after),
    workspace,
    patterns,
    log,
  })
  return { decision, warnings: lines.filter((line) => line.level === 'warning') }
}

/** The kb repository with three docs, pushed; returns its author and commit. */
function seedKb(): { kbAuthor: WorkingCopy; kbFirst: string } {
  const kbAuthor = kb.author()
  kbAuthor.write('docs/a.md').write('docs/b.md').write('docs/c.md')
  const kbFirst = kbAuthor.commit('seed kb')
  kbAuthor.push()
  return { kbAuthor, kbFirst }
}

/** In kb: modify a, remove b, add d; pushed. */
function changeKb(kbAuthor: WorkingCopy): string {
  kbAuthor.write('docs/a.md', 'a, second\n').remove('docs/b.md').write('docs/d.md')
  const sha = kbAuthor.commit('change kb')
  kbAuthor.push()
  return sha
}

/** The superproject with top.md and kb as a submodule at `kb`; pushed. */
function seedTop(): { author: WorkingCopy; before: string } {
  const author = top.author()
  author.write('top.md').addSubmodule(kb.originUrl, 'kb')
  const before = author.commit('seed top')
  author.push()
  return { author, before }
}

describe('detectChanges with submodules', () => {
  it('diffs inside a submodule whose commit moved, fetching its old commit into the depth-1 checkout', async () => {
    const { kbAuthor } = seedKb()
    const { author, before } = seedTop()
    const kbAfter = changeKb(kbAuthor)
    author.moveSubmodule('kb', kbAfter).write('top.md', 'top, second\n')
    const after = author.commit('move kb')
    author.push()
    const checkout = top.checkout({ submodules: true })

    const { decision, warnings } = await detect(checkout.dir, before, after)
    expect(decision).toEqual({
      kind: 'changes',
      source: 'fetched-before',
      added: ['kb/docs/d.md'],
      modified: ['kb/docs/a.md', 'top.md'],
      removed: ['kb/docs/b.md'],
    })
    expect(warnings).toEqual([])
  })

  it('reaches into nested submodules', async () => {
    const inner = GitFixture.create()
    fixtures.push(inner)
    const innerAuthor = inner.author()
    innerAuthor.write('x.md').write('y.md')
    innerAuthor.commit('seed inner')
    innerAuthor.push()
    const { kbAuthor } = seedKb()
    kbAuthor.addSubmodule(inner.originUrl, 'inner').commit('add inner')
    kbAuthor.push()
    const { author, before } = seedTop()

    innerAuthor.write('x.md', 'x, second\n').write('z.md')
    const innerAfter = innerAuthor.commit('change inner')
    innerAuthor.push()
    kbAuthor.moveSubmodule('inner', innerAfter)
    const kbAfter = kbAuthor.commit('move inner')
    kbAuthor.push()
    const after = author.moveSubmodule('kb', kbAfter).commit('move kb')
    author.push()

    const { decision } = await detect(top.checkout({ submodules: 'recursive' }).dir, before, after)
    expect(decision).toMatchObject({
      kind: 'changes',
      added: ['kb/inner/z.md'],
      modified: ['kb/inner/x.md'],
      removed: [],
    })
  })

  it('adds every file of a submodule that the push added', async () => {
    seedKb()
    const author = top.author()
    const before = author.write('top.md').commit('seed top')
    author.push()
    const after = author.addSubmodule(kb.originUrl, 'kb').commit('add kb')
    author.push()

    const { decision, warnings } = await detect(top.checkout({ submodules: true }).dir, before, after)
    expect(decision).toEqual({
      kind: 'changes',
      source: 'fetched-before',
      added: ['.gitmodules', 'kb/docs/a.md', 'kb/docs/b.md', 'kb/docs/c.md'],
      modified: [],
      removed: [],
    })
    expect(warnings).toEqual([])
  })

  it('warns that a removed submodule whose repository is gone cannot list its removed files', async () => {
    seedKb()
    const { author, before } = seedTop()
    author.git('rm', '-q', 'kb')
    const after = author.commit('remove kb')
    author.push()

    const { decision } = await detect(top.checkout({ submodules: true }).dir, before, after)
    // git rm leaves an empty .gitmodules behind.
    expect(decision).toMatchObject({ kind: 'changes', added: [], modified: ['.gitmodules'], removed: [] })
    expect(decision.kind === 'changes' && decision.warnings).toEqual([
      expect.stringMatching(/submodule kb was removed .*not listed as removed/),
    ])
  })

  it('sends every selected file of a submodule whose old commit cannot be fetched, with a warning', async () => {
    const { kbAuthor } = seedKb()
    const { author, before } = seedTop()
    const kbAfter = changeKb(kbAuthor)
    const after = author.moveSubmodule('kb', kbAfter).commit('move kb')
    author.push()
    const checkout = top.checkout({ submodules: true })
    // The submodule's remote is gone: its old commit cannot be had.
    new WorkingCopy(path.join(checkout.dir, 'kb')).git(
      'remote',
      'set-url',
      'origin',
      path.join(kb.root, 'gone.git'),
    )

    const { decision, warnings } = await detect(checkout.dir, before, after)
    expect(decision).toMatchObject({
      kind: 'changes',
      added: [],
      modified: [],
      removed: [],
      everythingUnder: ['kb'],
    })
    const shown = decision.kind === 'changes' ? decision.warnings : []
    expect(shown).toEqual([
      expect.stringMatching(/the submodule kb: its commit [0-9a-f]{12} .*fetch-depth: 0/),
    ])
    // Warnings reach the log where the job prints them, not twice.
    expect(warnings).toEqual([])
  })

  it('sends every selected file of a submodule that is not checked out, naming submodules: true', async () => {
    const { kbAuthor } = seedKb()
    const { author, before } = seedTop()
    const after = author.moveSubmodule('kb', changeKb(kbAuthor)).commit('move kb')
    author.push()

    const { decision } = await detect(top.checkout().dir, before, after)
    expect(decision).toMatchObject({ kind: 'changes', everythingUnder: ['kb'] })
    expect(decision.kind === 'changes' && decision.warnings).toEqual([
      expect.stringMatching(/the submodule kb: it is not checked out.*`submodules: true`/),
    ])
  })

  it('does not open submodules outside a workspace that is a folder of the superproject', async () => {
    const { kbAuthor } = seedKb()
    const { author, before } = seedTop()
    author.write('docs/guide.md')
    const after = author.moveSubmodule('kb', changeKb(kbAuthor)).commit('move kb, add a guide')
    author.push()
    // kb is not checked out, but it lies outside the workspace `docs`: no warning, nothing unknown.
    const { decision } = await detect(path.join(top.checkout().dir, 'docs'), before, after)
    expect(decision).toEqual({
      kind: 'changes',
      source: 'fetched-before',
      added: ['guide.md'],
      modified: [],
      removed: [],
    })
  })

  it('maps names for a workspace inside a submodule of the checkout', async () => {
    const { kbAuthor } = seedKb()
    const { author, before } = seedTop()
    const after = author.moveSubmodule('kb', changeKb(kbAuthor)).commit('move kb')
    author.push()
    const checkout = top.checkout({ submodules: true })

    const { decision } = await detect(path.join(checkout.dir, 'kb', 'docs'), before, after)
    expect(decision).toMatchObject({
      kind: 'changes',
      added: ['d.md'],
      modified: ['a.md'],
      removed: ['b.md'],
    })
  })
})
