// The tree difference of a repository with its submodules expanded. The superproject's diff shows a
// submodule as one gitlink entry (mode 160000: the commit it points at), which no glob matches; its
// files' changes are the diff inside the submodule's checkout between the old and the new commit,
// named below the submodule's path, nested submodules too. A submodule added or removed adds or
// removes the files of its commit. When a submodule's side cannot be read (not checked out, a commit
// that cannot be fetched), its folder is reported as unknown, with the cause and the fix, so every
// selected file below it is sent instead of none.
import fs from 'node:fs/promises'
import path from 'node:path'
import { Git } from '../git.js'
import { type ByteName, decodedName, lossyText } from '../select/git/byte-names.js'
import { ABSENT_MODE, GITLINK_MODE, parseRawDiff, parseTreeListing } from '../select/git/tree-output.js'

/** Repository-relative byte-string names. */
export interface RepositoryChanges {
  added: ByteName[]
  modified: ByteName[]
  removed: ByteName[]
  /** Submodule folders whose changes are unknown: every selected file below them must be sent. */
  unknownFolders: { folder: ByteName; why: string }[]
  /** Approximations that lose nothing but are worth a warning. */
  warnings: string[]
}

export interface SubmoduleDiffOptions {
  /** Kill a fetch of a missing submodule commit after this long. */
  fetchTimeoutMs: number
  /** The run's cancellation: a fetch is killed, and the diff rejects with its reason. */
  signal?: AbortSignal
  /** Whether a submodule at this repository path can hold workspace files (others are not opened). */
  relevant: (folder: ByteName) => boolean
}

const CHECKOUT_FIX = 'set `submodules: true` (or `recursive`) on actions/checkout'
const HISTORY_FIX =
  "check out with `submodules: true` and `fetch-depth: 0` (it applies to submodules too), with a token that can read the submodule's repository"

const short = (sha: string): string => sha.slice(0, 12)
const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

export async function diffWithSubmodules(
  git: Git,
  before: string,
  after: string,
  options: SubmoduleDiffOptions,
): Promise<RepositoryChanges> {
  const changes: RepositoryChanges = {
    added: [],
    modified: [],
    removed: [],
    unknownFolders: [],
    warnings: [],
  }
  await diffRepository(git, '', before, after, changes, options)
  return changes
}

async function diffRepository(
  git: Git,
  prefix: ByteName,
  before: string,
  after: string,
  changes: RepositoryChanges,
  options: SubmoduleDiffOptions,
): Promise<void> {
  for (const entry of parseRawDiff(await git.diffRaw(before, after))) {
    const name = prefix + entry.path
    const oldLink = entry.oldMode === GITLINK_MODE
    const newLink = entry.newMode === GITLINK_MODE
    if (!oldLink && !newLink) {
      if (entry.status === 'A') changes.added.push(name)
      else if (entry.status === 'D') changes.removed.push(name)
      else changes.modified.push(name)
      continue
    }
    // A file replaced by a submodule, or the other way round: the file side is removed or added.
    if (!oldLink && entry.oldMode !== ABSENT_MODE) changes.removed.push(name)
    if (!newLink && entry.newMode !== ABSENT_MODE) changes.added.push(name)
    if (!options.relevant(name)) continue
    await submoduleChanged(git, entry.path, name, {
      old: oldLink ? entry.oldId : undefined,
      new: newLink ? entry.newId : undefined,
      changes,
      options,
    })
  }
}

interface SubmoduleStep {
  old?: string
  new?: string
  changes: RepositoryChanges
  options: SubmoduleDiffOptions
}

/** The submodule's own checkout at `relative` inside the parent's working tree, when it is there. */
async function openSubmodule(parent: Git, relative: ByteName): Promise<Git | undefined> {
  const decoded = decodedName(Buffer.from(relative, 'latin1'))
  if (decoded === undefined) return undefined
  const folder = path.join(parent.workingDirectory, ...decoded.split('/'))
  try {
    const real = await fs.realpath(folder)
    const sub = new Git(real)
    // An empty folder (not initialised) belongs to the parent's working tree.
    return (await fs.realpath(await sub.topLevel())) === real ? sub : undefined
  } catch {
    return undefined
  }
}

/** Why a commit cannot be had in the submodule's checkout (fetched when missing), or undefined. */
async function missingCommit(
  git: Git,
  sha: string,
  options: SubmoduleDiffOptions,
): Promise<string | undefined> {
  if (await git.hasCommit(sha)) return undefined
  try {
    await git.fetchCommit('origin', sha, { timeoutMs: options.fetchTimeoutMs, signal: options.signal })
  } catch (error) {
    options.signal?.throwIfAborted()
    return `its commit ${short(sha)} is not in the checkout and fetching it failed: ${messageOf(error)}`
  }
  return (await git.hasCommit(sha)) ? undefined : `its commit ${short(sha)} is still missing after a fetch`
}

async function submoduleChanged(parent: Git, relative: ByteName, name: ByteName, step: SubmoduleStep) {
  const { changes, options } = step
  const label = lossyText(name)
  const unknown = (why: string, fix: string) =>
    changes.unknownFolders.push({
      folder: name,
      why: `the submodule ${label}: ${why}, so every selected file below ${label}/ is sent; to fix: ${fix}`,
    })
  const sub = await openSubmodule(parent, relative)
  if (!sub) {
    if (step.new === undefined)
      changes.warnings.push(
        `the submodule ${label} was removed and its repository is not in the checkout: its files are not listed as removed`,
      )
    else unknown('it is not checked out and what changed in it is unknown', CHECKOUT_FIX)
    return
  }
  for (const sha of [step.old, step.new]) {
    if (sha === undefined) continue
    const missing = await missingCommit(sub, sha, options)
    if (!missing) continue
    if (step.new === undefined)
      changes.warnings.push(
        `the submodule ${label} was removed and ${missing}: its files are not listed as removed`,
      )
    else unknown(missing, HISTORY_FIX)
    return
  }
  if (step.old !== undefined && step.new !== undefined)
    await diffRepository(sub, `${name}/`, step.old, step.new, changes, options)
  else if (step.new !== undefined) await listFiles(sub, `${name}/`, step.new, 'added', step)
  else if (step.old !== undefined) await listFiles(sub, `${name}/`, step.old, 'removed', step)
}

/** Every file of a submodule's commit (nested submodules' too) as added or removed. */
async function listFiles(
  git: Git,
  prefix: ByteName,
  commit: string,
  side: 'added' | 'removed',
  step: SubmoduleStep,
): Promise<void> {
  for (const entry of parseTreeListing(await git.listTree(commit))) {
    const name = prefix + entry.path
    if (entry.mode !== GITLINK_MODE) {
      step.changes[side].push(name)
      continue
    }
    if (!step.options.relevant(name)) continue
    await submoduleChanged(git, entry.path, name, {
      ...step,
      old: side === 'removed' ? entry.id : undefined,
      new: side === 'added' ? entry.id : undefined,
    })
  }
}
