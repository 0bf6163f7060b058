// Real git repositories for change-detection tests: a bare "origin" in a temp dir, working copies that
// author and push commits, and checkouts made like actions/checkout (a depth-1 clone over file://).
import { execFileSync } from 'node:child_process'
import { afterAll } from '@jest/globals'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

// The machine's own git configuration (signing, hooks, templates) must not change the fixtures.
const gitEnv: NodeJS.ProcessEnv = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: os.devNull,
  GIT_TERMINAL_PROMPT: '0',
}
for (const name of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY']) delete gitEnv[name]
// No template: init and clone then skip copying git's sample hooks and description (~10 ms each), which
// no fixture uses; the repositories work the same.
gitEnv.GIT_TEMPLATE_DIR = ''
// No housekeeping after each commit, push and fetch of a fixture (a process each): they stay small.
Object.assign(gitEnv, {
  GIT_CONFIG_COUNT: '3',
  GIT_CONFIG_KEY_0: 'maintenance.auto',
  GIT_CONFIG_VALUE_0: 'false',
  GIT_CONFIG_KEY_1: 'gc.auto',
  GIT_CONFIG_VALUE_1: '0',
  GIT_CONFIG_KEY_2: 'receive.autogc',
  GIT_CONFIG_VALUE_2: 'false',
})

function git(cwd: string, args: string[]): string {
  return execFileSync('git', args, { cwd, env: gitEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
}

// An author's clone writes this configuration as it clones.
const AUTHOR_CONFIG = [
  'user.name=Fixture Author',
  'user.email=author@example.com',
  'commit.gpgsign=false',
  'core.autocrlf=false',
].flatMap((setting) => ['-c', setting])

/**
 * An empty bare origin and an author's clone of it, made with git once per test file: each fixture
 * copies them (cp, no git process) instead of running `git init` and `git clone` again (~25 ms of CPU
 * each). The copies are what git makes: a bare repository holds no path, and the clone's only one is
 * its origin's URL, rewritten.
 */
let templates: { root: string; origin: string; author: string } | undefined
afterAll(() => {
  if (templates) fs.rmSync(templates.root, { recursive: true, force: true })
  templates = undefined
})

function emptyRepositories(): { origin: string; author: string } {
  if (!templates) {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-sync-git-template-'))
    const origin = path.join(root, 'origin.git')
    const author = path.join(root, 'author')
    git(root, ['-c', 'init.defaultBranch=main', 'init', '-q', '--bare', origin])
    git(root, ['-c', 'init.defaultBranch=main', 'clone', '-q', ...AUTHOR_CONFIG, `file://${origin}`, author])
    fs.writeFileSync(path.join(author, '.git', 'HEAD'), 'ref: refs/heads/main\n')
    templates = { root, origin, author }
  }
  return templates
}

export class WorkingCopy {
  constructor(readonly dir: string) {}

  git(...args: string[]): string {
    return git(this.dir, args)
  }

  write(name: string, content: string = `content of ${name}\n`): this {
    const file = path.join(this.dir, name)
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, content)
    return this
  }

  /** Writes a file below `folder` whose name (folders may be part of it) is given as bytes, e.g. not UTF-8. */
  writeBytes(folder: string, name: Buffer, content = 'content\n'): this {
    const file = Buffer.concat([Buffer.from(`${this.dir}/${folder}/`), name])
    fs.mkdirSync(file.subarray(0, file.lastIndexOf('/')), { recursive: true })
    fs.writeFileSync(file, content)
    return this
  }

  /** `git submodule add` of another repository (a local file:// URL, so file transport is allowed). */
  addSubmodule(url: string, where: string): this {
    this.git('-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', url, where)
    return this
  }

  /** Points the submodule at `where` to a commit of its origin (staged; commit to record it). */
  moveSubmodule(where: string, sha: string): this {
    const sub = new WorkingCopy(path.join(this.dir, where))
    sub.git('fetch', '-q', 'origin')
    sub.git('checkout', '-q', sha)
    return this
  }

  remove(name: string): this {
    fs.rmSync(path.join(this.dir, name))
    return this
  }

  /** Stages everything (additions, changes, deletions) and commits; returns the new commit id. */
  commit(message = 'change'): string {
    this.git('add', '-A')
    this.git('commit', '-q', '--allow-empty', '-m', message)
    return this.headFromFiles() ?? this.head()
  }

  /**
   * HEAD's commit read from the repository's files (no git process): the loose ref a commit has just
   * written, or a detached HEAD; undefined when it is anywhere else (packed, another worktree's).
   */
  private headFromFiles(): string | undefined {
    try {
      const dotGit = path.join(this.dir, '.git')
      const gitDir = fs.statSync(dotGit).isDirectory()
        ? dotGit
        : path.resolve(this.dir, /^gitdir: (.*)$/m.exec(fs.readFileSync(dotGit, 'utf8'))![1])
      const head = fs.readFileSync(path.join(gitDir, 'HEAD'), 'utf8').trim()
      const ref = /^ref: (refs\/heads\/\S+)$/.exec(head)
      const sha = ref ? fs.readFileSync(path.join(gitDir, ref[1]), 'utf8').trim() : head
      return /^[0-9a-f]{40}$/.test(sha) ? sha : undefined
    } catch {
      return undefined
    }
  }

  /** A branch `name` from `from`, edited by `edit`, committed and pushed; returns its head. */
  branch(name: string, from: string, edit: (copy: this) => void): string {
    this.git('checkout', '-q', '-B', name, from)
    edit(this)
    const head = this.commit(name)
    this.push(name)
    return head
  }

  head(): string {
    return this.git('rev-parse', 'HEAD').trim()
  }

  push(branch = 'main', options: { force?: boolean } = {}): void {
    this.git('push', '-q', ...(options.force ? ['--force'] : []), 'origin', `HEAD:refs/heads/${branch}`)
  }
}

export class GitFixture {
  private originMade = false

  private constructor(readonly root: string) {}

  /**
   * The bare origin (`git init --bare`, copied), made when first asked for: a case that only needs a
   * plain folder makes none.
   */
  get origin(): string {
    const origin = path.join(this.root, 'origin.git')
    if (!this.originMade) {
      fs.cpSync(emptyRepositories().origin, origin, { recursive: true })
      this.originMade = true
    }
    return origin
  }

  /** Whether the origin has no branch, tag or packed ref yet. */
  private originIsEmpty(): boolean {
    const refs = path.join(this.origin, 'refs')
    return (
      !fs.existsSync(path.join(this.origin, 'packed-refs')) &&
      ['heads', 'tags'].every((kind) => fs.readdirSync(path.join(refs, kind)).length === 0)
    )
  }

  static create(): GitFixture {
    return new GitFixture(fs.mkdtempSync(path.join(os.tmpdir(), 'kb-sync-git-')))
  }

  get originUrl(): string {
    return `file://${this.origin}`
  }

  /** A full clone to write commits in (works on an empty origin too). */
  author(name = 'author'): WorkingCopy {
    const dir = path.join(this.root, name)
    if (this.originIsEmpty()) {
      // The clone of an empty origin is the same whichever origin: the template's, pointed at this one.
      const template = emptyRepositories()
      const config = fs.readFileSync(path.join(template.author, '.git', 'config'), 'utf8')
      const url = `url = file://${template.origin}\n`
      if (config.split(url).length === 2) {
        fs.cpSync(template.author, dir, { recursive: true })
        fs.writeFileSync(path.join(dir, '.git', 'config'), config.replace(url, `url = ${this.originUrl}\n`))
        return new WorkingCopy(dir)
      }
    }
    // One git process: `clone -c` writes the copy's configuration as it clones.
    git(this.root, ['-c', 'init.defaultBranch=main', 'clone', '-q', ...AUTHOR_CONFIG, this.originUrl, dir])
    // Without it a new branch in the empty origin could be named anything. What `git symbolic-ref HEAD
    // refs/heads/main` writes, without a git process.
    fs.writeFileSync(path.join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n')
    return new WorkingCopy(dir)
  }

  /**
   * What actions/checkout leaves by default: one commit of `branch`, no history, no tags. With
   * `submodules`, what `submodules: true` (or `recursive`) adds: each submodule at depth 1 too.
   */
  checkout(
    options: { depth?: number; branch?: string; name?: string; submodules?: boolean | 'recursive' } = {},
  ): WorkingCopy {
    const dir = path.join(this.root, options.name ?? 'checkout')
    const depth =
      options.depth === undefined ? ['--depth=1'] : options.depth === 0 ? [] : [`--depth=${options.depth}`]
    git(this.root, [
      'clone',
      '-q',
      '--no-tags',
      ...depth,
      '--branch',
      options.branch ?? 'main',
      this.originUrl,
      dir,
    ])
    const copy = new WorkingCopy(dir)
    if (options.submodules) {
      const recursive = options.submodules === 'recursive' ? ['--recursive'] : []
      copy.git(
        '-c',
        'protocol.file.allow=always',
        'submodule',
        'update',
        '-q',
        '--init',
        '--depth=1',
        ...recursive,
      )
    }
    return copy
  }

  /**
   * A copy of a working copy (its files and its .git, so its origin too) made with cp, no git process:
   * a checkout made once and copied for each case that changes it (a fetch into it, a new remote).
   */
  copy(from: WorkingCopy, name: string): WorkingCopy {
    const dir = path.join(this.root, name)
    fs.cpSync(from.dir, dir, { recursive: true })
    return new WorkingCopy(dir)
  }

  /** An empty folder: a workspace without .git. */
  plainFolder(name = 'plain'): string {
    const dir = path.join(this.root, name)
    fs.mkdirSync(dir, { recursive: true })
    return dir
  }

  cleanup(): void {
    fs.rmSync(this.root, { recursive: true, force: true })
  }
}
