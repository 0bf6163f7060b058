// A repository's change set as document names: mapped to the workspace (repository-location.ts),
// decoded from git's bytes, with the folders whose changes are unknown (a submodule that cannot be
// read, another repository, a submodule the compare API shows as one entry) kept as `everythingUnder`
// so every selected file below them is sent, each with a warning naming the cause and the fix.
import fs from 'node:fs/promises'
import path from 'node:path'
import type { UndecodableName } from '../model.js'
import { type ByteName, byteNameOf, decodePath } from '../select/git/byte-names.js'
import { type ChangeSet, sortedUnique } from './change-sets.js'
import { NameMapping, type RepositoryLocation } from '../select/git/repository-location.js'
import type { RepositoryChanges } from './submodule-changes.js'

/** A change set of document names, with what it could not tell exactly. */
export interface DetectedChanges extends ChangeSet {
  /** Workspace folders ('' for all of it) whose every selected file is sent; only when not empty. */
  everythingUnder?: string[]
  /** Added or modified names that are not valid UTF-8; only when not empty. */
  undecodable?: UndecodableName[]
  /** Only when not empty. */
  warnings?: string[]
}

function byteMapping(location: RepositoryLocation): NameMapping {
  return new NameMapping(
    byteNameOf(location.workspaceInRepository),
    byteNameOf(location.repositoryInWorkspace),
  )
}

function textMapping(location: RepositoryLocation): NameMapping {
  return new NameMapping(location.workspaceInRepository, location.repositoryInWorkspace)
}

/** Whether a repository folder (byte string) overlaps the workspace: submodules elsewhere are not opened. */
export function overlapsWorkspace(location: RepositoryLocation): (folder: ByteName) => boolean {
  const mapping = byteMapping(location)
  return (folder) => mapping.folder(folder) !== undefined
}

function otherRepositoryWarning(folder: string): string {
  return (
    `${folder} is another git repository than the one compared (a second checkout): ` +
    `what changed in it is unknown, so every selected file below ${folder}/ is sent`
  )
}

function withOptional(
  changes: ChangeSet,
  everythingUnder: string[],
  undecodable: UndecodableName[],
  warnings: string[],
): DetectedChanges {
  const result: DetectedChanges = { ...changes }
  if (everythingUnder.length > 0) result.everythingUnder = sortedUnique(everythingUnder)
  if (undecodable.length > 0) result.undecodable = undecodable
  if (warnings.length > 0) result.warnings = warnings
  return result
}

/** git's change set (byte strings, repository-relative) as document names. */
export function workspaceChanges(raw: RepositoryChanges, location: RepositoryLocation): DetectedChanges {
  const mapping = byteMapping(location)
  const undecodable = new Map<string, UndecodableName>()
  const decodeAll = (names: ByteName[], keepUndecodable: boolean): string[] => {
    const decoded: string[] = []
    for (const name of names) {
      const mapped = mapping.name(name)
      if (mapped === undefined) continue
      const result = decodePath(mapped)
      if ('name' in result) decoded.push(result.name)
      else if (keepUndecodable) undecodable.set(result.undecodable.shown, result.undecodable)
    }
    return sortedUnique(decoded)
  }
  const changes: ChangeSet = {
    added: decodeAll(raw.added, true),
    modified: decodeAll(raw.modified, true),
    removed: decodeAll(raw.removed, false),
  }
  const everythingUnder: string[] = []
  const warnings = [...raw.warnings]
  for (const { folder, why } of raw.unknownFolders) {
    const mapped = mapping.folder(folder)
    if (mapped === undefined) continue
    const decoded = decodePath(mapped)
    // A folder whose name is not UTF-8 holds no document the search could name.
    if (!('name' in decoded)) continue
    everythingUnder.push(decoded.name)
    warnings.push(why)
  }
  for (const folder of location.otherRepositories) {
    everythingUnder.push(folder)
    warnings.push(otherRepositoryWarning(folder))
  }
  const unnamed = [...undecodable.values()].sort((a, b) =>
    a.shown < b.shown ? -1 : a.shown > b.shown ? 1 : 0,
  )
  return withOptional(changes, everythingUnder, unnamed, warnings)
}

/**
 * A change set from GitHub (the compare API, the payload's lists: repository-relative text names) as
 * document names. Those sources show a submodule as one entry: a changed name that is a folder in the
 * workspace is one, and every selected file below it is sent.
 */
export async function workspaceChangesFromNames(
  changes: ChangeSet,
  workspace: string,
  location: RepositoryLocation | undefined,
  source: string,
): Promise<DetectedChanges> {
  const mapping = location ? textMapping(location) : new NameMapping('', '')
  const mapAll = (names: string[]) =>
    sortedUnique(names.map((name) => mapping.name(name)).filter((name) => name !== undefined))
  const mapped: ChangeSet = {
    added: mapAll(changes.added),
    modified: mapAll(changes.modified),
    removed: mapAll(changes.removed),
  }
  const everythingUnder: string[] = []
  const warnings: string[] = []
  const files: ChangeSet = { added: [], modified: [], removed: mapped.removed }
  for (const side of ['added', 'modified'] as const) {
    for (const name of mapped[side]) {
      // A submodule is a real folder; a link to one is a file of the repository.
      const stats = await fs.lstat(path.join(workspace, ...name.split('/'))).catch(() => undefined)
      if (!stats?.isDirectory()) {
        files[side].push(name)
        continue
      }
      everythingUnder.push(name)
      warnings.push(
        `${source} shows the submodule ${name} as one entry, not its files: every selected file below ` +
          `${name}/ is sent (keep the checkout's .git and set \`submodules: true\` so git can compare inside it)`,
      )
    }
  }
  for (const folder of location?.otherRepositories ?? []) {
    everythingUnder.push(folder)
    warnings.push(otherRepositoryWarning(folder))
  }
  return withOptional(files, everythingUnder, [], warnings)
}
