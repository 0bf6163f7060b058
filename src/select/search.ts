// The `files` patterns → the paths they match, walking the workspace one folder at a time so that one odd
// entry never stops the search: a folder that cannot be read, a path longer than the system allows, a
// name that is not valid UTF-8 are each reported as skipped (with the reason) and the rest is searched.
// The matching rules are @actions/glob's (its minimatch options, implicit descendants, `!` excludes in
// order, a trailing `/` matching folders only, links never followed); only its walk, which gives up on the
// first error, is replaced.
import { type Dir, type Dirent, opendirSync } from 'node:fs'
import { lstat, readdir } from 'node:fs/promises'
import path from 'node:path'
import { Minimatch } from 'minimatch'
import type { SkippedItem } from '../model.js'
import { bytesShown, decodedName, undecodableSkip } from './git/byte-names.js'
import { literalPrefix, rootedPattern } from './patterns.js'

/** Entries read from a folder at a time: fewer calls into libuv than its default 32, and still small. */
const READ_AHEAD = 1024

const MATCH_OPTIONS = { dot: true, nobrace: true, nocomment: true, noext: true, nonegate: true }

interface Rule {
  negate: boolean
  matcher: Minimatch
  /** The pattern ends in `**` and was written so (not added as the implicit descendants of another). */
  explicitGlobstar: boolean
  /** Written with a trailing `/`: matches folders only, so never a file. */
  foldersOnly: boolean
  /** Absolute folder where the search for this pattern starts. */
  searchPath: string
}

export interface SearchResult {
  /** Absolute paths of the files and links matched (links are not followed). */
  paths: string[]
  /** Entries that could not be searched, each with the reason. */
  skipped: SkippedItem[]
}

function rulesOf(patterns: string[], root: string): Rule[] {
  const rules: Rule[] = []
  for (const pattern of patterns) {
    const rooted = rootedPattern(root, pattern)
    const negate = rooted.startsWith('!')
    const body = negate ? rooted.slice(1) : rooted
    const foldersOnly = body.endsWith('/')
    const trimmed = body.replace(/\/+$/, '')
    const searchPath = path.join(root, ...literalPrefix(pattern))
    const endsInGlobstar = trimmed.split('/').at(-1) === '**'
    rules.push({
      negate,
      matcher: new Minimatch(trimmed, MATCH_OPTIONS),
      explicitGlobstar: endsInGlobstar,
      foldersOnly,
      searchPath,
    })
    // A pattern also matches everything below what it matches.
    if (foldersOnly || !endsInGlobstar) {
      rules.push({
        negate,
        matcher: new Minimatch(`${trimmed}/**`, MATCH_OPTIONS),
        explicitGlobstar: false,
        foldersOnly: false,
        searchPath,
      })
    }
  }
  return rules
}

/**
 * A path as minimatch splits it, for an absolute path that is already normalised (no repeated or
 * trailing separator): the search builds each child's segments from its folder's instead of splitting
 * the child's whole path again (a folder of 100,000 entries was ~100,000 splits per rule).
 */
function segmentsOf(absolute: string): string[] {
  // The file system's root is the one such path that ends in a separator: its children are `/name`.
  return absolute === '/' ? [''] : absolute.split('/')
}

/** What `matcher.match(path)` answers (a rooted pattern never has matchBase, negation or comments). */
function matchesSegments(rule: Rule, segments: string[], partial: boolean): boolean {
  return rule.matcher.set.some((pattern) => rule.matcher.matchOne(segments, pattern, partial))
}

/**
 * Whether the rule matches the path given as segments. As @actions/glob does, an explicit `**` is
 * matched against the path with a trailing `/` (minimatch needs `/x/` to match `/x/**` itself): one
 * more, empty, segment.
 */
function ruleMatches(rule: Rule, segments: string[], isFolder: boolean): boolean {
  if (rule.foldersOnly && !isFolder) return false
  if (!rule.explicitGlobstar) return matchesSegments(rule, segments, false)
  segments.push('')
  try {
    return matchesSegments(rule, segments, false)
  } finally {
    segments.pop()
  }
}

/** Whether the path is selected: the last pattern that matches it decides. */
function selected(rules: readonly Rule[], segments: string[], isFolder: boolean): boolean {
  let result = false
  for (const rule of rules) {
    if (ruleMatches(rule, segments, isFolder)) result = !rule.negate
  }
  return result
}

/** Whether something below the folder may match an include pattern. */
function worthSearching(rules: readonly Rule[], segments: string[]): boolean {
  return rules.some((rule) => !rule.negate && rule.matcher.matchOne(segments, rule.matcher.set[0], true))
}

/**
 * The rules that can match something below the folder: one that cannot match the folder's path as a
 * beginning cannot match any path below it, so its folder's entries are not matched against it.
 */
function rulesBelow(rules: readonly Rule[], segments: string[]): Rule[] {
  return rules.filter((rule) => matchesSegments(rule, segments, true))
}

/** Search roots: one per include pattern, without those inside another. */
function searchRoots(rules: Rule[]): string[] {
  const roots = [...new Set(rules.filter((rule) => !rule.negate).map((rule) => rule.searchPath))]
  return roots.filter(
    (root) =>
      !roots.some((other) => other !== root && root.startsWith(other.endsWith('/') ? other : `${other}/`)),
  )
}

/** What an error code means for a user, e.g. `permission denied (EACCES)`. */
export function describeFailure(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return `permission denied (${code})`
    case 'ENAMETOOLONG':
      return 'its path is longer than the system allows (ENAMETOOLONG)'
    case 'ELOOP':
      return 'too many levels of symbolic links (ELOOP)'
    case 'ENOENT':
      return 'it disappeared while the workspace was searched (ENOENT)'
    default:
      return typeof code === 'string' ? code : String((error as Error | undefined)?.message ?? error)
  }
}

/**
 * `path.join(folder, name)` for a folder path that is already normalised and an entry name as readdir
 * gives it (never empty, `.`, `..`, or holding a separator): the same string, without normalising it
 * again for every entry (~5 µs each, 2,000 entries: ~10 ms of a 2,000-document run).
 */
function childPath(folder: string, name: string): string {
  return folder.endsWith(path.sep) ? folder + name : folder + path.sep + name
}

export async function searchFiles(patterns: string[], root: string): Promise<SearchResult> {
  const rules = rulesOf(patterns, root)
  const paths: string[] = []
  const skipped: SkippedItem[] = []
  const relative = (absolute: string) => path.relative(root, absolute).split(path.sep).join('/') || '.'
  const skip = (name: string, detail: string) =>
    skipped.push({ kind: 'document', name, reason: 'unreadable', detail })

  /** An entry of the search: a file is kept when selected, a folder is searched when something below may be. */
  const visit = async (
    absolute: string,
    segments: string[],
    isFolder: boolean,
    candidates: readonly Rule[],
  ): Promise<void> => {
    const match = selected(candidates, segments, isFolder)
    if (!isFolder) {
      if (match) paths.push(absolute)
      return
    }
    if (!match && !worthSearching(candidates, segments)) return
    const below = rulesBelow(candidates, segments)
    const listed = listFolder(absolute, segments, below)
    if (listed === 'undecodable') return visitByBytes(absolute, segments, below)
    if (listed === undefined) return
    for (const name of listed) await visit(childPath(absolute, name), [...segments, name], true, below)
  }

  /**
   * A folder's files matched as they are read, READ_AHEAD entries at a time, and its subfolders' names
   * returned to be searched after it: `readdir` would hold every entry of a folder at once (a folder of
   * 100,000 entries: ~30 MB of entries and of libuv's sorted copy, kept by the process after they are
   * freed). Undefined when the folder could not be read (reported), `undecodable` when a name is not valid
   * UTF-8 (none of its files were kept).
   */
  const listFolder = (
    absolute: string,
    segments: string[],
    below: readonly Rule[],
  ): string[] | 'undecodable' | undefined => {
    const files: string[] = []
    const folders: string[] = []
    // One array for every entry's segments: the folder's, then the entry's name in the last place.
    const child = [...segments, '']
    let dir: Dir | undefined
    try {
      dir = opendirSync(absolute, { bufferSize: READ_AHEAD })
      for (let entry = dir.readSync(); entry !== null; entry = dir.readSync()) {
        // A name that is not valid UTF-8 comes back with U+FFFD for its bad bytes: only then is the folder
        // read again as bytes, to tell such names from one that holds U+FFFD itself.
        if (entry.name.includes('\uFFFD')) return 'undecodable'
        if (entry.isDirectory()) folders.push(entry.name)
        else {
          child[segments.length] = entry.name
          if (selected(below, child, false)) files.push(entry.name)
        }
      }
    } catch (error) {
      skip(
        relative(absolute),
        `folder could not be searched: ${describeFailure(error)}; nothing below it was selected.`,
      )
      return undefined
    } finally {
      dir?.closeSync()
    }
    // In name order, as readdir gave them (a folder's own order is the file system's): the result does not
    // depend on the disk, and selection's sort by name finds its files in order (linear, not n log n).
    for (const name of files.sort()) paths.push(childPath(absolute, name))
    return folders.sort()
  }

  /** A folder holding a name that may not be valid UTF-8: its entries by their bytes. */
  const visitByBytes = async (absolute: string, segments: string[], below: readonly Rule[]) => {
    let entries: Dirent<Buffer>[]
    try {
      entries = await readdir(absolute, { withFileTypes: true, encoding: 'buffer' })
    } catch (error) {
      skip(
        relative(absolute),
        `folder could not be searched: ${describeFailure(error)}; nothing below it was selected.`,
      )
      return
    }
    for (const entry of entries) {
      const name = decodedName(entry.name)
      if (name === undefined) {
        const lossy = [...segments, entry.name.toString('utf8')]
        const relevant = entry.isDirectory() ? worthSearching(below, lossy) : selected(below, lossy, false)
        if (relevant) {
          const shown = `${relative(absolute) === '.' ? '' : `${relative(absolute)}/`}${bytesShown(entry.name)}`
          skipped.push(undecodableSkip(shown, entry.isDirectory()))
        }
        continue
      }
      await visit(childPath(absolute, name), [...segments, name], entry.isDirectory(), below)
    }
  }

  for (const start of searchRoots(rules)) {
    let isFolder: boolean
    try {
      isFolder = (await lstat(start)).isDirectory()
    } catch (error) {
      // A pattern naming something that is not there selects nothing.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        skip(relative(start), `could not be searched: ${describeFailure(error)}.`)
      continue
    }
    await visit(start, segmentsOf(start), isFolder, rules)
  }
  // Roots are disjoint (none lies inside another) and links are not followed: no path is found twice.
  return { paths, skipped }
}
