// Where the git repository of the selected files is, relative to the workspace, and how its names
// (repository-relative, from git or the compare API) become document names (workspace-relative):
// - the workspace is the repository (actions/checkout's default): names as they are;
// - the workspace is a folder inside the repository (the CLI's `--workspace docs`, or a workspace in a
//   submodule): the folder's prefix is removed and names outside it are not part of the sync;
// - the repository is a folder of the workspace (actions/checkout with `path: sub`): names get `sub/`.
// Other repositories the `files` patterns reach into (a second checkout) are listed, so their files
// can be sent whole instead of silently never.
import type { Dirent } from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'
import { Git } from '../../git.js'
import { insideName } from '../inside-name.js'
import { literalPrefix } from '../patterns.js'

export interface RepositoryLocation {
  /** The working tree of the repository, real and absolute. */
  root: string
  /** The workspace as a folder of the repository ('' when it is the repository's top). */
  workspaceInRepository: string
  /** The repository as a folder of the workspace ('' when it is the workspace or holds it). */
  repositoryInWorkspace: string
  /** Workspace folders of other repositories the patterns reach into: their changes are unknown. */
  otherRepositories: string[]
}

export type LocateOutcome =
  /** `holdsCommit`: git confirmed that the repository holds the commit asked about. */
  | { ok: true; location: RepositoryLocation; holdsCommit?: boolean }
  /** `ambiguous`: several repositories were found, so repository-relative names cannot be placed. */
  | { ok: false; why: string; ambiguous: boolean }

// Submodules inside submodules: a checkout deeper than this is not looked above.
const MAX_SUPERPROJECTS = 16

/** The working trees holding `folder`: its own, then each superproject it is a submodule of (real paths). */
async function enclosingCheckouts(folder: string): Promise<string[]> {
  const chain: string[] = []
  try {
    let level = await topAndSuperproject(folder)
    chain.push(await fs.realpath(level.top))
    for (let count = 0; count < MAX_SUPERPROJECTS && level.above; count++) {
      level = await topAndSuperproject(level.above)
      chain.push(await fs.realpath(level.top))
    }
  } catch {
    // Not in a working tree (or git cannot tell): what was found so far.
  }
  return chain
}

/**
 * The top of the working tree holding `folder`, and the superproject's when it is a submodule's: one
 * git process, whose two lines can be told apart when no path holds a line break (then two processes).
 */
async function topAndSuperproject(folder: string): Promise<{ top: string; above?: string }> {
  const git = new Git(folder)
  if (!(await fs.realpath(folder)).includes('\n')) {
    const lines = (await git.exec(['rev-parse', '--show-toplevel', '--show-superproject-working-tree']))
      .replace(/\n$/, '')
      .split('\n')
    if (lines.length <= 2) return { top: lines[0], above: lines[1] || undefined }
  }
  const top = await git.topLevel()
  return { top, above: await new Git(top).superproject() }
}

/**
 * Of the working trees around the workspace, the one the compared commits belong to: the innermost
 * that holds `commit` (a push's commit is the superproject's even for a workspace inside a submodule),
 * else the outermost; without a commit (`--since REF..HEAD`) the innermost, where the user stands.
 */
async function repositoryAround(
  chain: string[],
  commit: string | undefined,
): Promise<{ top: string; holdsCommit?: boolean } | undefined> {
  if (chain.length === 0) return undefined
  // One working tree is the answer whichever commit it holds: git is not asked.
  if (commit === undefined || chain.length === 1) return { top: chain[0] }
  for (const top of chain) if (await new Git(top).hasCommit(commit)) return { top, holdsCommit: true }
  return { top: chain[chain.length - 1], holdsCommit: false }
}

async function isFolder(candidate: string): Promise<boolean> {
  return (await fs.stat(candidate).catch(() => undefined))?.isDirectory() ?? false
}

const hasGitEntry = async (folder: string): Promise<boolean> =>
  (await fs.lstat(path.join(folder, '.git')).catch(() => undefined)) !== undefined

/**
 * Checkouts (folders below the workspace holding a `.git` folder or file) along each include pattern's
 * literal prefix: a nested repository or a submodule starts at one. Found with a few stats, so git is
 * asked only about those few folders, however many patterns there are.
 */
async function checkoutsAlongPatterns(root: string, patterns: string[]): Promise<string[]> {
  const found = new Set<string>()
  const checked = new Set<string>()
  for (const pattern of patterns) {
    if (pattern.trim().startsWith('!')) continue
    let folder = root
    for (const segment of literalPrefix(pattern)) {
      folder = path.join(folder, segment)
      if (checked.has(folder)) continue
      checked.add(folder)
      if (!(await isFolder(folder))) break
      if (await hasGitEntry(folder)) found.add(folder)
    }
  }
  return [...found]
}

/** Folders directly in the workspace that hold a checkout (a `.git` folder or file). */
async function checkoutsInWorkspace(root: string): Promise<string[]> {
  let entries: Dirent[]
  try {
    entries = await fs.readdir(root, { withFileTypes: true })
  } catch {
    return []
  }
  const found: string[] = []
  for (const entry of entries) {
    const folder = path.join(root, entry.name)
    if (entry.isDirectory() && (await hasGitEntry(folder))) found.push(folder)
  }
  return found
}

/** The outermost working tree of each checkout, unless it belongs to `own` (a submodule of it). */
async function distinctTopLevels(folders: string[], own?: string): Promise<string[]> {
  const tops = new Set<string>()
  for (const folder of folders) {
    const chain = await enclosingCheckouts(folder)
    if (chain.length === 0 || (own !== undefined && chain.includes(own))) continue
    tops.add(chain[chain.length - 1])
  }
  return [...tops]
}

const relativeName = (root: string, target: string): string => insideName(root, target) ?? ''

/**
 * Finds the repository that holds the selected files. When the patterns reach into several, the one
 * holding `commit` (the checked-out commit of the event) is taken and the others are listed.
 */
export async function locateRepository(
  workspace: string,
  patterns: string[],
  commit?: string,
): Promise<LocateOutcome> {
  let root: string
  try {
    root = await fs.realpath(workspace)
  } catch {
    return { ok: false, why: `the workspace ${workspace} does not exist`, ambiguous: false }
  }
  const around = await repositoryAround(await enclosingCheckouts(root), commit)
  const own = around?.top
  const reached = await distinctTopLevels(await checkoutsAlongPatterns(root, patterns), own)
  const inWorkspace = (top: string) => top !== root && insideName(root, top) !== undefined
  if (own) {
    const others = reached.filter(inWorkspace).map((top) => relativeName(root, top))
    return {
      ok: true,
      location: {
        root: own,
        workspaceInRepository: relativeName(own, root),
        repositoryInWorkspace: '',
        otherRepositories: others.sort(),
      },
      ...(around.holdsCommit === undefined ? {} : { holdsCommit: around.holdsCommit }),
    }
  }
  let candidates = reached.filter(inWorkspace)
  if (candidates.length === 0)
    candidates = (await distinctTopLevels(await checkoutsInWorkspace(root))).filter(inWorkspace)
  if (candidates.length === 0)
    return {
      ok: false,
      why: `${workspace} is not a git repository, and no folder that the files patterns name is in one`,
      ambiguous: false,
    }
  let chosen = candidates
  let holdsCommit: boolean | undefined
  if (candidates.length > 1 && commit) {
    const holding: string[] = []
    for (const top of candidates) if (await new Git(top).hasCommit(commit)) holding.push(top)
    chosen = holding
    holdsCommit = true
  }
  if (chosen.length !== 1) {
    const names = candidates.map((top) => relativeName(root, top)).sort()
    return {
      ok: false,
      why: `the files patterns reach into several git repositories (${names.join(', ')}) and none alone holds the compared commit`,
      ambiguous: true,
    }
  }
  const [top] = chosen
  return {
    ok: true,
    location: {
      root: top,
      workspaceInRepository: '',
      repositoryInWorkspace: relativeName(root, top),
      otherRepositories: candidates
        .filter((other) => other !== top)
        .map((other) => relativeName(root, other))
        .sort(),
    },
    ...(holdsCommit === undefined ? {} : { holdsCommit }),
  }
}

/** Turns repository-relative names into workspace-relative ones (text or byte strings alike). */
export class NameMapping {
  private readonly inside: string
  private readonly outside: string

  /** Prefixes without their trailing `/`, in the representation of the names mapped. */
  constructor(workspaceInRepository: string, repositoryInWorkspace: string) {
    this.inside = workspaceInRepository
    this.outside = repositoryInWorkspace
  }

  /** The document name of a repository path, or undefined when it lies outside the workspace. */
  name(repositoryName: string): string | undefined {
    if (this.outside) return `${this.outside}/${repositoryName}`
    if (!this.inside) return repositoryName
    const prefix = `${this.inside}/`
    return repositoryName.startsWith(prefix) ? repositoryName.slice(prefix.length) : undefined
  }

  /**
   * The workspace folder of a repository folder: '' when the workspace lies inside it (all of the
   * workspace), undefined when the two do not overlap.
   */
  folder(repositoryFolder: string): string | undefined {
    if (this.outside || !this.inside) return this.name(repositoryFolder)
    if (this.inside === repositoryFolder || this.inside.startsWith(`${repositoryFolder}/`)) return ''
    return this.name(repositoryFolder)
  }
}
