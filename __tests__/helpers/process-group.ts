// A command run in its own process group, as a terminal runs a pipeline: whatever it leaves running in
// the background (an emulator a script started and did not stop) is stopped when it ends.
import { spawn } from 'node:child_process'
import { dirname } from 'node:path'

export interface GroupRun {
  status: number | null
  stdout: string
  stderr: string
}

export async function runInGroup(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<GroupRun> {
  const child = spawn(command, args, { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  child.once('exit', () => {
    try {
      process.kill(-child.pid!, 'SIGTERM')
    } catch {
      // The group is empty: nothing was left running.
    }
  })
  const status = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject)
    child.once('close', resolve)
  })
  return { status, stdout, stderr }
}

/**
 * A newcomer's terminal: no runner, action or kb-sync variables; `tmp` as TMPDIR (what a command leaves
 * there can be seen); this `node` on the PATH, after `bin` when given (`kb-sync` as `npm link` puts it).
 */
export function terminalEnv(tmp: string, bin?: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env))
    if (!/^(GITHUB_|RUNNER_|INPUT_|KB_SYNC_)/.test(name)) env[name] = value
  env.PATH = [...(bin ? [bin] : []), dirname(process.execPath), process.env.PATH].join(':')
  env.TMPDIR = tmp
  return env
}
