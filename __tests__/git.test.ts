import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import fs from 'node:fs'
import path from 'node:path'
import { Git, GitError } from '../src/git.js'
import { GitFixture } from './helpers/git-fixture.js'

let fixture: GitFixture
beforeEach(() => {
  fixture = GitFixture.create()
})
afterEach(() => {
  fixture.cleanup()
})

describe('Git', () => {
  it('throws a GitError naming the command and what git said', async () => {
    const git = new Git(fixture.plainFolder())
    const failure = git.exec(['rev-parse', '--show-toplevel'])
    await expect(failure).rejects.toBeInstanceOf(GitError)
    await expect(failure).rejects.toThrow(/^git rev-parse failed: fatal: not a git repository/)
  })

  it('passes arguments as they are, without a shell', async () => {
    const author = fixture.author()
    author.write('$(touch pwned) `x` ; |.md').commit('odd name')
    const listed = await new Git(author.dir).exec(['ls-files', '-z', '--', '$(touch pwned) `x` ; |.md'])
    expect(listed).toBe('$(touch pwned) `x` ; |.md\0')
    expect(fs.existsSync(`${author.dir}/pwned`)).toBe(false)
  })

  it('ignores GIT_DIR and GIT_WORK_TREE of the environment', async () => {
    const author = fixture.author()
    const saved = { dir: process.env.GIT_DIR, tree: process.env.GIT_WORK_TREE }
    process.env.GIT_DIR = fixture.origin
    process.env.GIT_WORK_TREE = fixture.root
    try {
      expect(await new Git(author.dir).topLevel()).toBe(fs.realpathSync(author.dir))
    } finally {
      for (const [name, value] of [
        ['GIT_DIR', saved.dir],
        ['GIT_WORK_TREE', saved.tree],
      ] as const) {
        if (value === undefined) delete process.env[name]
        else process.env[name] = value
      }
    }
  })

  it('resolves a ref to a commit id, and an option-like ref to nothing', async () => {
    const author = fixture.author()
    const first = author.write('a.md').commit('first')
    const second = author.write('b.md').commit('second')
    author.git('tag', 'v1', first)
    const git = new Git(author.dir)
    expect(await git.resolveCommit('HEAD~1')).toBe(first)
    expect(await git.resolveCommit('v1')).toBe(first)
    expect(await git.resolveCommit('main')).toBe(second)
    expect(await git.resolveCommit('no-such-ref')).toBeUndefined()
    expect(await git.resolveCommit(`--output=${author.dir}/written`)).toBeUndefined()
    expect(fs.existsSync(`${author.dir}/written`)).toBe(false)
  })

  it('reads many blobs from one process: exact bytes, relative paths, and nothing for what is no blob', async () => {
    const author = fixture.author()
    const binary = Buffer.from([0, 10, 13, 32, 255, 10])
    author
      .write('docs/a b.md', 'spaces\n\nand blank lines\n')
      .write('docs/empty.md', '')
      .write('docs/sub/deep.md', 'deep\n')
      .commit('seed')
    fs.writeFileSync(path.join(author.dir, 'docs/bin.dat'), binary)
    // git holds such a name; its batch input cannot ask for it.
    fs.writeFileSync(path.join(author.dir, 'docs/line\nbreak.md'), 'line break\n')
    author.commit('binary, and a line break in a name')
    const commit = author.git('rev-parse', 'HEAD').trim()
    author.write('docs/a b.md', 'changed later\n').commit('later')
    const names = ['a b.md', 'line\nbreak.md', 'empty.md', 'sub/deep.md', 'bin.dat', 'missing.md', 'sub']
    // Relative to a folder of the repository, as `./` names are.
    const found = await new Git(path.join(author.dir, 'docs')).blobs(
      names.map((name) => `${commit}:./${name}`),
    )
    expect([...found.keys()]).toEqual(
      ['a b.md', 'empty.md', 'sub/deep.md', 'bin.dat'].map((name) => `${commit}:./${name}`),
    )
    expect(found.get(`${commit}:./a b.md`)?.toString()).toBe('spaces\n\nand blank lines\n')
    expect(found.get(`${commit}:./empty.md`)?.length).toBe(0)
    expect(found.get(`${commit}:./sub/deep.md`)?.toString()).toBe('deep\n')
    expect(found.get(`${commit}:./bin.dat`)).toEqual(binary)
    // A commit git does not hold: nothing, and no error.
    expect((await new Git(author.dir).blobs([`${'f'.repeat(40)}:./docs/empty.md`])).size).toBe(0)
  })

  it('keeps credentials of a remote URL out of its errors', () => {
    const error = new GitError(
      ['fetch'],
      128,
      "fatal: unable to access 'https://x-access-token:s3cret@example.com/r/'",
    )
    expect(error.message).toBe("git fetch failed: fatal: unable to access 'https://***@example.com/r/'")
  })

  it('kills a fetch that hangs, and what it started, when the run is cancelled', async () => {
    const author = fixture.author()
    const missing = author.write('a.md').commit('first')
    author.write('b.md').commit('second')
    author.push()
    const checkout = fixture.checkout()
    // The origin's upload-pack never answers, like a server that accepted the connection and stalls.
    const pidFile = path.join(fixture.root, 'upload-pack.pid')
    const uploadPack = path.join(fixture.root, 'stalled-upload-pack')
    fs.writeFileSync(
      uploadPack,
      `#!/bin/sh\necho $$ > '${pidFile}.tmp'\nmv '${pidFile}.tmp' '${pidFile}'\nexec sleep 600\n`,
      {
        mode: 0o755,
      },
    )
    checkout.git('config', 'remote.origin.uploadpack', uploadPack)

    const cancel = new AbortController()
    const fetching = new Git(checkout.dir).fetchCommit('origin', missing, { signal: cancel.signal })
    fetching.catch(() => undefined)
    while (!fs.existsSync(pidFile)) await new Promise((resolve) => setTimeout(resolve, 10))
    const uploadPackPid = Number(fs.readFileSync(pidFile, 'utf8'))
    const reason = new Error('cancelled (SIGINT received)')
    cancel.abort(reason)
    await expect(fetching).rejects.toBe(reason)
    // Nothing of the fetch is left running (an ended process not reaped yet is a zombie, state Z).
    const running = () => {
      try {
        return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${uploadPackPid}/stat`, 'utf8'))
      } catch {
        return false
      }
    }
    while (running()) await new Promise((resolve) => setTimeout(resolve, 10))
    expect(await new Git(checkout.dir).hasCommit(missing)).toBe(false)
  })
})
