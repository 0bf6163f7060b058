// Jest's globalSetup: the environment every worker, and every process a test starts, inherits.
//
// The tests' scratch files go to a folder in memory (/dev/shm) when the machine has one, else to the
// system's temporary folder as it is. The tests create and delete tens of thousands of files (git
// fixtures, clones, workspaces, reports). On this project's machine the disk is ext4 without a journal,
// where creating a file looks at the inodes deleted in the last seconds one by one (ext4's
// `recently_deleted`): ~30 % of the CPU while the history and e2e files ran, most of it in git processes
// (`perf record -a`, 2026-11-28). tmpfs has no such scan. Nothing a test checks depends on the folder's
// file system.
//
// The processes the tests start keep the code V8 compiled in one folder for the whole run
// (NODE_COMPILE_CACHE, Node 22.1 and newer; Node 20 ignores it). The suite starts the bundles about 420
// times: each start after the first of its bundle reads index.js and its chunks compiled instead of
// compiling 1.4–3.5 MB again (-24 s of CPU over the e2e files on Node 24, CONTRIBUTING). It changes how
// fast code loads, never what it does.
import { chmodSync, mkdtempSync, readdirSync, rmSync, statfsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const MEMORY = '/dev/shm'
const TMPFS_MAGIC = 0x01021994
const PREFIX = 'kb-sync-tests-'
/** Set while the folder is ours: teardown (test-processes-teardown.ts) removes only what setup made. */
export const SCRATCH_VARIABLE = 'KB_SYNC_TEST_SCRATCH'
/** Set while the compile cache folder is ours (teardown removes it). */
export const COMPILE_CACHE_VARIABLE = 'KB_SYNC_TEST_COMPILE_CACHE'

export function inMemory(folder: string): boolean {
  try {
    return statfsSync(folder).type === TMPFS_MAGIC
  } catch {
    return false
  }
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** A run that was killed left its folder in memory: remove the folders of runs no longer running. */
function removeAbandoned(): void {
  for (const name of readdirSync(MEMORY)) {
    const pid = Number(name.slice(PREFIX.length).split('-')[0])
    if (name.startsWith(PREFIX) && Number.isInteger(pid) && pid > 0 && !running(pid)) {
      rmSync(join(MEMORY, name), { recursive: true, force: true })
    }
  }
}

/**
 * Points TMPDIR (which os.tmpdir() reads, in the workers and in every process they start) at a new
 * folder in memory. A TMPDIR set by whoever runs the tests is theirs and stays.
 */
export function openScratchFolder(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.TMPDIR || !inMemory(MEMORY)) return undefined
  try {
    removeAbandoned()
    const folder = mkdtempSync(join(MEMORY, `${PREFIX}${process.pid}-`))
    // Like /tmp: every user may make files in it (some tests run the action as another user).
    chmodSync(folder, 0o1777)
    env.TMPDIR = folder
    env[SCRATCH_VARIABLE] = folder
    return folder
  } catch {
    return undefined
  }
}

/**
 * Points NODE_COMPILE_CACHE at a new folder in the temp folder (the scratch folder when setup made one).
 * A NODE_COMPILE_CACHE set by whoever runs the tests is theirs and stays.
 */
export function openCompileCache(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.NODE_COMPILE_CACHE) return undefined
  const folder = mkdtempSync(join(env.TMPDIR ?? tmpdir(), 'kb-sync-compile-cache-'))
  env.NODE_COMPILE_CACHE = folder
  env[COMPILE_CACHE_VARIABLE] = folder
  return folder
}

export default function setup(): void {
  // This machine names a CA bundle here, and Node 20 reads it at every start: ~40 ms of CPU for each jest
  // worker and each CLI the tests start with the inherited environment (the action bundles get the
  // runner's variables only). The tests talk to servers on 127.0.0.1 over plain HTTP, and the runner sets
  // no such variable.
  delete process.env.NODE_EXTRA_CA_CERTS
  openScratchFolder()
  openCompileCache()
}
