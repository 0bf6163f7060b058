import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { detectPullRequestChanges } from '../../src/history/pull-request-changes.js'
import { GitFixture, type WorkingCopy } from '../helpers/git-fixture.js'
import { recordingLog } from '../helpers/log.js'
import { LookupBudget } from '../../src/github/lookup-budget.js'

let fixture: GitFixture
let author: WorkingCopy

beforeEach(() => {
  fixture = GitFixture.create()
})
afterEach(() => fixture.cleanup())

const payload = (base: string, head: string, number = 9) => ({
  pull_request: { number, base: { sha: base }, head: { sha: head } },
})

describe('pull request change set (base.sha..head.sha)', () => {
  it('is the tree difference, the base fetched into a depth-1 checkout of the head', async () => {
    author = fixture.author()
    author.write('a.md').write('gone.md').write('same.md')
    const base = author.commit('base')
    author.write('a.md', 'changed\n').write('new.md').remove('gone.md')
    const head = author.commit('head')
    // main at the base, feature at the head: one push.
    author.git('push', '-q', 'origin', `${base}:refs/heads/main`, 'HEAD:refs/heads/feature')
    const { log } = recordingLog()
    const changes = await detectPullRequestChanges({
      github: new LookupBudget(),
      payload: payload(base, head),
      workspace: fixture.checkout({ branch: 'feature' }).dir,
      log,
    })
    expect(changes.decision).toEqual({
      kind: 'changes',
      source: 'fetched-before',
      added: ['new.md'],
      modified: ['a.md'],
      removed: ['gone.md'],
    })
    expect(changes).toMatchObject({ number: 9, base, head })
    expect(changes.description).toBe(
      `git diff of the pull request (${base.slice(0, 12)}..${head.slice(0, 12)}), after fetching the base commit`,
    )
  })

  it.each([
    ['an option as base', '--upload-pack=evil', 'a'.repeat(40)],
    ['a missing head', 'a'.repeat(40), ''],
  ])('%s: every selected file, with a warning, and git never sees it', async (_, base, head) => {
    const { log, lines } = recordingLog()
    const changes = await detectPullRequestChanges({
      github: new LookupBudget(),
      payload: payload(base, head),
      workspace: fixture.plainFolder(),
      log,
    })
    expect(changes.decision).toEqual({
      kind: 'all',
      source: 'full-sync',
      reason: 'the pull_request payload has no valid base/head commit ids',
    })
    expect(lines.filter((l) => l.level === 'warning')).toHaveLength(1)
  })

  it('without git and without a token: every selected file, saying why', async () => {
    const { log } = recordingLog()
    const changes = await detectPullRequestChanges({
      github: new LookupBudget(),
      payload: payload('a'.repeat(40), 'b'.repeat(40)),
      workspace: fixture.plainFolder(),
      log,
    })
    expect(changes.decision.kind).toBe('all')
    expect(changes.description).toMatch(
      /^every selected file \(the change set is unknown \(git: .*; no github-token for the compare API\)\)$/,
    )
  })
})

describe('pull request change set with a submodule', () => {
  it('reaches into the submodule the pull request moves, fetching its base commit', async () => {
    author = fixture.author()
    const kb = GitFixture.create()
    try {
      const kbAuthor = kb.author()
      kbAuthor.write('docs/a.md').write('docs/b.md').commit('seed kb')
      kbAuthor.push()
      const base = author.write('top.md').addSubmodule(kb.originUrl, 'kb').commit('base')
      kbAuthor.write('docs/b.md', 'b, second\n').remove('docs/a.md')
      const kbAfter = kbAuthor.commit('change kb')
      kbAuthor.push()
      const head = author.moveSubmodule('kb', kbAfter).commit('head')
      author.git('push', '-q', 'origin', `${base}:refs/heads/main`, 'HEAD:refs/heads/feature')
      const { log } = recordingLog()
      const changes = await detectPullRequestChanges({
        github: new LookupBudget(),
        payload: payload(base, head),
        workspace: fixture.checkout({ branch: 'feature', submodules: true }).dir,
        patterns: ['kb/docs/**'],
        log,
      })
      expect(changes.decision).toEqual({
        kind: 'changes',
        source: 'fetched-before',
        added: [],
        modified: ['kb/docs/b.md'],
        removed: ['kb/docs/a.md'],
      })
    } finally {
      kb.cleanup()
    }
  })
})
