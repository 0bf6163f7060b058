// A staging node holds only what this checkout selects: a changed name that is present but not selected
// any more is removed there, as a deleted one is.
import type { ChangeDecision, FileSelection, SkipReason } from '../model.js'

// Reasons that say the file is not a document of this checkout. Not among them: a name conflict or a
// duplicate (another file reaches the node under that name), an unreadable file (the run fails on it).
const NOT_A_DOCUMENT: ReadonlySet<SkipReason> = new Set([
  'hidden',
  'git-dir',
  'secret',
  'too-large',
  'outside-workspace',
  'symlink',
  'not-regular',
])

/** The changed names that the selection skipped as not being documents of this checkout. */
export function stagingRemovals(
  changes: Extract<ChangeDecision, { kind: 'changes' }>,
  selection: FileSelection,
): string[] {
  const changed = new Set(changes.modified)
  return selection.skipped
    .filter((item) => item.kind === 'document' && changed.has(item.name) && NOT_A_DOCUMENT.has(item.reason))
    .map((item) => item.name)
}
