// Issue 10 end to end, on the built index action: a refused key stops at once, so does a connection
// refused on this machine (#38), odd entries are skipped while the rest lands, outputs and summary are
// written on every way out, and Node prints no warning (stderr stays empty) under any of these failures.
import { afterEach, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { chmodSync, chownSync, writeFileSync } from 'node:fs'
import { freePort } from '../helpers/ports.js'
import { join } from 'node:path'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { runAction, type ActionRun } from '../helpers/run-action.js'
import { makeWorkspace } from '../helpers/workspace.js'
import { unprivileged } from '../helpers/unprivileged.js'
import { PRIVATE_KEY as KEY } from '../helpers/keys.js'

const ids = {
  'flow-id': '65f0c0ffee0000000000beef',
  'org-id': 'b2a1c3d4-0000-4000-8000-000000000001',
  'node-id': 'knowledgebase-1',
}
const docs = Object.fromEntries(
  Array.from({ length: 40 }, (_, i) => [`docs/d${String(i).padStart(2, '0')}.md`, `doc ${i}\n`]),
)

const cleanup: (() => unknown)[] = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

function workspace(files: Record<string, string> = docs): string {
  const made = makeWorkspace(files)
  cleanup.push(() => {
    execFileSync('chmod', ['-R', 'u+rwx', made.dir])
    execFileSync('rm', ['-rf', made.dir])
  })
  return made.dir
}

async function emulator(options: { port?: number } = {}): Promise<Emulator> {
  const started = await startEmulator({ privateKey: KEY, publicKey: 'pub-failure-paths', ...options })
  cleanup.push(() => started.close())
  return started
}

/** No Node warning (MaxListenersExceededWarning or any other) and no crash reached the log. */
function expectQuietStderr(run: ActionRun): void {
  expect(run.stderr).not.toMatch(/Warning|MaxListeners|Error:/)
}

const outputList = (run: ActionRun, name: string): string[] => JSON.parse(run.outputs[name] ?? 'null')

describe('index action: a refused key', () => {
  it('401: at most `concurrency` requests, every document failed, outputs and summary written', async () => {
    const service = await emulator()
    const dir = workspace()
    const run = await runAction({
      action: 'action.yml',
      workspace: dir,
      inputs: {
        'base-url': service.url,
        ...ids,
        'private-key': 'priv-not-the-right-one',
        files: 'docs/**',
        mode: 'upload',
        'batch-size': '1',
        concurrency: '4',
      },
    })
    expect(run.status).toBe(1)
    expect(service.requests().length).toBeLessThanOrEqual(4)
    expect(outputList(run, 'failed')).toEqual(Object.keys(docs).sort())
    expect(run.summary).toContain('"private-key"')
    const logged = run.stdout.split('\n').filter((line) => !line.startsWith('::add-mask::'))
    expect(logged.join('\n')).not.toContain('priv-not-the-right-one')
    expectQuietStderr(run)
  })
})

describe('index action: a service on this machine that refuses the connection', () => {
  // A late service elsewhere loses nothing (retried until retry-deadline, not counted against retries):
  // __tests__/send/failure-kinds.test.ts, whose local port stands in for a remote one. On this machine
  // nothing listens at that port, so waiting would only hide a wrong base-url.
  it('fails at once, not waiting out retry-deadline: every document failed with the base URL and what to check', async () => {
    const baseUrl = `http://127.0.0.1:${await freePort()}`
    const run = await runAction({
      action: 'action.yml',
      workspace: workspace(),
      inputs: {
        'base-url': baseUrl,
        ...ids,
        'private-key': KEY,
        files: 'docs/**',
        mode: 'upload',
        'batch-size': '1',
        // An hour to retry in: only not retrying ends this run.
        'retry-deadline': '3600',
      },
    })
    expect(run.status).toBe(1)
    expect(outputList(run, 'failed')).toEqual(Object.keys(docs).sort())
    // What to check is in the summary's cause, and the whole cause in the log.
    const cause = `Nothing is listening at ${baseUrl} (ECONNREFUSED): check "base-url" (its port), or start`
    expect(run.summary).toContain(cause)
    expect(run.stdout).toContain(`${cause} the local service with \`kb-sync serve\`.`)
    expect(run.stdout).not.toMatch(/; retrying/)
    expectQuietStderr(run)
  }, 60_000)
})

describe('index action: odd entries', () => {
  it('a name that is not UTF-8, a path past the system limit, an unreadable folder, files the user may not read: each skipped with a warning, the rest lands', async () => {
    const service = await emulator()
    const dir = workspace({
      'docs/a.md': 'a\n',
      'docs/b.md': 'b\n',
      'docs/locked/c.md': 'c\n',
      'docs/own.md': 'own\n',
      'docs/owner-barred.md': 'barred\n',
      'docs/private.md': 'private\n',
    })
    writeFileSync(
      Buffer.concat([Buffer.from(join(dir, 'docs/caf')), Buffer.from([0xe9]), Buffer.from('.md')]),
      'x',
    )
    const segment = 'd'.repeat(200)
    execFileSync('bash', [
      '-c',
      `cd "$1" && for i in $(seq 25); do mkdir ${segment} && cd ${segment} || exit 1; done && echo deep > deep.md`,
      'bash',
      join(dir, 'docs'),
    ])
    const runAs = unprivileged(dir)
    chmodSync(join(dir, 'docs/locked'), 0o000)
    // Readability from the mode bits only for the owner's own bits: an owner without the read bit may not
    // read even when others may; another user's owner-only file is not readable.
    if (runAs.user) {
      for (const name of ['docs/own.md', 'docs/owner-barred.md'])
        chownSync(join(dir, name), runAs.user.uid, runAs.user.gid)
      chmodSync(join(dir, 'docs/private.md'), 0o600)
    }
    chmodSync(join(dir, 'docs/own.md'), 0o400)
    chmodSync(join(dir, 'docs/owner-barred.md'), 0o044)
    const run = await runAction({
      action: 'action.yml',
      workspace: dir,
      inputs: { 'base-url': service.url, ...ids, 'private-key': KEY, files: 'docs/**', mode: 'upload' },
      ...runAs,
    })
    expect(run.status).toBe(0)
    // Not as root, every file is the user's own: only the owner without the read bit stays out.
    expect(outputList(run, 'uploaded')).toEqual(
      runAs.user
        ? ['docs/a.md', 'docs/b.md', 'docs/own.md']
        : ['docs/a.md', 'docs/b.md', 'docs/own.md', 'docs/private.md'],
    )
    const skipped = outputList(run, 'skipped')
    expect(skipped).toContain('docs/owner-barred.md')
    if (runAs.user) expect(skipped).toContain('docs/private.md')
    expect(skipped).toContain('docs/caf\\xe9.md')
    expect(skipped).toContain('docs/locked')
    expect(skipped.some((name) => name.startsWith(`docs/${segment}/`))).toBe(true)
    const warnings = run.stdout.split('\n').filter((line) => line.startsWith('::warning'))
    expect(warnings.some((line) => line.includes('docs/caf\\xe9.md') && line.includes('UTF-8'))).toBe(true)
    expect(warnings.some((line) => line.includes('docs/locked') && line.includes('EACCES'))).toBe(true)
    expect(warnings.some((line) => line.includes('ENAMETOOLONG'))).toBe(true)
    expectQuietStderr(run)
  })
})

describe('index action: a file that becomes unreadable while the run retries', () => {
  it('fails alone; the rest of its batch lands', async () => {
    const dir = workspace({ 'docs/a.md': 'a\n', 'docs/b.md': 'b\n', 'docs/c.md': 'c\n' })
    const runAs = unprivileged(dir)
    // The first request fails; meanwhile docs/b.md stops being readable.
    const service = await startEmulator({
      privateKey: KEY,
      publicKey: 'pub-failure-paths',
      inject: ({ seq }) => {
        if (seq !== 1) return undefined
        chmodSync(join(dir, 'docs/b.md'), 0o000)
        return 'server-error'
      },
    })
    cleanup.push(() => service.close())
    const run = await runAction({
      action: 'action.yml',
      workspace: dir,
      inputs: { 'base-url': service.url, ...ids, 'private-key': KEY, files: 'docs/**', mode: 'upload' },
      ...runAs,
    })
    expect(run.status).toBe(1)
    expect(outputList(run, 'uploaded')).toEqual(['docs/a.md', 'docs/c.md'])
    expect(outputList(run, 'failed')).toEqual(['docs/b.md'])
    expect(run.summary).toContain('EACCES')
    // The failed request, then the batch without docs/b.md.
    expect(service.requests()).toHaveLength(2)
    expectQuietStderr(run)
  })
})

describe('index action: outputs and summary on every way out', () => {
  it('a failure before selection: outputs written, the URLs it knew of failed with the cause', async () => {
    const run = await runAction({
      action: 'action.yml',
      workspace: workspace(),
      env: { GITHUB_WORKSPACE: '/nonexistent/kb-sync-workspace' },
      inputs: {
        'base-url': 'http://127.0.0.1:9',
        ...ids,
        'private-key': KEY,
        files: 'docs/**',
        urls: 'https://example.com/a\nhttps://example.com/b',
        mode: 'upload',
      },
    })
    expect(run.status).toBe(1)
    expect(outputList(run, 'failed')).toEqual(['https://example.com/a', 'https://example.com/b'])
    expect(outputList(run, 'uploaded')).toEqual([])
    expect(run.summary).toContain('## Knowledge base sync failed')
    expect(run.summary).toContain('Stopped:')
    expect(run.summary).toContain('ENOENT')
    expectQuietStderr(run)
  })

  it('if-no-files-found error: outputs and summary written with the reason', async () => {
    const run = await runAction({
      action: 'action.yml',
      workspace: workspace(),
      inputs: {
        ...ids,
        'private-key': KEY,
        files: 'nothing/**',
        'if-no-files-found': 'error',
        mode: 'upload',
      },
    })
    expect(run.status).toBe(1)
    expect(outputList(run, 'failed')).toEqual([])
    expect(run.summary).toContain('if-no-files-found')
    expectQuietStderr(run)
  })

  it('an input error: refused before any request, outputs and summary still written', async () => {
    const run = await runAction({
      action: 'action.yml',
      workspace: workspace(),
      inputs: { ...ids, 'private-key': KEY, files: 'docs/**', concurrency: 'many' },
    })
    expect(run.status).toBe(1)
    expect(outputList(run, 'failed')).toEqual([])
    expect(run.summary).toContain('concurrency')
    expectQuietStderr(run)
  })
})
