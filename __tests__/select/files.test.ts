import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { mkdirSync, truncateSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { patternProblem, selectFiles } from '../../src/select/files.js'
import { makeFixture, type Fixture } from './files-fixture.js'

let fx: Fixture
beforeEach(() => {
  fx = makeFixture()
})
afterEach(() => fx.remove())

const names = (items: { name: string }[]) => items.map((item) => item.name)

describe('selectFiles: patterns', () => {
  it('expands globs below the workspace, naming files relative to it with /', async () => {
    fx.file('docs/a.md', 'hello')
    fx.file('docs/sub/b.md')
    fx.file('docs/c.txt')
    fx.file('src/x.md')
    const { files, skipped } = await fx.select(['docs/**/*.md'])
    expect(names(files)).toEqual(['docs/a.md', 'docs/sub/b.md'])
    expect(skipped).toEqual([])
    expect(files[0]).toEqual({
      name: 'docs/a.md',
      path: join(fx.ws, 'docs/a.md'),
      size: 5,
    })
  })

  it('resolves patterns against the workspace, not the current directory', async () => {
    // The test runs in the project folder, which has a package.json; the workspace has none.
    fx.file('README.md')
    expect(names((await fx.select(['package.json', './README.md'])).files)).toEqual(['README.md'])
    expect(names((await fx.select(['.'])).files)).toEqual(['README.md'])
  })

  it('treats glob characters in the workspace path literally', async () => {
    const ws = join(fx.ws, 'w[s] *?{a,b}!#')
    mkdirSync(join(ws, 'docs'), { recursive: true })
    writeFileSync(join(ws, 'docs/a.md'), 'a')
    fx.file('ws/docs/decoy.md')
    const { files } = await selectFiles({
      patterns: ['docs/*.md', '.'],
      workspace: ws,
      includeHidden: false,
      maxFileSize: 100,
      followSymlinks: 'inside',
    })
    expect(files.map((f) => f.path)).toEqual([join(ws, 'docs/a.md')])
  })

  it('applies `!` excludes in order, a later include winning', async () => {
    fx.file('docs/a.md')
    fx.file('docs/drafts/x.md')
    fx.file('docs/drafts/keep.md')
    const { files, skipped } = await fx.select(['docs/**', '!docs/drafts/**', 'docs/drafts/keep.md'])
    expect(names(files)).toEqual(['docs/a.md', 'docs/drafts/keep.md'])
    expect(skipped).toEqual([])
  })

  it('matches a folder pattern with everything below it', async () => {
    fx.file('guides/x/y.md')
    fx.file('guidesx/z.md')
    expect(names((await fx.select(['guides/'])).files)).toEqual(['guides/x/y.md'])
  })

  it('sorts by code unit and lists a file matched by several patterns once', async () => {
    for (const name of ['b.md', 'a.md', 'B.md', 'é.md', 'a b.md']) fx.file(name)
    const { files } = await fx.select(['b.md', '*.md', 'a.md', '**'])
    expect(names(files)).toEqual(['B.md', 'a b.md', 'a.md', 'b.md', 'é.md'])
  })

  it('refuses workspace-escaping patterns with an error naming files, before searching', async () => {
    await expect(fx.select(['docs/**', '../**'])).rejects.toThrow(/Input "files".*"\.\.\/\*\*".*\.\./)
    await expect(fx.select(['/etc/passwd'])).rejects.toThrow(/"files".*absolute/)
  })
})

describe('patternProblem', () => {
  it.each([
    ['/etc/passwd', /absolute/],
    ['!/etc/passwd', /absolute/],
    ['! /etc/passwd', /absolute/],
    ['C:/Windows/x', /absolute/],
    ['\\etc\\passwd', /absolute/],
    ['~/.ssh/id_rsa', /~/],
    ['!~/x', /~/],
    ['..', /\.\./],
    ['docs/../../x', /\.\./],
    ['docs/[.][.]/x', /\.\./],
    ['docs/.\\./x', /\.\./],
    ['a\0b', /NUL/],
    ['a\nb', /line break/],
    ['!', /empty/],
  ])('refuses %j', (pattern, reason) => {
    expect(patternProblem(pattern)).toMatch(reason)
  })

  it.each(['docs/**', '!docs/drafts/**', './a.md', '**/*.md', 'a..b/c..', '.github/**', 'x~/y', '.'])(
    'accepts %j',
    (pattern) => {
      expect(patternProblem(pattern)).toBeUndefined()
    },
  )
})

describe('selectFiles: hidden, git and secret files', () => {
  beforeEach(() => {
    fx.file('docs/a.md')
    fx.file('docs/.draft.md')
    fx.file('.github/workflows/ci.yml')
    fx.file('.github/CODEOWNERS')
    fx.file('.git/config', 'token = ghp_fake')
    fx.file('.git/HEAD')
    fx.file('vendor/lib/.git', 'gitdir: ../../.git/modules/lib')
  })

  it('skips hidden files, and hidden folders once each with the count', async () => {
    const { files, skipped } = await fx.select(['**'])
    expect(names(files)).toEqual(['docs/a.md'])
    expect(skipped.map((s) => [s.name, s.reason])).toEqual([
      ['.git', 'git-dir'],
      ['.github', 'hidden'],
      ['docs/.draft.md', 'hidden'],
      ['vendor/lib/.git', 'git-dir'],
    ])
    expect(skipped.find((s) => s.name === '.github')?.detail).toMatch(
      /2 matching files.*include-hidden-files/,
    )
    expect(skipped.find((s) => s.name === '.git')?.detail).toMatch(/2 matching files/)
  })

  it('includes hidden files on request, but never .git', async () => {
    const { files, skipped } = await fx.select(['**'], { includeHidden: true })
    expect(names(files)).toEqual([
      '.github/CODEOWNERS',
      '.github/workflows/ci.yml',
      'docs/.draft.md',
      'docs/a.md',
    ])
    expect(skipped.map((s) => [s.name, s.reason])).toEqual([
      ['.git', 'git-dir'],
      ['vendor/lib/.git', 'git-dir'],
    ])
    expect((await fx.select(['.git/config'], { includeHidden: true })).files).toEqual([])
  })

  it('skips well-known secret files unless a pattern names the exact file', async () => {
    const secrets = [
      '.env',
      'config/.env.local',
      'certs/server.pem',
      'id_rsa',
      'keys/id_rsa.pub',
      'keys/api.key',
      'store.p12',
      '.npmrc',
      '.pypirc',
      '.git-credentials',
    ]
    for (const name of secrets) fx.file(name)
    const all = await fx.select(['**'], { includeHidden: true })
    expect(all.skipped.filter((s) => s.reason === 'secret').map((s) => s.name)).toEqual([...secrets].sort())
    expect(all.skipped.find((s) => s.name === '.env')?.detail).toMatch(/secret.*exactly/)

    const named = await fx.select(['certs/server.pem', './config/.env.local', 'certs/*.pem', 'keys/*'], {
      includeHidden: true,
    })
    expect(names(named.files)).toEqual(['certs/server.pem', 'config/.env.local'])
    expect(named.skipped.map((s) => [s.name, s.reason])).toEqual([
      ['keys/api.key', 'secret'],
      ['keys/id_rsa.pub', 'secret'],
    ])
  })
})

describe('selectFiles: size', () => {
  it('skips files over max-file-size, naming the size and the limit', async () => {
    fx.file('small.md', '0123456789')
    fx.file('big.md', '0123456789A')
    const { files, skipped } = await fx.select(['*.md'], { maxFileSize: 10 })
    expect(files.map((f) => [f.name, f.size])).toEqual([['small.md', 10]])
    expect(skipped).toEqual([
      { kind: 'document', name: 'big.md', reason: 'too-large', detail: expect.stringMatching(/11 B.*10 B/) },
    ])
  })

  it('keeps the exact size of a file past 2 GiB (sizes are stored unboxed below 1 GiB)', async () => {
    fx.file('huge.pdf')
    fx.file('small.md', '0123456789')
    const size = 2 ** 31 + 7
    truncateSync(join(fx.ws, 'huge.pdf'), size) // sparse: no disk space used
    const { files } = await fx.select(['*'], { maxFileSize: 2 ** 32 })
    expect(files.map((f) => [f.name, f.size])).toEqual([
      ['huge.pdf', size],
      ['small.md', 10],
    ])
  })
})
