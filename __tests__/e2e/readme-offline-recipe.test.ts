// The README's offline recipe ("A docs change, before and after") is run as written: its shell block,
// taken from README.md, in bash, in a folder holding a copy of examples/, with `kb-sync` on the PATH as
// `npm link` puts it there (the built dist/cli/index.js). It starts the emulator on a free port itself.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { spawn } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { CLI } from '../helpers/cli.js'
import { ROOT } from '../helpers/run-action.js'

const HEADING = '#### A docs change, before and after'

/** The first `sh` code block under `heading` in the README, before the next heading. */
function recipeOf(readme: string, heading: string): string | undefined {
  const lines = readme.split('\n')
  const start = lines.indexOf(heading)
  if (start < 0) return undefined
  for (let i = start + 1; i < lines.length && !/^#{1,4} /.test(lines[i]); i++) {
    if (lines[i] === '```sh') {
      const end = lines.indexOf('```', i + 1)
      return end < 0 ? undefined : lines.slice(i + 1, end).join('\n')
    }
    // Another code block: its `#` lines are no headings.
    if (lines[i].startsWith('```')) i = lines.indexOf('```', i + 1)
  }
  return undefined
}

interface ScriptRun {
  status: number | null
  stdout: string
  stderr: string
}

/** Runs `script` in bash in its own process group; whatever it left running is stopped when it ends. */
async function runBash(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<ScriptRun> {
  const child = spawn('bash', ['-c', script], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  child.once('exit', () => {
    try {
      process.kill(-child.pid!, 'SIGTERM')
    } catch {
      // The group is empty: the recipe stopped its emulator itself.
    }
  })
  const status = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject)
    child.once('close', resolve)
  })
  return { status, stdout, stderr }
}

/** A newcomer's terminal: no runner or action variables, `kb-sync` and this `node` on the PATH. */
function terminalEnv(bin: string, tmp: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env))
    if (!/^(GITHUB_|RUNNER_|INPUT_|KB_SYNC_)/.test(name)) env[name] = value
  env.PATH = [bin, dirname(process.execPath), process.env.PATH].join(':')
  env.TMPDIR = tmp
  return env
}

describe('README: the offline before/after recipe', () => {
  let dir: string
  let tmp: string
  let run: ScriptRun

  beforeAll(async () => {
    const recipe = recipeOf(readFileSync(join(ROOT, 'README.md'), 'utf8'), HEADING)
    if (recipe === undefined) throw new Error(`README.md has no sh block under "${HEADING}"`)
    dir = mkdtempSync(join(tmpdir(), 'kb-sync-recipe-'))
    const clone = join(dir, 'clone')
    cpSync(join(ROOT, 'examples'), join(clone, 'examples'), { recursive: true })
    const bin = join(dir, 'bin')
    mkdirSync(bin)
    symlinkSync(CLI, join(bin, 'kb-sync'))
    tmp = join(dir, 'tmp')
    mkdirSync(tmp)
    run = await runBash(recipe, clone, terminalEnv(bin, tmp))
  })

  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('runs to its end', () => {
    expect(run.stderr).not.toMatch(/command not found|No such file|cannot start the emulator/)
    expect(run.status).toBe(0)
  })

  it('leads with the verdict: the pull request fixes one check and breaks one; kb-sync run exits 1', () => {
    expect(run.stdout).toMatch(/fixes 1 check/)
    expect(run.stdout).toMatch(/breaks 1/)
    expect(run.stdout).toContain('kb-sync run exited with 1')
  })

  it.each([
    ['refund window', 'regressed'],
    ['single sign-on', 'fixed'],
    ['API rate limit', 'still passing'],
  ])('names the check "%s" as %s (production before, staging after)', (name, change) => {
    const lines = run.stdout.split('\n').filter((line) => line.includes(name))
    expect(lines.some((line) => line.includes(change))).toBe(true)
  })

  it('removes its work folder (the emulator deletes its own documents as it stops)', () => {
    const left = readdirSync(tmp).filter((name) => !name.startsWith('kb-sync-emulator-'))
    expect(left).toEqual([])
  })
})
