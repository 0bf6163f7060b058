// `similar`: how close an answer is to a reference answer, as the normalised Levenshtein ratio
// 1 - distance / max(length): 1 for the same text, 0 for texts with nothing in common. Both texts are
// trimmed first; lengths are counted in UTF-16 code units, as JavaScript strings are.
import { distance } from 'fastest-levenshtein'

/** The normalised Levenshtein ratio of two texts, 0–1 (two empty texts are the same: 1). */
export function similarity(answer: string, reference: string): number {
  const a = answer.trim()
  const b = reference.trim()
  const longest = Math.max(a.length, b.length)
  if (longest === 0) return 1
  return 1 - distance(a, b) / longest
}

/**
 * A ratio with two decimals, rounded down: a score just under the minimum never shows as equal to it
 * (0.799 against 0.80 shows 0.79).
 */
export function formatRatio(ratio: number): string {
  return (Math.floor(ratio * 100 + 1e-9) / 100).toFixed(2)
}
