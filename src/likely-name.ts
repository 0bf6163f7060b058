// The name someone most likely meant when they wrote one that is not known: "did you mean `contains`?".
import { distance } from 'fastest-levenshtein'

/** Case, `_` for `-` and camelCase are how names are mistyped most, not typos: they cost nothing. */
function comparable(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .replace(/_/g, '-')
}

/**
 * The one known name closest to `written`, when it is close enough to be a typo of it: at most one
 * edit per three characters (one for short names). Undefined when nothing is that close, or when two
 * names are equally close (a guess between them would mislead as often as help).
 */
export function likelyName(written: string, known: readonly string[]): string | undefined {
  const typed = comparable(written)
  const allowed = Math.max(1, Math.floor(typed.length / 3))
  let best: string | undefined
  let bestDistance = Number.POSITIVE_INFINITY
  let tied = false
  for (const name of known) {
    const d = distance(typed, comparable(name))
    if (d < bestDistance) {
      best = name
      bestDistance = d
      tied = false
    } else if (d === bestDistance) tied = true
  }
  return best !== undefined && bestDistance <= allowed && !tied ? best : undefined
}

/** ` (did you mean `contains`?)`, or '' when no known name is close enough. */
export function didYouMean(written: string, known: readonly string[]): string {
  const likely = likelyName(written, known)
  return likely === undefined ? '' : ` (did you mean \`${likely}\`?)`
}
