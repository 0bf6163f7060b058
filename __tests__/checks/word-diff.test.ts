// The word-level diff of two answers: which words changed, where a diff stops being worth reading (too
// few words in common, whether their order or the words themselves differ), and long answers compared
// by their beginnings without the end of the compared window showing as a change.
import { describe, expect, it } from '@jest/globals'
import { DIFF_CHARS, wordDiffOf } from '../../src/checks/word-diff.js'

const changed = (diff: ReturnType<typeof wordDiffOf>) =>
  diff.kind === 'diff'
    ? diff.parts.filter((p) => p.change !== 'same').map((p) => [p.change, p.text.trim()])
    : diff

describe('wordDiffOf', () => {
  it('marks the changed words; white space alone is no change', () => {
    const diff = wordDiffOf('Refunds take 30 days.\nAsk support.', 'Refunds take  14 days.\n\nAsk support.\n')
    expect(changed(diff)).toEqual([
      ['removed', '30'],
      ['added', '14'],
    ])
    expect(diff).toMatchObject({ kind: 'diff', partial: false })
  })

  it('40% of the words in common gets a diff; fewer gets none', () => {
    expect(wordDiffOf('a b c d e', 'a b x y z').kind).toBe('diff')
    expect(wordDiffOf('a b c d e f', 'a b x y z w').kind).toBe('dissimilar')
  })

  it('the same words in another order have little in common', () => {
    expect(wordDiffOf('one two three four five six', 'six five four three two one').kind).toBe('dissimilar')
  })

  it('no word differs: only white space, or nothing in the beginnings compared', () => {
    expect(wordDiffOf('Refunds take\n30 days.', 'Refunds  take 30\tdays.')).toEqual({
      kind: 'same-words',
      partial: false,
    })
    const start = 'word '.repeat(DIFF_CHARS)
    expect(wordDiffOf(`${start}end`, `${start}finish`)).toEqual({ kind: 'same-words', partial: true })
  })

  it('a side without an answer', () => {
    expect(wordDiffOf('  ', 'An answer.')).toEqual({ kind: 'no-answer', side: 'before' })
    expect(wordDiffOf('An answer.', '')).toEqual({ kind: 'no-answer', side: 'after' })
  })

  it('long answers: their beginnings compared; where the two windows end is not a change', () => {
    const words = Array.from({ length: 2 * DIFF_CHARS }, (_, i) => `w${i}`)
    const before = words.join(' ')
    const after = words.map((w) => (w === 'w5' ? 'five' : w === 'w7' ? 'w7 inserted' : w)).join(' ')
    const diff = wordDiffOf(before, after)
    expect(diff).toMatchObject({ kind: 'diff', partial: true })
    expect(changed(diff)).toEqual([
      ['removed', 'w5'],
      ['added', 'five'],
      ['added', 'inserted'],
    ])
  })
})
