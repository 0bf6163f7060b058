import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { makeFixture, type Fixture } from './files-fixture.js'

let fx: Fixture
beforeEach(() => {
  fx = makeFixture()
})
afterEach(() => fx.remove())

const reasons = (items: { name: string; reason: string }[]) => items.map((item) => [item.name, item.reason])

describe('selectFiles: symbolic links and the workspace boundary', () => {
  beforeEach(() => {
    fx.file('docs/real.md', 'real')
    writeFileSync(join(fx.base, 'outside.txt'), 'outside')
  })

  it('follows a link inside the workspace: named as matched, read from the real path', async () => {
    fx.link('link.md', 'docs/real.md')
    const { files, skipped } = await fx.select(['link.md'])
    expect(files).toEqual([
      expect.objectContaining({ name: 'link.md', path: join(fx.ws, 'docs/real.md'), size: 4 }),
    ])
    expect(skipped).toEqual([])
  })

  it('sends a file reached by a link and by its own name once, under its own name', async () => {
    fx.link('link.md', 'docs/real.md')
    const { files, skipped } = await fx.select(['**'])
    expect(files.map((f) => f.name)).toEqual(['docs/real.md'])
    expect(skipped).toEqual([
      { kind: 'document', name: 'link.md', reason: 'duplicate', detail: 'same file as docs/real.md.' },
    ])
  })

  it('skips links whose target is outside, relative or absolute', async () => {
    fx.link('rel.md', '../outside.txt')
    fx.link('abs.md', join(fx.base, 'outside.txt'))
    fx.link('etc', '/etc')
    fx.link('root', '/')
    const { files, skipped } = await fx.select(['**'])
    expect(files.map((f) => f.name)).toEqual(['docs/real.md'])
    expect(reasons(skipped)).toEqual([
      ['abs.md', 'outside-workspace'],
      ['etc', 'outside-workspace'],
      ['rel.md', 'outside-workspace'],
      ['root', 'outside-workspace'],
    ])
    expect(skipped[0].detail).toContain('outside the workspace')
  })

  it('treats a sibling folder sharing the workspace name as a prefix as outside', async () => {
    mkdirSync(join(fx.base, 'ws-evil'))
    writeFileSync(join(fx.base, 'ws-evil', 'loot.md'), 'loot')
    fx.link('evil.md', '../ws-evil/loot.md')
    fx.link('evil-dir', '../ws-evil')
    const { files, skipped } = await fx.select(['evil.md', 'evil-dir/loot.md'])
    expect(files).toEqual([])
    expect(reasons(skipped)).toEqual([
      ['evil-dir/loot.md', 'outside-workspace'],
      ['evil.md', 'outside-workspace'],
    ])
  })

  it('skips every link with follow-symlinks none', async () => {
    fx.link('link.md', 'docs/real.md')
    fx.link('shared', 'docs')
    const { files, skipped } = await fx.select(['link.md', 'shared/real.md'], { followSymlinks: 'none' })
    expect(files).toEqual([])
    expect(reasons(skipped)).toEqual([
      ['link.md', 'symlink'],
      ['shared/real.md', 'symlink'],
    ])
  })

  it('judges a link by its target: into .git, hidden or secret files it is skipped', async () => {
    fx.file('.git/config', 'token = ghp_fake')
    fx.file('.private/notes.md')
    fx.file('.env', 'KEY=fake')
    fx.link('docs/config.md', '../.git/config')
    fx.link('docs/notes.md', '../.private/notes.md')
    fx.link('docs/env.md', '../.env')
    const { files, skipped } = await fx.select(['docs/*.md'], { includeHidden: false })
    expect(files.map((f) => f.name)).toEqual(['docs/real.md'])
    expect(reasons(skipped)).toEqual([
      ['docs/config.md', 'git-dir'],
      ['docs/env.md', 'secret'],
      ['docs/notes.md', 'hidden'],
    ])
    const withHidden = await fx.select(['docs/*.md'], { includeHidden: true })
    expect(reasons(withHidden.skipped)).toEqual([
      ['docs/config.md', 'git-dir'],
      ['docs/env.md', 'secret'],
    ])
  })

  it('does not search folders behind links, and reports broken and looping links', async () => {
    fx.link('shared', 'docs')
    fx.link('top', '.')
    fx.link('broken.md', 'missing.md')
    fx.link('loop-a.md', 'loop-b.md')
    fx.link('loop-b.md', 'loop-a.md')
    const { files, skipped } = await fx.select(['*'])
    expect(files.map((f) => f.name)).toEqual(['docs/real.md'])
    expect(reasons(skipped)).toEqual([
      ['broken.md', 'unreadable'],
      ['loop-a.md', 'unreadable'],
      ['loop-b.md', 'unreadable'],
      ['shared', 'not-regular'],
      ['top', 'not-regular'],
    ])
  })
})

describe('selectFiles: special files', () => {
  it('skips a FIFO without waiting for a writer, and a link to one', async () => {
    execFileSync('mkfifo', [join(fx.ws, 'pipe.md')])
    fx.link('pipe-link.md', 'pipe.md')
    fx.file('a.md')
    const { files, skipped } = await fx.select(['*.md'])
    expect(files.map((f) => f.name)).toEqual(['a.md'])
    expect(reasons(skipped)).toEqual([
      ['pipe-link.md', 'not-regular'],
      ['pipe.md', 'not-regular'],
    ])
    expect(skipped[1].detail).toContain('FIFO')
  })

  it('skips links to /dev/zero and /proc/self/environ', async () => {
    fx.link('zero.md', '/dev/zero')
    fx.link('environ.md', '/proc/self/environ')
    const { files, skipped } = await fx.select(['**'])
    expect(files).toEqual([])
    expect(reasons(skipped)).toEqual([
      ['environ.md', 'outside-workspace'],
      ['zero.md', 'outside-workspace'],
    ])
  })
})

describe('selectFiles: hostile names', () => {
  const hostile = [
    'a b.md',
    `q"uo'te.md`,
    'new\nline.md',
    'résumé/日本語.md',
    '##[error]pwned.md',
    '::warning::x.md',
    'a"\r\nX-Injected: 1.md',
    '%0d%0a.md',
    'back\\slash.md',
  ]

  it('selects them with their exact names, except those a multipart filename cannot carry (issue 10)', async () => {
    for (const name of hostile) fx.file(name, name)
    const { files, skipped } = await fx.select(['**'])
    // Control characters, and a backslash (which the filename turns into "/").
    const unsendable = ['a"\r\nX-Injected: 1.md', 'back\\slash.md', 'new\nline.md']
    expect(skipped.map((item) => [item.name, item.reason])).toEqual(unsendable.map((n) => [n, 'bad-name']))
    expect(files.map((f) => f.name)).toEqual(hostile.filter((n) => !unsendable.includes(n)).sort())
    for (const file of files) expect(file.size).toBe(Buffer.byteLength(file.name))
  })

  it('names a file with glob characters exactly with an escaped pattern', async () => {
    fx.file('[draft]*.md')
    fx.file('d.md')
    expect((await fx.select(['[[]draft][*].md'])).files.map((f) => f.name)).toEqual(['[draft]*.md'])
  })

  it('keeps control characters out of skip details', async () => {
    fx.file('.hid\nden/a.md')
    fx.file('x\r\n::error::y/.env')
    fx.link('li\nnk.md', '/etc/hostname')
    const { skipped } = await fx.select(['**'])
    expect(skipped).toHaveLength(3)
    // eslint-disable-next-line no-control-regex
    for (const item of skipped) expect(item.detail).not.toMatch(/[\u0000-\u001f\u007f]/)
    expect(skipped.find((s) => s.reason === 'hidden')?.detail).toContain('.hid\\x0aden/')
  })
})
