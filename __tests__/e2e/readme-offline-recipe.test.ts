// The README's offline recipe ("A docs change, before and after") is run as written: its shell block,
// taken from README.md, in bash, in a folder holding a copy of examples/, with `kb-sync` on the PATH as
// `npm link` puts it there (the built dist/cli/index.js). It starts the emulator on a free port itself.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CLI } from '../helpers/cli.js'
import { runInGroup, terminalEnv, type GroupRun } from '../helpers/process-group.js'
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

describe('README: the offline before/after recipe', () => {
  let dir: string
  let tmp: string
  let run: GroupRun

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
    run = await runInGroup('bash', ['-c', recipe], { cwd: clone, env: terminalEnv(tmp, bin) })
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
