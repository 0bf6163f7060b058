// Issue 6 end to end: the built index action on a hostile workspace with `files: '**'` and a unique
// canary key. Nothing outside the workspace, no secret and no canary reaches the emulator, stdout, the
// summary or the outputs, and no file name becomes a workflow command.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { runAction, workflowCommands } from '../helpers/run-action.js'

const ids = {
  'flow-id': '65f0c0ffee0000000000beef',
  'org-id': 'b2a1c3d4-0000-4000-8000-000000000001',
  'node-id': 'knowledgebase-1',
}
const HOSTILE_NAMES = ['a"\r\nX-Injected: 1.md', '##[error]pwned.md', '::warning::x.md']

let base: string
let workspace: string
let emulator: Emulator
let canary: string

beforeEach(async () => {
  canary = `canary-${randomBytes(12).toString('hex')}`
  base = mkdtempSync(join(tmpdir(), 'kb-sync-hostile-'))
  workspace = join(base, 'ws')
  mkdirSync(join(workspace, 'docs'), { recursive: true })
  mkdirSync(join(workspace, '.git'))
  writeFileSync(join(base, 'outside.txt'), `outside ${canary}`)
  writeFileSync(join(workspace, 'docs/ok.md'), '# fine\n')
  writeFileSync(join(workspace, '.env'), `TOKEN=${canary}\n`)
  writeFileSync(
    join(workspace, '.git/config'),
    `[remote "origin"]\n\turl = https://x:${canary}@example.com/r.git\n`,
  )
  for (const name of HOSTILE_NAMES) writeFileSync(join(workspace, 'docs', name), 'hostile name\n')
  symlinkSync('/proc/self/environ', join(workspace, 'environ.md'))
  symlinkSync('../outside.txt', join(workspace, 'outside.md'))
  symlinkSync(join(base, 'outside.txt'), join(workspace, 'absolute.md'))
  symlinkSync('.git/config', join(workspace, 'gitconfig.md'))
  symlinkSync('/dev/zero', join(workspace, 'zero.md'))
  execFileSync('mkfifo', [join(workspace, 'fifo.md')])
  emulator = await startEmulator({ privateKey: canary, publicKey: `${canary}-public` })
})
afterEach(async () => {
  await emulator.close()
  rmSync(base, { recursive: true, force: true })
})

describe('index action on a hostile workspace', () => {
  it('sends only the workspace documents, lists every hostile entry as skipped, and leaks nothing', async () => {
    const run = await runAction({
      action: 'action.yml',
      workspace,
      env: { CANARY_ENV: canary, RUNNER_DEBUG: '1' },
      inputs: { 'base-url': emulator.url, ...ids, 'private-key': canary, files: '**', mode: 'upload' },
    })
    expect(run.status).toBe(0)

    const sentNames = emulator.requests().flatMap((r) => (r.documents ?? []).map((d) => d.filename))
    // A name with a line break cannot arrive as written: it is skipped, not sent (issue 10).
    expect(sentNames).toHaveLength(HOSTILE_NAMES.length)
    expect(sentNames).toContain('docs/ok.md')
    const skipped: string[] = JSON.parse(run.outputs.skipped)
    for (const name of [
      'docs/a"\r\nX-Injected: 1.md',
      '.env',
      '.git',
      'environ.md',
      'outside.md',
      'absolute.md',
      'gitconfig.md',
      'zero.md',
      'fifo.md',
    ]) {
      expect(skipped).toContain(name)
    }

    // What the emulator stored: no canary in any document (it read nothing outside, no secret file).
    const dataFiles = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? dataFiles(join(dir, e.name)) : [join(dir, e.name)],
      )
    for (const file of dataFiles(emulator.dataDir).filter((f) => !f.endsWith('requests.jsonl'))) {
      expect(readFileSync(file, 'utf8')).not.toContain(canary)
    }
    const stdout = run.stdout
      .split('\n')
      .filter((line) => !line.startsWith('::add-mask::'))
      .join('\n')
    for (const text of [stdout, run.stderr, run.summary, JSON.stringify(run.outputs)])
      expect(text).not.toContain(canary)

    // The only workflow commands are the action's own.
    const commands = workflowCommands(run.stdout).map((line) => line.trimStart().split('::')[1])
    expect(
      commands.every((name) =>
        ['add-mask', 'group', 'endgroup', 'debug', 'notice', 'warning'].includes(name.split(' ')[0]),
      ),
    ).toBe(true)
    expect(run.stdout).not.toMatch(/^::warning::x\.md/m)
    expect(run.stdout).not.toContain('##[error]pwned')
  })
})
