// Where a step writes its own files (placeholders, the report file): RUNNER_TEMP on a runner, which it
// empties after each job, the system's temporary folder elsewhere. An error names the folder by where it
// came from, so that it says which setting to fix.
import { tmpdir } from 'node:os'

export interface TempFolder {
  path: string
  /** How an error names it: `RUNNER_TEMP (/path)`, or `the temporary folder /tmp` off a runner. */
  label: string
}

export function tempFolder(env: NodeJS.ProcessEnv = process.env): TempFolder {
  const runnerTemp = env.RUNNER_TEMP
  if (runnerTemp) return { path: runnerTemp, label: `RUNNER_TEMP (${runnerTemp})` }
  const system = tmpdir()
  return { path: system, label: `the temporary folder ${system}` }
}

/** What a user must fix when the folder cannot hold a file. */
export function unusableFolder(folder: TempFolder): string {
  return `${folder.label} must name a folder this step can write to`
}

/** The system's reason for a failed file operation (ENOTDIR, EACCES, ENOSPC, …), else the message. */
// Duck-typed: errors from node:fs may come from another realm (a test's VM context).
export const reasonOf = (error: unknown): string => {
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code === 'string') return code
  return error instanceof Error ? error.message : String(error)
}
