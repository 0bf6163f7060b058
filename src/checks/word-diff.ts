// Which words of an answer a pull request changed: a word-level diff (jsdiff) of the before and after
// answers, or why none is worth showing. White space does not count as a change (a reflowed paragraph
// is the same answer); the parts keep the after answer's white space.
import { diffWords, wordDiff } from 'diff'

// The diff compares at most this many characters of each answer: the work grows with the length times
// the words changed, so with the square of the length for two answers worded differently (two such
// answers of 3,000 characters take ~40 ms on Node, of 10,000 about ten times as long).
export const DIFF_CHARS = 3_000

// Below this share of words in common, a diff is mostly struck-through text next to underlined text,
// harder to read than the two answers one after the other.
export const MIN_SHARED_WORDS = 0.4

export interface DiffPart {
  text: string
  change: 'same' | 'removed' | 'added'
}

export type WordDiff =
  /** `partial`: the answers are longer than DIFF_CHARS and only their beginnings are compared. */
  | { kind: 'diff'; parts: DiffPart[]; partial: boolean }
  | { kind: 'dissimilar' }
  /** No word differs: only white space, or (`partial`) nothing in the beginnings compared. */
  | { kind: 'same-words'; partial: boolean }
  | { kind: 'no-answer'; side: 'before' | 'after' }

/** The first `chars` UTF-16 units of `text`, never ending inside a surrogate pair. */
function beginning(text: string, chars: number): string {
  const head = text.slice(0, chars)
  return /[\ud800-\udbff]$/.test(head) ? head.slice(0, -1) : head
}

/** Words and punctuation marks as jsdiff compares them (its tokens carry the white space around them). */
const wordsOf = (text: string) =>
  wordDiff
    .tokenize(text)
    .map((token) => token.trim())
    .filter((token) => token !== '')

/**
 * At most the share of words a diff could keep in common: the words the two texts have in common
 * counted as a multiset, order ignored. Cheap, and never below the diff's own share.
 */
function sharedWordsAtMost(before: string[], after: string[]): number {
  const counts = new Map<string, number>()
  for (const word of before) counts.set(word, (counts.get(word) ?? 0) + 1)
  let common = 0
  for (const word of after) {
    const left = counts.get(word) ?? 0
    if (left > 0) {
      common += 1
      counts.set(word, left - 1)
    }
  }
  return (2 * common) / (before.length + after.length)
}

/** The word-level diff of two answers (compared trimmed), or why there is none to show. */
export function wordDiffOf(beforeAnswer: string, afterAnswer: string): WordDiff {
  const partial = Math.max(beforeAnswer.trim().length, afterAnswer.trim().length) > DIFF_CHARS
  const before = beginning(beforeAnswer.trim(), DIFF_CHARS)
  const after = beginning(afterAnswer.trim(), DIFF_CHARS)
  if (before === '') return { kind: 'no-answer', side: 'before' }
  if (after === '') return { kind: 'no-answer', side: 'after' }
  const beforeWords = wordsOf(before)
  const afterWords = wordsOf(after)
  const total = beforeWords.length + afterWords.length
  if (sharedWordsAtMost(beforeWords, afterWords) < MIN_SHARED_WORDS) return { kind: 'dissimilar' }
  // The share in common is 1 - changed / total, so more changed words than this means too few in
  // common: jsdiff then stops early and answers undefined. (The epsilon keeps 0.6 × 10 from being 5.99….)
  const maxEditLength = Math.floor((1 - MIN_SHARED_WORDS) * total + 1e-9)
  const changes = diffWords(before, after, { maxEditLength })
  if (!changes) return { kind: 'dissimilar' }
  const parts: DiffPart[] = changes.map((change) => ({
    text: change.value,
    change: change.added ? 'added' : change.removed ? 'removed' : 'same',
  }))
  // Two beginnings end at different places of the same text: what follows their last common words
  // is where the cut fell, not a change.
  if (partial) while (parts.length > 0 && parts[parts.length - 1].change !== 'same') parts.pop()
  if (parts.every((part) => part.change === 'same')) return { kind: 'same-words', partial }
  return { kind: 'diff', parts, partial }
}
