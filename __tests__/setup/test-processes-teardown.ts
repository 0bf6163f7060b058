// Jest's globalTeardown: removes the compile cache and the scratch folder that globalSetup
// (test-processes-env.ts) made. Jest loads this file with Node's own resolution, so it imports nothing of
// the tests' own.
import { rmSync } from 'node:fs'

export function closeScratchFolder(env: NodeJS.ProcessEnv = process.env): void {
  const folder = env.KB_SYNC_TEST_SCRATCH
  if (!folder) return
  rmSync(folder, { recursive: true, force: true })
  delete env.KB_SYNC_TEST_SCRATCH
  delete env.TMPDIR
}

export function closeCompileCache(env: NodeJS.ProcessEnv = process.env): void {
  const folder = env.KB_SYNC_TEST_COMPILE_CACHE
  if (!folder) return
  rmSync(folder, { recursive: true, force: true })
  delete env.KB_SYNC_TEST_COMPILE_CACHE
  delete env.NODE_COMPILE_CACHE
}

export default function teardown(): void {
  closeCompileCache()
  closeScratchFolder()
}
