// Change detection through submodules, with real repositories: a superproject whose docs live in a
// submodule (`git submodule add` of a local repository), checked out like actions/checkout with
// `submodules: true` (depth 1, so the submodule's old commit must be fetched).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import path from 'node:path'
import { detectChanges } from '../../src/history/changes.js'
import { GitFixture, WorkingCopy } from '../helpers/git-fixture.js'
import { recordingLog } from '../helpers/log.js'
import { LookupBudget } from '../../src/github/lookup-budget.js'

let fixtures: GitFixture[] = []
const created = (): GitFixture => {
  const fixture = GitFixture.create()
  fixtures.push(fixture)
  return fixture
}
afterAll(() => {
  for (const fixture of fixtures) fixture.cleanup()
  fixtures = []
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
function seedKb(kb: GitFixture): { kbAuthor: WorkingCopy; kbFirst: string } {
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
function seedTop(top: GitFixture, kb: GitFixture): { author: WorkingCopy; before: string } {
  const author = top.author()
  author.write('top.md').addSubmodule(kb.originUrl, 'kb')
  const before = author.commit('seed top')
  author.push()
  return { author, before }
}

/**
 * The pushes most cases read, built once as branches of one superproject (each case checks out its
 * own): kb seeded (a, b, c) then changed (a modified, b removed, d added); the superproject's
 * `topOnly` (top.md), then `before` (kb added at its seed), and from `before`:
 * - main: kb moved to its change;
 * - with-top: kb moved and top.md modified;
 * - with-guide: kb moved and docs/guide.md added;
 * - removed: kb removed (`git rm`).
 */
interface Pushes {
  kb: GitFixture
  top: GitFixture
  topOnly: string
  before: string
  after: { main: string; withTop: string; withGuide: string; removed: string }
  /** main checked out with `submodules: true`, once: cases that change it work in a copy. */
  mainWithSubmodules: WorkingCopy
}

function buildPushes(): Pushes {
  const kb = created()
  const top = created()
  const { kbAuthor, kbFirst } = seedKb(kb)
  const author = top.author()
  const topOnly = author.write('top.md').commit('seed top')
  const before = author.addSubmodule(kb.originUrl, 'kb').commit('add kb')
  const kbAfter = changeKb(kbAuthor)
  const main = author.moveSubmodule('kb', kbAfter).commit('move kb')
  const onBefore = (branch: string, edit: () => void, message: string): string => {
    author.git('checkout', '-q', '-B', branch, before)
    edit()
    return author.commit(message)
  }
  const withTop = onBefore(
    'with-top',
    () => author.moveSubmodule('kb', kbAfter).write('top.md', 'top, second\n'),
    'move kb',
  )
  const withGuide = onBefore(
    'with-guide',
    () => author.write('docs/guide.md').moveSubmodule('kb', kbAfter),
    'move kb, add a guide',
  )
  const removed = onBefore(
    'removed',
    () => {
      // Back at the commit `before` records, so git rm finds the submodule unmodified.
      new WorkingCopy(path.join(author.dir, 'kb')).git('checkout', '-q', kbFirst)
      author.git('rm', '-q', 'kb')
    },
    'remove kb',
  )
  // One push for every branch.
  author.git(
    'push',
    '-q',
    'origin',
    `${main}:refs/heads/main`,
    `${before}:refs/heads/before`,
    `${withTop}:refs/heads/with-top`,
    `${withGuide}:refs/heads/with-guide`,
    `${removed}:refs/heads/removed`,
  )
  const mainWithSubmodules = top.checkout({ submodules: true, name: 'main-with-submodules' })
  return { kb, top, topOnly, before, after: { main, withTop, withGuide, removed }, mainWithSubmodules }
}

describe('detectChanges with submodules', () => {
  let pushes: Pushes
  beforeAll(() => {
    pushes = buildPushes()
  })

  it('diffs inside a submodule whose commit moved, fetching its old commit into the depth-1 checkout', async () => {
    const { top, before, after } = pushes
    const checkout = top.checkout({ submodules: true, branch: 'with-top', name: 'with-top' })

    const { decision, warnings } = await detect(checkout.dir, before, after.withTop)
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
    const [inner, kb, top] = [created(), created(), created()]
    const innerAuthor = inner.author()
    innerAuthor.write('x.md').write('y.md')
    innerAuthor.commit('seed inner')
    innerAuthor.push()
    const { kbAuthor } = seedKb(kb)
    kbAuthor.addSubmodule(inner.originUrl, 'inner').commit('add inner')
    kbAuthor.push()
    const { author, before } = seedTop(top, kb)

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
    const { top, topOnly, before } = pushes
    const checkout = top.checkout({ submodules: true, branch: 'before', name: 'before' })

    const { decision, warnings } = await detect(checkout.dir, topOnly, before)
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
    const { top, before, after } = pushes
    const checkout = top.checkout({ submodules: true, branch: 'removed', name: 'removed' })

    const { decision } = await detect(checkout.dir, before, after.removed)
    // git rm leaves an empty .gitmodules behind.
    expect(decision).toMatchObject({ kind: 'changes', added: [], modified: ['.gitmodules'], removed: [] })
    expect(decision.kind === 'changes' && decision.warnings).toEqual([
      expect.stringMatching(/submodule kb was removed .*not listed as removed/),
    ])
  })

  it('sends every selected file of a submodule whose old commit cannot be fetched, with a warning', async () => {
    const { kb, top, before, after, mainWithSubmodules } = pushes
    const checkout = top.copy(mainWithSubmodules, 'remote-gone')
    // The submodule's remote is gone: its old commit cannot be had.
    new WorkingCopy(path.join(checkout.dir, 'kb')).git(
      'remote',
      'set-url',
      'origin',
      path.join(kb.root, 'gone.git'),
    )

    const { decision, warnings } = await detect(checkout.dir, before, after.main)
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
    const { top, before, after } = pushes

    const { decision } = await detect(top.checkout({ name: 'no-submodules' }).dir, before, after.main)
    expect(decision).toMatchObject({ kind: 'changes', everythingUnder: ['kb'] })
    expect(decision.kind === 'changes' && decision.warnings).toEqual([
      expect.stringMatching(/the submodule kb: it is not checked out.*`submodules: true`/),
    ])
  })

  it('does not open submodules outside a workspace that is a folder of the superproject', async () => {
    const { top, before, after } = pushes
    // kb is not checked out, but it lies outside the workspace `docs`: no warning, nothing unknown.
    const checkout = top.checkout({ branch: 'with-guide', name: 'with-guide' })
    const { decision } = await detect(path.join(checkout.dir, 'docs'), before, after.withGuide)
    expect(decision).toEqual({
      kind: 'changes',
      source: 'fetched-before',
      added: ['guide.md'],
      modified: [],
      removed: [],
    })
  })

  it('maps names for a workspace inside a submodule of the checkout', async () => {
    const { top, before, after, mainWithSubmodules } = pushes
    const checkout = top.copy(mainWithSubmodules, 'inside-kb')

    const { decision } = await detect(path.join(checkout.dir, 'kb', 'docs'), before, after.main)
    expect(decision).toMatchObject({
      kind: 'changes',
      added: ['d.md'],
      modified: ['a.md'],
      removed: ['b.md'],
    })
  })
})
