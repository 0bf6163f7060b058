// The content id of every selected file as it is on disk now: git's blob id, so that the record can tell
// which documents changed without keeping their content. A file git already knows unchanged is not read:
// its id comes from the index (`git ls-files -s`, one pass for the whole repository, 100,000 files in one
// process), minus the files whose worktree differs from the index (`git diff-files`, which compares stat
// data, and content only for racily clean entries). Every other file (modified, untracked, ignored,
// outside any repository, reached through a link) is hashed here, as `git hash-object --no-filters`
// would (blob-ids.ts).
//
// The index holds the *filtered* blob: with `core.autocrlf` or `.gitattributes` (`text`, `eol`, a clean
// filter such as Git LFS), a tracked file's id is that of its normalized content (LF line ends, the LFS
// pointer), while a hashed file's id is that of its bytes as they are. In the default configuration the
// two are the same bytes, so a content has one id tracked or not. With such filters a file that moves
// between the two ways of knowing it (committed after being modified, say) gets another id once, and is
// sent once more than needed; a change of the worktree's bytes alone that git's filters undo (line ends
// only) is not seen, as git does not see it. A tracked file's id never depends on what is on disk but
// through git's own view of it, which is what makes the LFS case right: the pointer's id changes when
// the LFS content does.
import type { Stats } from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'
import { Git, GitError } from '../git.js'
import type { SelectedFile } from '../model.js'
import { compareNames } from '../plan.js'
import { decodedName } from '../select/git/byte-names.js'
import { GITLINK_MODE } from '../select/git/tree-output.js'
import { hashSelectedFiles, type ObjectFormat } from './blob-ids.js'

/** A git working tree that holds selected files, at a folder of the workspace ('' for the workspace). */
interface Checkout {
  folder: string
  directory: string
  format: ObjectFormat
}

/** Regular files, executable or not: a link (120000) or a submodule (160000) is not a file's content. */
const FILE_MODES = new Set(['100644', '100755'])

/**
 * Name → content id of every selected file (`name` relative to the workspace), UNKNOWN for one that
 * cannot be read as selected; an id equal to the one `held` gives the name is that very string. Rejects
 * only with the signal's reason: when git cannot list a repository, its files are hashed instead
 * (slower, the same ids in the default configuration).
 */
export async function contentIds(
  workspace: string,
  files: readonly SelectedFile[],
  signal?: AbortSignal,
  held?: Readonly<Record<string, string>>,
): Promise<Map<string, string>> {
  signal?.throwIfAborted()
  const root = await fs.realpath(workspace)
  // Each selected name's place in `files`; what git knows is kept by that place, in one array, not in a
  // second map of 100,000 names beside the ids' own.
  const selected = new Map<string, number>()
  for (let index = 0; index < files.length; index++) selected.set(files[index].name, index)
  let sorted: string[] | undefined
  const sortedNames = () => (sorted ??= [...selected.keys()].sort(compareNames))

  const own = await checkoutAt(root, '', signal)
  const queue = own ? [own] : await checkoutsBelow(root, selected.keys(), signal)
  const checkouts: Checkout[] = []
  let known: (string | undefined)[] | undefined
  for (let checkout = queue.shift(); checkout; checkout = queue.shift()) {
    checkouts.push(checkout)
    const listed = await listUnchanged(checkout, files, selected, signal, held)
    // The first checkout's ids are taken as they are (the only ones, without submodules): no copy.
    if (!known) known = listed.ids
    else if (listed.ids)
      for (let index = 0; index < files.length; index++) known[index] = listed.ids[index] ?? known[index]
    for (const submodule of listed.submodules) {
      if (!hasNameBelow(sortedNames(), `${submodule}/`)) continue
      const inner = await checkoutAt(path.join(root, submodule), submodule, signal)
      if (inner) queue.push(inner)
    }
  }

  // Innermost first: a file is hashed with the object format of the repository that holds it.
  checkouts.sort((a, b) => b.folder.length - a.folder.length)
  const formatOf = (name: string): ObjectFormat =>
    checkouts.find((checkout) => checkout.folder === '' || name.startsWith(`${checkout.folder}/`))?.format ??
    'sha1'
  const ids = new Map<string, string>()
  const toHash: { file: SelectedFile; format: ObjectFormat }[] = []
  for (let index = 0; index < files.length; index++) {
    const file = files[index]
    const id = known?.[index]
    // The index knows the file at its name; a file read from elsewhere (through a link) is hashed.
    if (id !== undefined && file.path === pathAt(root, file.name)) ids.set(file.name, id)
    else toHash.push({ file, format: formatOf(file.name) })
  }
  await hashSelectedFiles(toHash, ids, signal)
  return ids
}

const pathAt = (root: string, name: string): string =>
  path.sep === '/' ? `${root}/${name}` : path.join(root, name)

/** Whether some selected name starts with `prefix` (names sorted by compareNames). */
function hasNameBelow(sortedNames: readonly string[], prefix: string): boolean {
  let low = 0
  let high = sortedNames.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (sortedNames[middle] < prefix) low = middle + 1
    else high = middle
  }
  return low < sortedNames.length && sortedNames[low].startsWith(prefix)
}

/** The working tree at `directory`, or undefined when it is in none (or git cannot be run). */
async function checkoutAt(
  directory: string,
  folder: string,
  signal?: AbortSignal,
): Promise<Checkout | undefined> {
  try {
    const result = await new Git(directory).run(
      ['rev-parse', '--is-inside-work-tree', '--show-object-format'],
      {
        signal,
      },
    )
    const [inside, format] = result.stdout.trim().split('\n')
    if (result.exitCode !== 0 || inside !== 'true') return undefined
    return { folder, directory, format: format === 'sha256' ? 'sha256' : 'sha1' }
  } catch {
    signal?.throwIfAborted()
    // git is not installed: every file is hashed.
    return undefined
  }
}

const hasGitEntry = (folder: string): Promise<Stats | undefined> =>
  fs.lstat(path.join(folder, '.git')).catch(() => undefined)

/**
 * A workspace that is not in a repository may hold some (actions/checkout with `path:`): the outermost
 * folder holding a `.git` entry above each selected file, found with one lstat per distinct folder.
 */
async function checkoutsBelow(
  root: string,
  names: Iterable<string>,
  signal?: AbortSignal,
): Promise<Checkout[]> {
  const outermost = new Map<string, string | null>()
  const checkoutOf = async (folder: string): Promise<string | null> => {
    if (folder === '') return null
    const cached = outermost.get(folder)
    if (cached !== undefined) return cached
    const slash = folder.lastIndexOf('/')
    const above = await checkoutOf(slash === -1 ? '' : folder.slice(0, slash))
    const found = above ?? ((await hasGitEntry(path.join(root, folder))) ? folder : null)
    outermost.set(folder, found)
    return found
  }
  const parents = new Set<string>()
  for (const name of names) {
    const slash = name.lastIndexOf('/')
    if (slash !== -1) parents.add(name.slice(0, slash))
  }
  const folders = new Set<string>()
  for (const parent of parents) {
    signal?.throwIfAborted()
    const found = await checkoutOf(parent)
    if (found !== null) folders.add(found)
  }
  const checkouts: Checkout[] = []
  for (const folder of folders) {
    const checkout = await checkoutAt(path.join(root, folder), folder, signal)
    if (checkout) checkouts.push(checkout)
  }
  return checkouts
}

/** The name at `start`..`end` of git's `-z` output as text, or undefined when it is not UTF-8. */
function textAt(output: Buffer, start: number, end: number): string | undefined {
  const lenient = output.toString('utf8', start, end)
  return lenient.includes('\uFFFD') ? decodedName(output.subarray(start, end)) : lenient
}

const TAB = 0x09
const CACHED = 0x48 // `H`
const STAGE_0 = 0x30 // `0`

/**
 * The id of every selected file of the checkout that git knows unchanged, and the folders
 * (workspace-relative) of its submodules; none of either when git cannot list the checkout. An entry counts only when it is a regular file at
 * stage 0 (not a conflict) shown as `H` by `ls-files -v`: `S` (skip-worktree, sparse checkout) and
 * lowercase (assume-unchanged) entries are not compared with the worktree by git, so they are hashed.
 */
async function listUnchanged(
  checkout: Checkout,
  files: readonly SelectedFile[],
  selected: ReadonlyMap<string, number>,
  signal?: AbortSignal,
  held?: Readonly<Record<string, string>>,
): Promise<{ ids?: (string | undefined)[]; submodules: string[] }> {
  // By the file's place in `files`.
  const known = new Array<string | undefined>(files.length).fill(undefined)
  const git = new Git(checkout.directory)
  const prefix = checkout.folder === '' ? '' : `${checkout.folder}/`
  const submodules: string[] = []
  // `<tag> <mode> <id> <stage>\t<name>\0`, read in place: no copy, no pattern, and no Buffer.indexOf per
  // entry (a call into C++ each: more than the rest of the entry's work at 100,000 entries). The tab is
  // where the object format puts it; the name's end is found by a scan of its few bytes.
  const tabOffset = (checkout.format === 'sha256' ? 64 : 40) + 10
  /** Reads the whole entries of `listing` (it ends with one's NUL). */
  const readEntries = (listing: Buffer): void => {
    for (let start = 0; start < listing.length;) {
      let tab = start + tabOffset
      if (listing[tab] !== TAB) tab = listing.indexOf(TAB, start)
      if (tab === -1) break
      let end = tab + 1
      while (end < listing.length && listing[end] !== 0) end++
      const entry = start
      start = end + 1
      if (listing[entry] !== CACHED || listing[tab - 1] !== STAGE_0) continue
      const text = textAt(listing, tab + 1, end)
      if (text === undefined) continue
      const name = prefix + text
      const mode = listing.toString('latin1', entry + 2, entry + 8)
      if (mode === GITLINK_MODE) {
        submodules.push(name)
        continue
      }
      // Found by its place in the selection: the name made from git's output dies young (100,000 of them).
      const index = FILE_MODES.has(mode) ? selected.get(name) : undefined
      if (index === undefined) continue
      const file = files[index]
      // The record's own string when the id is the one it holds (most of them): not a second copy of
      // 100,000 ids beside it (~6 MB of heap at the run's peak).
      const id = listing.toString('latin1', entry + 9, tab - 2)
      const was = held && Object.hasOwn(held, file.name) ? held[file.name] : undefined
      known[index] = was === id ? was : id
    }
  }
  // The listing is read as git writes it, a pipe's chunk at a time (~7 MB at 100,000 files, which whole
  // and then joined was ~14 MB of buffers at the run's peak); an entry cut by a chunk's end waits for
  // the rest of it.
  let partial: Buffer | undefined
  const onChunk = (chunk: Buffer): void => {
    const bytes = partial ? Buffer.concat([partial, chunk]) : chunk
    const last = bytes.lastIndexOf(0)
    partial = last === bytes.length - 1 ? undefined : Buffer.from(bytes.subarray(last + 1))
    if (last !== -1) readEntries(bytes.subarray(0, last + 1))
  }
  let changed: Buffer
  try {
    // Both relative to the checkout's directory and limited to it (ls-files by default, diff-files by
    // --relative), which is what names a workspace inside a repository.
    ;[, changed] = await Promise.all([
      git.eachChunk(['ls-files', '-v', '-s', '-z'], onChunk, { signal }),
      git.execBytes(['diff-files', '--name-only', '--relative', '-z'], { signal }),
    ])
  } catch (error) {
    signal?.throwIfAborted()
    // What was read of a listing git could not finish is not trusted: those files are hashed.
    if (error instanceof GitError) return { submodules: [] }
    throw error
  }
  for (
    let start = 0, end = changed.indexOf(0);
    end !== -1;
    start = end + 1, end = changed.indexOf(0, start)
  ) {
    const text = textAt(changed, start, end)
    const index = text === undefined ? undefined : selected.get(prefix + text)
    if (index !== undefined) known[index] = undefined
  }
  return { ids: known, submodules }
}
