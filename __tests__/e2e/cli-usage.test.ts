// User errors of the built CLI: exit 2, one line on stderr naming the flag, nothing on stdout, no stack
// trace; --version; a port in use is a failure (exit 1), also one line.
import { describe, expect, it } from '@jest/globals'
import { spawn, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { CLI, runCli } from '../helpers/cli.js'
import { ROOT } from '../helpers/run-action.js'
import { ok, startRecordingServer } from '../helpers/recording-server.js'

const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version
const ids = ['--flow-id', 'flow-1', '--org-id', 'org-1']
const indexArgs = ['index', '--base-url', 'http://127.0.0.1:9', ...ids, '--node-id', 'kb-1', '--files', 'x']
const onlyPrivateKey = { KB_SYNC_PRIVATE_KEY: 'private-key-1', KB_SYNC_PUBLIC_KEY: '' }

function expectOneLine(stderr: string, ...words: string[]): void {
  const lines = stderr.trimEnd().split('\n')
  expect(lines).toHaveLength(1)
  expect(lines[0]).toMatch(/^error: /)
  for (const word of words) expect(lines[0]).toContain(word)
  expect(stderr).not.toMatch(/^\s+at /m)
}

describe('kb-sync as a command', () => {
  // -V here, --version through npx below: each is one start of the bundle.
  it('package.json names the bundle as the bin; it runs by itself (interpreter line, executable); -V prints the version', () => {
    const bin = (
      JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> }
    ).bin
    expect(join(ROOT, bin['kb-sync'])).toBe(CLI)
    expect(readFileSync(CLI, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node')
    const run = spawnSync(CLI, ['-V'], { encoding: 'utf8' })
    expect(run.status).toBe(0)
    expect(run.stdout.trim()).toBe(version)
  })

  it('`npx kb-sync` runs it inside the clone (offline: never fetched from a registry); --version', () => {
    const run = spawnSync('npm', ['exec', '--offline', '--yes=false', '--', 'kb-sync', '--version'], {
      cwd: ROOT,
      encoding: 'utf8',
    })
    expect(run.status).toBe(0)
    expect(run.stdout.trim()).toBe(version)
  })
})

// Commander's own usage errors are tested in process (__tests__/cli/usage.test.ts); here, one of them
// through the bundle, and the errors found by the commands and the config: one case per flag whose path
// checkPaths checks (each of its cases is in __tests__/cli/check-paths.test.ts).
describe('bad flags and values exit 2 with one line naming the flag', () => {
  const cases: [string, string[], string][] = [
    ['unknown option', ['index', '--flw-id', 'x'], '--flw-id'],
    [
      'serve with the same two keys',
      ['serve', '--private-key', 'same', '--public-key', 'same'],
      '--public-key',
    ],
    ['a value the action would refuse', [...indexArgs, '--batch-size', '0'], '--batch-size'],
    [
      'run without inputs',
      ['run', '--base-url', 'http://127.0.0.1:9', ...ids, '--public-key', 'pk'],
      '--inputs',
    ],
    ['workspace missing', [...indexArgs, '--workspace', '/nonexistent/workspace'], '--workspace'],
    [
      'summary file in a missing folder',
      [...indexArgs, '--summary-file', '/nonexistent/s.md'],
      '--summary-file',
    ],
    ['report file is a folder', [...indexArgs, '--report-file', ROOT], '--report-file'],
    [
      'run: summary file in a missing folder',
      [
        'run',
        '--base-url',
        'http://127.0.0.1:9',
        ...ids,
        '--public-key',
        'pk',
        '--inputs',
        '{"in-0":"q"}',
        '--summary-file',
        '/nonexistent/s.md',
      ],
      '--summary-file',
    ],
  ]

  it.each(cases)('%s', (_, args, flag) => {
    const run = runCli(args, { env: onlyPrivateKey })
    expect(run.status).toBe(2)
    expect(run.stdout).toBe('')
    expectOneLine(run.stderr, flag)
  })

  it('an unknown option given with a value: the option is named, the value (maybe a key) is not shown', () => {
    const run = runCli([...indexArgs, '--privat-key=sk-live-secret-123'], { env: onlyPrivateKey })
    expect(run.status).toBe(2)
    expectOneLine(run.stderr, "'--privat-key=")
    expect(run.stderr).not.toContain('sk-live')
  })

  it('a bad --summary-file is found before any request is sent', async () => {
    const service = await startRecordingServer(ok)
    // Asynchronous: the server answers from this process, which spawnSync would block.
    const index = (...extra: string[]) =>
      new Promise<{ status: number | null; stderr: string }>((resolve) => {
        const args = [
          'index',
          '--base-url',
          service.url,
          ...ids,
          '--node-id',
          'kb-1',
          '--files',
          'package.json',
        ]
        const child = spawn(process.execPath, [CLI, ...args, ...extra], {
          cwd: ROOT,
          env: { ...process.env, ...onlyPrivateKey },
          stdio: ['ignore', 'ignore', 'pipe'],
        })
        let stderr = ''
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
        child.on('close', (status) => resolve({ status, stderr }))
      })
    try {
      expect((await index()).status).toBe(0)
      const sent = service.requests.length
      expect(sent).toBeGreaterThan(0)
      const refused = await index('--summary-file', '/nonexistent/s.md')
      expect(refused.status).toBe(2)
      expectOneLine(refused.stderr, '--summary-file', '/nonexistent/s.md')
      expect(service.requests).toHaveLength(sent)
    } finally {
      await service.close()
    }
  })

  it('a missing key names the flag and the environment variable', () => {
    const run = runCli(indexArgs, { env: { KB_SYNC_PRIVATE_KEY: '' } })
    expect(run.status).toBe(2)
    expectOneLine(run.stderr, '--private-key', 'KB_SYNC_PRIVATE_KEY')
  })

  it('several bad values: one line each, every flag named', () => {
    const run = runCli([...indexArgs, '--node-id', '..', '--batch-size', '0', '--concurrency', 'many'], {
      env: { KB_SYNC_PRIVATE_KEY: 'k' },
    })
    expect(run.status).toBe(2)
    const lines = run.stderr.trimEnd().split('\n')
    expect(lines).toHaveLength(3)
    for (const [index, flag] of ['--node-id', '--batch-size', '--concurrency'].entries()) {
      expect(lines[index]).toMatch(new RegExp(`^error: ${flag} `))
    }
  })
})

describe('kb-sync serve failures', () => {
  it('a port in use: exit 1, one line naming the address, no stack trace', async () => {
    const blocker = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const { port } = blocker.address() as { port: number }
    try {
      const run = runCli(['serve', '--port', String(port)])
      expect(run.status).toBe(1)
      expectOneLine(run.stderr, `127.0.0.1:${port}`, 'EADDRINUSE')
    } finally {
      blocker.close()
    }
  })
})
