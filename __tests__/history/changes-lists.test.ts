// The pure parts of change detection: reading git's -z tree output as bytes and folding per-commit lists.
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { foldCommitLists } from '../../src/history/changes.js'
import { parseRawDiff, parseTreeListing } from '../../src/select/git/tree-output.js'

describe('foldCommitLists', () => {
  it('keeps a single commit as it is, sorted and without duplicates', () => {
    expect(foldCommitLists([{ added: ['b', 'a', 'a'], modified: ['m'], removed: ['r'] }])).toEqual({
      added: ['a', 'b'],
      modified: ['m'],
      removed: ['r'],
    })
  })

  it('added then removed is nothing', () => {
    expect(foldCommitLists([{ added: ['x'] }, { removed: ['x'] }])).toEqual({
      added: [],
      modified: [],
      removed: [],
    })
  })

  it('removed then added is modified', () => {
    expect(foldCommitLists([{ removed: ['x'] }, { added: ['x'] }])).toEqual({
      added: [],
      modified: ['x'],
      removed: [],
    })
  })

  it('added then modified is added', () => {
    expect(foldCommitLists([{ added: ['x'] }, { modified: ['x'] }, { modified: ['x'] }])).toEqual({
      added: ['x'],
      modified: [],
      removed: [],
    })
  })

  it('modified then removed is removed', () => {
    expect(foldCommitLists([{ modified: ['x'] }, { removed: ['x'] }])).toEqual({
      added: [],
      modified: [],
      removed: ['x'],
    })
  })

  it('added, removed, added again is added; removed, added, removed again is removed', () => {
    expect(foldCommitLists([{ added: ['a'] }, { removed: ['a'] }, { added: ['a'] }])).toEqual({
      added: ['a'],
      modified: [],
      removed: [],
    })
    expect(foldCommitLists([{ removed: ['r'] }, { added: ['r'] }, { removed: ['r'] }])).toEqual({
      added: [],
      modified: [],
      removed: ['r'],
    })
  })

  it('treats missing lists as empty and an empty push as no change', () => {
    expect(foldCommitLists([])).toEqual({ added: [], modified: [], removed: [] })
    expect(foldCommitLists([{}, { modified: ['m'] }])).toEqual({ added: [], modified: ['m'], removed: [] })
  })

  it('a rename across commits is the old name removed and the last name added', () => {
    const commits = [
      { added: ['b.md'], removed: ['a.md'] },
      { added: ['c.md'], removed: ['b.md'] },
    ]
    expect(foldCommitLists(commits)).toEqual({ added: ['c.md'], modified: [], removed: ['a.md'] })
  })

  it('agrees with replaying the commits on a set of files (any valid history)', () => {
    const paths = ['a', 'b', 'c', 'd', 'e']
    // A step: for one path, flip its presence (add or remove) or, when present, modify it.
    const history = fc.record({
      initial: fc.subarray(paths),
      commits: fc.array(
        fc.array(fc.record({ path: fc.constantFrom(...paths), modify: fc.boolean() }), { maxLength: 5 }),
        {
          maxLength: 8,
        },
      ),
    })
    fc.assert(
      fc.property(history, ({ initial, commits }) => {
        const present = new Set(initial)
        const touched = new Set<string>()
        const lists = commits.map((steps) => {
          const commit = { added: [] as string[], modified: [] as string[], removed: [] as string[] }
          const seen = new Set<string>()
          for (const { path, modify } of steps) {
            if (seen.has(path)) continue // a commit names a path once
            seen.add(path)
            touched.add(path)
            if (!present.has(path)) {
              present.add(path)
              commit.added.push(path)
            } else if (modify) commit.modified.push(path)
            else {
              present.delete(path)
              commit.removed.push(path)
            }
          }
          return commit
        })
        const before = new Set(initial)
        const expected = {
          added: [...touched].filter((p) => !before.has(p) && present.has(p)).sort(),
          modified: [...touched].filter((p) => before.has(p) && present.has(p)).sort(),
          removed: [...touched].filter((p) => before.has(p) && !present.has(p)).sort(),
        }
        expect(foldCommitLists(lists)).toEqual(expected)
      }),
    )
  })

  it('folds 10,000 entries', () => {
    const commits = Array.from({ length: 100 }, (_, c) => ({
      added: Array.from({ length: 100 }, (_, i) => `docs/${c}/${i}.md`),
      modified: [],
      removed: c > 0 ? [`docs/${c - 1}/0.md`] : [],
    }))
    const result = foldCommitLists(commits)
    expect(result.added).toHaveLength(100 * 100 - 99)
    expect(result.removed).toEqual([])
    expect(result.added).not.toContain('docs/0/0.md')
  })
})

const ID_A = 'a'.repeat(40)
const ID_B = 'b'.repeat(40)
const ZERO_ID = '0'.repeat(40)

/** One `diff-tree --raw -z` entry, path given as bytes. */
const rawEntry = (oldMode: string, newMode: string, status: string, path: Buffer | string): Buffer =>
  Buffer.concat([
    Buffer.from(`:${oldMode} ${newMode} ${oldMode === '000000' ? ZERO_ID : ID_A} ${ID_B} ${status}\0`),
    Buffer.from(path),
    Buffer.from('\0'),
  ])

describe('parseRawDiff', () => {
  it('reads modes, ids, status and the path of each entry', () => {
    const output = Buffer.concat([
      rawEntry('000000', '100644', 'A', 'new.md'),
      rawEntry('160000', '160000', 'M', 'kb'),
      rawEntry('100644', '120000', 'T', 'now-a-link.md'),
    ])
    expect(parseRawDiff(output)).toEqual([
      { oldMode: '000000', newMode: '100644', oldId: ZERO_ID, newId: ID_B, status: 'A', path: 'new.md' },
      { oldMode: '160000', newMode: '160000', oldId: ID_A, newId: ID_B, status: 'M', path: 'kb' },
      { oldMode: '100644', newMode: '120000', oldId: ID_A, newId: ID_B, status: 'T', path: 'now-a-link.md' },
    ])
  })

  it('keeps paths as bytes: newlines, tabs, UTF-8 and bytes that are not UTF-8', () => {
    const paths = [
      Buffer.from('new\nline.md'),
      Buffer.from('tab\t.md'),
      Buffer.from('résumé/日本語.md'),
      Buffer.from([0x66, 0xff]),
    ]
    const parsed = parseRawDiff(Buffer.concat(paths.map((path) => rawEntry('100644', '100644', 'M', path))))
    expect(parsed.map((entry) => Buffer.from(entry.path, 'latin1'))).toEqual(paths)
  })

  it('reads empty output as no change', () => {
    expect(parseRawDiff(Buffer.alloc(0))).toEqual([])
  })

  it('refuses output it does not understand instead of guessing', () => {
    expect(() => parseRawDiff(Buffer.from('M\0what.md\0'))).toThrow(/unexpected entry "M"/)
    expect(() => parseRawDiff(Buffer.from(`:100644 100644 ${ID_A} ${ID_B} M\0`))).toThrow(/ends after/)
  })
})

it('parseRawDiff reads 10,000 entries', () => {
  const output = Buffer.concat(
    Array.from({ length: 10_000 }, (_, i) => rawEntry('100644', '100644', 'M', `dir ${i % 7}/file ${i}.md`)),
  )
  expect(parseRawDiff(output)).toHaveLength(10_000)
})

describe('parseTreeListing', () => {
  it('reads files and gitlinks, paths as bytes', () => {
    const output = Buffer.concat([
      Buffer.from(`100644 blob ${ID_A}\tdocs/a b.md\0`),
      Buffer.from(`160000 commit ${ID_B}\tinner\0`),
      Buffer.from(`100644 blob ${ID_A}\t`),
      Buffer.from([0x66, 0xff, 0]),
    ])
    expect(parseTreeListing(output)).toEqual([
      { mode: '100644', id: ID_A, path: 'docs/a b.md' },
      { mode: '160000', id: ID_B, path: 'inner' },
      { mode: '100644', id: ID_A, path: Buffer.from([0x66, 0xff]).toString('latin1') },
    ])
  })
})
