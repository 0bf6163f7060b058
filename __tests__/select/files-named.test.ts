// Selection of only the paths a push names: the same verdicts as the full search for those names, and
// nothing the search would not have found (gone files, folders, paths below linked folders, `..`).
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { mkdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { hasSelectableFile, selectNamedFiles, type FileSelectionOptions } from '../../src/select/files.js'
import { makeFixture, type Fixture } from './files-fixture.js'

let fx: Fixture
beforeEach(() => {
  fx = makeFixture()
})
afterEach(() => fx.remove())

const options = (patterns: string[], extra: Partial<FileSelectionOptions> = {}): FileSelectionOptions => ({
  patterns,
  workspace: fx.ws,
  includeHidden: false,
  maxFileSize: 1024,
  followSymlinks: 'inside',
  ...extra,
})

/** The full search's result, kept to the given names (hidden/.git folders are grouped there, by folder). */
async function fullSelectionOf(patterns: string[], names: string[]) {
  const wanted = new Set(names)
  const full = await fx.select(patterns, { maxFileSize: 1024 })
  return {
    files: full.files.filter((file) => wanted.has(file.name)),
    skipped: full.skipped.filter((item) => wanted.has(item.name)),
  }
}

describe('selectNamedFiles', () => {
  beforeEach(() => {
    fx.file('docs/a.md')
    fx.file('docs/sub/b.md')
    fx.file('docs/.env', 'SECRET=1')
    fx.file('docs/id_rsa', 'key')
    fx.file('docs/.hidden.md')
    fx.file('docs/.drafts/c.md')
    fx.file('docs/big.md', 'x'.repeat(2048))
    fx.file('docs/skip/d.md')
    fx.file('src/x.md')
    fx.file('outside.md', 'not in docs')
    mkdirSync(join(fx.base, 'elsewhere'))
    fx.link('docs/out.md', join(fx.base, 'elsewhere'))
    fx.link('docs/to-a.md', join(fx.ws, 'docs/a.md'))
    fx.link('docs/to-env.md', join(fx.ws, 'docs/.env'))
  })

  it('gives the full search verdicts for the names it is given, and checks nothing else', async () => {
    const patterns = ['docs/**', '!docs/skip/**']
    const names = [
      'docs/a.md',
      'docs/.env',
      'docs/id_rsa',
      'docs/.hidden.md',
      'docs/big.md',
      'docs/skip/d.md',
      'docs/out.md',
      'docs/to-env.md',
      'src/x.md',
    ]
    const named = await selectNamedFiles(options(patterns), names)
    expect(named).toEqual(await fullSelectionOf(patterns, names))
    expect(named.files.map((file) => file.name)).toEqual(['docs/a.md'])
    expect(Object.fromEntries(named.skipped.map((item) => [item.name, item.reason]))).toEqual({
      'docs/.env': 'secret',
      'docs/id_rsa': 'secret',
      'docs/.hidden.md': 'hidden',
      'docs/big.md': 'too-large',
      'docs/out.md': 'outside-workspace',
      'docs/to-env.md': 'secret',
    })
  })

  it('skips a link leading outside the workspace, and each named file of a hidden folder under its own name', async () => {
    fx.file('../secret.md', 'outside the workspace')
    fx.link('docs/leak.md', join(fx.base, 'secret.md'))
    fx.file('docs/.drafts/d.md')
    const named = await selectNamedFiles(options(['docs/**']), [
      'docs/leak.md',
      'docs/.drafts/c.md',
      'docs/.drafts/d.md',
    ])
    expect(named.files).toEqual([])
    // A push names its files: each is in the skipped list by its name, not folded into its folder as the
    // search of a whole workspace does.
    expect(named.skipped.map((item) => [item.name, item.reason, item.detail])).toEqual([
      [
        'docs/.drafts/c.md',
        'hidden',
        'in docs/.drafts/: hidden folder; set include-hidden-files to true to index it.',
      ],
      [
        'docs/.drafts/d.md',
        'hidden',
        'in docs/.drafts/: hidden folder; set include-hidden-files to true to index it.',
      ],
      ['docs/leak.md', 'outside-workspace', expect.stringContaining('outside the workspace')],
    ])
  })

  it('leaves out what the search would not find: gone, folders, below a linked folder, not plain paths', async () => {
    fx.link('docs/linked', join(fx.ws, 'docs/sub'))
    const named = await selectNamedFiles(options(['**']), [
      'docs/gone.md',
      'docs/sub',
      'docs/linked/b.md',
      '../ws/docs/a.md',
      'docs/../docs/a.md',
      '/etc/passwd',
      '',
      'docs/sub/b.md',
    ])
    expect(named).toEqual({ files: [expect.objectContaining({ name: 'docs/sub/b.md' })], skipped: [] })
  })

  it('sends a file reached by a link under the link name only when the link itself is named', async () => {
    const named = await selectNamedFiles(options(['docs/**']), ['docs/to-a.md'])
    expect(named.files).toEqual([
      expect.objectContaining({ name: 'docs/to-a.md', path: join(fx.ws, 'docs/a.md') }),
    ])
  })

  it('refuses a bad pattern like the full selection', async () => {
    await expect(selectNamedFiles(options(['../x/**']), ['docs/a.md'])).rejects.toThrow(/Input "files"/)
  })
})

describe('hasSelectableFile', () => {
  it('is true as soon as one file would be selected, false when the patterns select nothing', async () => {
    fx.file('docs/.env')
    fx.file('docs/.hidden.md')
    expect(await hasSelectableFile(options(['docs/**']))).toBe(false)
    fx.file('docs/a.md')
    expect(await hasSelectableFile(options(['docs/**']))).toBe(true)
    expect(await hasSelectableFile(options(['src/**']))).toBe(false)
    symlinkSync(join(fx.ws, 'docs'), join(fx.ws, 'src'))
    expect(await hasSelectableFile(options(['src/**']))).toBe(false)
  })
})
