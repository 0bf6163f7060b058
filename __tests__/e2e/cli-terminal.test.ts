// What a person reads in the terminal (issue 38 §3), from the built CLI: a service that refuses the
// connection on this machine is told at once with what to check, a result is said once, a missed
// --expect does not repeat the answer, and a misspelt field of a checks file is told the likely one.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { runCli, startServe } from '../helpers/cli.js'
import { CLI_KEYS as keys } from '../helpers/keys.js'
import { freePort } from '../helpers/ports.js'
import { makeWorkspace } from '../helpers/workspace.js'

const ORG = 'org-1'
const FLOW = 'flow-1'
const NODE = 'knowledgebase-1'
const IDS = ['--org-id', ORG, '--flow-id', FLOW]

const workspace = makeWorkspace({
  'docs/refunds.md': '# Refunds\n\nRefunds are granted within 14 days of purchase.\n',
  'docs/plans.md': '# Plans\n\nThe team plan costs 12 euros a month.\n',
})
let serve: Awaited<ReturnType<typeof startServe>>

beforeAll(async () => {
  serve = await startServe(['--flow', `${ORG}/${FLOW}/${NODE}`], keys)
  const indexed = runCli(
    ['index', '--base-url', serve.url, ...IDS, '--node-id', NODE, '--files', 'docs/**'],
    {
      cwd: workspace.dir,
      env: keys,
    },
  )
  expect(indexed.status).toBe(0)
})
afterAll(() => {
  serve.stop()
  workspace.remove()
})

const count = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].length

describe('a service on this machine that refuses the connection', () => {
  it('kb-sync index: fails at once, one request, naming the base URL, --base-url and kb-sync serve', async () => {
    const baseUrl = `http://127.0.0.1:${await freePort()}`
    // An hour to retry in, one batch per document: only not retrying ends this run.
    const run = runCli(
      [
        'index',
        '--base-url',
        baseUrl,
        ...IDS,
        '--node-id',
        NODE,
        '--files',
        'docs/**',
        '--batch-size',
        '1',
        '--retry-deadline',
        '3600',
      ],
      { cwd: workspace.dir, env: keys },
    )
    expect(run.status).toBe(1)
    expect(run.stdout).toMatch(/^Uploaded 0, updated 0, skipped 0, failed 2, .* \(1 request, /m)
    expect(run.stdout).toContain(
      `  2 × Nothing is listening at ${baseUrl} (ECONNREFUSED): check --base-url (its port), or start the ` +
        'local service with `kb-sync serve`. A refused connection on this machine is not retried;',
    )
  })

  it('kb-sync run: one error line at once, no retry announced', async () => {
    const baseUrl = `http://localhost:${await freePort()}`
    const run = runCli(
      ['run', '--base-url', baseUrl, ...IDS, '--question', 'refunds', '--retry-deadline', '3600'],
      {
        env: keys,
      },
    )
    expect(run.status).toBe(1)
    expect(run.stderr).toBe(
      `error: Nothing is listening at ${baseUrl} (ECONNREFUSED): check --base-url (its port), or start the ` +
        'local service with `kb-sync serve`. A refused connection on this machine is not retried; nothing ' +
        'more was sent.\n',
    )
  })
})

describe('a result said once', () => {
  it('a dry run with --verbose: each step on stderr, the result once', () => {
    const run = runCli(
      [
        'index',
        '--base-url',
        serve.url,
        ...IDS,
        '--node-id',
        NODE,
        '--files',
        'docs/**',
        '--dry-run',
        '--verbose',
      ],
      { cwd: workspace.dir, env: keys },
    )
    expect(run.status).toBe(0)
    expect(run.stderr).toContain('upsert document docs/refunds.md')
    const printed = `${run.stdout}\n${run.stderr}`
    expect(count(printed, /Dry run/g)).toBe(1)
    expect(count(printed, /nothing (was )?sent/gi)).toBe(1)
    expect(run.stdout).toContain('Dry run: 2 planned (')
  })

  it('a missed --expect: the answer on stdout, the error names --expect and the pattern without the answer', () => {
    const run = runCli(
      ['run', '--base-url', serve.url, ...IDS, '--question', 'refunds', '--expect', 'zebra'],
      {
        env: keys,
      },
    )
    expect(run.status).toBe(1)
    expect(run.stdout).toContain('Refunds are granted within 14 days of purchase.')
    expect(count(`${run.stdout}\n${run.stderr}`, /Refunds are granted within 14 days/g)).toBe(1)
    expect(run.stderr).toBe("error: The flow's answer (printed on stdout) does not match --expect (zebra).\n")
  })
})

describe('a checks file with a misspelt field', () => {
  it('names the check and the field, and the field it most likely means', () => {
    const file = join(workspace.dir, 'checks.yml')
    writeFileSync(file, '- name: refunds\n  inputs: {in-0: refunds}\n  contans: 14 days\n')
    const run = runCli(['run', '--base-url', serve.url, ...IDS, '--checks', file], { env: keys })
    expect(run.status).toBe(2)
    expect(run.stderr).toMatch(
      /^error: --checks \(.*checks\.yml\): check "refunds" \(#1\): unknown field\(s\) "contans" \(did you mean `contains`\?\) \(known: name, /,
    )
    expect(run.stdout).toBe('')
  })
})
