// What the node holds after a run, rule by rule: one name's case per row.
import { describe, expect, it } from '@jest/globals'
import type { ItemOutcome, Outcome } from '../../src/model.js'
import fc from 'fast-check'
import { markPending, nextHeld, nextUrls, settlePending } from '../../src/state/next-record.js'
import { PLACEHOLDER, UNKNOWN } from '../../src/state/record.js'

const OLD = 'a'.repeat(40)
const NEW = 'b'.repeat(40)

function outcome(name: string, result: Outcome, attempts = 1, extra: Partial<ItemOutcome> = {}): ItemOutcome {
  return { kind: 'document', name, outcome: result, operation: 'update', attempts, ...extra }
}

describe('nextHeld with a previous record', () => {
  it.each<[string, Record<string, string>, Map<string, string>, ItemOutcome[], Record<string, string>]>([
    [
      'uploaded → its selected id',
      {},
      new Map([['x.md', NEW]]),
      [outcome('x.md', 'uploaded')],
      { 'x.md': NEW },
    ],
    [
      'updated → its selected id',
      { 'x.md': OLD },
      new Map([['x.md', NEW]]),
      [outcome('x.md', 'updated')],
      { 'x.md': NEW },
    ],
    ['sent but not selected → UNKNOWN', {}, new Map(), [outcome('x.md', 'uploaded')], { 'x.md': UNKNOWN }],
    [
      'removed → PLACEHOLDER',
      { 'x.md': OLD },
      new Map(),
      [outcome('x.md', 'removed')],
      { 'x.md': PLACEHOLDER },
    ],
    [
      'removed, answered 404 (absent) → not held',
      { 'x.md': UNKNOWN },
      new Map(),
      [outcome('x.md', 'removed', 1, { absent: true })],
      {},
    ],
    [
      'failed after an attempt → UNKNOWN',
      { 'x.md': OLD },
      new Map([['x.md', NEW]]),
      [outcome('x.md', 'failed', 2)],
      { 'x.md': UNKNOWN },
    ],
    [
      'failed placeholder after an attempt → UNKNOWN',
      { 'x.md': OLD },
      new Map(),
      [outcome('x.md', 'failed', 1)],
      { 'x.md': UNKNOWN },
    ],
    [
      'failed, never sent → as it was',
      { 'x.md': OLD },
      new Map([['x.md', NEW]]),
      [outcome('x.md', 'failed', 0)],
      { 'x.md': OLD },
    ],
    [
      'failed, never sent, not held → still not held',
      {},
      new Map([['x.md', NEW]]),
      [outcome('x.md', 'failed', 0)],
      {},
    ],
    ['selected, not sent → as it was', { 'x.md': OLD }, new Map([['x.md', OLD]]), [], { 'x.md': OLD }],
    ['held, not selected, no outcome (left) → kept', { 'x.md': OLD }, new Map(), [], { 'x.md': OLD }],
    [
      'a URL outcome is not a document',
      {},
      new Map(),
      [{ ...outcome('https://s/a', 'uploaded'), kind: 'url' }],
      {},
    ],
  ])('%s', (_, previous, desired, outcomes, expected) => {
    expect(nextHeld({ previous, desired, outcomes })).toEqual(expected)
  })

  it('does not change the previous record it is given', () => {
    const previous = { 'x.md': OLD }
    nextHeld({ previous, desired: new Map([['x.md', NEW]]), outcomes: [outcome('x.md', 'updated')] })
    expect(previous).toEqual({ 'x.md': OLD })
  })

  it('keeps only the names of its shard', () => {
    const previous = { 'mine.md': OLD, 'theirs.md': OLD }
    const held = nextHeld({
      previous,
      desired: new Map(),
      outcomes: [],
      inShard: (name) => name.startsWith('mine'),
    })
    expect(held).toEqual({ 'mine.md': OLD })
  })

  it('keeps every name of its shard, in order, when names of other shards sit next to each other', () => {
    const previous = {
      'mine-1.md': OLD,
      'theirs-1.md': OLD,
      'theirs-2.md': OLD,
      'mine-2.md': OLD,
      'theirs-3.md': OLD,
    }
    const held = nextHeld({
      previous,
      desired: new Map([['mine-3.md', NEW]]),
      outcomes: [outcome('mine-3.md', 'uploaded'), outcome('theirs-4.md', 'uploaded')],
      inShard: (name) => name.startsWith('mine'),
    })
    expect(Object.entries(held)).toEqual([
      ['mine-1.md', OLD],
      ['mine-2.md', OLD],
      ['mine-3.md', NEW],
    ])
  })

  it('keeps a held document named __proto__ from the previous record', () => {
    const previous = Object.fromEntries([
      ['__proto__', OLD],
      ['x.md', OLD],
    ]) as Record<string, string>
    const held = nextHeld({ previous, desired: new Map(), outcomes: [outcome('x.md', 'removed')] })
    expect(Object.entries(held)).toEqual([
      ['__proto__', OLD],
      ['x.md', PLACEHOLDER],
    ])
    // No prototype, like a decoded record's documents: the name is only a name.
    expect(Object.getPrototypeOf(held)).toBeNull()
  })

  it('holds a document named __proto__ as a name', () => {
    const held = nextHeld({
      previous: {},
      desired: new Map([['__proto__', NEW]]),
      outcomes: [outcome('__proto__', 'uploaded')],
    })
    expect(Object.keys(held)).toEqual(['__proto__'])
    // No prototype, like a decoded record's documents: the name is only a name.
    expect(Object.getPrototypeOf(held)).toBeNull()
  })
})

describe('nextHeld without a previous record (the run fell back to the history-based inference)', () => {
  it.each<[string, Map<string, string>, ItemOutcome[], Record<string, string>]>([
    ['selected, not planned → trusted with its id', new Map([['x.md', OLD]]), [], { 'x.md': OLD }],
    ['selected, sent → its id', new Map([['x.md', NEW]]), [outcome('x.md', 'updated')], { 'x.md': NEW }],
    [
      'selected, planned, never sent → UNKNOWN',
      new Map([['x.md', NEW]]),
      [outcome('x.md', 'failed', 0)],
      { 'x.md': UNKNOWN },
    ],
    [
      'selected, failed after an attempt → UNKNOWN',
      new Map([['x.md', NEW]]),
      [outcome('x.md', 'failed', 3)],
      { 'x.md': UNKNOWN },
    ],
    ['not selected, blanked → PLACEHOLDER', new Map(), [outcome('x.md', 'removed')], { 'x.md': PLACEHOLDER }],
    ['not selected, blank never sent → not held', new Map(), [outcome('x.md', 'failed', 0)], {}],
  ])('%s', (_, desired, outcomes, expected) => {
    expect(nextHeld({ desired, outcomes })).toEqual(expected)
  })
})

describe('markPending', () => {
  it('marks every planned document UNKNOWN and keeps the rest as the previous record has it', () => {
    const previous = { 'same.md': OLD, 'changed.md': OLD, 'gone.md': OLD, 'left.md': OLD }
    const desired = new Map([
      ['same.md', OLD],
      ['changed.md', NEW],
      ['new.md', NEW],
    ])
    expect({ ...markPending(previous, desired, ['changed.md', 'new.md', 'gone.md']).held }).toEqual({
      'same.md': OLD,
      'changed.md': UNKNOWN,
      'new.md': UNKNOWN,
      'gone.md': UNKNOWN,
      'left.md': OLD,
    })
  })

  it('without a previous record, trusts the selected names that are not planned', () => {
    const desired = new Map([
      ['same.md', OLD],
      ['changed.md', NEW],
    ])
    expect({ ...markPending(undefined, desired, ['changed.md']).held }).toEqual({
      'same.md': OLD,
      'changed.md': UNKNOWN,
    })
  })
})

describe('nextUrls', () => {
  const now = new Date('2026-11-28T10:00:00.000Z')
  const before = { sentAt: '2026-11-01T00:00:00.000Z', lastmod: '2026-10-30' }
  const url = (name: string, result: Outcome, attempts = 1): ItemOutcome => ({
    ...outcome(name, result, attempts),
    kind: 'url',
  })

  it.each<
    [string, Record<string, typeof before>, ItemOutcome[], Map<string, string>, Record<string, unknown>]
  >([
    [
      'uploaded → sent now, with its lastmod',
      {},
      [url('https://s/a', 'uploaded')],
      new Map([['https://s/a', '2026-11-27']]),
      { 'https://s/a': { sentAt: now.toISOString(), lastmod: '2026-11-27' } },
    ],
    [
      'updated, no lastmod → sent now',
      { 'https://s/a': before },
      [url('https://s/a', 'updated')],
      new Map(),
      { 'https://s/a': { sentAt: now.toISOString() } },
    ],
    [
      'failed after an attempt → forgotten',
      { 'https://s/a': before },
      [url('https://s/a', 'failed')],
      new Map(),
      {},
    ],
    [
      'failed, never sent → forgotten',
      { 'https://s/a': before },
      [url('https://s/a', 'failed', 0)],
      new Map(),
      {},
    ],
    ['not sent → as it was', { 'https://s/a': before }, [], new Map(), { 'https://s/a': before }],
    ['a document outcome is not a URL', {}, [outcome('https://s/a', 'uploaded')], new Map(), {}],
  ])('%s', (_, previous, outcomes, lastmods, expected) => {
    expect(nextUrls(previous, outcomes, lastmods, now)).toEqual(expected)
  })

  it('starts empty without a previous record', () => {
    expect(nextUrls(undefined, [url('https://s/a', 'uploaded')], new Map(), now)).toEqual({
      'https://s/a': { sentAt: now.toISOString() },
    })
  })
})

describe('markPending and settlePending (the records made in place)', () => {
  const names = ['a.md', 'b.md', 'c.md', 'd.md', 'e.md']
  const content = fc.constantFrom(OLD, NEW, PLACEHOLDER, UNKNOWN)
  const anOutcome = fc.record({
    name: fc.constantFrom(...names),
    outcome: fc.constantFrom<Outcome>('uploaded', 'updated', 'removed', 'failed'),
    attempts: fc.constantFrom(0, 1, 3),
    absent: fc.boolean(),
  })
  const withoutPrototype = (entries: [string, string][]) =>
    Object.assign(Object.create(null) as Record<string, string>, Object.fromEntries(entries))

  it('mark every planned name unknown in the previous record itself, then give what nextHeld gives', () => {
    fc.assert(
      fc.property(
        fc.option(fc.dictionary(fc.constantFrom(...names), content), { nil: undefined }),
        fc.dictionary(fc.constantFrom(...names), fc.constantFrom(OLD, NEW)),
        fc.subarray(names),
        fc.array(anOutcome, { maxLength: 6 }),
        (previous, desiredObject, planned, drawn) => {
          const desired = new Map(Object.entries(desiredObject))
          // Outcomes only of planned names, each once, as a run gives them.
          const seen = new Set<string>()
          const outcomes = drawn
            .filter((item) => planned.includes(item.name) && !seen.has(item.name) && seen.add(item.name))
            .map((item) =>
              outcome(
                item.name,
                item.outcome,
                item.attempts,
                item.outcome === 'removed' ? { absent: item.absent } : {},
              ),
            )
          const copy = () => (previous ? withoutPrototype(Object.entries(previous)) : undefined)
          const expectedPending = { ...(previous ?? Object.fromEntries(desired)) }
          for (const name of planned) expectedPending[name] = UNKNOWN
          const expectedFinal = nextHeld({ previous: copy(), desired, outcomes })
          const own = copy()
          const pending = markPending(own, desired, planned)
          expect({ ...pending.held }).toEqual({ ...expectedPending })
          if (own) expect(pending.held).toBe(own)
          expect({ ...settlePending(pending, desired, outcomes) }).toEqual({ ...expectedFinal })
        },
      ),
      { numRuns: 500 },
    )
  })
})
