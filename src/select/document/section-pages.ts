// A Hugo section's `_index.md` holds a `cascade` that every page below it inherits (drafts.ts). When a push
// changes, adds or removes one, the pages below it may become drafts, or stop being drafts, without
// changing themselves: they are judged again, as modified files — one that is unpublished now is blanked
// (404: it was not there, which is success), the others are sent (update, 404 → upload).
import path from 'node:path'
import type { ChangeDecision } from '../../model.js'
import { SECTION_FILES } from './drafts.js'
import { selectFiles, type FileSelectionOptions } from '../files.js'

type Changes = Extract<ChangeDecision, { kind: 'changes' }>

/** The folders of the section files a change set touches ('' for the workspace's own). */
export function changedSections(changes: Changes): string[] {
  const folders = new Set<string>()
  for (const name of [...changes.added, ...changes.modified, ...changes.removed])
    if (SECTION_FILES.includes(path.posix.basename(name))) folders.add(path.posix.dirname(name))
  return [...folders].map((folder) => (folder === '.' ? '' : folder)).sort()
}

/**
 * The change set with every selected page below a changed section added as modified (when there is
 * one): `pages` says how many were added, for the log.
 */
export async function withSectionPages(
  changes: Changes,
  options: FileSelectionOptions,
): Promise<{ changes: Changes; sections: string[]; pages: number }> {
  const sections = changedSections(changes)
  if (sections.length === 0) return { changes, sections, pages: 0 }
  const known = new Set([...changes.added, ...changes.modified, ...changes.removed])
  const below = (name: string) => sections.some((folder) => folder === '' || name.startsWith(`${folder}/`))
  const { files } = await selectFiles(options)
  const pages = files.map((file) => file.name).filter((name) => below(name) && !known.has(name))
  if (pages.length === 0) return { changes, sections, pages: 0 }
  return { changes: { ...changes, modified: [...changes.modified, ...pages] }, sections, pages: pages.length }
}
