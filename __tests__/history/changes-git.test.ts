// Change detection from real git repositories: a bare origin, an author clone that pushes, and a
// checkout made like actions/checkout.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import fs from 'node:fs'
import path from 'node:path'
import { detectChanges } from '../../src/history/changes.js'
import { GitFixture, type WorkingCopy } from '../helpers/git-fixture.js'
import { recordingLog } from '../helpers/log.js'
import { LookupBudget } from '../../src/github/lookup-budget.js'

let fixture: GitFixture
beforeEach(() => {
  fixture = GitFixture.create()
})
afterEach(() => {
  fixture.cleanup()
})

/** The push payload GitHub Actions gives a workflow: commits without added/modified/removed lists. */
function actionsPushPayload(before: string, after: string, extra: Record<string, unknown> = {}) {
  return {
    ref: 'refs/heads/main',
    before,
    after,
    created: false,
    deleted: false,
    forced: false,
    commits: [{ id: after, message: 'change', distinct: true }],
    head_commit: { id: after },
    ...extra,
  }
}

async function detect(workspace: string, before: string, after: string) {
  const { log, lines } = recordingLog()
  const decision = await detectChanges({
    eventName: 'push',
    github: new LookupBudget(),
    payload: actionsPushPayload(before, after),
    workspace,
    log,
  })
  return { decision, lines }
}

function hasCommit(copy: WorkingCopy, sha: string): boolean {
  try {
    copy.git('cat-file', '-e', `${sha}^{commit}`)
    return true
  } catch {
    return false
  }
}

/** Three files on main, committed (pushed with the case's push): returns the author and the commit. */
function seed(files: string[] = ['a.md', 'b.md', 'c.md']): { author: WorkingCopy; before: string } {
  const author = fixture.author()
  for (const name of files) author.write(name)
  const before = author.commit('seed')
  return { author, before }
}

function linearPush(author: WorkingCopy): string {
  author.write('a.md', 'a, second version\n').write('d.md')
  author.commit('modify a, add d')
  author.remove('b.md').write('e/f.md')
  author.commit('remove b, add e/f')
  author.write('d.md', 'd, second version\n')
  const after = author.commit('modify d')
  author.push()
  return after
}

describe('detectChanges from git', () => {
  it('diffs a linear history already in the checkout (git-diff)', async () => {
    const { author, before } = seed()
    const after = linearPush(author)
    const checkout = fixture.checkout({ depth: 0 })
    expect(hasCommit(checkout, before)).toBe(true)

    const { decision } = await detect(checkout.dir, before, after)
    expect(decision).toEqual({
      kind: 'changes',
      source: 'git-diff',
      added: ['d.md', 'e/f.md'],
      modified: ['a.md'],
      removed: ['b.md'],
    })
    // Commit ids in capitals are the same commits, found without a fetch.
    expect((await detect(checkout.dir, before.toUpperCase(), after.toUpperCase())).decision).toEqual(decision)
  })

  it('fetches before into a depth-1 checkout from origin (fetched-before)', async () => {
    const { author, before } = seed()
    const after = linearPush(author)
    const checkout = fixture.checkout()
    expect(hasCommit(checkout, before)).toBe(false)

    const { decision } = await detect(checkout.dir, before, after)
    expect(decision).toEqual({
      kind: 'changes',
      source: 'fetched-before',
      added: ['d.md', 'e/f.md'],
      modified: ['a.md'],
      removed: ['b.md'],
    })
    expect(hasCommit(checkout, before)).toBe(true)
  })

  it('fetches before and after into a complete clone made before the push, keeping it complete', async () => {
    const { author } = seed()
    author.push()
    const checkout = fixture.checkout({ depth: 0 })
    const before = author.write('c.md', 'c, second version\n').commit('not yet in the checkout')
    const after = linearPush(author)
    expect([hasCommit(checkout, before), hasCommit(checkout, after)]).toEqual([false, false])

    const { decision } = await detect(checkout.dir, before, after)
    expect(decision).toEqual({
      kind: 'changes',
      source: 'fetched-before',
      added: ['d.md', 'e/f.md'],
      modified: ['a.md'],
      removed: ['b.md'],
    })
    expect(checkout.git('rev-parse', '--is-shallow-repository').trim()).toBe('false')
  })

  it('takes a merge of a side branch as the tree difference', async () => {
    const { author, before } = seed()
    author.git('checkout', '-q', '-b', 'side')
    author.write('side.md').write('a.md', 'a changed on side\n').remove('c.md')
    author.commit('side work')
    author.git('checkout', '-q', 'main')
    author.write('main.md').write('b.md', 'b changed on main\n')
    author.commit('main work')
    author.git('merge', '-q', '--no-ff', '--no-edit', 'side')
    const after = author.head()
    author.push()

    const { decision } = await detect(fixture.checkout().dir, before, after)
    expect(decision).toEqual({
      kind: 'changes',
      source: 'fetched-before',
      added: ['main.md', 'side.md'],
      modified: ['a.md', 'b.md'],
      removed: ['c.md'],
    })
  })

  it('gives a rename or move as the old name removed and the new name added', async () => {
    const { author, before } = seed(['a.md', 'b.md', 'docs/c.md'])
    author.git('mv', 'a.md', 'docs/a.md')
    author.git('mv', 'docs/c.md', 'c.md')
    author.commit('moves')
    author.git('mv', 'b.md', 'b2.md')
    author.write('b2.md', 'renamed and edited\n')
    const after = author.commit('rename with an edit')
    author.push()

    const { decision } = await detect(fixture.checkout().dir, before, after)
    expect(decision).toEqual({
      kind: 'changes',
      source: 'fetched-before',
      added: ['b2.md', 'c.md', 'docs/a.md'],
      modified: [],
      removed: ['a.md', 'b.md', 'docs/c.md'],
    })
  })

  it('nets out added-then-deleted and deleted-then-re-added files inside one push', async () => {
    const { author, before } = seed(['keep.md', 'same.md', 'stay.md'])
    author.write('temp.md').remove('keep.md').remove('same.md')
    author.commit('add temp, delete keep and same')
    author.remove('temp.md').write('keep.md', 'keep, re-added with new content\n').write('same.md')
    const after = author.commit('delete temp, re-add keep (changed) and same (identical)')
    author.push()

    const { decision } = await detect(fixture.checkout().dir, before, after)
    // same.md came back byte for byte: the tree did not change, so there is nothing to send.
    expect(decision).toEqual({
      kind: 'changes',
      source: 'fetched-before',
      added: [],
      modified: ['keep.md'],
      removed: [],
    })
  })

  it('counts a type change (file to symbolic link) as modified', async () => {
    const { author, before } = seed(['a.md', 'b.md'])
    author.remove('b.md')
    fs.symlinkSync('a.md', path.join(author.dir, 'b.md'))
    const after = author.commit('b becomes a link')
    author.push()

    const { decision } = await detect(fixture.checkout().dir, before, after)
    expect(decision).toEqual({
      kind: 'changes',
      source: 'fetched-before',
      added: [],
      modified: ['b.md'],
      removed: [],
    })
  })

  it('keeps names with spaces, quotes, a newline and non-ASCII characters intact', async () => {
    const odd = ['with space.md', 'q"uote\'s.md', 'new\nline.md', 'résumé/日本語.md', 'tab\tand\\back.md']
    const { author, before } = seed(['plain.md', 'old name with space.md', 'ça va.md'])
    for (const name of odd) author.write(name)
    author.write('ça va.md', 'changed\n').remove('old name with space.md')
    const after = author.commit('odd names')
    author.push()

    const { decision } = await detect(fixture.checkout().dir, before, after)
    expect(decision).toEqual({
      kind: 'changes',
      source: 'fetched-before',
      added: [...odd].sort(),
      modified: ['ça va.md'],
      removed: ['old name with space.md'],
    })
  })

  it('reports a push that changed no file as an empty change set', async () => {
    const { author, before } = seed()
    const after = author.commit('empty commit')
    author.push()

    const { decision } = await detect(fixture.checkout().dir, before, after)
    expect(decision).toEqual({
      kind: 'changes',
      source: 'fetched-before',
      added: [],
      modified: [],
      removed: [],
    })
  })

  it('maps names to a workspace that is a folder inside the repository, dropping names outside it', async () => {
    const { author, before } = seed(['docs/a.md', 'docs/b.md', 'README.md'])
    author.write('docs/c.md').write('docs/a.md', 'a, second\n').remove('docs/b.md').write('README.md', 'x\n')
    const after = author.commit('change docs and the readme')
    author.push()
    const checkout = fixture.checkout()

    const { decision, lines } = await detect(path.join(checkout.dir, 'docs'), before, after)
    expect(decision).toEqual({
      kind: 'changes',
      source: 'fetched-before',
      added: ['c.md'],
      modified: ['a.md'],
      removed: ['b.md'],
    })
    expect(lines.filter((line) => line.level === 'warning')).toEqual([])
  })

  it('syncs everything with a warning when there is no .git, no lists and no token', async () => {
    const { decision, lines } = await detect(fixture.plainFolder(), 'a'.repeat(40), 'b'.repeat(40))
    expect(decision.kind).toBe('all')
    const reason = decision.kind === 'all' ? decision.reason : ''
    expect(reason).toMatch(/not a git repository/)
    expect(reason).toMatch(/no repository is known/)
    expect(lines).toContainEqual({ level: 'warning', message: `Change detection: ${reason}` })
  })
})
