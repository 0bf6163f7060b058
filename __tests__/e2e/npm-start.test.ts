// npm start: the whole job offline with the actions' own bundles, and `npm start -- compare`: the README's
// before/after recipe (its own test: readme-offline-recipe.test.ts) as a demo.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runInGroup, terminalEnv } from '../helpers/process-group.js'
import { ROOT } from '../helpers/run-action.js'

const START = join(ROOT, 'scripts/start.mjs')

describe('npm start', () => {
  let tmp: string
  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'kb-sync-start-test-'))
  })
  afterEach(() => rmSync(tmp, { recursive: true, force: true }))

  it('indexes examples/docs, answers a question, and names the before/after demo as the next step', async () => {
    const run = await runInGroup(process.execPath, [START], { cwd: ROOT, env: terminalEnv(tmp) })
    expect(run.status).toBe(0)
    expect(run.stdout).toMatch(/Answer:\n[\s\S]*14 days/)
    expect(run.stdout.trimEnd().split('\n').at(-1)).toContain('npm start -- compare')
  })

  it("-- compare runs the README's before/after recipe: the verdict, kb-sync run exiting 1, nothing left behind", async () => {
    const run = await runInGroup(process.execPath, [START, 'compare'], { cwd: ROOT, env: terminalEnv(tmp) })
    expect(run.status).toBe(0)
    expect(run.stdout).toMatch(/fixes 1 check/)
    expect(run.stdout).toMatch(/breaks 1/)
    for (const name of ['refund window', 'single sign-on', 'API rate limit'])
      expect(run.stdout).toContain(name)
    expect(run.stdout).toContain('kb-sync run exited with 1')
    // Its `kb-sync` folder and the recipe's work folder are removed (the emulator removes its own as it stops).
    expect(readdirSync(tmp).filter((name) => !name.startsWith('kb-sync-emulator-'))).toEqual([])
  })

  it('refuses an unknown command, naming the ones it has', async () => {
    const run = await runInGroup(process.execPath, [START, 'comapre'], { cwd: ROOT, env: terminalEnv(tmp) })
    expect(run.status).toBe(2)
    expect(run.stderr).toContain('npm start -- compare')
    expect(run.stdout).toBe('')
  })
})
