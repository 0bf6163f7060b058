// Both actions run by @github/local-action (GitHub's tool for running an action's TypeScript entry from
// a .env file) against the emulator, with the committed .env.example as the .env.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseEnv } from 'node:util'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { inheritedEnv } from '../helpers/inherited-env.js'
import { ROOT } from '../helpers/run-action.js'

const LOCAL_ACTION = join(ROOT, 'node_modules/@github/local-action/bin/local-action.js')
const example = parseEnv(readFileSync(join(ROOT, '.env.example'), 'utf8')) as Record<string, string>

let emulator: Emulator
let temp: string
let envFile: string

beforeAll(async () => {
  emulator = await startEmulator({
    privateKey: example['INPUT_PRIVATE-KEY'],
    publicKey: example['INPUT_PUBLIC-KEY'],
  })
  temp = mkdtempSync(join(tmpdir(), 'kb-sync-local-action-'))
  envFile = join(temp, '.env')
  // The example as committed; only the emulator's port differs.
  const env = readFileSync(join(ROOT, '.env.example'), 'utf8').replace(
    /^INPUT_BASE-URL=.*$/m,
    `INPUT_BASE-URL=${emulator.url}`,
  )
  writeFileSync(envFile, env)
})
afterAll(async () => {
  await emulator.close()
  rmSync(temp, { recursive: true, force: true })
})

/** `local-action <action dir> <entry relative to it> <.env>`, from the repository root. */
function localAction(actionDir: string, entry: string): Promise<{ status: number | null; stdout: string }> {
  const env: NodeJS.ProcessEnv = inheritedEnv()
  // local-action finds @actions/core with `npm ls` (the path through node_modules) and replaces that
  // module; when node_modules is a link (a worktree sharing one install), Node would load the real path
  // instead and the replacement would miss.
  env.NODE_OPTIONS = '--preserve-symlinks'
  const child = spawn(process.execPath, [LOCAL_ACTION, 'run', actionDir, entry, envFile], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout })))
}

/** The outputs as local-action's @actions/core prints them (`::set-output name=…::value`). */
function outputs(stdout: string): Record<string, string> {
  const found: Record<string, string> = {}
  for (const match of stdout.matchAll(/^::set-output name=([^:]+)::(.*)$/gm)) found[match[1]] = match[2]
  return found
}

describe('@github/local-action', () => {
  it('runs the index action, then the run-flow action, from .env.example; run() is what runs each', async () => {
    const index = await localAction('.', 'src/actions/index.ts')
    expect(index.status).toBe(0)
    // The github-token default reaches the action as the text `${{ github.token }}`: no token, no error.
    expect(index.stdout).not.toMatch(/^::error::/m)
    const synced = outputs(index.stdout)
    const docs = ['api.md', 'billing.md', 'getting-started.md', 'troubleshooting.md'].map(
      (name) => `examples/docs/${name}`,
    )
    expect(JSON.parse(synced.uploaded ?? 'null')).toEqual(docs)
    expect(JSON.parse(synced.failed ?? 'null')).toEqual([])
    const stored = emulator.documents(
      example['INPUT_FLOW-ID'],
      example['INPUT_ORG-ID'],
      example['INPUT_NODE-ID'],
    )
    expect(stored.map((d) => d.name).sort()).toEqual(docs)

    const run = await localAction('run-flow', '../src/actions/run-flow.ts')
    expect(run.status).toBe(0)
    expect(run.stdout).not.toMatch(/^::error::/m)
    expect(outputs(run.stdout).result).toMatch(/refund/i)
    // One run each, not two: local-action imports the entry and calls its run(); an import that also ran
    // the action would sync twice and ask the flow twice.
    expect(index.stdout.match(/^::set-output name=uploaded::/gm)).toHaveLength(1)
    expect(run.stdout.match(/^::set-output name=result::/gm)).toHaveLength(1)

    for (const text of [index.stdout, run.stdout]) {
      expect(text).not.toContain(example['INPUT_PRIVATE-KEY'])
      expect(text).not.toContain(example['INPUT_PUBLIC-KEY'])
    }
  })
})
