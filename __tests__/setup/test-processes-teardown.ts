// Jest's globalTeardown: removes the compile cache and the scratch folder that globalSetup
// (test-processes-env.ts) made. Jest loads this file with Node's own resolution, so it imports nothing of
// the tests' own.
import { rmSync } from 'node:fs'

/** Removes the folder setup recorded in `marker`, and unsets `marker` and the variable that named it. */
function removeMade(env: NodeJS.ProcessEnv, marker: string, variable: string): void {
  const folder = env[marker]
  if (!folder) return
  rmSync(folder, { recursive: true, force: true })
  delete env[marker]
  delete env[variable]
}

export function closeScratchFolder(env: NodeJS.ProcessEnv = process.env): void {
  removeMade(env, 'KB_SYNC_TEST_SCRATCH', 'TMPDIR')
}

export function closeCompileCache(env: NodeJS.ProcessEnv = process.env): void {
  removeMade(env, 'KB_SYNC_TEST_COMPILE_CACHE', 'NODE_COMPILE_CACHE')
}

export default function teardown(): void {
  closeCompileCache()
  closeScratchFolder()
}
