// Runs a built action bundle the way the runner does: action.yml defaults and inputs as INPUT_*
// environment, GITHUB_EVENT_PATH, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_WORKSPACE.
import { spawn } from 'node:child_process'
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'
import { stageFor, type Staged, type User } from './unprivileged.js'
import { inheritedEnv } from './inherited-env.js'

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

interface ActionMetadata {
  runs: { using: string; main: string }
  inputs?: Record<string, { default?: string; description: string }>
}

// Parsed once per test file and action: an e2e file starts its bundle up to ~20 times, and parsing the
// 10 kB action.yml again took ~5 ms of the worker's CPU each time. The repository's action.yml files do
// not change while the tests run.
const metadataOf = new Map<string, ActionMetadata>()

export function readActionMetadata(actionYml: string): ActionMetadata {
  let metadata = metadataOf.get(actionYml)
  if (!metadata) {
    metadata = parse(readFileSync(join(ROOT, actionYml), 'utf8')) as ActionMetadata
    metadataOf.set(actionYml, metadata)
  }
  return metadata
}

export interface ActionRun {
  status: number | null
  stdout: string
  stderr: string
  outputs: Record<string, string>
  summary: string
}

export interface RunActionOptions {
  /** action.yml path relative to the repository root, e.g. 'action.yml' or 'run-flow/action.yml'. */
  action: string
  inputs: Record<string, string>
  eventName?: string
  payload?: unknown
  workspace?: string
  env?: Record<string, string>
  /**
   * Run as this user and group (a test running as root uses it to meet permissions root ignores), from a
   * copy of the bundle and of node that the user may reach wherever the clone lies (see unprivileged.ts).
   */
  user?: User
  /** The node executable (default: the one running the tests). */
  node?: string
  /** Called with the child process once started (e.g. to send it a signal). */
  onStart?: (child: import('node:child_process').ChildProcess) => void
}

/** The runner's `${{ github.token }}` default is an expression; a test gets an empty token. */
function defaultValue(value: string | undefined): string {
  return value === undefined || value.includes('${{') ? '' : String(value)
}

export async function runAction(options: RunActionOptions): Promise<ActionRun> {
  const metadata = readActionMetadata(options.action)
  const bundle = join(ROOT, dirname(options.action), metadata.runs.main)
  const node = options.node ?? process.execPath
  const temp = mkdtempSync(join(tmpdir(), 'kb-sync-action-'))
  let staged: Staged | undefined
  try {
    if (options.user) staged = await stageFor(options.user, bundle, node)
    // Without a workspace the action runs in its own folder: the clone's, or the copy's for another user.
    const workspace = options.workspace ?? staged?.dir ?? ROOT
    const outputFile = join(temp, 'output')
    const summaryFile = join(temp, 'summary')
    const eventFile = join(temp, 'event.json')
    writeFileSync(outputFile, '')
    writeFileSync(summaryFile, '')
    writeFileSync(eventFile, JSON.stringify(options.payload ?? {}))
    if (options.user) {
      // The other user writes the outputs and the summary, and RUNNER_TEMP.
      chmodSync(temp, 0o777)
      for (const file of [outputFile, summaryFile, eventFile]) chmodSync(file, 0o666)
    }
    const env: Record<string, string> = {
      ...inheritedEnv(),
      GITHUB_ACTIONS: 'true',
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_EVENT_PATH: eventFile,
      GITHUB_EVENT_NAME: options.eventName ?? 'workflow_dispatch',
      GITHUB_WORKSPACE: workspace,
      GITHUB_REPOSITORY: 'octo-org/docs',
      RUNNER_TEMP: temp,
    }
    for (const [name, input] of Object.entries(metadata.inputs ?? {})) {
      env[`INPUT_${name.toUpperCase()}`] = defaultValue(input.default)
    }
    for (const [name, value] of Object.entries(options.inputs)) env[`INPUT_${name.toUpperCase()}`] = value
    Object.assign(env, options.env)

    const child = spawn(staged?.node ?? node, [staged?.bundle ?? bundle], {
      env,
      cwd: workspace,
      ...(options.user ?? {}),
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    options.onStart?.(child)
    const status = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject)
      child.on('close', (code) => resolve(code))
    })
    return {
      status,
      stdout,
      stderr,
      outputs: parseOutputFile(readFileSync(outputFile, 'utf8')),
      summary: readFileSync(summaryFile, 'utf8'),
    }
  } finally {
    rmSync(temp, { recursive: true, force: true })
    staged?.remove()
  }
}

/** Parses the `name<<delimiter` heredocs that @actions/core writes to GITHUB_OUTPUT. */
export function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {}
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const match = /^([^<]+)<<(.+)$/.exec(lines[i])
    if (!match) continue
    const [, name, delimiter] = match
    const value: string[] = []
    for (i++; i < lines.length && lines[i] !== delimiter; i++) value.push(lines[i])
    outputs[name] = value.join('\n')
  }
  return outputs
}

/** Lines of stdout the runner would take as workflow commands. */
export function workflowCommands(stdout: string): string[] {
  return stdout.split('\n').filter((line) => line.trimStart().startsWith('::') || line.includes('##['))
}
