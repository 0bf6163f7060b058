// An input that names checks (`settle-check`, `advisory-checks`) and names none: the names there are,
// and the one most likely meant, so a typo is fixed from the error alone.
import type { Check } from '../checks/schema.js'
import { likelyName } from '../likely-name.js'
import { quoted } from './errors.js'

const SHOWN_NAMES = 10

/** `"refunds", "shipping time", …`: the first check names, quoted. */
export function shownCheckNames(checks: readonly Check[]): string {
  const shown = checks.slice(0, SHOWN_NAMES).map((check) => quoted(check.name))
  return `${shown.join(', ')}${checks.length > SHOWN_NAMES ? ', …' : ''}`
}

/**
 * ` Did you mean "refunds"?` for a written name close to a check's; with several written names, each guess
 * names its entry. '' when none is close; a `*` pattern gets no guess.
 */
export function nearestCheckNames(written: readonly string[], checks: readonly Check[]): string {
  const names = checks.map((check) => check.name)
  const guesses = written
    .filter((entry) => !entry.includes('*'))
    .map((entry) => ({ entry, likely: likelyName(entry, names) }))
    .filter((guess): guess is { entry: string; likely: string } => guess.likely !== undefined)
  if (guesses.length === 0) return ''
  if (written.length === 1) return ` Did you mean ${quoted(guesses[0].likely)}?`
  return guesses.map(({ entry, likely }) => ` For ${quoted(entry)}, did you mean ${quoted(likely)}?`).join('')
}
