// In mode auto, every document of a push's change set lands in exactly one output list, whatever keeps it
// from being sent: a skipped name is in `skipped` with its reason, once, as in a full sync. One push
// exercises every skip reason a push can carry (hidden file and folder, secret, too large, links out,
// to a folder and to nothing, a file reached twice, control characters, names that reach the service
// as one, a name that is not UTF-8, a draft), beside documents that are uploaded, updated and removed.
// A real origin and depth-1 checkout, the built index action, the emulator as the service.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { displayName } from '../../src/log.js'
import { GitFixture, type WorkingCopy } from '../helpers/git-fixture.js'
import { pushAndSync as nextRun, ZERO_SHA } from '../helpers/next-run-on-push.js'
import type { ActionRun } from '../helpers/run-action.js'
import { WorkflowRunsServer } from '../helpers/workflow-runs-server.js'
import { PRIVATE_KEY, PUBLIC_KEY } from '../helpers/keys.js'

const ids = { 'flow-id': 'flow-skips', 'org-id': 'org-skips', 'node-id': 'knowledgebase-1' }
const ZERO = ZERO_SHA
const LISTS = ['uploaded', 'updated', 'skipped', 'failed', 'removed', 'left'] as const

let fixture: GitFixture
let author: WorkingCopy
let emulator: Emulator
let runs: WorkflowRunsServer

beforeEach(async () => {
  fixture = GitFixture.create()
  author = fixture.author()
  emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY })
  runs = new WorkflowRunsServer()
  await runs.start()
})
afterEach(async () => {
  await Promise.all([emulator.close(), runs.close()])
  fixture.cleanup()
})

/** Pushes what the author committed and runs the action on that push as the workflow's next run. */
const pushAndSync = (before: string, inputs: Record<string, string> = {}, env: Record<string, string> = {}) =>
  nextRun(
    {
      fixture,
      author,
      runs,
      baseUrl: emulator.url,
      ids,
      runIdBase: 9_100_000,
      inputs: { 'max-file-size': '1KB' },
    },
    before,
    inputs,
    env,
  )

/** Each output list, parsed. */
function lists(run: ActionRun): Record<(typeof LISTS)[number], string[]> {
  return Object.fromEntries(LISTS.map((name) => [name, JSON.parse(run.outputs[name]) as string[]])) as Record<
    (typeof LISTS)[number],
    string[]
  >
}

/** The reason each skipped name was given in the log (`Skipped <name>: <detail>`), by name as shown. */
function skipLines(run: ActionRun): Map<string, string[]> {
  const found = new Map<string, string[]>()
  for (const line of run.stdout.split('\n')) {
    const match = /^Skipped (.+?): (.*)$/.exec(line)
    if (!match) continue
    found.set(match[1], [...(found.get(match[1]) ?? []), match[2]])
  }
  return found
}

/** The skip reasons of one push, and the detail each must be logged with. */
const SKIPS: Record<string, RegExp> = {
  'docs/.hidden.md': /^hidden file; set include-hidden-files/,
  'docs/.vitepress/config.md': /hidden folder; set include-hidden-files/,
  'docs/server.pem': /^well-known secret file/,
  'docs/big.md': /is over max-file-size 1.0 KB/,
  'docs/out.md': /^symbolic link to .*, outside the workspace\.$/,
  'docs/folder-link.md': /not a regular file\.$/,
  'docs/broken.md': /^broken symbolic link\.$/,
  'docs/alias.md': /docs\/real\.md/,
  'docs/tab\there.md': /control character/,
  'docs/quote%22d.md': /same name as docs\/quote"d\.md/,
  'docs/draft.md': /draft/,
}

describe('mode auto: every document of a push in exactly one output list', () => {
  it('reports each skip of the change set in `skipped` with its reason, once, beside what was sent and removed', async () => {
    author.write('docs/kept.md').write('docs/gone.md').write('docs/other/page.md').commit('seed')
    const seed = await pushAndSync(ZERO)
    expect(seed.status).toBe(0)

    const outside = join(fixture.root, 'outside.md')
    writeFileSync(outside, 'outside the workspace\n')
    author
      .write('docs/new.md')
      .write('docs/kept.md', 'kept, second\n')
      .write('docs/.hidden.md')
      .write('docs/.vitepress/config.md')
      .write('docs/server.pem', '-----BEGIN PRIVATE KEY-----\n')
      .write('docs/big.md', 'x'.repeat(2048))
      .write('docs/real.md')
      .write('docs/tab\there.md')
      .write('docs/quote"d.md')
      .write('docs/quote%22d.md')
      .write('docs/draft.md', '---\ntitle: Soon\ndraft: true\n---\n\nNot yet.\n')
      .writeBytes('docs', Buffer.from([0x62, 0x61, 0x64, 0xff, 0x2e, 0x6d, 0x64]))
      .remove('docs/gone.md')
    symlinkSync(outside, join(author.dir, 'docs/out.md'))
    symlinkSync('other', join(author.dir, 'docs/folder-link.md'))
    symlinkSync('missing.md', join(author.dir, 'docs/broken.md'))
    symlinkSync('real.md', join(author.dir, 'docs/alias.md'))
    author.commit('every kind of skip')
    const run = await pushAndSync(seed.after)

    const outputs = lists(run)
    const changeSet = [
      'docs/new.md',
      'docs/kept.md',
      'docs/real.md',
      'docs/quote"d.md',
      'docs/gone.md',
      'docs/bad\\xff.md',
      ...Object.keys(SKIPS),
    ]
    // Each name of the change set in exactly one list, and nothing else in any.
    const listed = LISTS.flatMap((name) => outputs[name])
    expect([...listed].sort()).toEqual([...changeSet].sort())
    expect(outputs.uploaded.sort()).toEqual(['docs/new.md', 'docs/quote"d.md', 'docs/real.md'])
    expect(outputs.updated).toEqual(['docs/kept.md'])
    expect(outputs.removed).toEqual(['docs/gone.md'])
    expect(outputs.failed).toEqual([])
    expect(outputs.skipped.sort()).toEqual([...Object.keys(SKIPS), 'docs/bad\\xff.md'].sort())
    expect(run.outputs['skipped-count']).toBe(String(outputs.skipped.length))

    // Each skip logged once, with its own reason; the count line agrees.
    const logged = skipLines(run)
    for (const [name, detail] of Object.entries(SKIPS)) {
      const lines = logged.get(displayName(name))
      expect({ name, lines: lines?.length }).toEqual({ name, lines: 1 })
      expect(lines![0]).toMatch(detail)
    }
    expect(logged.get('docs/bad\\xff.md')).toEqual([expect.stringMatching(/not valid UTF-8/)])
    expect(run.stdout).toContain(
      `Uploaded 3, updated 1, skipped ${outputs.skipped.length}, failed 0, removed from answers 1`,
    )
  })
})
