// `files` patterns → the files to send, and everything matched but not sent with the reason.
// Indexing a file publishes it, and a merged pull request decides what the workspace holds, so every
// candidate is checked on the disk: inside the workspace after resolving links, a regular file (checked
// again on the open handle when it is read for sending), readable, not hidden, not git metadata, not a
// well-known secret, not too large.
import { accessSync, constants, lstatSync, type Stats } from 'node:fs'
import { lstat, realpath } from 'node:fs/promises'
import path from 'node:path'
import { displayName } from '../log.js'
import type { FileSelection, SelectedFile, SkippedItem, SkipReason } from '../model.js'
import { byNameOrder, distinctDocumentNames } from '../documents/document-names.js'
import { insideName } from './inside-name.js'
import { literalNames, patternProblem } from './patterns.js'
import { describeFailure, searchFiles } from './search.js'
import { nameMatcher } from './match.js'
import { WorkspaceFile } from './workspace-file.js'
import { isSecretFile } from './secrets.js'
import { mapLimited } from '../map-limited.js'

export { patternProblem } from './patterns.js'

/**
 * Whether a name alone (no disk) would be skipped by the hidden, .git and secret rules: used for
 * removed files, which no longer exist but are reported only when the selection would have sent them.
 */
export function nameIsSelectable(
  name: string,
  options: Pick<FileSelectionOptions, 'patterns' | 'includeHidden'>,
): boolean {
  return (
    nameRule(name, { includeHidden: options.includeHidden, literal: literalNames(options.patterns) }) ===
    undefined
  )
}

export interface FileSelectionOptions {
  /** The `files` input, one pattern per entry, `!` prefix excludes; already trimmed, blank lines removed. */
  patterns: string[]
  /** GITHUB_WORKSPACE or the current directory. */
  workspace: string
  includeHidden: boolean
  /** Bytes; larger files are skipped as too large. */
  maxFileSize: number
  followSymlinks: 'inside' | 'none'
}

/**
 * Files checked at once: their folders' real paths are resolved asynchronously, once per folder. The
 * per-file `lstat` and `access` are synchronous: on a checkout's warm metadata each is a few µs, while
 * the thread-pool round trip of the asynchronous call costs several times that on the main thread
 * (2,000 files, first run in a process: ~8 ms synchronous, ~45 ms 16 at a time; `npm run bench --
 * selection`).
 */
const CONCURRENCY = 16

type Verdict =
  | { selected: SelectedFile }
  | { skipped: SkippedItem }
  | { grouped: { name: string; folder: string; reason: SkipReason } }

interface NameRule {
  reason: SkipReason
  /** The hidden or .git folder the name lies in: such files are reported once per folder, not one by one. */
  folder?: string
}

export async function selectFiles(options: FileSelectionOptions): Promise<FileSelection> {
  checkPatterns(options.patterns)
  const root = await realpath(options.workspace)
  // Links are never followed while searching: a link to `/` would walk the whole disk. Each matched link
  // is resolved and checked against the workspace boundary below instead.
  const search = await searchFiles(options.patterns, root)
  const context = checkContext(options, root)
  // The candidates' folders are resolved first (once each), so that the usual candidate, a file in a
  // folder that is its own real path, is checked without a promise of its own (100,000 files: 100,000).
  const folders = new Set<string>()
  for (const candidate of search.paths) folders.add(path.dirname(candidate))
  await mapLimited([...folders], CONCURRENCY, (folder) => isRealFolder(folder, context))
  const verdicts: (Verdict | undefined)[] = search.paths.map((candidate) => checkKnown(candidate, context))
  // The others (links, folders behind links) are checked as before, 16 at a time, and take their places.
  const rest = search.paths.filter((_, index) => verdicts[index] === undefined)
  if (rest.length > 0) {
    const checked = await mapLimited(rest, CONCURRENCY, (candidate) => check(candidate, context))
    let next = 0
    for (let index = 0; index < verdicts.length; index++) verdicts[index] ??= checked[next++]
  }
  for (const skipped of search.skipped) verdicts.push({ skipped })
  return collect(verdicts as Verdict[], root)
}

/**
 * The selection restricted to `names` (workspace-relative, `/`; a push's added and modified files): only
 * the names the patterns match are looked at on disk, with the same checks, instead of searching the
 * workspace. A name the search would not have found (gone, a folder, below a linked folder, not a plain
 * relative path) is left out silently, as the search would have.
 */
export async function selectNamedFiles(
  options: FileSelectionOptions,
  names: string[],
): Promise<FileSelection> {
  checkPatterns(options.patterns)
  const root = await realpath(options.workspace)
  const matches = nameMatcher(options.patterns)
  const folders = new Map<string, Promise<boolean>>()
  const wanted = [...new Set(names)].filter((name) => isPlainRelative(name) && matches(name))
  const found = await mapLimited(wanted, CONCURRENCY, async (name) => {
    const candidate = path.join(root, ...name.split('/'))
    return (await searchWouldFind(candidate, folders)) ? candidate : undefined
  })
  const candidates = found.filter((candidate): candidate is string => candidate !== undefined)
  const context = checkContext(options, root)
  const verdicts = await mapLimited(candidates, CONCURRENCY, (candidate) => check(candidate, context))
  // Named one by one (a push's changes): each is reported under its own name, as every other skip is, so
  // that every changed document is in exactly one output list.
  return collect(verdicts, root, { groupFolders: false })
}

/**
 * Whether the patterns select at least one file in the workspace: stops at the first one (used when a
 * push changed none of them, to tell an empty selection from patterns that match nothing).
 */
export async function hasSelectableFile(options: FileSelectionOptions): Promise<boolean> {
  checkPatterns(options.patterns)
  if (options.patterns.length === 0) return false
  const root = await realpath(options.workspace)
  const context = checkContext(options, root)
  // The same search as selectFiles (an odd entry is skipped, never fatal), checked until one is selectable.
  const search = await searchFiles(options.patterns, root)
  for (const candidate of search.paths) if ('selected' in (await check(candidate, context))) return true
  return false
}

function isPlainRelative(name: string): boolean {
  return (
    name !== '' &&
    !path.posix.isAbsolute(name) &&
    path.posix.normalize(name) === name &&
    !name.startsWith('../')
  )
}

/** What the search (links not followed, folders not listed) would have returned for this path. */
async function searchWouldFind(candidate: string, folders: Map<string, Promise<boolean>>): Promise<boolean> {
  const folder = path.dirname(candidate)
  let plainFolder = folders.get(folder)
  if (!plainFolder) {
    // The search does not descend into linked folders: the folder must be its own real path.
    plainFolder = realpath(folder).then(
      (real) => real === folder,
      () => false,
    )
    folders.set(folder, plainFolder)
  }
  if (!(await plainFolder)) return false
  try {
    return !(await lstat(candidate)).isDirectory()
  } catch {
    return false
  }
}

function checkPatterns(patterns: string[]): void {
  for (const pattern of patterns) {
    const problem = patternProblem(pattern)
    if (problem) throw new Error(`Input "files": the pattern ${JSON.stringify(pattern)} ${problem}.`)
  }
}

interface CheckContext extends FileSelectionOptions {
  root: string
  literal: Set<string>
  /** Folder → whether it is its own real path (no link on the way), resolved once per folder. */
  realFolders: Map<string, Promise<boolean>>
  /** The same answers once they are in. */
  knownFolders: Map<string, boolean>
}

function checkContext(options: FileSelectionOptions, root: string): CheckContext {
  return {
    ...options,
    root,
    literal: literalNames(options.patterns),
    realFolders: new Map(),
    knownFolders: new Map(),
  }
}

function isRealFolder(folder: string, context: CheckContext): Promise<boolean> {
  let real = context.realFolders.get(folder)
  if (!real) {
    real = realpath(folder).then(
      (resolved) => {
        const answer = resolved === folder
        context.knownFolders.set(folder, answer)
        return answer
      },
      () => {
        context.knownFolders.set(folder, false)
        return false
      },
    )
    context.realFolders.set(folder, real)
  }
  return real
}

function nameRule(
  name: string,
  context: Pick<CheckContext, 'includeHidden' | 'literal'>,
): NameRule | undefined {
  const segments = name.split('/')
  const git = segments.indexOf('.git')
  if (git >= 0) return { reason: 'git-dir', folder: segments.slice(0, git + 1).join('/') }
  const hidden = segments.findIndex((segment) => segment.startsWith('.'))
  if (!context.includeHidden && hidden >= 0 && hidden < segments.length - 1)
    return { reason: 'hidden', folder: segments.slice(0, hidden + 1).join('/') }
  if (isSecretFile(name) && !context.literal.has(name)) return { reason: 'secret' }
  if (!context.includeHidden && hidden === segments.length - 1) return { reason: 'hidden' }
  return undefined
}

const RULE_DETAIL: Partial<Record<SkipReason, string>> = {
  'git-dir': 'git metadata is never indexed, even with include-hidden-files',
  hidden: 'hidden file; set include-hidden-files to true to index it',
  secret: 'well-known secret file; name it exactly in files (without wildcards) to index it',
}

function skip(name: string, reason: SkipReason, detail: string): Verdict {
  return { skipped: { kind: 'document', name, reason, detail } }
}

/**
 * The verdict of `check` without waiting, for a candidate that is not a link in a folder already known to
 * be its own real path; undefined when `check` has more to find out.
 */
function checkKnown(candidate: string, context: CheckContext): Verdict | undefined {
  if (context.knownFolders.get(path.dirname(candidate)) !== true) return undefined
  const name = insideName(context.root, candidate)
  if (name === undefined) return undefined
  const rule = nameRule(name, context)
  if (rule?.folder !== undefined) return { grouped: { name, folder: rule.folder, reason: rule.reason } }
  if (rule) return skip(name, rule.reason, `${RULE_DETAIL[rule.reason]}.`)
  const own = lstatOrUndefined(candidate)
  if (!own || own.isSymbolicLink()) return undefined
  return inspect(name, candidate, false, context, own)
}

async function check(candidate: string, context: CheckContext): Promise<Verdict> {
  const name = insideName(context.root, candidate)
  if (name === undefined) return skip(candidate, 'outside-workspace', 'matched outside the workspace.')
  const rule = nameRule(name, context)
  if (rule?.folder !== undefined) return { grouped: { name, folder: rule.folder, reason: rule.reason } }
  if (rule) return skip(name, rule.reason, `${RULE_DETAIL[rule.reason]}.`)

  // Not a link itself, in a folder that is its own real path: the path is already the real one, so
  // resolving it file by file would only repeat the folder's answer. Anything else is resolved below.
  const own = lstatOrUndefined(candidate)
  if (own && !own.isSymbolicLink() && (await isRealFolder(path.dirname(candidate), context)))
    return inspect(name, candidate, false, context, own)

  let real: string
  try {
    real = await realpath(candidate)
  } catch (error) {
    const code = errorCode(error)
    const detail =
      code === 'ENOENT' || code === 'ELOOP'
        ? 'broken symbolic link'
        : `could not be resolved: ${describeFailure(error)}`
    return skip(name, 'unreadable', `${detail}.`)
  }
  const realName = insideName(context.root, real)
  if (realName === undefined)
    return skip(name, 'outside-workspace', `symbolic link to ${displayName(real)}, outside the workspace.`)
  const linked = real !== candidate
  if (linked) {
    if (context.followSymlinks === 'none')
      return skip(name, 'symlink', `symbolic link to ${displayName(realName)}; follow-symlinks is none.`)
    // The target is judged by its own name too: a link must not carry `.git/config` or `.env` out under
    // an innocent name.
    const targetRule = nameRule(realName, context)
    if (targetRule) {
      const where = targetRule.folder === undefined ? '' : ` (in ${displayName(targetRule.folder)}/)`
      return skip(
        name,
        targetRule.reason,
        `symbolic link to ${displayName(realName)}${where}: ${RULE_DETAIL[targetRule.reason]}.`,
      )
    }
  }
  return inspect(name, real, linked, context)
}

function lstatOrUndefined(candidate: string): Stats | undefined {
  try {
    return lstatSync(candidate)
  } catch {
    return undefined
  }
}

/**
 * Type and size from the file itself (lstat: a FIFO is never opened here). Readability is asked of the
 * system without opening the file; the file is opened, and its handle checked again, only when it is read
 * for sending (read-guard.ts), which is what keeps a path swapped for a FIFO or a link since from being read.
 */
function inspect(name: string, real: string, linked: boolean, context: CheckContext, known?: Stats): Verdict {
  let stats: Stats
  try {
    stats = known ?? lstatSync(real)
  } catch (error) {
    return skip(name, 'unreadable', `could not be read: ${describeFailure(error)}.`)
  }
  if (!stats.isFile()) return skip(name, 'not-regular', `is ${kindOf(stats, linked)}, not a regular file.`)
  if (!ownerMayRead(stats))
    try {
      accessSync(real, constants.R_OK)
    } catch (error) {
      return skip(name, 'unreadable', `could not be opened: ${describeFailure(error)}.`)
    }
  if (stats.size > context.maxFileSize)
    return skip(
      name,
      'too-large',
      `${formatBytes(stats.size)} is over max-file-size ${formatBytes(context.maxFileSize)}.`,
    )
  const size = unboxed(stats.size)
  return {
    selected: WorkspaceFile.fits(context.root, name, real)
      ? new WorkspaceFile(context.root, name, size)
      : { name, path: real, size },
  }
}

const processUid = process.getuid?.()

/**
 * A file this process owns with its owner's read bit set: the system grants the read (an access control
 * list never narrows the owner's entry, which is these bits), so `access` is not asked (a checkout's files
 * are the runner's own: one system call less per file, ~2 µs). Any other file is asked about.
 */
function ownerMayRead(stats: Stats): boolean {
  return stats.uid === processUid && (stats.mode & constants.S_IRUSR) !== 0
}

// A size read from Stats is a double that V8 boxes (16 bytes) in every record that copies it: the selected
// file, its planned item and its outcome. A size that fits V8's small integers is stored in place (~5 MB
// less at 100,000 documents, bench/README.md).
const unboxed = (bytes: number): number => (bytes <= SMALL_INTEGER_MAX ? bytes | 0 : bytes)
const SMALL_INTEGER_MAX = 2 ** 30 - 1

function kindOf(stats: Stats, linked: boolean): string {
  if (stats.isDirectory())
    return linked ? 'a folder behind a symbolic link (such folders are not searched)' : 'a folder'
  if (stats.isFIFO()) return 'a FIFO'
  if (stats.isSocket()) return 'a socket'
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device'
  return 'not a file'
}

/**
 * The selection from every candidate's verdict. A search groups the files of a hidden (or .git) folder as
 * one skip naming the folder: it may hold thousands of files no one chose (caches, tool folders).
 */
function collect(verdicts: Verdict[], root: string, { groupFolders = true } = {}): FileSelection {
  const skipped: SkippedItem[] = []
  const groups = new Map<string, { reason: SkipReason; count: number }>()
  // Every candidate is a distinct path, so every name is distinct too.
  const selected: SelectedFile[] = []
  for (const verdict of verdicts) {
    if ('selected' in verdict) selected.push(verdict.selected)
    else if ('skipped' in verdict) skipped.push(verdict.skipped)
    else if (!groupFolders) {
      const { name, folder, reason } = verdict.grouped
      skipped.push({
        kind: 'document',
        name,
        reason,
        detail: `in ${displayName(folder)}/: ${folderRule(reason)}.`,
      })
    } else {
      const group = groups.get(verdict.grouped.folder) ?? { reason: verdict.grouped.reason, count: 0 }
      group.count += 1
      groups.set(verdict.grouped.folder, group)
    }
  }
  for (const [folder, { reason, count }] of groups) {
    const files = count === 1 ? '1 matching file' : `${count} matching files`
    skipped.push({
      kind: 'document',
      name: folder,
      reason,
      detail: `${files} in ${displayName(folder)}/: ${folderRule(reason)}.`,
    })
  }

  selected.sort(byNameOrder)
  // Files at their own names have distinct paths, as their names are; only a link can reach one again.
  const reachedOnce = selected.every((file) => file instanceof WorkspaceFile)
  const distinct = distinctDocumentNames(reachedOnce ? selected : oncePerPath(selected, root, skipped))
  skipped.push(...distinct.skipped)
  // distinctDocumentNames keeps the files in code-unit name order, the order a selection has.
  return { files: distinct.kept, skipped: skipped.sort(byNameOrder) }
}

/** Why the files of a folder are skipped. */
function folderRule(reason: SkipReason): string {
  return reason === 'git-dir'
    ? 'git metadata is never indexed, even with include-hidden-files'
    : 'hidden folder; set include-hidden-files to true to index it'
}

/** One file reached under two names (a link and its target) is kept once, under its own name. */
function oncePerPath(files: readonly SelectedFile[], root: string, skipped: SkippedItem[]): SelectedFile[] {
  const byPath = new Map<string, SelectedFile>()
  for (const file of files) {
    const kept = byPath.get(file.path)
    if (!kept) {
      byPath.set(file.path, file)
      continue
    }
    const [keep, drop] = isOwnName(file, root) && !isOwnName(kept, root) ? [file, kept] : [kept, file]
    byPath.set(file.path, keep)
    skipped.push({
      kind: 'document',
      name: drop.name,
      reason: 'duplicate',
      detail: `same file as ${displayName(keep.name)}.`,
    })
  }
  return [...byPath.values()]
}

function isOwnName(file: SelectedFile, root: string): boolean {
  return insideName(root, file.path) === file.name
}

function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB']
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit += 1
  }
  const shown = unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`
  return `${shown} (${bytes} bytes)`
}

function errorCode(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  return typeof code === 'string' ? code : 'error'
}
