// Issue 10: one odd entry under the searched tree never stops the rest. Each is skipped with a reason
// that names it (as far as it can be named); every other file is still selected.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { makeFixture, type Fixture } from './files-fixture.js'

let fx: Fixture
beforeEach(() => {
  fx = makeFixture()
  fx.file('docs/a.md')
  fx.file('docs/z/b.md')
})
afterEach(() => {
  execFileSync('chmod', ['-R', 'u+rwx', fx.ws])
  // rm copes with paths longer than PATH_MAX (it works relative to open folders).
  execFileSync('rm', ['-rf', fx.base])
})

const names = (items: { name: string }[]) => items.map((item) => item.name)

describe('selectFiles: odd entries', () => {
  it('a file name that is not valid UTF-8: skipped, named with its bytes; the rest selected', async () => {
    writeFileSync(
      Buffer.concat([Buffer.from(join(fx.ws, 'docs/caf')), Buffer.from([0xe9]), Buffer.from('.md')]),
      'x',
    )
    const { files, skipped } = await fx.select(['docs/**'])
    expect(names(files)).toEqual(['docs/a.md', 'docs/z/b.md'])
    expect(skipped).toEqual([
      {
        kind: 'document',
        name: 'docs/caf\\xe9.md',
        reason: 'unreadable',
        detail: expect.stringMatching(/file name is not valid UTF-8/),
      },
    ])
  })

  it('a name that holds U+FFFD itself is selected, beside one whose bytes are not valid UTF-8', async () => {
    // The search reads names as text and rereads a folder as bytes only when a name shows U+FFFD: both
    // kinds of name in one folder, and in a folder below it, must still be told apart.
    for (const folder of ['docs', 'docs/z']) {
      writeFileSync(join(fx.ws, folder, 'repl\uFFFDaced.md'), 'x')
      writeFileSync(
        Buffer.concat([Buffer.from(join(fx.ws, folder, 'caf')), Buffer.from([0xe9]), Buffer.from('.md')]),
        'x',
      )
    }
    const { files, skipped } = await fx.select(['docs/**/*.md'])
    expect(names(files)).toEqual([
      'docs/a.md',
      'docs/repl\uFFFDaced.md',
      'docs/z/b.md',
      'docs/z/repl\uFFFDaced.md',
    ])
    expect(names(skipped)).toEqual(['docs/caf\\xe9.md', 'docs/z/caf\\xe9.md'])
  })

  it('a folder name that is not valid UTF-8: skipped once, nothing below it searched', async () => {
    const folder = Buffer.concat([Buffer.from(join(fx.ws, 'docs/bad')), Buffer.from([0xff, 0xfe])])
    mkdirSync(folder)
    writeFileSync(Buffer.concat([folder, Buffer.from('/inner.md')]), 'x')
    const { files, skipped } = await fx.select(['docs'])
    expect(names(files)).toEqual(['docs/a.md', 'docs/z/b.md'])
    expect(names(skipped)).toEqual(['docs/bad\\xff\\xfe'])
    expect(skipped[0].detail).toMatch(/folder name is not valid UTF-8/)
  })

  it('an odd name that no pattern selects is not reported', async () => {
    writeFileSync(
      Buffer.concat([Buffer.from(join(fx.ws, 'docs/caf')), Buffer.from([0xe9]), Buffer.from('.txt')]),
      'x',
    )
    const { files, skipped } = await fx.select(['docs/**/*.md'])
    expect(names(files)).toEqual(['docs/a.md', 'docs/z/b.md'])
    expect(skipped).toEqual([])
  })

  it('a path longer than the system allows: that folder is skipped with the reason, the rest selected', async () => {
    // Built relative to the folder made last (cd), as no single path to the deepest one may be given.
    const segment = 'd'.repeat(200)
    const depth = 25 // 25 × 201 characters: past PATH_MAX (4096) on Linux
    execFileSync('bash', [
      '-c',
      `cd "$1" && for i in $(seq ${depth}); do mkdir ${segment} && cd ${segment} || exit 1; done && echo deep > deep.md`,
      'bash',
      join(fx.ws, 'docs'),
    ])
    const { files, skipped } = await fx.select(['docs/**'])
    expect(names(files)).toEqual(['docs/a.md', 'docs/z/b.md'])
    expect(skipped).toHaveLength(1)
    expect(skipped[0].name.startsWith(`docs/${segment}/`)).toBe(true)
    expect(skipped[0].reason).toBe('unreadable')
    expect(skipped[0].detail).toMatch(/longer than the system allows \(ENAMETOOLONG\)/)
  })

  it('a folder that cannot be read: skipped with the reason (as root, which reads it anyway: selected)', async () => {
    fx.file('docs/locked/c.md')
    chmodSync(join(fx.ws, 'docs/locked'), 0o000)
    const { files, skipped } = await fx.select(['docs/**'])
    if (process.getuid?.() === 0) {
      // Permissions do not stop root; the e2e odd-entries test runs the action as another user instead.
      expect(names(files)).toEqual(['docs/a.md', 'docs/locked/c.md', 'docs/z/b.md'])
      expect(skipped).toEqual([])
    } else {
      expect(names(files)).toEqual(['docs/a.md', 'docs/z/b.md'])
      expect(skipped).toEqual([
        {
          kind: 'document',
          name: 'docs/locked',
          reason: 'unreadable',
          detail: expect.stringMatching(/folder could not be searched: permission denied \(EACCES\)/),
        },
      ])
    }
  })

  it('a file that cannot be opened: skipped with the reason (as root: selected)', async () => {
    fx.file('docs/secret.md')
    chmodSync(join(fx.ws, 'docs/secret.md'), 0o000)
    const { files, skipped } = await fx.select(['docs/**'])
    if (process.getuid?.() === 0) {
      expect(names(files)).toContain('docs/secret.md')
    } else {
      expect(names(files)).toEqual(['docs/a.md', 'docs/z/b.md'])
      expect(skipped.map((item) => [item.name, item.reason])).toEqual([['docs/secret.md', 'unreadable']])
      expect(skipped[0].detail).toMatch(/permission denied \(EACCES\)/)
    }
  })
})
