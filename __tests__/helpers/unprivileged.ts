// Root reads and writes anything, so a test of a permission the action must respect runs the action as
// `nobody` when the suite runs as root. That user may reach nothing through a private folder (mode 0700, as
// `mktemp -d` makes and as many home folders are): not the clone's bundle, nor the node npm test runs on
// (the clone's node_modules/node). So the run gets a copy of the bundle and a link to the very node
// running the tests (the same version the suite checks), in a folder of their own it may traverse.
import { execFile, execFileSync } from 'node:child_process'
import {
  chmodSync,
  copyFileSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'

export interface User {
  uid: number
  gid: number
}

export interface RunAs {
  user?: User
}

const NOBODY: User = { uid: 65534, gid: 65534 }

/** How to run the action so that permissions hold; `dir` (when given) is opened to that user first. */
export function unprivileged(dir?: string): RunAs {
  if (process.getuid?.() !== 0) return {}
  if (dir) execFileSync('chmod', ['-R', 'a+rwX', dir])
  return { user: NOBODY }
}

export interface Staged {
  /** The folder holding the copies; `remove` deletes it. */
  dir: string
  node: string
  bundle: string
  remove: () => void
}

/**
 * A copy of the bundle's folder (its entry, the chunks it loads and its package.json) and of `node`, in a
 * new folder under the system's temp folder that `user` may traverse and read but not change.
 */
export async function stageFor(user: User, bundle: string, node: string): Promise<Staged> {
  const dir = mkdtempSync(join(tmpdir(), 'kb-sync-as-user-'))
  const remove = () => rmSync(dir, { recursive: true, force: true })
  try {
    chmodSync(dir, 0o755)
    const action = join(dir, 'action')
    mkdirSync(action)
    chmodSync(action, 0o755)
    for (const entry of readdirSync(dirname(bundle), { withFileTypes: true })) {
      if (!entry.isFile()) continue
      copyFileSync(join(dirname(bundle), entry.name), join(action, entry.name))
      // A clone made under umask 077 holds owner-only files; the copy must not.
      chmodSync(join(action, entry.name), 0o644)
    }
    const stagedNode = join(dir, 'node')
    linkOrCopyExecutable(node, stagedNode)
    const staged = { dir, node: stagedNode, bundle: join(action, basename(bundle)), remove }
    await expectReachable(user, staged)
    return staged
  } catch (error) {
    remove()
    throw error
  }
}

/** A hard link costs nothing (node is 100+ MB); a copy when linking fails or the binary is not for all. */
function linkOrCopyExecutable(from: string, to: string): void {
  if ((statSync(from).mode & 0o005) === 0o005) {
    try {
      linkSync(from, to)
      return
    } catch {
      // another file system, or links refused: copy
    }
  }
  copyFileSync(from, to)
  chmodSync(to, 0o755)
}

/** Fails with the cause when the system's temp folder itself is closed to the user. */
async function expectReachable(user: User, staged: Staged): Promise<void> {
  const check = 'require("node:fs").accessSync(process.argv[1], require("node:fs").constants.R_OK)'
  await new Promise<void>((resolve, reject) => {
    execFile(staged.node, ['-e', check, staged.bundle], { ...user }, (error, _stdout, stderr) => {
      if (!error) return resolve()
      reject(
        new Error(
          `uid ${user.uid} cannot run ${staged.node} on ${staged.bundle}: the temp folder ${tmpdir()} must be ` +
            `reachable by every user (set TMPDIR to such a folder). ${stderr || error.message}`,
        ),
      )
    })
  })
}
