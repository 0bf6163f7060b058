// The built CLI (dist/cli/index.js) as a child process, as a person runs it: no TTY, its own exit status.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { ROOT } from './run-action.js'

export const CLI = join(ROOT, 'dist/cli/index.js')

export interface CliRun {
  status: number | null
  stdout: string
  stderr: string
}

export interface CliOptions {
  cwd?: string
  env?: Record<string, string>
  /** Node's own options, before the bundle (runCliAsync). */
  nodeArgs?: string[]
}

export function runCli(args: string[], options: CliOptions = {}): CliRun {
  const run = spawnSync(process.execPath, [CLI, ...args], {
    env: { ...process.env, ...options.env },
    encoding: 'utf8',
    cwd: options.cwd,
  })
  return { status: run.status, stdout: run.stdout, stderr: run.stderr }
}

/** As `runCli`, without blocking the test's event loop: for a server that runs inside the test. */
export async function runCliAsync(args: string[], options: CliOptions = {}): Promise<CliRun> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), CLI, ...args], {
    env: { ...process.env, ...options.env },
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const status = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject)
    child.on('close', resolve)
  })
  return { status, stdout, stderr }
}

/** `kb-sync serve` in the background; resolves with its URL (the one line it prints on stdout). */
export async function startServe(
  args: string[],
  env: Record<string, string>,
): Promise<{ url: string; child: ChildProcess; stop: () => void }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`kb-sync serve exited with ${code}`)))
    createInterface({ input: child.stdout! }).once('line', resolve)
  })
  return { url, child, stop: () => child.kill('SIGTERM') }
}
