// The built run-flow action with repeats, against the emulator answering differently across runs
// (seeded), and what people read: the summary, the sticky comment (over a local GitHub REST server), the
// log and the results file. Also the single question's verdict, and a suite that cannot run.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createMissPicker } from '../../src/emulator/flow.js'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { ServiceClient } from '../../src/service/client.js'
import { startCommentsServer, type CommentsServer } from '../helpers/github-comments-server.js'
import { GITHUB_TOKEN, PRIVATE_KEY, PUBLIC_KEY } from '../helpers/keys.js'
import { startRecordingServer } from '../helpers/recording-server.js'
import { runAction } from '../helpers/run-action.js'
import { makeWorkspace } from '../helpers/workspace.js'
import { structureOf } from '../report/gfm.js'
import { pullRequestExample } from '../helpers/webhook-examples.js'

const target = {
  flowId: '65f0c0ffee0000000000beef',
  orgId: 'b2a1c3d4-0000-4000-8000-000000000001',
  nodeId: 'knowledgebase-1',
}
const payload = pullRequestExample('synchronize')

const QUESTION = 'How long are refunds granted?'
const MISS_RATE = 0.5
// A seed under which exactly one of the question's first three runs misses: a 2-of-3 pass for real.
const SEED = (() => {
  for (let seed = 1; ; seed++) {
    const missed = createMissPicker(seed, MISS_RATE)
    if ([1, 2, 3].filter(() => missed(QUESTION)).length === 1) return seed
  }
})()

const SUITE = [
  '- name: refund window',
  `  inputs: {in-0: "${QUESTION}"}`,
  '  contains: 14 days',
  '  repeat: 3',
  '  min-pass: 2',
  '- name: thirty days',
  '  inputs: {in-0: "Are refunds granted after 30 days?"}',
  '  contains: 30 days',
].join('\n')

let emulator: Emulator
let github: CommentsServer
let workspace: ReturnType<typeof makeWorkspace>
let runnerTemp: string

// A fresh emulator (its seeded misses start over), comments server and workspace.
async function setUp() {
  emulator = await startEmulator({
    privateKey: PRIVATE_KEY,
    publicKey: PUBLIC_KEY,
    seed: SEED,
    missRate: MISS_RATE,
  })
  github = await startCommentsServer({ owner: 'octo-org', repo: 'docs' })
  workspace = makeWorkspace({
    'refunds.md': '# Refunds\n\nRefunds are granted within 14 days of a payment.\n',
    'ci/checks.yml': SUITE,
  })
  runnerTemp = mkdtempSync(join(tmpdir(), 'kb-sync-repeats-'))
  const client = new ServiceClient({ baseUrl: emulator.url, privateKey: PRIVATE_KEY })
  await client.uploadDocuments(target, [{ name: 'refunds.md', path: `${workspace.dir}/refunds.md` }])
  await client.close()
}
async function tearDown() {
  await emulator.close()
  await github.close()
  workspace.remove()
  rmSync(runnerTemp, { recursive: true, force: true })
}

function runFlow(inputs: Record<string, string>, baseUrl = emulator.url) {
  return runAction({
    action: 'run-flow/action.yml',
    eventName: 'pull_request',
    payload,
    workspace: workspace.dir,
    inputs: {
      'base-url': baseUrl,
      'flow-id': target.flowId,
      'org-id': target.orgId,
      'public-key': PUBLIC_KEY,
      'github-token': GITHUB_TOKEN,
      ...inputs,
    },
    env: { GITHUB_API_URL: github.url, RUNNER_TEMP: runnerTemp },
  })
}

/** A workflow command's message as the runner shows it (`%` travels as `%25`). */
const decoded = (stdout: string) => stdout.replace(/%25/g, '%')

const ours = () => github.comments.filter((c) => c.body.startsWith('<!-- kb-sync'))

// One run of the suite, read by each case: what it reports, then what a later run that cannot start
// makes of its comment.
describe('repeats against answers that vary', () => {
  let run: Awaited<ReturnType<typeof runFlow>>
  beforeAll(async () => {
    await setUp()
    run = await runFlow({ checks: 'ci/checks.yml', threshold: '50%' })
  })
  afterAll(tearDown)

  it('a check passes 2 of 3 runs; the threshold met with a failed check is ⚠️ everywhere', () => {
    expect(run.status).toBe(0)
    const runs = emulator.requests().filter((r) => r.path.startsWith('/inference/'))
    expect(runs.filter((r) => r.inputs?.['in-0'] === QUESTION)).toHaveLength(3)
    expect(runs).toHaveLength(4)

    const verdict = '⚠️ 1 of 2 checks passed (50.0%); threshold 50% met, 1 failed.'
    for (const markdown of [run.summary, ours()[0].body]) {
      const s = structureOf(markdown)
      // As GitHub renders it: the verdict first, in bold; the failed check's row first; questions and
      // answers as quotes, which wrap (no code block around prose).
      expect(s.html.split('\n').find((line) => line.startsWith('<p>'))).toBe(
        `<p><strong>${verdict}</strong></p>`,
      )
      expect(s.html).toContain('<blockquote>\n<p>Are refunds granted after 30 days?</p>\n</blockquote>')
      expect(s.html).toContain(
        '<blockquote>\n<p>No passage of the indexed documents matches the question.</p>\n</blockquote>',
      )
      expect(s.html).not.toMatch(/<pre/)
      // The one code span is the comment's commit, in its footer.
      for (const code of s.html.matchAll(/<code>([^<]*)<\/code>/g)) expect(code[1]).toMatch(/^[0-9a-f]{12}$/)
      expect(s.tables[0].header).toEqual([
        'Check',
        'Question',
        'Verdict',
        'Runs',
        'Seconds',
        'First failed assertion',
      ])
      const [thirty, window] = s.tables[0].rows
      expect(window.slice(0, 3)).toEqual(['refund window', QUESTION, '✅ passed'])
      expect(window[3]).toMatch(/^2\/3 \(run [123] failed\)$/)
      expect(window[5]).toMatch(/^run [123]: contains "14 days": not found$/)
      expect(thirty.slice(0, 4)).toEqual([
        'thirty days',
        'Are refunds granted after 30 days?',
        '❌ failed',
        '0/1',
      ])
      expect(markdown).toContain('4 runs made; median ')
      expect(s.summaries[1]).toMatch(/^refund window — ✅ passed · 2\/3 \(run [123] failed\)$/)
    }
    // The log names the failed checks: it has no table.
    expect(decoded(run.stdout)).toContain(
      '::warning::Flow checks: 1 of 2 checks passed (50.0%); threshold 50% met with failed checks: "thirty days".',
    )
    expect([run.outputs.passed, run.outputs.failed]).toEqual(['1', '1'])

    // The results file: every run, its whole answer, its assertions and its time.
    const file = JSON.parse(readFileSync(run.outputs['results-file'], 'utf8')) as {
      results: { name: string; runs_passed: number; runs: Record<string, unknown>[] }[]
    }
    const window = file.results[0]
    expect([window.name, window.runs_passed, window.runs.length]).toEqual(['refund window', 2, 3])
    const missed = window.runs.filter((r) => r.verdict === 'failed')
    expect(missed).toHaveLength(1)
    expect(missed[0].failed).toEqual(['contains "14 days": not found'])
    expect(missed[0].answer).toBe('No passage of the indexed documents matches the question.')
    for (const r of window.runs) expect(typeof r.seconds).toBe('number')
    expect(window.runs.filter((r) => r.verdict === 'passed').map((r) => r.answer)).toEqual([
      expect.stringContaining('Refunds are granted within 14 days'),
      expect.stringContaining('Refunds are granted within 14 days'),
    ])
  })

  it('a later run that cannot start replaces the verdict in the comment, asking whether the job ran actions/checkout', async () => {
    expect(ours()).toHaveLength(1)
    const id = ours()[0].id
    expect(ours()[0].body).toContain('1 of 2 checks passed')

    const missing = await runFlow({ checks: 'ci/missing.yml' })
    expect(missing.status).toBe(1)
    expect(ours()).toHaveLength(1)
    expect(ours()[0].id).toBe(id)
    const body = ours()[0].body
    expect(body).not.toContain('1 of 2 checks passed')
    expect(body).toContain('Could not run')
    expect(body).toContain('did the job run actions/checkout before this step?')
    expect(body).toContain('ci/missing.yml')
  })
})

describe('repeats below the threshold', () => {
  beforeEach(setUp)
  afterEach(tearDown)

  it('below the threshold: ❌ counting the failed checks (the log names them), and the step fails', async () => {
    const run = await runFlow({ checks: SUITE.replace('min-pass: 2', 'min-pass: 3') })
    expect(run.status).toBe(1)
    const verdict = '**❌ 0 of 2 checks passed (0.0%), below the threshold 100%: 2 failed.**'
    expect(run.summary).toContain(verdict)
    expect(ours()[0].body).toContain(verdict)
    expect(decoded(run.stdout)).toContain(
      '::error::Flow checks: 0 of 2 checks passed (0.0%), below the threshold 100%. Failed checks: "refund window", "thirty days".',
    )
  })
})

describe('a suite that cannot run', () => {
  beforeEach(setUp)
  afterEach(tearDown)

  it('max-runs: refused before any request, naming the numbers', async () => {
    const recorder = await startRecordingServer((_request, response) => response.end('{}'))
    try {
      const run = await runFlow({ checks: SUITE, repeat: '2', 'max-runs': '3' }, recorder.url)
      expect(run.status).toBe(1)
      expect(recorder.requests).toHaveLength(0)
      const refusal =
        'The checks would start 5 runs (2 checks, repeats included), more than "max-runs" allows (3); no run was started.'
      expect(run.stdout).toContain(refusal)
      expect(ours()[0].body).toContain(refusal)
    } finally {
      await recorder.close()
    }
  })

  it('a refused key stops the suite after one run and says so in the comment', async () => {
    // One run in flight: with more, the runs already sent when the first refusal comes are refused too.
    const run = await runFlow({ checks: SUITE, 'public-key': 'not-the-key', concurrency: '1' })
    expect(run.status).toBe(1)
    expect(emulator.requests().filter((r) => r.path.startsWith('/inference/'))).toHaveLength(1)
    expect(ours()[0].body).toContain('Could not run')
    expect(ours()[0].body).toMatch(/refused the key/)
    expect(run.summary).toContain('Flow checks stopped')
  })
})

describe('the single question', () => {
  beforeEach(setUp)
  afterEach(tearDown)

  it('the summary has the verdict line of a suite of one', async () => {
    const passing = await runFlow({ inputs: JSON.stringify({ 'in-0': 'refunds' }), expect: '14 days' })
    expect(passing.status).toBe(0)
    expect(passing.summary).toContain('✅ 1 of 1 checks passed (100.0%); threshold 100%.')

    const failing = await runFlow({ inputs: JSON.stringify({ 'in-0': 'refunds' }), expect: 'thirty days' })
    expect(failing.status).toBe(1)
    const s = structureOf(failing.summary)
    expect(s.html).toContain(
      '<strong>❌ 0 of 1 checks passed (0.0%), below the threshold 100%: 1 failed.</strong>',
    )
    expect(s.html).toContain('<strong>Failed assertions</strong>')
    expect(s.html).toMatch(/does not match/)
    // The comment, too, reads as a suite of one: the question in its row.
    expect(structureOf(ours()[0].body).tables[0].rows[0].slice(0, 3)).toEqual([
      'flow run',
      'refunds',
      '❌ failed',
    ])
  })
})
