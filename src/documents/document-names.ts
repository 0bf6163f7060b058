// Names the knowledge base can tell apart. A document reaches the service under its name as a multipart
// filename, which form-data (like browsers) escapes: `"` → %22, CR → %0D, LF → %0A, while `%` itself is
// left alone. So `a"b.md` and `a%22b.md` arrive as the same filename (and a service that undoes the
// escapes, case-insensitively as browsers' servers do, cannot tell `a%0Db.md` from `a%0db.md` either).
// The rule: a name with a control character, or one the client refuses (a backslash), is never sent (it
// cannot arrive as written); of names that would arrive as one, the first in code-unit order is sent and
// each other is skipped, naming both.
import path from 'node:path'
import { displayName } from '../log.js'
import type { SkippedItem } from '../model.js'

// C0 controls, DEL and C1 controls.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/

/** The filename as it goes on the wire (form-data's escaping of a multipart filename). */
export function wireFilename(name: string): string {
  return name.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22')
}

/**
 * Names holding none of the escaped characters and no `%`: their key is the name itself. Every other key
 * holds a `%`, so such a name never shares its key with another name.
 */
const ESCAPABLE = /["\r\n%]/

/** What a service that undoes the escapes would store: names with the same key are one document. */
function storedKey(name: string): string {
  if (!ESCAPABLE.test(name)) return name
  return wireFilename(name).replace(/%(22|0d|0a)/gi, (escape) => escape.toUpperCase())
}

/**
 * Why form-data could not carry `name` as it is, or undefined. form-data percent-encodes CR, LF and `"`
 * in the filename (as browsers do) but also normalises the path and turns `\` into `/`: such a name
 * would arrive as a different document, so it is refused instead.
 */
export function documentNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'is empty'
  if (name.includes('\0')) return 'contains a NUL character'
  if (name.includes('\\')) return 'contains a backslash, which multipart filenames turn into "/"'
  // Only a `//` or a `.` or `..` segment can make normalising change a name: the rest skip the call.
  if (/\/\/|(?:^|\/)\.\.?(?:\/|$)/.test(name) && path.posix.normalize(name) !== name)
    return 'is not a normalised path (it has "." or ".." segments or "//")'
  return undefined
}

// A lone surrogate: text that no UTF-8 file name decodes to (select/git/byte-names.ts decodes strictly).
const LONE_SURROGATE = /[\uD800-\uDFFF]/u

/**
 * Why `name` can never be the name of a selected document, or undefined: what documentNameProblem and
 * distinctDocumentNames refuse, and what a selection never produces (a name is a file's path relative to
 * the workspace, decoded from UTF-8: never absolute, never above the workspace, never a folder). For
 * names that come from elsewhere than a selection, such as a stored record.
 */
export function selectableNameProblem(name: string): string | undefined {
  const problem = documentNameProblem(name)
  if (problem) return problem
  if (CONTROL.test(name)) return 'contains a control character'
  if (name.startsWith('/')) return 'is absolute'
  if (name === '.' || name === '..' || name.startsWith('..')) return 'is not inside the workspace'
  if (name.endsWith('/')) return 'ends with "/" (a folder, not a file)'
  if (LONE_SURROGATE.test(name)) return 'is not valid Unicode text'
  return undefined
}

/** Splits names into those that can be sent and those skipped, with the reason naming the other. */
export function distinctDocumentNames<T extends { name: string }>(
  files: readonly T[],
): { kept: T[]; skipped: SkippedItem[] } {
  const kept: T[] = []
  const skipped: SkippedItem[] = []
  // Only names with an escapable character are looked up, not a table of every name.
  const firstByKey = new Map<string, T>()
  for (const file of inNameOrder(files)) {
    if (CONTROL.test(file.name)) {
      skipped.push({
        kind: 'document',
        name: file.name,
        reason: 'bad-name',
        detail:
          'the name contains a control character (such as a line break), which a multipart filename ' +
          'cannot carry as written; rename the file to index it.',
      })
      continue
    }
    // The names the client refuses to send (a backslash, in a selection): skipped here, not failed there.
    const problem = documentNameProblem(file.name)
    if (problem) {
      skipped.push({
        kind: 'document',
        name: file.name,
        reason: 'bad-name',
        detail: `the name ${problem}, so it would arrive as another document; rename the file to index it.`,
      })
      continue
    }
    if (!ESCAPABLE.test(file.name)) {
      kept.push(file)
      continue
    }
    const key = storedKey(file.name)
    const first = firstByKey.get(key)
    if (first) {
      skipped.push({
        kind: 'document',
        name: file.name,
        reason: 'name-conflict',
        detail:
          `reaches the service under the same name as ${displayName(first.name)} (multipart filenames ` +
          `write " as %22), which is sent instead; rename one of them to index both.`,
      })
      continue
    }
    firstByKey.set(key, file)
    kept.push(file)
  }
  return { kept, skipped }
}

/** Code-unit order of names: the same on every machine and locale. */
export function byNameOrder(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0
}

/** The files in code-unit name order: as they are when they come so (a selection), else a sorted copy. */
function inNameOrder<T extends { name: string }>(files: readonly T[]): readonly T[] {
  for (let index = 1; index < files.length; index++)
    if (byNameOrder(files[index - 1], files[index]) > 0) return [...files].sort(byNameOrder)
  return files
}
