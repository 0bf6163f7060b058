// `kb-sync index --since`: the built CLI in a real checkout, the emulator as the service, and a local
// workflow-runs server for `--since last-success`.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { spawn } from 'node:child_process'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { GitFixture, type WorkingCopy } from '../helpers/git-fixture.js'
import { WorkflowRunsServer } from '../helpers/workflow-runs-server.js'
import { GITHUB_TOKEN, PRIVATE_KEY } from '../helpers/keys.js'
import { CLI } from '../helpers/cli.js'

let fixture: GitFixture
let author: WorkingCopy
let emulator: Emulator
let runs: WorkflowRunsServer
beforeEach(async () => {
  fixture = GitFixture.create()
  author = fixture.author()
  emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: 'pub-unused-key' })
  runs = new WorkflowRunsServer()
  await runs.start()
})
afterEach(async () => {
  await Promise.all([emulator.close(), runs.close()])
  fixture.cleanup()
})

/** The environment of a shell outside Actions: no GITHUB_* variables unless given. */
function environment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { KB_SYNC_PRIVATE_KEY: PRIVATE_KEY, ...extra }
  for (const name of ['PATH', 'HOME', 'TMPDIR']) if (process.env[name]) env[name] = process.env[name]
  return env
}

function index(cwd: string, args: string[], env = environment()) {
  const child = spawn(
    process.execPath,
    [
      CLI,
      'index',
      '--base-url',
      emulator.url,
      '--flow-id',
      'f',
      '--org-id',
      'o',
      '--node-id',
      'n',
      '--files',
      'docs/**',
      '--json',
      ...args,
    ],
    { cwd, env },
  )
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (status) => resolve({ status, stdout, stderr })),
  )
}

function threeCommits(): string {
  author.write('docs/a.md').write('docs/b.md')
  const first = author.commit('seed')
  author.write('docs/b.md', 'b, second\n').write('docs/c.md')
  author.commit('second')
  author.push()
  return first
}

describe('kb-sync index --since', () => {
  it('sends what changed from a commit to HEAD, fetching it into a depth-1 clone', async () => {
    const first = threeCommits()
    const run = await index(fixture.checkout().dir, ['--since', first])
    expect(run.status).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({ uploaded: ['docs/c.md', 'docs/b.md'], skipped: [] })
    expect(emulator.requests().flatMap((r) => r.documents?.map((d) => d.filename) ?? [])).not.toContain(
      'docs/a.md',
    )
  })

  it('exits 2 naming --since for a ref that names no commit', async () => {
    threeCommits()
    const run = await index(fixture.checkout().dir, ['--since', 'no-such-branch'])
    expect(run.status).toBe(2)
    expect(run.stderr).toContain('Option --since "no-such-branch" names no commit')
    expect(emulator.requests()).toEqual([])
  })

  it('exits 2 naming --since and --mode when the mode is not auto, before any request', async () => {
    const first = threeCommits()
    const run = await index(fixture.checkout().dir, ['--since', first, '--mode', 'upload'])
    expect(run.status).toBe(2)
    expect(run.stderr).toContain('Option --since needs --mode auto (got --mode upload).')
    expect(emulator.requests()).toEqual([])
  })

  it('needs the GITHUB_* variables for last-success, and uses the last successful run with them', async () => {
    const first = threeCommits()
    const checkout = fixture.checkout().dir
    const bare = await index(checkout, ['--since', 'last-success'])
    expect(bare.status).toBe(2)
    expect(bare.stderr).toContain('--since last-success needs the GITHUB_WORKFLOW_REF')

    runs.add({ head_sha: first, conclusion: 'success' })
    const run = await index(
      checkout,
      ['--since', 'last-success'],
      environment({
        GITHUB_WORKFLOW_REF: 'octo-org/docs/.github/workflows/docs.yml@refs/heads/main',
        GITHUB_REPOSITORY: 'octo-org/docs',
        GITHUB_REF: 'refs/heads/main',
        GITHUB_API_URL: runs.url,
        GITHUB_TOKEN,
      }),
    )
    expect(run.status).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({ uploaded: ['docs/c.md', 'docs/b.md'] })
    expect(runs.requests.map((r) => r.authorization)).toEqual([`token ${GITHUB_TOKEN}`])
    expect(run.stderr).not.toContain(GITHUB_TOKEN)
  })

  it('last-success with a GitHub API that never answers: every selected file once the budget is out', async () => {
    threeCommits()
    runs.failure = { hang: true }
    const github = {
      GITHUB_WORKFLOW_REF: 'octo-org/docs/.github/workflows/docs.yml@refs/heads/main',
      GITHUB_REPOSITORY: 'octo-org/docs',
      GITHUB_REF: 'refs/heads/main',
      GITHUB_API_URL: runs.url,
      GITHUB_TOKEN,
    }
    const checkout = fixture.checkout().dir
    const bad = await index(
      checkout,
      ['--since', 'last-success'],
      environment({ ...github, KB_SYNC_GITHUB_DEADLINE_SECONDS: 'soon' }),
    )
    expect(bad.status).toBe(2)
    expect(bad.stderr).toContain('KB_SYNC_GITHUB_DEADLINE_SECONDS must be a number of seconds')
    expect(runs.requests).toHaveLength(0)

    const run = await index(
      checkout,
      ['--since', 'last-success'],
      environment({ ...github, KB_SYNC_GITHUB_DEADLINE_SECONDS: '1.5' }),
    )
    expect(run.status).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({ uploaded: ['docs/a.md', 'docs/b.md', 'docs/c.md'] })
    expect(run.stderr).toContain(
      "GitHub's API did not answer within 1.5 s; it is not asked again in this run",
    )
    expect(runs.requests).toHaveLength(1)
  })

  it('names documents relative to --workspace, a folder inside the repository', async () => {
    const first = threeCommits()
    const checkout = fixture.checkout().dir
    const run = await index(checkout, ['--since', first, '--workspace', 'docs', '--files', '**/*.md'])
    expect(run.status).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({ uploaded: ['c.md', 'b.md'], skipped: [] })
    expect(emulator.requests().flatMap((r) => r.documents?.map((d) => d.filename) ?? [])).not.toContain(
      'a.md',
    )
  })

  it('reaches into a submodule that moved since the ref', async () => {
    const kb = GitFixture.create()
    try {
      const kbAuthor = kb.author()
      kbAuthor.write('a.md').write('b.md').commit('seed kb')
      kbAuthor.push()
      const first = author.write('docs/top.md').addSubmodule(kb.originUrl, 'docs/kb').commit('seed')
      kbAuthor.write('b.md', 'b, second\n').write('c.md')
      const kbAfter = kbAuthor.commit('change kb')
      kbAuthor.push()
      author.moveSubmodule('docs/kb', kbAfter).commit('move kb')
      author.push()

      const run = await index(fixture.checkout({ submodules: true }).dir, ['--since', first])
      expect(run.status).toBe(0)
      const outputs = JSON.parse(run.stdout) as { uploaded: string[] }
      expect(outputs.uploaded.sort()).toEqual(['docs/kb/b.md', 'docs/kb/c.md'])
    } finally {
      kb.cleanup()
    }
  })
})
