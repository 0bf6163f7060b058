// The `advisory-checks` input: check names, or patterns where `*` stands for any characters, one per line
// or separated by commas. The checks they name are advisory as if they said `advisory: true`.
import type { Check } from './schema.js'

/** The entries of the input: trimmed, empty ones dropped. */
export function advisoryEntries(value: string): string[] {
  return value
    .split(/[\n,]/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
}

/** `*` matches any run of characters (none included); every other character is itself. */
function matcherOf(entry: string): (name: string) => boolean {
  if (!entry.includes('*')) return (name) => name === entry
  const source = entry
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*')
  const pattern = new RegExp(`^${source}$`, 's')
  return (name) => pattern.test(name)
}

/**
 * The checks with `advisory` set for those the entries name, and the entries that name no check (a
 * mistyped name would otherwise leave a check blocking without a word).
 */
export function markAdvisory(
  checks: readonly Check[],
  entries: readonly string[],
): { checks: Check[]; unmatched: string[] } {
  const matchers = entries.map((entry) => ({ entry, matches: matcherOf(entry) }))
  const unmatched = matchers.filter(({ matches }) => !checks.some((check) => matches(check.name)))
  return {
    checks: checks.map((check) =>
      !check.advisory && matchers.some(({ matches }) => matches(check.name))
        ? { ...check, advisory: true }
        : check,
    ),
    unmatched: unmatched.map(({ entry }) => entry),
  }
}
