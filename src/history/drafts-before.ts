// Which changed drafts were drafts before the change too. Without a record of the node, a modified file
// that is a draft now is blanked because it may have been published before; when its version at the
// change set's base commit was a draft as well, by the same rules (select/document/drafts.ts: its front matter,
// the cascade of the section files above it as they were then, a _drafts folder), it never reached the
// knowledge base, and its placeholder would only be answered 404 (one more request, a batch searched in
// parts). Those are left alone, as the record leaves a draft it holds no content for.
//
// The base's versions are written to a temporary folder in the workspace's layout and judged there, so
// the cascade is read as it was. What cannot be read there (the base commit not in a shallow checkout, a
// file in a submodule, anything git refuses) counts as not a draft before: blanked, as before.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { Git } from '../git.js'
import { mapLimited } from '../map-limited.js'
import { COMMIT_ID } from '../model.js'
import { findDrafts, SECTION_FILES } from '../select/document/drafts.js'
import { tempFolder } from '../temp-folder.js'

/** Files written at once: a push that changes a section's _index.md may judge a few hundred pages. */
const FILES_AT_ONCE = 8

export interface DraftsBeforeInput {
  /** The workspace folder, inside the repository's working tree. */
  workspace: string
  /** The commit the change set is measured from. */
  base: string
  /** Modified document names that are drafts now. */
  names: readonly string[]
  now?: Date
  signal?: AbortSignal
}

/** The names among `names` that were drafts at `base` too; empty when the base cannot be read. */
export async function draftsBefore(input: DraftsBeforeInput): Promise<Set<string>> {
  const { workspace, base, signal } = input
  const names = input.names.filter(isPlainName)
  if (names.length === 0 || !COMMIT_ID.test(base)) return new Set()
  const git = new Git(workspace)
  if (!(await git.hasCommit(base))) return new Set()
  const folder = await mkdtemp(path.join(tempFolder().path, 'kb-sync-before-'))
  try {
    // The pages, and the section files of every folder above them (their cascade), as they were.
    const wanted = new Set(names)
    for (const name of names)
      for (const above of foldersAbove(name))
        for (const section of SECTION_FILES) wanted.add(above === '' ? section : `${above}/${section}`)
    // `<commit>:./<name>`: the name relative to the workspace, which may be a folder of the repository.
    const blobs = await git.blobs(
      [...wanted].map((name) => `${base}:./${name}`),
      { signal },
    )
    const written = await mapLimited([...wanted], FILES_AT_ONCE, async (name) => {
      const content = blobs.get(`${base}:./${name}`)
      if (content === undefined) return undefined
      const file = path.join(folder, ...name.split('/'))
      await mkdir(path.dirname(file), { recursive: true })
      await writeFile(file, content)
      return { name, path: file, size: content.length }
    })
    const pages = written.filter((file) => file !== undefined)
    const pageNames = new Set(names)
    const scan = await findDrafts(
      pages.filter((file) => pageNames.has(file.name)),
      input.now,
    )
    return new Set(scan.drafts.keys())
  } finally {
    await rm(folder, { recursive: true, force: true })
  }
}

/** A relative name with no empty, `.` or `..` segment: one that stays inside the temporary folder. */
function isPlainName(name: string): boolean {
  return (
    !path.posix.isAbsolute(name) &&
    name.split('/').every((part) => part !== '' && part !== '.' && part !== '..')
  )
}

/** The folders above a name, nearest first, ending with the workspace's own (''). */
function foldersAbove(name: string): string[] {
  const folders: string[] = []
  let folder = path.posix.dirname(name)
  while (folder !== '.') {
    folders.push(folder)
    folder = path.posix.dirname(folder)
  }
  folders.push('')
  return folders
}
