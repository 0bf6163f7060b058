// Readers of git's `-z` tree output as bytes: `diff-tree --raw` (what changed, with modes, so submodules
// show as gitlinks) and `ls-tree -r` (what a commit holds). Paths stay byte strings (byte-names.ts).
import { type ByteName, byteName } from './byte-names.js'

/** A submodule's entry in a tree: the commit it points at, not a file. */
export const GITLINK_MODE = '160000'
/** The mode of the side where a path does not exist. */
export const ABSENT_MODE = '000000'

export interface RawDiffEntry {
  oldMode: string
  newMode: string
  oldId: string
  newId: string
  /** A, M, D, T (type change) or U; R and C only with rename detection, which is not asked for. */
  status: string
  path: ByteName
}

export interface TreeEntry {
  mode: string
  id: string
  path: ByteName
}

/** Splits NUL-ended fields (the last one ends with NUL too). */
function fields(output: Buffer): Buffer[] {
  const parts: Buffer[] = []
  let start = 0
  for (let end = output.indexOf(0, start); end !== -1; end = output.indexOf(0, start)) {
    parts.push(output.subarray(start, end))
    start = end + 1
  }
  if (start < output.length) parts.push(output.subarray(start))
  return parts
}

/** Reads `git diff-tree -r --raw --no-renames -z`: `:old new oldId newId status` NUL path NUL, per entry. */
export function parseRawDiff(output: Buffer): RawDiffEntry[] {
  const parts = fields(output)
  const entries: RawDiffEntry[] = []
  for (let i = 0; i < parts.length; i += 2) {
    const header = parts[i].toString('latin1')
    const match = /^:(\d{6}) (\d{6}) ([0-9a-f]+) ([0-9a-f]+) ([A-Z])\d*$/.exec(header)
    if (!match) throw new Error(`git diff-tree output has an unexpected entry "${header}"`)
    const path = parts[i + 1]
    if (path === undefined) throw new Error(`git diff-tree output ends after "${header}"`)
    const [, oldMode, newMode, oldId, newId, status] = match
    entries.push({ oldMode, newMode, oldId, newId, status, path: byteName(path) })
  }
  return entries
}

/** Reads `git ls-tree -r -z`: `mode type id` TAB path, NUL-ended. */
export function parseTreeListing(output: Buffer): TreeEntry[] {
  return fields(output).map((field) => {
    const tab = field.indexOf(0x09)
    const header = tab === -1 ? '' : field.subarray(0, tab).toString('latin1')
    const match = /^(\d{6}) \w+ ([0-9a-f]+)$/.exec(header)
    if (!match) throw new Error(`git ls-tree output has an unexpected entry "${field.toString('latin1')}"`)
    return { mode: match[1], id: match[2], path: byteName(field.subarray(tab + 1)) }
  })
}
