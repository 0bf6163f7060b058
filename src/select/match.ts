// Matches document names (workspace-relative, `/`) against the `files` patterns without touching the
// disk: a removed file no longer exists, yet the `removed` output lists only what the globs select.
// Same rules as @actions/glob: patterns apply in order (`!` excludes, a later include re-includes), `*`
// matches dotfiles, and a pattern also matches everything below a matched folder.
import { minimatch } from 'minimatch'

export function nameMatcher(patterns: string[]): (name: string) => boolean {
  const rules = patterns.map((raw) => {
    let pattern = raw
    let negate = false
    while (pattern.startsWith('!')) {
      negate = !negate
      pattern = pattern.slice(1)
    }
    pattern = pattern.replace(/^(\.\/)+/, '').replace(/\/+$/, '')
    return { negate, pattern }
  })
  return (name) => {
    let selected = false
    for (const { negate, pattern } of rules) {
      const hit = minimatch(name, pattern, { dot: true }) || minimatch(name, `${pattern}/**`, { dot: true })
      if (hit) selected = !negate
    }
    return selected
  }
}
