// Content ids from real repositories in temp dirs: what git knows unchanged comes from the index without
// reading the file (shown by a selected size that no read would accept: a file that is read gets
// UNKNOWN), every other file is hashed, and each id is what `git hash-object` gives for the file.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { SelectedFile } from '../../src/model.js'
import { selectFiles } from '../../src/select/files.js'
import { contentIds } from '../../src/state/content-ids.js'
import { blobId } from '../../src/state/blob-ids.js'
import { UNKNOWN } from '../../src/state/record.js'
import { GitFixture, type WorkingCopy } from '../helpers/git-fixture.js'

const gitEnv: NodeJS.ProcessEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: os.devNull }

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: gitEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
}

/** What git itself says the file's blob id is, its bytes as they are. */
const hashObject = (dir: string, name: string): string =>
  git(dir, 'hash-object', '--no-filters', '--', name).trim()

/** The id the index holds for `name` (run in `dir`). */
const indexId = (dir: string, name: string): string => git(dir, 'ls-files', '-s', '--', name).split(' ')[1]

async function select(workspace: string): Promise<SelectedFile[]> {
  const selection = await selectFiles({
    patterns: ['**'],
    workspace,
    includeHidden: false,
    maxFileSize: 1024 * 1024,
    followSymlinks: 'inside',
  })
  return selection.files
}

/**
 * The selection with the named files given a size that is not theirs: were such a file read, the read
 * guard would refuse it and its id would be UNKNOWN. An id from the index proves it was not read.
 */
const withWrongSizes = (files: SelectedFile[], names: string[]): SelectedFile[] =>
  files.map((file) =>
    names.includes(file.name) ? { name: file.name, path: file.path, size: file.size + 7 } : file,
  )

let fixture: GitFixture
let others: GitFixture[]
beforeEach(() => {
  fixture = GitFixture.create()
  others = []
})
afterEach(() => {
  for (const each of [fixture, ...others]) each.cleanup()
})

function seeded(): WorkingCopy {
  const copy = fixture.author()
  copy
    .write('docs/tracked.md', 'tracked\n')
    .write('docs/modified.md', 'first\n')
    .write('docs/staged.md', 'first\n')
  copy.write('.gitignore', 'ignored.md\n')
  copy.commit('seed')
  return copy
}

describe('contentIds in a repository', () => {
  it('takes a tracked unchanged file id from the index, without reading it', async () => {
    const copy = seeded()
    const files = withWrongSizes(await select(copy.dir), ['docs/tracked.md'])
    const ids = await contentIds(copy.dir, files)
    expect(ids.get('docs/tracked.md')).toBe(indexId(copy.dir, 'docs/tracked.md'))
    expect(ids.get('docs/tracked.md')).toBe(hashObject(copy.dir, 'docs/tracked.md'))
  })

  it('reads a listing that comes in many chunks, entries cut at their ends included, without reading a file', async () => {
    const copy = fixture.author()
    // ~2,000 bytes an entry: ~400 KB of `ls-files` output, several pipe reads, most of them ending
    // mid-entry (the listing of 3,000 entries of ~130 bytes, for a fifteenth of the files to write and add).
    const folder = `docs/${Array.from({ length: 12 }, (_, i) => `${i}-${'long-name-'.repeat(15)}`).join('/')}`
    const names = Array.from({ length: 210 }, (_, i) => `${folder}/${i}.md`)
    for (const name of names) copy.write(name, `${name}\n`)
    copy.commit('many')
    const files = withWrongSizes(await select(copy.dir), names)
    const ids = await contentIds(copy.dir, files)
    const listed = new Map(
      git(copy.dir, 'ls-files', '-s', '-z')
        .split('\0')
        .filter(Boolean)
        .map((entry) => [entry.slice(entry.indexOf('\t') + 1), entry.split(' ')[1]]),
    )
    expect(names.filter((name) => ids.get(name) !== listed.get(name))).toEqual([])
    expect(git(copy.dir, 'ls-files', '-v', '-s', '-z').length).toBeGreaterThan(6 * 64 * 1024)
  })

  it('hashes modified (unstaged), untracked and ignored files as git hash-object does', async () => {
    const copy = seeded()
    copy
      .write('docs/modified.md', 'second, longer\n')
      .write('docs/new.md', 'new\n')
      .write('ignored.md', 'ignored\n')
    const ids = await contentIds(copy.dir, await select(copy.dir))
    for (const name of ['docs/modified.md', 'docs/new.md', 'ignored.md'])
      expect(ids.get(name)).toBe(hashObject(copy.dir, name))
    expect(ids.get('docs/modified.md')).not.toBe(indexId(copy.dir, 'docs/modified.md'))
    expect(ids.get('docs/tracked.md')).toBe(hashObject(copy.dir, 'docs/tracked.md'))
  })

  it('does not trust the index for a file modified with its size and time unchanged in stat terms: diff-files sees it', async () => {
    const copy = seeded()
    // Same length, new content: only git's comparison (stat data, then content when racy) tells.
    copy.write('docs/modified.md', 'other\n')
    const ids = await contentIds(copy.dir, await select(copy.dir))
    expect(ids.get('docs/modified.md')).toBe(hashObject(copy.dir, 'docs/modified.md'))
  })

  it('gives a staged file the id of its content (the index and the worktree agree)', async () => {
    const copy = seeded()
    copy.write('docs/staged.md', 'second\n')
    copy.git('add', 'docs/staged.md')
    const files = withWrongSizes(await select(copy.dir), ['docs/staged.md'])
    const ids = await contentIds(copy.dir, files)
    expect(ids.get('docs/staged.md')).toBe(hashObject(copy.dir, 'docs/staged.md'))
    expect(ids.get('docs/staged.md')).toBe(indexId(copy.dir, 'docs/staged.md'))
  })

  it('gives one content one id, tracked or untracked (default configuration)', async () => {
    const copy = seeded()
    copy.write('copy-of-tracked.md', 'tracked\n')
    const files = withWrongSizes(await select(copy.dir), ['docs/tracked.md'])
    const ids = await contentIds(copy.dir, files)
    expect(ids.get('copy-of-tracked.md')).toBe(ids.get('docs/tracked.md'))
    expect(ids.get('docs/tracked.md')).toBe(blobId(Buffer.from('tracked\n')))
  })

  it('hashes files git does not compare with the worktree (skip-worktree, assume-unchanged)', async () => {
    const copy = seeded()
    copy.git('update-index', '--skip-worktree', 'docs/modified.md')
    copy.git('update-index', '--assume-unchanged', 'docs/staged.md')
    copy.write('docs/modified.md', 'changed behind git\n').write('docs/staged.md', 'changed too\n')
    const ids = await contentIds(copy.dir, await select(copy.dir))
    expect(ids.get('docs/modified.md')).toBe(blobId(Buffer.from('changed behind git\n')))
    expect(ids.get('docs/staged.md')).toBe(blobId(Buffer.from('changed too\n')))
  })

  it('hashes the target of a followed link, not the link git tracks', async () => {
    const copy = seeded()
    copy.write('shared/target.md', 'target\n')
    fs.symlinkSync('../shared/target.md', path.join(copy.dir, 'docs/link.md'))
    copy.commit('a link')
    const selection = await selectFiles({
      patterns: ['docs/**'],
      workspace: copy.dir,
      includeHidden: false,
      maxFileSize: 1024,
      followSymlinks: 'inside',
    })
    const ids = await contentIds(copy.dir, selection.files)
    expect(ids.get('docs/link.md')).toBe(hashObject(copy.dir, 'shared/target.md'))
  })

  it('names files relative to a workspace that is a subfolder of the repository', async () => {
    const copy = seeded()
    copy.write('docs/new.md', 'new\n')
    const workspace = path.join(copy.dir, 'docs')
    const files = withWrongSizes(await select(workspace), ['tracked.md'])
    const ids = await contentIds(workspace, files)
    expect([...ids.keys()].sort()).toEqual(['modified.md', 'new.md', 'staged.md', 'tracked.md'])
    expect(ids.get('tracked.md')).toBe(indexId(copy.dir, 'docs/tracked.md'))
    expect(ids.get('new.md')).toBe(hashObject(workspace, 'new.md'))
  })

  it('keeps a file with a non-UTF-8 name out and still knows the others (and a UTF-8 name that is not ASCII)', async () => {
    const copy = seeded()
    copy
      .writeBytes('docs', Buffer.from([0x66, 0xff, 0x2e, 0x6d, 0x64]), 'bytes\n')
      .write('docs/café.md', 'café\n')
    copy.commit('odd names')
    const files = await select(copy.dir)
    expect(files.some((file) => file.name.includes('\uFFFD'))).toBe(false)
    const ids = await contentIds(copy.dir, withWrongSizes(files, ['docs/café.md', 'docs/tracked.md']))
    expect(ids.get('docs/café.md')).toBe(blobId(Buffer.from('café\n')))
    expect(ids.get('docs/tracked.md')).toBe(blobId(Buffer.from('tracked\n')))
    expect(ids.size).toBe(files.length)
  })

  it('gives 64-hex ids in a SHA-256 repository, one per content tracked or not', async () => {
    const dir = fixture.plainFolder('sha256')
    git(dir, 'init', '-q', '--object-format=sha256')
    fs.writeFileSync(path.join(dir, 'a.md'), 'same\n')
    git(dir, 'add', 'a.md')
    git(dir, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'one')
    fs.writeFileSync(path.join(dir, 'b.md'), 'same\n')
    const ids = await contentIds(dir, withWrongSizes(await select(dir), ['a.md']))
    expect(ids.get('a.md')).toMatch(/^[0-9a-f]{64}$/)
    expect(ids.get('a.md')).toBe(hashObject(dir, 'a.md'))
    expect(ids.get('b.md')).toBe(ids.get('a.md'))
  })

  it('gives UNKNOWN to a file that is not as it was selected', async () => {
    const copy = seeded()
    copy.write('docs/new.md', 'new\n')
    const files = withWrongSizes(await select(copy.dir), ['docs/new.md'])
    expect((await contentIds(copy.dir, files)).get('docs/new.md')).toBe(UNKNOWN)
  })

  it('hashes a large modified file in streamed reads', async () => {
    const copy = seeded()
    copy.write('docs/modified.md', 'x'.repeat(300_000))
    const ids = await contentIds(copy.dir, await select(copy.dir))
    expect(ids.get('docs/modified.md')).toBe(hashObject(copy.dir, 'docs/modified.md'))
  })

  it('rejects with the reason of an aborted signal', async () => {
    const copy = seeded()
    const files = await select(copy.dir)
    const controller = new AbortController()
    const reason = new Error('cancelled')
    controller.abort(reason)
    await expect(contentIds(copy.dir, files, controller.signal)).rejects.toBe(reason)
  })
})

describe('contentIds when it cannot or must not finish', () => {
  it('rejects with the reason of a signal aborted while it runs', async () => {
    const copy = seeded()
    const files = await select(copy.dir)
    const controller = new AbortController()
    const reason = new Error('cancelled')
    const running = contentIds(copy.dir, files, controller.signal)
    controller.abort(reason)
    await expect(running).rejects.toBe(reason)
  })

  it('hashes every file when git cannot be run', async () => {
    const copy = seeded()
    copy.write('docs/modified.md', 'second\n')
    const files = await select(copy.dir)
    const expected = new Map(files.map((file) => [file.name, hashObject(copy.dir, file.name)]))
    const path = process.env.PATH
    process.env.PATH = fixture.plainFolder('no-git-here')
    try {
      expect(await contentIds(copy.dir, files)).toEqual(expected)
    } finally {
      process.env.PATH = path
    }
  })
})

describe('contentIds with submodules and other checkouts', () => {
  it('knows a submodule file from the submodule index and hashes one modified in it', async () => {
    const kb = GitFixture.create()
    others.push(kb)
    const kbAuthor = kb.author()
    kbAuthor.write('docs/a.md', 'a\n').write('docs/b.md', 'b\n').commit('kb')
    kbAuthor.push()
    const top = fixture.author()
    top.write('top.md', 'top\n').addSubmodule(kb.originUrl, 'kb').commit('top')
    top.write('kb/docs/b.md', 'b, changed\n')
    const files = withWrongSizes(await select(top.dir), ['kb/docs/a.md', 'top.md'])
    const ids = await contentIds(top.dir, files)
    expect(ids.get('kb/docs/a.md')).toBe(blobId(Buffer.from('a\n')))
    expect(ids.get('top.md')).toBe(blobId(Buffer.from('top\n')))
    expect(ids.get('kb/docs/b.md')).toBe(blobId(Buffer.from('b, changed\n')))
  })

  it('knows the files of a repository checked out in a folder of the workspace (actions/checkout `path:`)', async () => {
    const author = seeded()
    author.push()
    const workspace = fixture.plainFolder('workspace')
    git(workspace, 'clone', '-q', fixture.originUrl, 'site')
    fs.writeFileSync(path.join(workspace, 'outside.md'), 'outside\n')
    fs.writeFileSync(path.join(workspace, 'site/docs/modified.md'), 'changed\n')
    const files = withWrongSizes(await select(workspace), ['site/docs/tracked.md'])
    const ids = await contentIds(workspace, files)
    expect(ids.get('site/docs/tracked.md')).toBe(blobId(Buffer.from('tracked\n')))
    expect(ids.get('site/docs/modified.md')).toBe(blobId(Buffer.from('changed\n')))
    expect(ids.get('outside.md')).toBe(blobId(Buffer.from('outside\n')))
  })

  it('hashes every file of a workspace that is not in a repository', async () => {
    const dir = fixture.plainFolder('plain')
    fs.mkdirSync(path.join(dir, 'docs'))
    fs.writeFileSync(path.join(dir, 'docs/a.md'), 'a\n')
    fs.writeFileSync(path.join(dir, 'b.md'), '')
    const ids = await contentIds(dir, await select(dir))
    expect(ids.get('docs/a.md')).toBe(hashObject(dir, 'docs/a.md'))
    expect(ids.get('b.md')).toBe(hashObject(dir, 'b.md'))
    expect(ids.get('b.md')).toBe('e69de29bb2d1d6434b8b29ae775ad8c2e48c5391')
  })
})
