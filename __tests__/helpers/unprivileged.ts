// Root reads and writes anything, so a test of a permission the action must respect runs the action as
// `nobody` when the suite runs as root — with a node binary that `nobody` may run (the one npx fetched
// for `npm run test:node24` sits in root's home, out of its reach).
import { execFileSync } from 'node:child_process'

export interface RunAs {
  node: string
  user?: { uid: number; gid: number }
}

const NOBODY = { uid: 65534, gid: 65534 }

function nodeRunnableBy(user: { uid: number; gid: number }): string {
  for (const candidate of [process.execPath, '/usr/bin/node', '/usr/local/bin/node']) {
    try {
      execFileSync(candidate, ['-e', ''], { ...user, stdio: 'ignore' })
      return candidate
    } catch {
      // not there, or not for this user
    }
  }
  throw new Error(`no node executable that uid ${user.uid} may run`)
}

/** How to run the action so that permissions hold; `dir` (when given) is opened to that user first. */
export function unprivileged(dir?: string): RunAs {
  if (process.getuid?.() !== 0) return { node: process.execPath }
  if (dir) execFileSync('chmod', ['-R', 'a+rwX', dir])
  return { node: nodeRunnableBy(NOBODY), user: NOBODY }
}
