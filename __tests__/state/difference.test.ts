// The change set from the record, rule by rule: each row is one name's case.
import { describe, expect, it } from '@jest/globals'
import { difference, unchangedSinceSent } from '../../src/state/difference.js'
import { PLACEHOLDER, UNKNOWN } from '../../src/state/record.js'

const A = 'a'.repeat(40)
const B = 'b'.repeat(40)

describe('difference', () => {
  it.each([
    ['selected, not held → upload', new Map([['x.md', A]]), {}, { upload: ['x.md'] }],
    ['selected, held with the same id → unchanged', new Map([['x.md', A]]), { 'x.md': A }, { unchanged: 1 }],
    ['selected, held with another id → update', new Map([['x.md', A]]), { 'x.md': B }, { update: ['x.md'] }],
    ['selected, held UNKNOWN → update', new Map([['x.md', A]]), { 'x.md': UNKNOWN }, { update: ['x.md'] }],
    [
      'selected with an unreadable id, held UNKNOWN → update, never equal',
      new Map([['x.md', UNKNOWN]]),
      { 'x.md': UNKNOWN },
      { update: ['x.md'] },
    ],
    [
      'selected, held a placeholder → update',
      new Map([['x.md', A]]),
      { 'x.md': PLACEHOLDER },
      { update: ['x.md'] },
    ],
    ['not selected, held with an id → blank', new Map(), { 'x.md': A }, { blank: ['x.md'] }],
    ['not selected, held UNKNOWN → blank', new Map(), { 'x.md': UNKNOWN }, { blank: ['x.md'] }],
    [
      'not selected, held a placeholder → already blank',
      new Map(),
      { 'x.md': PLACEHOLDER },
      { alreadyBlank: 1 },
    ],
  ])('%s', (_, desired, held, expected) => {
    expect(difference(desired, held)).toEqual({
      upload: [],
      update: [],
      blank: [],
      unchanged: 0,
      alreadyBlank: 0,
      ...expected,
    })
  })

  it('sorts each list by code unit', () => {
    const desired = new Map([
      ['b.md', A],
      ['B.md', A],
      ['a.md', A],
      ['é.md', A],
    ])
    expect(difference(desired, {}).upload).toEqual(['B.md', 'a.md', 'b.md', 'é.md'])
    expect(difference(new Map(), Object.fromEntries([...desired])).blank).toEqual([
      'B.md',
      'a.md',
      'b.md',
      'é.md',
    ])
  })

  it('reads only the record’s own names: documents named constructor or __proto__ are names', () => {
    const held = JSON.parse('{"__proto__": "' + A + '", "other.md": "' + B + '"}') as Record<string, string>
    const result = difference(
      new Map([
        ['constructor', A],
        ['toString', B],
        ['__proto__', A],
      ]),
      held,
    )
    expect(result.upload).toEqual(['constructor', 'toString'])
    expect(result.unchanged).toBe(1)
    expect(result.blank).toEqual(['other.md'])
  })
})

describe('unchangedSinceSent', () => {
  const sentAt = '2026-11-20T10:00:00.000Z'
  it.each([
    ['never sent', { url: 'https://s/a', lastmod: '2026-01-01' }, {}, true],
    [
      'no lastmod: nothing says it did not change',
      { url: 'https://s/a' },
      { 'https://s/a': { sentAt } },
      true,
    ],
    [
      'a lastmod that cannot be read',
      { url: 'https://s/a', lastmod: 'yesterday' },
      { 'https://s/a': { sentAt } },
      true,
    ],
    [
      'lastmod after the send',
      { url: 'https://s/a', lastmod: '2026-11-20T11:00:00Z' },
      { 'https://s/a': { sentAt } },
      true,
    ],
    [
      'lastmod before the send',
      { url: 'https://s/a', lastmod: '2026-11-20T09:00:00Z' },
      { 'https://s/a': { sentAt } },
      false,
    ],
    [
      'lastmod before the send, the one it had then',
      { url: 'https://s/a', lastmod: '2026-11-18' },
      { 'https://s/a': { sentAt, lastmod: '2026-11-18' } },
      false,
    ],
    [
      'a date-only lastmod of the day it was sent: it may have changed later that day',
      { url: 'https://s/a', lastmod: '2026-11-20' },
      { 'https://s/a': { sentAt, lastmod: '2026-11-20' } },
      true,
    ],
    [
      'lastmod not the one it had when sent, though not after the send',
      { url: 'https://s/a', lastmod: '2026-11-18' },
      { 'https://s/a': { sentAt: '2026-11-25T10:00:00.000Z', lastmod: '2026-11-17' } },
      true,
    ],
  ])('%s', (_, page, held, sent) => {
    expect(unchangedSinceSent(page, held)).toBe(!sent)
  })

  it('reads only the record’s own URLs', () => {
    expect(unchangedSinceSent({ url: 'constructor', lastmod: '2000-01-01' }, {})).toBe(false)
  })
})
