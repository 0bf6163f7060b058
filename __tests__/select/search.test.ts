// The workspace search keeps @actions/glob's matching rules: on a tree without odd entries both give the
// same paths for the same patterns.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import * as glob from '@actions/glob'
import { mkdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { rootedPattern } from '../../src/select/patterns.js'
import { searchFiles } from '../../src/select/search.js'
import { makeFixture, type Fixture } from './files-fixture.js'

let fx: Fixture
beforeAll(() => {
  fx = makeFixture()
  for (const name of [
    'README.md',
    '.env',
    'docs/a.md',
    'docs/b.txt',
    'docs/.hidden.md',
    'docs/drafts/x.md',
    'docs/drafts/keep.md',
    'docs/deep/er/c.md',
    'docs/[x].md',
    'docs/{a,b}.md',
    'docs/a b.md',
    'guides/g.md',
    '.github/workflows/ci.yml',
    'node_modules/pkg/index.md',
  ])
    fx.file(name)
  mkdirSync(join(fx.ws, 'empty'))
  fx.link('docs/link.md', 'a.md')
  symlinkSync(join(fx.ws, 'guides'), join(fx.ws, 'docs/guides-link'))
})
afterAll(() => fx.remove())

const PATTERN_SETS = [
  ['docs/**'],
  ['docs'],
  ['docs/'],
  ['./docs/*.md'],
  ['**/*.md'],
  ['*'],
  ['**'],
  ['.'],
  ['docs/**/*.md', '!docs/drafts/**', 'docs/drafts/keep.md'],
  ['docs', '!docs/drafts/'],
  ['docs/{a,b}.md'],
  ['docs/\\[x\\].md'],
  ['docs/[x].md'],
  ['README.md', 'missing/**', 'guides/g.md'],
  ['docs/link.md', 'docs/guides-link'],
  ['**', '!node_modules/**', '!**/.*/**'],
  ['empty/**'],
]

describe('searchFiles', () => {
  it.each(PATTERN_SETS.map((patterns) => ({ label: patterns.join(' | '), patterns })))(
    'matches what @actions/glob matches: $label',
    async ({ patterns }) => {
      const globber = await glob.create(patterns.map((pattern) => rootedPattern(fx.ws, pattern)).join('\n'), {
        followSymbolicLinks: false,
        implicitDescendants: true,
        matchDirectories: false,
        excludeHiddenFiles: false,
      })
      const expected = [...new Set(await globber.glob())].sort()
      const { paths, skipped } = await searchFiles(patterns, fx.ws)
      expect([...paths].sort()).toEqual(expected)
      expect(skipped).toEqual([])
    },
  )
})

describe('searchFiles on a large folder', () => {
  let big: Fixture
  // Made in a scrambled order (1237 and 2100 share no factor, so each name comes once): neither the order
  // of creation nor the file system's own order is name order. 2,100 entries: three reads of READ_AHEAD
  // (1,024), as many boundaries between reads as 3,000 gave.
  const names = Array.from({ length: 2100 }, (_, index) => `n${String(index).padStart(4, '0')}.md`)
  beforeAll(() => {
    big = makeFixture()
    for (let index = 0; index < names.length; index++)
      big.file(`docs/${names[(index * 1237) % names.length]}`)
    big.file('docs/sub/inner.md')
    big.file('docs/ZZ.md')
  })
  afterAll(() => big.remove())

  it('gives a folder of more entries than one read holds in code-unit name order, then its subfolders', async () => {
    const { paths, skipped } = await searchFiles(['docs/**'], big.ws)
    const folder = join(big.ws, 'docs')
    // 'Z' (U+005A) sorts before 'n': code units, not a locale's order.
    expect(paths).toEqual([
      join(folder, 'ZZ.md'),
      ...names.map((name) => join(folder, name)),
      join(folder, 'sub/inner.md'),
    ])
    expect(skipped).toEqual([])
  })
})
