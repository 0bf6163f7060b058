// `similar`: how close an answer is to a reference answer, as the normalised Levenshtein ratio
// 1 - distance / max(length): 1 for the same text, 0 for texts with nothing in common. Both texts are
// trimmed first; lengths are counted in UTF-16 code units, as JavaScript strings are.
//
// The distance costs (answer length × reference length) steps, all on the thread that also waits for
// the other checks' answers: a 900,000-character answer against a 10,000-character reference blocks it
// for seconds. `similarityJudged` keeps the cost bounded without changing a verdict it can decide:
// - the distance is at least the difference of the lengths, so the ratio is at most shorter / longer;
//   when that is below the minimum the check fails on the lengths alone, with no distance computed;
// - otherwise the distance is computed in full when the two lengths multiplied are at most
//   MAX_COMPARED_PAIRS (every answer up to 20,000 characters against the longest reference allowed);
// - past it (a long answer and a minimum under 0.5), the answer's beginning is compared and the rest of
//   it counted as changed: a lower bound of the ratio, so a pass is certain and a failure says so.
import { distance } from 'fastest-levenshtein'

// About 40 ms here (bench: a 20,000 × 10,000 comparison); the reference is at most 10,000 characters.
export const MAX_COMPARED_PAIRS = 200_000_000

/** The normalised Levenshtein ratio of two texts, 0–1 (two empty texts are the same: 1). */
export function similarity(answer: string, reference: string): number {
  const a = answer.trim()
  const b = reference.trim()
  const longest = Math.max(a.length, b.length)
  if (longest === 0) return 1
  return 1 - distance(a, b) / longest
}

/**
 * How `similar` judges an answer: `exact` the ratio itself; `at-most` a ratio below the minimum known
 * from the lengths alone; `at-least` a lower bound from the answer's first `compared` characters.
 */
export type SimilarityJudged =
  | { kind: 'exact'; score: number }
  | { kind: 'at-most'; score: number; length: number }
  | { kind: 'at-least'; score: number; compared: number; length: number }

/** The similarity of the answer to the reference as far as `minimum` needs it, at a bounded cost. */
export function similarityJudged(answer: string, reference: string, minimum: number): SimilarityJudged {
  const a = answer.trim()
  const b = reference.trim()
  const longest = Math.max(a.length, b.length)
  if (longest === 0) return { kind: 'exact', score: 1 }
  const bound = Math.min(a.length, b.length) / longest
  if (bound < minimum) return { kind: 'at-most', score: bound, length: a.length }
  if (a.length * b.length <= MAX_COMPARED_PAIRS) return { kind: 'exact', score: similarity(a, b) }
  // The answer is the longer text here (the reference is at most 10,000 characters).
  const compared = Math.max(b.length, Math.floor(MAX_COMPARED_PAIRS / Math.max(1, b.length)))
  const head = beginning(a, compared)
  const score = 1 - (distance(head, b) + (a.length - head.length)) / longest
  return { kind: 'at-least', score, compared: head.length, length: a.length }
}

/** The first `chars` UTF-16 units of `text`, never ending inside a surrogate pair. */
function beginning(text: string, chars: number): string {
  const head = text.slice(0, chars)
  return /[\ud800-\udbff]$/.test(head) ? head.slice(0, -1) : head
}

/**
 * A ratio with two decimals, rounded down: a score just under the minimum never shows as equal to it
 * (0.799 against 0.80 shows 0.79).
 */
export function formatRatio(ratio: number): string {
  return (Math.floor(ratio * 100 + 1e-9) / 100).toFixed(2)
}
