// `shard: I/N`: the parts of a selection are disjoint, cover it, and do not move with the run, the
// machine or the order files were found in; a bad value is refused naming the input.
import { describe, expect, it } from '@jest/globals'
import { ConfigError } from '../../src/config/errors.js'
import { readIndexConfig } from '../../src/config/index-config.js'
import type { FileSelection, SelectedFile, SkippedItem } from '../../src/model.js'
import { inShard, parseShard, shardOf, shardSelection, type Shard } from '../../src/select/shard.js'

const file = (name: string): SelectedFile => ({ name, path: `/w/${name}`, size: 1 })
const names = Array.from({ length: 1000 }, (_, i) => `docs/section-${i % 37}/page ${i}.md`)
const selection: FileSelection = {
  files: names.map(file),
  skipped: [{ kind: 'document', name: 'docs/.hidden.md', reason: 'hidden', detail: 'hidden' } as SkippedItem],
}

/** A deterministic shuffle (no Math.random: the test must fail the same way every time). */
function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items]
  let state = seed
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2 ** 31
    const j = state % (i + 1)
    ;[out[i], out[j]] = [out[j], out[i]]
  }
  return out
}

describe('shards', () => {
  it.each([1, 2, 3, 4, 7, 16])('%i shards hold every document exactly once', (count) => {
    const seen = new Map<string, number>()
    for (let index = 1; index <= count; index++) {
      for (const f of shardSelection(selection, { index, count }).files)
        seen.set(f.name, (seen.get(f.name) ?? 0) + 1)
    }
    expect(seen.size).toBe(names.length)
    expect([...seen.values()].every((times) => times === 1)).toBe(true)
  })

  it('parts are even enough to be worth running: none holds more than twice its share', () => {
    const count = 4
    for (let index = 1; index <= count; index++) {
      const size = shardSelection(selection, { index, count }).files.length
      expect(size).toBeGreaterThan(names.length / count / 2)
      expect(size).toBeLessThan((2 * names.length) / count)
    }
  })

  it('a name keeps its shard whatever else is selected and in whatever order the files were found', () => {
    const shard: Shard = { index: 2, count: 3 }
    const inOrder = shardSelection(selection, shard).files.map((f) => f.name)
    for (const seed of [1, 2, 3]) {
      const reordered = shardSelection({ files: shuffled(selection.files, seed), skipped: [] }, shard)
      expect(reordered.files.map((f) => f.name).sort()).toEqual([...inOrder].sort())
    }
    const fewer = shardSelection({ files: selection.files.slice(0, 100), skipped: [] }, shard)
    expect(fewer.files.map((f) => f.name)).toEqual(inOrder.filter((name) => names.indexOf(name) < 100))
  })

  it('is stable across runs and machines: pinned values of the hash', () => {
    // SHA-256 of the UTF-8 name, its first 4 bytes big-endian, modulo N, plus one. A change here moves
    // documents between the jobs of users' matrices: it must not happen by accident.
    expect(shardOf('docs/a.md', 7)).toBe(4)
    expect(shardOf('docs/ü/é.md', 7)).toBe(7)
    expect(shardOf('README.md', 16)).toBe(6)
    expect(shardOf('docs/b.md', 2)).toBe(2)
  })

  it('a skipped name is reported by its own shard only; without a shard nothing is filtered', () => {
    const owner = shardOf('docs/.hidden.md', 3)
    for (let index = 1; index <= 3; index++)
      expect(shardSelection(selection, { index, count: 3 }).skipped).toHaveLength(index === owner ? 1 : 0)
    expect(shardSelection(selection, undefined)).toBe(selection)
    expect(inShard('anything', undefined)).toBe(true)
  })
})

describe('the shard input', () => {
  const read = (shard: string) => (name: string) =>
    ({
      'flow-id': 'flow-1',
      'org-id': 'org-1',
      'node-id': 'knowledgebase-1',
      'private-key': 'sk-private-0123456789',
      files: 'docs/**',
      shard,
    })[name] ?? ''

  it('I/N is read; empty means no shard; each shard gets its own pull-request comment key', () => {
    const config = readIndexConfig(read('2/4'), { eventName: 'push' })
    expect(config.shard).toEqual({ index: 2, count: 4 })
    expect(config.comment.key).toBe('shard-2-of-4')
    expect(readIndexConfig(read(''), { eventName: 'push' }).shard).toBeUndefined()
    expect(parseShard(' 1 / 1 '.trim(), 256)).toEqual({ index: 1, count: 1 })
  })

  it.each(['0/3', '4/3', 'a/b', '3', '1/0', '1/257', '-1/3', '1/3/5'])(
    '%s is refused naming the input',
    (value) => {
      let error: unknown
      try {
        readIndexConfig(read(value), { eventName: 'push' })
      } catch (caught) {
        error = caught
      }
      expect(error).toBeInstanceOf(ConfigError)
      const message = (error as ConfigError).message
      expect(message).toContain('Input "shard" must be I/N')
      expect(message).toContain(`(got "${value}")`)
    },
  )
})
