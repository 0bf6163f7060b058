import { describe, expect, it } from '@jest/globals'
import type { ItemOutcome, Outcome } from '../../src/model.js'
import { itemsByOutcome, splitByOutcome } from '../../src/report/by-outcome.js'

const item = (name: string, outcome: Outcome): ItemOutcome => ({
  kind: 'document',
  name,
  outcome,
  operation: 'upload',
  attempts: 1,
})

describe('items by outcome', () => {
  const mixed = [
    item('a.md', 'uploaded'),
    item('b.md', 'failed'),
    item('c.md', 'uploaded'),
    item('d.md', 'removed'),
    item('e.md', 'updated'),
    item('f.md', 'failed'),
  ]

  it('splits the items into one list per outcome, each in the items order, every item once', () => {
    expect(splitByOutcome(mixed, (one) => one.name)).toEqual({
      uploaded: ['a.md', 'c.md'],
      updated: ['e.md'],
      removed: ['d.md'],
      failed: ['b.md', 'f.md'],
    })
    const lists = itemsByOutcome(mixed)
    expect(lists.failed).toEqual([mixed[1], mixed[5]])
    expect(Object.values(lists).flat()).toHaveLength(mixed.length)
  })

  it('gives the items themselves as the list of the one outcome they all had, and empty lists for the rest', () => {
    const uploaded = [item('a.md', 'uploaded'), item('b.md', 'uploaded')]
    const lists = itemsByOutcome(uploaded)
    expect(lists.uploaded).toBe(uploaded)
    expect([lists.updated, lists.removed, lists.failed]).toEqual([[], [], []])
    expect(itemsByOutcome([])).toEqual({ uploaded: [], updated: [], removed: [], failed: [] })
  })
})
