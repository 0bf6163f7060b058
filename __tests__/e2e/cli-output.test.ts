// What the built CLI prints: a short human summary on stdout by default, the markdown summary only in
// --summary-file, the outputs as one JSON object with --json, per-file lines only with --verbose,
// progress on stderr; and `serve --flow` answering 404 for a flow or node it was not told about.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { runCli, startServe } from '../helpers/cli.js'
import { makeWorkspace } from '../helpers/workspace.js'
import { CLI_KEYS as keys } from '../helpers/keys.js'

const ORG = 'org-1'
const FLOW = 'flow-1'
const NODE = 'knowledgebase-1'

let serve: Awaited<ReturnType<typeof startServe>>
const pages = Object.fromEntries(
  Array.from({ length: 12 }, (_, i) => [`pages/page-${String(i).padStart(2, '0')}.md`, `# Page ${i}\n`]),
)
const workspace = makeWorkspace({
  'docs/refunds.md': '# Refunds\n\nRefunds are granted within 14 days.\n',
  'docs/.draft.md': 'hidden draft',
  ...pages,
})

beforeAll(async () => {
  serve = await startServe(['--flow', `${ORG}/${FLOW}/${NODE}`], keys)
})
afterAll(() => {
  serve.stop()
  workspace.remove()
})

function index(args: string[], node = NODE, env: Record<string, string> = keys) {
  return runCli(
    ['index', '--base-url', serve.url, '--org-id', ORG, '--flow-id', FLOW, '--node-id', node, ...args],
    { cwd: workspace.dir, env },
  )
}

describe('kb-sync index output', () => {
  it('prints a short human summary by default: counts, the change set, skips by reason; no table', () => {
    const run = index(['--files', 'docs/**'])
    expect(run.status).toBe(0)
    expect(run.stdout.split('\n')).toEqual([
      'Change set: full sync (no GitHub event, run outside a workflow: every selected file)',
      expect.stringMatching(
        /^Uploaded 1, updated 0, skipped 1, failed 0, removed from answers 0, left in the knowledge base 0 \(\d+ requests, [\d.]+ s\)\.$/,
      ),
      'Skipped by reason: 1 × hidden.',
      'Each file: --verbose; the markdown summary: --summary-file PATH.',
      '',
    ])
    // No per-file lines without --verbose.
    expect(run.stderr).not.toContain('docs/refunds.md')
    expect(run.stderr).not.toContain('docs/.draft.md')
  })

  it('--verbose adds each step and each file on stderr; stdout keeps the summary', () => {
    const run = index(['--files', 'docs/**', '--verbose'])
    expect(run.status).toBe(0)
    expect(run.stderr).toContain('docs/refunds.md')
    expect(run.stderr).toContain('Skipped docs/.draft.md')
    expect(run.stdout).toMatch(/^Uploaded 0, updated 1, /m)
    expect(run.stdout).not.toContain('Each file: --verbose')
  })

  it('--summary-file writes the markdown summary; stdout stays the short one', () => {
    const file = join(workspace.dir, 'summary.md')
    const run = index(['--files', 'docs/**', '--summary-file', file])
    expect(run.status).toBe(0)
    const markdown = readFileSync(file, 'utf8')
    expect(markdown).toContain('## Knowledge base sync')
    expect(markdown).toContain('<details><summary>Updated (1)</summary>')
    expect(run.stdout).not.toContain('|')
  })

  it('--summary-file masks a key in the names it lists, also where markdown escapes it', () => {
    // A key with `_`, which the markdown writes as `\_`: masked before rendering, not only in the file.
    const key = 'sk_cli_summary_0123456789'
    const named = makeWorkspace({
      'docs/a.md': '# A\n',
      [`docs/.${key}.md`]: 'hidden, so listed as skipped by its name\n',
    })
    try {
      const file = join(named.dir, 'summary.md')
      const ids = ['--base-url', serve.url, '--org-id', ORG, '--flow-id', FLOW, '--node-id', NODE]
      const run = runCli(['index', ...ids, '--files', 'docs/**', '--dry-run', '--summary-file', file], {
        cwd: named.dir,
        env: { KB_SYNC_PRIVATE_KEY: key },
      })
      expect(run.status).toBe(0)
      const markdown = readFileSync(file, 'utf8')
      expect(markdown).toContain('docs/.\\*\\*\\*.md')
      expect(markdown).not.toContain(key)
      expect(markdown).not.toContain(key.replaceAll('_', '\\_'))
    } finally {
      named.remove()
    }
  })

  it("--report-file writes every output, uncut, as the action's report file", () => {
    const file = join(workspace.dir, 'report.json')
    const run = index(['--files', 'docs/**', '--report-file', file])
    expect(run.status).toBe(0)
    const report = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
    expect([...(report.uploaded as string[]), ...(report.updated as string[])]).toEqual(['docs/refunds.md'])
    expect(report.skipped).toEqual(['docs/.draft.md'])
    expect(report).toMatchObject({ 'skipped-count': 1, 'failed-count': 0, failed: [], 'base-source': 'none' })
    expect((report['uploaded-count'] as number) + (report['updated-count'] as number)).toBe(1)
    expect(readFileSync(file, 'utf8')).not.toContain(keys.KB_SYNC_PRIVATE_KEY)
  })

  it('--json prints the outputs as one JSON object, with the flow answer when the flow ran', () => {
    const run = index(['--files', 'docs/**', '--json', '--flow-inputs', '{"in-0": "refunds"}'])
    expect(run.status).toBe(0)
    const outputs = JSON.parse(run.stdout) as Record<string, unknown>
    expect(outputs).toEqual({
      uploaded: [],
      updated: ['docs/refunds.md'],
      skipped: ['docs/.draft.md'],
      failed: [],
      removed: [],
      left: [],
      base: '',
      'base-source': 'none',
      shard: '',
      planned: [],
      result: expect.stringContaining('14 days'),
      response: expect.objectContaining({ outputs: expect.any(Object) }),
      outputs: expect.objectContaining({ 'out-0': expect.stringContaining('14 days') }),
    })
  })

  it('a dry run says what would be sent', () => {
    const run = index(['--files', 'docs/**', '--dry-run'])
    expect(run.status).toBe(0)
    expect(run.stdout).toContain(
      // A full sync: whether the document is in the node is unknown.
      'Dry run: 1 planned (0 upload, 0 update, 1 upsert, 0 remove from answers), 1 skipped, 0 left in the knowledge base; nothing sent.',
    )
  })

  it('progress of a long run goes to stderr as periodic lines when stderr is not a terminal', () => {
    const run = index(['--files', 'pages/**', '--batch-size', '1', '--mode', 'upload'])
    expect(run.status).toBe(0)
    const progress = run.stderr.split('\n').filter((line) => line.startsWith('progress: '))
    expect(progress.length).toBeGreaterThanOrEqual(1)
    expect(progress.length).toBeLessThanOrEqual(10)
    expect(progress.at(-1)).toMatch(/^progress: 12\/12 batches \(100%\), .* sent$/)
    expect(run.stdout).not.toContain('progress')
    // A short run prints none.
    expect(index(['--files', 'docs/**']).stderr).not.toContain('progress: ')
  })
})

describe('kb-sync serve --flow', () => {
  it('a node it was not told about answers 404: every item fails, counted by cause, exit 1', () => {
    const run = index(['--files', 'docs/**'], 'knowledgebase-2')
    expect(run.status).toBe(1)
    expect(run.stdout).toContain('failed 1,')
    expect(run.stdout).toContain('Failed by cause: 1 × HTTP 404.')
    // Without --verbose: the cause itself, which says what to check.
    expect(run.stdout).toMatch(
      /^ {2}1 × The service has no knowledge base at .* Check --flow-id, --org-id and --node-id \(and --base-url\)\./m,
    )
  })

  it('a refused key: the cause says which key, without --verbose', () => {
    const run = index(['--files', 'docs/**'], NODE, { ...keys, KB_SYNC_PRIVATE_KEY: keys.KB_SYNC_PUBLIC_KEY })
    expect(run.status).toBe(1)
    expect(run.stdout).toMatch(
      /^ {2}1 × The service refused the key in KB_SYNC_PRIVATE_KEY \(or --private-key\) \(HTTP 403\)/m,
    )
    expect(run.stdout).not.toContain(keys.KB_SYNC_PUBLIC_KEY)
  })

  it('a mistyped flow id of a run answers 404', () => {
    const base = ['run', '--base-url', serve.url, '--org-id', ORG, '--inputs', '{"in-0": "refunds"}']
    const known = runCli([...base, '--flow-id', FLOW], { env: keys })
    expect(known.status).toBe(0)
    const typo = runCli([...base, '--flow-id', 'flow-l'], { env: keys })
    expect(typo.status).toBe(1)
    expect(typo.stderr).toContain('404')
    // Named as the CLI user gave them, not as the action's inputs.
    expect(typo.stderr).toContain(
      'check --org-id and --flow-id (the run path names the organization first), and --base-url.',
    )
    expect(typo.stderr).not.toContain('"org-id"')
    expect(typo.stderr).not.toMatch(/^\s+at /m)
  })

  it('a refused flow key names the variable it came from, or the flag', () => {
    const base = ['run', '--base-url', serve.url, '--org-id', ORG, '--flow-id', FLOW, '--question', 'refunds']
    const fromEnv = runCli(base, { env: { ...keys, KB_SYNC_PUBLIC_KEY: keys.KB_SYNC_PRIVATE_KEY } })
    expect(fromEnv.status).toBe(1)
    expect(fromEnv.stderr).toContain(
      'refused the key of the flow run (HTTP 403): check KB_SYNC_PUBLIC_KEY (or --public-key)',
    )
    const fromFlag = runCli([...base, '--public-key', keys.KB_SYNC_PRIVATE_KEY], { env: keys })
    expect(fromFlag.stderr).toContain('(HTTP 403): check --public-key — ')
    for (const run of [fromEnv, fromFlag]) expect(run.stderr).not.toContain(keys.KB_SYNC_PRIVATE_KEY)
  })

  it('--json of run prints result, response and outputs', () => {
    const run = runCli(
      [
        'run',
        '--base-url',
        serve.url,
        '--org-id',
        ORG,
        '--flow-id',
        FLOW,
        '--inputs',
        '{"in-0": "x"}',
        '--json',
      ],
      { env: keys },
    )
    expect(run.status).toBe(0)
    expect(Object.keys(JSON.parse(run.stdout) as object)).toEqual(['result', 'response', 'outputs'])
  })
})
