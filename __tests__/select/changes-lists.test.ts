// The pure parts of change detection: reading git's -z name-status output and folding per-commit lists.
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { foldCommitLists, parseNameStatus } from '../../src/select/changes.js'

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

describe('parseNameStatus', () => {
  it('reads added, modified, type-changed and deleted entries', () => {
    const z = 'A\0new.md\0M\0changed.md\0T\0now-a-link.md\0D\0gone.md\0'
    expect(parseNameStatus(z)).toEqual({
      added: ['new.md'],
      modified: ['changed.md', 'now-a-link.md'],
      removed: ['gone.md'],
    })
  })

  it('reads renames and copies with a score when rename detection was on', () => {
    const z = 'R087\0old.md\0new.md\0C100\0source.md\0copy.md\0'
    expect(parseNameStatus(z)).toEqual({ added: ['copy.md', 'new.md'], modified: [], removed: ['old.md'] })
  })

  it('keeps paths raw: spaces, quotes, newlines, tabs and non-ASCII', () => {
    const names = ['a b.md', 'q"uote\'s.md', 'new\nline.md', 'tab\t.md', 'résumé/日本語.md']
    const z = names.map((name) => `A\0${name}\0`).join('')
    expect(parseNameStatus(z).added).toEqual([...names].sort())
  })

  it('reads empty output as no change', () => {
    expect(parseNameStatus('')).toEqual({ added: [], modified: [], removed: [] })
  })

  it('refuses output it does not understand instead of guessing', () => {
    expect(() => parseNameStatus('X\0what.md\0')).toThrow(/unknown status "X"/)
    expect(() => parseNameStatus('M\0')).toThrow(/ends after status "M"/)
    expect(() => parseNameStatus('R100\0old.md\0')).toThrow(/ends after "R100"/)
  })

  it('parses 10,000 entries', () => {
    const z = Array.from({ length: 10_000 }, (_, i) => `${'AMD'[i % 3]}\0dir ${i % 7}/file ${i}.md\0`).join(
      '',
    )
    const result = parseNameStatus(z)
    expect([result.added.length, result.modified.length, result.removed.length]).toEqual([3334, 3333, 3333])
  })
})
