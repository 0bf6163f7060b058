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
