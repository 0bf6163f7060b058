// The knowledge base's record kept in a file (`kb-sync index --state-file`): the built CLI in a real
// checkout, the emulator as the service. Every change of the selection converges in one run, whatever git
// history shows.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { spawn } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { GitFixture, type WorkingCopy } from '../helpers/git-fixture.js'
import { PRIVATE_KEY } from '../helpers/keys.js'
import { CLI, runCliAsync } from '../helpers/cli.js'
import { sentByMethod } from '../helpers/emulator-sent.js'

let fixture: GitFixture
let author: WorkingCopy
let emulator: Emulator
let stateFile: string
/** A git fixture with an author, the emulator, and where the record goes: per case, or per describe. */
async function setUp(): Promise<void> {
  fixture = GitFixture.create()
  author = fixture.author()
  emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: 'pub-unused-key' })
  stateFile = join(fixture.root, 'kb-state.json.gz')
}
async function tearDown(): Promise<void> {
  await emulator.close()
  fixture.cleanup()
}

/** The environment of a shell outside Actions: no GITHUB_* variables. */
function environment(): Record<string, string> {
  const env: Record<string, string> = { KB_SYNC_PRIVATE_KEY: PRIVATE_KEY }
  for (const name of ['PATH', 'HOME', 'TMPDIR']) if (process.env[name]) env[name] = process.env[name]!
  return env
}

const TARGET = ['--flow-id', 'f', '--org-id', 'o', '--node-id', 'n']

function filesArgs(patterns: string[]): string[] {
  return patterns.flatMap((pattern) => ['--files', pattern])
}

async function index(cwd: string, args: string[]) {
  const run = await runCliAsync(
    ['index', '--base-url', emulator.url, ...TARGET, '--json', '--state-file', stateFile, ...args],
    { cwd, env: environment() },
  )
  return { ...run, json: run.stdout ? (JSON.parse(run.stdout) as Record<string, unknown>) : {} }
}

async function status(cwd: string, args: string[]) {
  return runCliAsync(['status', '--base-url', emulator.url, ...TARGET, '--state-file', stateFile, ...args], {
    cwd,
    env: environment(),
  })
}

function recordOnDisk(): { phase: string; documents: Record<string, string>; urls: Record<string, unknown> } {
  return JSON.parse(gunzipSync(readFileSync(stateFile)).toString('utf8'))
}

const DRAFT = '---\ntitle: Soon\ndraft: true\n---\nNot yet.\n'

describe('the record in a file, after a first run on two documents', () => {
  // The three cases start where one first run leaves them: that run is made once, and each case gets the
  // record it wrote (a copy) and a checkout of the same commit of its own (a clone, as the run had).
  let first: Awaited<ReturnType<typeof index>>
  let firstRecord: string
  beforeAll(async () => {
    await setUp()
    author.write('docs/a.md').write('docs/b.md').commit('seed')
    author.push()
    first = await index(fixture.checkout().dir, filesArgs(['docs/**']))
    firstRecord = join(fixture.root, 'first-record.json.gz')
    if (existsSync(stateFile)) copyFileSync(stateFile, firstRecord)
  })
  afterAll(tearDown)

  /** A checkout of the seed commit of its own, and the first run's record in the state file. */
  function fromFirstRun(name: string): WorkingCopy {
    expect(first.status).toBe(0)
    copyFileSync(firstRecord, stateFile)
    return fixture.checkout({ name })
  }

  it('sends everything the first time, then nothing while the checkout is unchanged', async () => {
    expect(first.status).toBe(0)
    expect(first.stderr).toContain('No record of this knowledge base yet')
    expect(first.json).toMatchObject({ uploaded: ['docs/a.md', 'docs/b.md'] })
    const checkout = fromFirstRun('unchanged').dir
    expect(recordOnDisk()).toMatchObject({ phase: 'final', documents: { 'docs/a.md': expect.any(String) } })

    const before = emulator.requests().length
    const second = await index(checkout, filesArgs(['docs/**']))
    expect(second.status).toBe(0)
    expect(second.json).toMatchObject({ 'base-source': 'state', uploaded: [], updated: [], removed: [] })
    expect(emulator.requests().length).toBe(before)
  })

  it('sends a file changed in the working tree, and blanks one deleted there, without a commit', async () => {
    const checkout = fromFirstRun('working-tree')
    writeFileSync(join(checkout.dir, 'docs/a.md'), 'edited, not committed\n')
    checkout.git('rm', '-q', 'docs/b.md')
    const run = await index(checkout.dir, filesArgs(['docs/**']))
    expect(run.json).toMatchObject({ uploaded: [], updated: ['docs/a.md'], removed: ['docs/b.md'] })
  })

  it('kb-sync status lists what differs, and --json gives the lists', async () => {
    const checkout = fromFirstRun('status')
    const inStep = await status(checkout.dir, filesArgs(['docs/**']))
    expect(inStep.status).toBe(0)
    expect(inStep.stdout).toContain('In step: the node holds what the checkout selects (2 unchanged).')

    writeFileSync(join(checkout.dir, 'docs/a.md'), 'changed\n')
    writeFileSync(join(checkout.dir, 'docs/c.md'), 'new\n')
    checkout.git('rm', '-q', 'docs/b.md')
    const before = emulator.requests().length
    const drift = await status(checkout.dir, [...filesArgs(['docs/**']), '--json'])
    expect(drift.status).toBe(0)
    expect(JSON.parse(drift.stdout)).toMatchObject({
      upload: ['docs/c.md'],
      update: ['docs/a.md'],
      blank: ['docs/b.md'],
      left: [],
      unchanged: 0,
    })
    expect(emulator.requests().length).toBe(before)
    expect(existsSync(stateFile)).toBe(true)
    expect(recordOnDisk().documents['docs/b.md']).not.toBe('placeholder')
  })
})

describe('the record in a file', () => {
  beforeEach(setUp)
  afterEach(tearDown)

  it('widening files uploads what was already there; narrowing it blanks what left', async () => {
    author.write('docs/a.md').write('guides/g.md').commit('seed')
    author.push()
    const checkout = fixture.checkout().dir
    expect((await index(checkout, filesArgs(['docs/**']))).status).toBe(0)

    const from = emulator.requests().length
    const widened = await index(checkout, filesArgs(['docs/**', 'guides/**']))
    expect(widened.status).toBe(0)
    expect(widened.json).toMatchObject({ uploaded: ['guides/g.md'], updated: [], removed: [] })
    expect(sentByMethod(emulator, from)).toEqual({ POST: ['guides/g.md'], PATCH: [] })

    const narrowed = await index(checkout, filesArgs(['docs/**']))
    expect(narrowed.status).toBe(0)
    expect(narrowed.json).toMatchObject({ uploaded: [], updated: [], removed: ['guides/g.md'] })
    expect(narrowed.stderr).toContain('Settings that shape the selection changed since the record: files')
    expect(recordOnDisk().documents['guides/g.md']).toBe('placeholder')

    // Blanked once: the next run sends nothing.
    const settled = emulator.requests().length
    expect((await index(checkout, filesArgs(['docs/**']))).json).toMatchObject({ removed: [] })
    expect(emulator.requests().length).toBe(settled)
  })

  it('turning skip-drafts on blanks the drafts the node holds; off again sends them', async () => {
    author.write('docs/a.md').write('docs/soon.md', DRAFT).commit('seed')
    author.push()
    const checkout = fixture.checkout().dir
    const all = await index(checkout, [...filesArgs(['docs/**']), '--no-skip-drafts'])
    expect(all.json).toMatchObject({ uploaded: ['docs/a.md', 'docs/soon.md'] })

    const on = await index(checkout, filesArgs(['docs/**']))
    expect(on.status).toBe(0)
    expect(on.json).toMatchObject({ uploaded: [], updated: [], removed: ['docs/soon.md'] })

    // The draft, blanked already, is left alone while it stays a draft.
    const quiet = emulator.requests().length
    expect((await index(checkout, filesArgs(['docs/**']))).json).toMatchObject({ removed: [], updated: [] })
    expect(emulator.requests().length).toBe(quiet)

    const off = await index(checkout, [...filesArgs(['docs/**']), '--no-skip-drafts'])
    expect(off.json).toMatchObject({ uploaded: [], updated: ['docs/soon.md'], removed: [] })
  })

  it('works in a folder that is no git repository', async () => {
    const plain = fixture.plainFolder()
    writeFileSync(join(plain, 'a.md'), 'a\n')
    expect((await index(plain, filesArgs(['*.md']))).json).toMatchObject({ uploaded: ['a.md'] })
    writeFileSync(join(plain, 'a.md'), 'a, again\n')
    writeFileSync(join(plain, 'b.md'), 'b\n')
    expect((await index(plain, filesArgs(['*.md']))).json).toMatchObject({
      uploaded: ['b.md'],
      updated: ['a.md'],
    })
  })

  it('ignores a garbled record with a warning naming why, and writes a good one', async () => {
    author.write('docs/a.md').commit('seed')
    author.push()
    const checkout = fixture.checkout().dir
    writeFileSync(stateFile, 'not a record')
    const run = await index(checkout, filesArgs(['docs/**']))
    expect(run.status).toBe(0)
    expect(run.stderr).toMatch(/warning: The knowledge base's record is not used \(.+\)/)
    expect(run.json).toMatchObject({ uploaded: ['docs/a.md'] })
    expect(recordOnDisk().phase).toBe('final')
  })

  it('a run killed after its first batch leaves every name it may have written to the next run', async () => {
    for (const name of ['a', 'b', 'c', 'd', 'e', 'f']) author.write(`docs/${name}.md`)
    author.commit('seed')
    author.push()
    const checkout = fixture.checkout().dir
    const slow = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: 'pub-unused-key', latencyMs: 150 })
    try {
      const child = spawn(
        process.execPath,
        [
          CLI,
          'index',
          '--base-url',
          slow.url,
          ...TARGET,
          '--state-file',
          stateFile,
          '--batch-size',
          '1',
          '--concurrency',
          '1',
          ...filesArgs(['docs/**']),
        ],
        { cwd: checkout, env: environment(), stdio: 'ignore' },
      )
      const closed = new Promise((resolve) => child.on('close', resolve))
      while (!slow.requests().some((request) => request.status === 200))
        await new Promise((r) => setTimeout(r, 20))
      child.kill('SIGKILL')
      await closed
      const pending = recordOnDisk()
      expect(pending.phase).toBe('pending')
      expect(Object.values(pending.documents)).toEqual(Array(6).fill('unknown'))

      const next = await runCliAsync(
        [
          'index',
          '--base-url',
          slow.url,
          ...TARGET,
          '--json',
          '--state-file',
          stateFile,
          ...filesArgs(['docs/**']),
        ],
        { cwd: checkout, env: environment() },
      )
      expect(next.status).toBe(0)
      const json = JSON.parse(next.stdout) as { uploaded: string[]; updated: string[] }
      expect([...json.uploaded, ...json.updated].sort()).toEqual(
        ['a', 'b', 'c', 'd', 'e', 'f'].map((name) => `docs/${name}.md`),
      )
      expect(slow.documents('f', 'o', 'n').map((d) => d.name)).toHaveLength(6)
    } finally {
      await slow.close()
    }
  })

  it('parses the service answers with WebAssembly kept on its baseline compiler (no optimizing compile)', async () => {
    // V8's optimizing compile of undici's HTTP parser, a few requests in, is a transient ~20-30 MiB of the
    // run's peak memory (bench/README.md); V8 reports each compile with this flag.
    for (let i = 0; i < 60; i++) author.write(`docs/p${i}.md`)
    author.commit('seed')
    author.push()
    const run = await runCliAsync(
      ['index', '--base-url', emulator.url, ...TARGET, '--state-file', stateFile, ...filesArgs(['docs/**'])],
      { cwd: fixture.checkout().dir, env: environment(), nodeArgs: ['--trace-wasm-compilation-times'] },
    )
    expect(run.status).toBe(0)
    expect(emulator.requests().length).toBeGreaterThanOrEqual(3)
    expect(run.stdout).toContain('using Liftoff')
    expect(run.stdout).not.toContain('using TurboFan')
  })

  it('kb-sync status without a record says so and exits 1; without --state-file it names the flag', async () => {
    author.write('docs/a.md').commit('seed')
    author.push()
    const checkout = fixture.checkout().dir
    const none = await status(checkout, filesArgs(['docs/**']))
    expect(none.status).toBe(1)
    expect(none.stderr).toContain('No record of this knowledge base to compare with')
    const bare = await runCliAsync(['status', ...TARGET, ...filesArgs(['docs/**'])], {
      cwd: checkout,
      env: environment(),
    })
    expect(bare.status).toBe(2)
    expect(bare.stderr).toContain('--state-file PATH')
  })
})

describe('the record and sitemaps', () => {
  beforeEach(setUp)
  afterEach(tearDown)
  let site: Server
  let lastmod = '2020-01-01'
  beforeEach(async () => {
    site = createServer((request, response) => {
      const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
      response.setHeader('content-type', 'application/xml')
      response.end(
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
          `<url><loc>${origin}/one</loc><lastmod>${lastmod}</lastmod></url>` +
          `<url><loc>${origin}/two</loc><lastmod>2020-01-01</lastmod></url></urlset>`,
      )
    })
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
  })
  afterEach(() => new Promise<void>((resolve) => site.close(() => resolve())))

  it('a page of the urls input is sent on every run: nothing tells when a website changed it', async () => {
    author.write('docs/a.md').commit('seed')
    author.push()
    const checkout = fixture.checkout().dir
    const page = `http://127.0.0.1:${(site.address() as AddressInfo).port}/one`
    const sent = (json: Record<string, unknown>) => [
      ...(json.uploaded as string[]),
      ...(json.updated as string[]),
    ]
    expect(sent((await index(checkout, [...filesArgs(['docs/**']), '--urls', page])).json)).toContain(page)
    const again = await index(checkout, [...filesArgs(['docs/**']), '--urls', page])
    expect(again.json).toMatchObject({ 'base-source': 'state' })
    expect(sent(again.json)).toEqual([page])
  })

  it('a sitemap added later sends its pages, however old their lastmod; then only pages changed since', async () => {
    author.write('docs/a.md').commit('seed')
    author.push()
    const checkout = fixture.checkout().dir
    expect((await index(checkout, filesArgs(['docs/**']))).status).toBe(0)
    const sitemap = `http://127.0.0.1:${(site.address() as AddressInfo).port}/sitemap.xml`
    const added = await index(checkout, [...filesArgs(['docs/**']), '--sitemaps', sitemap])
    expect(added.status).toBe(0)
    const pages = (json: Record<string, unknown>) =>
      [...(json.uploaded as string[]), ...(json.updated as string[])].filter((name) =>
        name.startsWith('http'),
      )
    expect(pages(added.json).sort()).toEqual([
      sitemap.replace('sitemap.xml', 'one'),
      sitemap.replace('sitemap.xml', 'two'),
    ])

    const again = await index(checkout, [...filesArgs(['docs/**']), '--sitemaps', sitemap])
    expect(pages(again.json)).toEqual([])

    lastmod = new Date(Date.now() + 3_600_000).toISOString()
    const changed = await index(checkout, [...filesArgs(['docs/**']), '--sitemaps', sitemap])
    expect(pages(changed.json)).toEqual([sitemap.replace('sitemap.xml', 'one')])
  })
})
