// The built CLI (dist/cli/index.js): serve, index and run, keys from the environment and never printed.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { runCli, startServe } from '../helpers/cli.js'
import { CLI_KEYS as keys } from '../helpers/keys.js'
import { makeWorkspace } from '../helpers/workspace.js'

const ids = ['--flow-id', '65f0c0ffee0000000000beef', '--org-id', 'b2a1c3d4-0000-4000-8000-000000000001']

let serve: Awaited<ReturnType<typeof startServe>>
let baseUrl: string
const workspace = makeWorkspace({
  'docs/refunds.md': '# Refunds\n\nRefunds are granted within 14 days.\n',
  'docs/x.txt': 'x',
})

beforeAll(async () => {
  serve = await startServe([], keys)
  baseUrl = serve.url
})
afterAll(() => {
  serve.stop()
  workspace.remove()
})

const cli = (args: string[]) => runCli(args, { cwd: workspace.dir, env: keys })

describe('kb-sync CLI', () => {
  it('indexes with the same pipeline and prints JSON outputs', () => {
    const run = cli([
      'index',
      '--base-url',
      baseUrl,
      ...ids,
      '--node-id',
      'knowledgebase-1',
      '--files',
      'docs/**/*.md',
      '--json',
    ])
    expect(run.status).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({ uploaded: ['docs/refunds.md'], failed: [] })
  })

  it('runs a suite with --checks: JSON results, exit 1 below --threshold, 0 at it', () => {
    const checks =
      '- name: window\n  inputs: {in-0: refunds}\n  contains: 14 days\n- name: never\n  inputs: {in-0: refunds}\n  contains: 90 days\n'
    const args = ['run', '--base-url', baseUrl, ...ids, '--checks', checks, '--json']
    const strict = cli(args)
    expect(strict.status).toBe(1)
    expect((JSON.parse(strict.stdout) as { verdict: string }[]).map((r) => r.verdict)).toEqual([
      'passed',
      'failed',
    ])
    expect(strict.stderr).toContain('below the threshold')
    expect(cli([...args, '--threshold', '50%']).status).toBe(0)
    expect(cli(['run', '--base-url', baseUrl, ...ids, '--checks', 'missing.yml']).status).toBe(2)
  })

  it('runs the flow and prints the answer; --expect fails the command when it does not match', () => {
    const ok = cli([
      'run',
      '--base-url',
      baseUrl,
      ...ids,
      '--inputs',
      '{"in-0": "refunds"}',
      '--expect',
      '14 days',
    ])
    expect(ok.status).toBe(0)
    expect(ok.stdout).toContain('14 days')
    const bad = cli([
      'run',
      '--base-url',
      baseUrl,
      ...ids,
      '--inputs',
      '{"in-0": "refunds"}',
      '--expect',
      '^nope$',
    ])
    expect(bad.status).toBe(1)
    expect(bad.stderr).toContain('does not match')
  })

  it('exits 2 naming the input on bad flags, and never prints a key', () => {
    const run = cli(['index', '--base-url', baseUrl, ...ids, '--node-id', '..', '--files', 'docs/**'])
    expect(run.status).toBe(2)
    expect(run.stderr).toContain('--node-id')
    const echo = cli([
      'run',
      '--base-url',
      baseUrl,
      ...ids,
      '--inputs',
      `{"in-0": "${keys.KB_SYNC_PUBLIC_KEY} ${keys.KB_SYNC_PRIVATE_KEY}"}`,
    ])
    for (const text of [run.stdout, run.stderr, echo.stdout, echo.stderr]) {
      expect(text).not.toContain(keys.KB_SYNC_PRIVATE_KEY)
      expect(text).not.toContain(keys.KB_SYNC_PUBLIC_KEY)
    }
  })

  it('has --help for each command', () => {
    for (const command of ['index', 'run', 'serve']) {
      const run = cli([command, '--help'])
      expect(run.status).toBe(0)
      expect(run.stdout).toContain(`Usage: kb-sync ${command}`)
    }
  })
})
