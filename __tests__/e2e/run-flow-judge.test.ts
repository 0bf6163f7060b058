// The built run-flow action grading answers with a judge flow: the emulator's deterministic judge
// (a flow id it answers as a judge, scoring by the rubric's key terms) against `similar`, which cannot
// tell a paraphrase from a wrong answer with the same words. What the judge is sent, its score and
// reason in the table, an answer out of shape (an error naming the judge flow, never a pass), the
// score threshold, 2-of-3 repeats graded for real, and judge runs counted in max-runs.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createMissPicker } from '../../src/emulator/flow.js'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { ServiceClient } from '../../src/service/client.js'
import { runCliAsync } from '../helpers/cli.js'
import { startCommentsServer, type CommentsServer } from '../helpers/github-comments-server.js'
import { GITHUB_TOKEN, PRIVATE_KEY, PUBLIC_KEY } from '../helpers/keys.js'
import { startRecordingServer } from '../helpers/recording-server.js'
import { runAction } from '../helpers/run-action.js'
import { makeWorkspace } from '../helpers/workspace.js'
import { pullRequestExample } from '../helpers/webhook-examples.js'
import { structureOf } from '../report/gfm.js'

const ORG = 'b2a1c3d4-0000-4000-8000-000000000001'
const target = { orgId: ORG, flowId: '65f0c0ffee0000000000beef', nodeId: 'knowledgebase-1' }
const JUDGE = '65f0c0ffee00000000009d9e'
const payload = pullRequestExample('synchronize')

const REFUNDS = 'How long are refunds granted?'
const SHIPPING = 'How long does shipping take?'

// The knowledge base paraphrases the refund policy (right, in other words) and states the shipping
// time wrongly (the reference's words, one number changed).
const SUITE = [
  '- name: refunds by similarity',
  `  inputs: {in-0: "${REFUNDS}"}`,
  "  similar: {reference: 'Refunds are granted within 14 days of a payment.', min-similarity: 0.5}",
  '- name: refunds by the judge',
  `  inputs: {in-0: "${REFUNDS}"}`,
  `  rubric: 'Says refunds are granted for "14 days" and that the customer gets their "money back".'`,
  "  equals: 'Refunds are granted within 14 days of a payment.'",
  '- name: shipping by similarity',
  `  inputs: {in-0: "${SHIPPING}"}`,
  "  similar: {reference: 'Shipping takes 3 business days.', min-similarity: 0.5}",
  '- name: shipping by the judge',
  `  inputs: {in-0: "${SHIPPING}"}`,
  `  rubric: 'Says shipping takes "3 business days".'`,
].join('\n')

let emulator: Emulator
let github: CommentsServer
let workspace: ReturnType<typeof makeWorkspace>
let runnerTemp: string
/** The emulator the cases of 'graded by a judge flow' share; each of them counts from `mark` on. */
let shared: Emulator | undefined
let mark = 0

async function startWith(
  options: { seed?: number; missRate?: number; inject?: Parameters<typeof startEmulator>[0]['inject'] } = {},
) {
  emulator = await startEmulator({
    privateKey: PRIVATE_KEY,
    publicKey: PUBLIC_KEY,
    judgeFlows: [JUDGE],
    ...options,
  })
  mark = 0
  const client = new ServiceClient({ baseUrl: emulator.url, privateKey: PRIVATE_KEY })
  await client.uploadDocuments(target, [
    { name: 'refunds.md', path: `${workspace.dir}/refunds.md` },
    { name: 'shipping.md', path: `${workspace.dir}/shipping.md` },
  ])
  await client.close()
}

beforeAll(() => {
  workspace = makeWorkspace({
    'refunds.md': '# Refunds\n\nYou get your money back up to two weeks (14 days) after paying.\n',
    'shipping.md': '# Shipping\n\nShipping takes 5 business days.\n',
    'ci/checks.yml': SUITE,
  })
  runnerTemp = mkdtempSync(join(tmpdir(), 'kb-sync-judge-'))
})
afterAll(() => {
  workspace.remove()
  rmSync(runnerTemp, { recursive: true, force: true })
})
beforeEach(async () => {
  github = await startCommentsServer({ owner: 'octo-org', repo: 'docs' })
})
afterEach(async () => {
  await github.close()
  if (emulator !== shared) await emulator?.close()
})

function runFlow(inputs: Record<string, string>, baseUrl = emulator.url) {
  return runAction({
    action: 'run-flow/action.yml',
    eventName: 'pull_request',
    payload,
    workspace: workspace.dir,
    inputs: {
      'base-url': baseUrl,
      'flow-id': target.flowId,
      'org-id': ORG,
      'public-key': PUBLIC_KEY,
      'github-token': GITHUB_TOKEN,
      'judge-flow-id': JUDGE,
      ...inputs,
    },
    env: { GITHUB_API_URL: github.url, RUNNER_TEMP: runnerTemp },
  })
}

const decoded = (stdout: string) => stdout.replace(/%25/g, '%')
const ours = () => github.comments.filter((c) => c.body.startsWith('<!-- kb-sync'))
/** The requests the emulator answered in this case. */
const made = () => emulator.requests().slice(mark)
const judgeRuns = () => made().filter((r) => r.path === `/inference/v0/run/${ORG}/${JUDGE}`)
const flowRuns = () => made().filter((r) => r.path === `/inference/v0/run/${ORG}/${target.flowId}`)

// One emulator for the cases below (it keeps no state between runs but the request log): each case
// counts the requests it made itself.
describe('graded by a judge flow', () => {
  beforeAll(async () => {
    await startWith()
    shared = emulator
  })
  afterAll(async () => {
    await shared?.close()
    shared = undefined
  })
  beforeEach(() => {
    emulator = shared!
    mark = emulator.requests().length
  })

  it('the judge passes the paraphrase similar fails, and fails the wrong answer similar passes', async () => {
    const run = await runFlow({ checks: 'ci/checks.yml', threshold: '0%' })
    expect(run.status).toBe(0)
    // One judge run per run of a check with a rubric, with the question, the answer, the rubric and the
    // reference (here the check's equals) as in-0 to in-3.
    expect(flowRuns()).toHaveLength(4)
    expect(judgeRuns()).toHaveLength(2)
    const sent = judgeRuns().find((r) => r.inputs?.['in-0'] === REFUNDS)!.inputs!
    expect(sent['in-1']).toContain('You get your money back up to two weeks (14 days) after paying.')
    expect(sent['in-2']).toBe(
      'Says refunds are granted for "14 days" and that the customer gets their "money back".',
    )
    expect(sent['in-3']).toBe('Refunds are granted within 14 days of a payment.')
    expect(judgeRuns().find((r) => r.inputs?.['in-0'] === SHIPPING)!.inputs!['in-3']).toBe('')

    for (const markdown of [run.summary, ours()[0].body]) {
      const s = structureOf(markdown)
      expect(s.tables[0].header).toEqual([
        'Check',
        'Question',
        'Verdict',
        'Runs',
        'Seconds',
        'Judge',
        'First failed assertion',
      ])
      const rows = Object.fromEntries(s.tables[0].rows.map((row) => [row[0], row]))
      expect(rows['refunds by similarity'][2]).toBe('❌ failed')
      expect(rows['refunds by similarity'][6]).toMatch(/^similar 0\.50: similarity 0\.[0-4]\d$/)
      expect(rows['shipping by similarity'][2]).toBe('✅ passed')
      // The judge: right by meaning (the equals fails, the rubric passes), wrong for the wrong number.
      expect(rows['refunds by the judge'][5]).toBe('1.00 · The answer has every key term of the rubric (2).')
      expect(rows['refunds by the judge'][6]).toMatch(/^equals "Refunds are granted/)
      expect(rows['shipping by the judge'].slice(2, 3)).toEqual(['❌ failed'])
      expect(rows['shipping by the judge'][5]).toBe(
        '0.00 · The answer has 0 of 1 key terms of the rubric; missing: "3 business days".',
      )
      expect(rows['shipping by the judge'][6]).toBe(
        'rubric: the judge says fail (score 0.00): The answer has 0 of 1 key terms of the rubric; missing: "3 business days".',
      )
      expect(markdown).toContain('4 runs made (and 2 judge runs); median ')
    }
    const file = JSON.parse(readFileSync(run.outputs['results-file'], 'utf8')) as {
      results: { name: string; judge?: { verdict: string; score: number; run_id: string | null } }[]
    }
    const shipping = file.results.find((r) => r.name === 'shipping by the judge')!
    expect(shipping.judge).toMatchObject({ verdict: 'fail', score: 0 })
    expect(shipping.judge!.run_id).toMatch(/^[0-9a-f-]{36}$/)
    expect(file.results.find((r) => r.name === 'refunds by similarity')!.judge).toBeUndefined()
  })

  it('judge-min-score: a pass scored below it fails the rubric; at or above it passes', async () => {
    const partial = [
      '- name: refund window',
      `  inputs: {in-0: "${REFUNDS}"}`,
      `  rubric: 'Mentions "14 days", "money back", "receipt" and "store credit".'`,
    ].join('\n')
    const low = await runFlow({ checks: partial, 'judge-min-score': '0.6' })
    expect(low.status).toBe(1)
    expect(low.summary).toContain(
      'rubric: score 0.50 is below "judge-min-score" 0.6 (the judge says pass): The answer has 2 of 4 key terms',
    )
    const met = await runFlow({ checks: partial, 'judge-min-score': '0.5' })
    expect(met.status).toBe(0)
    expect(structureOf(met.summary).tables[0].rows[0][5]).toMatch(/^0\.50 · The answer has 2 of 4 key terms/)
  })

  it('a judge flow whose answer is out of shape: a 💥 error naming it, never a pass', async () => {
    // A flow that is no judge (an empty knowledge base's flow of the emulator): it answers prose.
    const other = '65f0c0ffee000000000a11ce'
    const suite = SUITE.split('\n- name: shipping by similarity')[0]
    // An error is not a pass: at the threshold of 100% the step fails.
    const run = await runFlow({ checks: suite, 'judge-flow-id': other })
    expect(run.status).toBe(1)
    expect(decoded(run.stdout)).toContain('Failed checks: "refunds by similarity", "refunds by the judge".')
    const row = structureOf(run.summary).tables[0].rows.find((r) => r[0] === 'refunds by the judge')!
    expect(row[2]).toBe('💥 error')
    expect(row[5]).toBe('')
    const file = JSON.parse(readFileSync(run.outputs['results-file'], 'utf8')) as {
      results: { name: string; verdict: string; failed: string[] }[]
    }
    const judged = file.results.find((r) => r.name === 'refunds by the judge')!
    expect(judged.verdict).toBe('error')
    expect(judged.failed.at(-1)).toMatch(
      new RegExp(
        `^judge flow ${other} answered out of shape: its out-0 is not a JSON object \\(it starts "No documents indexed`,
      ),
    )
    expect(judged.failed.at(-1)).toContain('a judge flow answers {"verdict": "pass" | "fail"')
  })

  it('max-runs counts the judge runs: refused before any request, naming them', async () => {
    const recorder = await startRecordingServer((_request, response) => response.end('{}'))
    try {
      const run = await runFlow({ checks: SUITE, repeat: '2', 'max-runs': '11' }, recorder.url)
      expect(run.status).toBe(1)
      expect(recorder.requests).toHaveLength(0)
      expect(run.stdout).toContain(
        'The checks would start 12 runs (4 checks, repeats and judge runs included), more than "max-runs" allows (11)',
      )
    } finally {
      await recorder.close()
    }
    const fits = await runFlow({ checks: SUITE, repeat: '2', 'max-runs': '12', threshold: '0%' })
    expect(fits.status).toBe(0)
    expect(flowRuns()).toHaveLength(8)
    expect(judgeRuns()).toHaveLength(4)
  })

  it('with a baseline flow: both sides graded, the Judge column before → after, max-runs counting all', async () => {
    const empty = '65f0c0ffee0000000000b0f0'
    const suite = SUITE.split('\n- name: shipping by similarity')[0]
    const refused = await runFlow({ checks: suite, 'baseline-flow-id': empty, 'max-runs': '5' })
    expect(refused.stdout).toContain(
      'The checks would start 6 runs (2 checks, repeats, judge runs and the baseline flow included), more than "max-runs" allows (5)',
    )
    const run = await runFlow({ checks: suite, 'baseline-flow-id': empty, 'fail-on': 'regression' })
    expect(run.status).toBe(0)
    expect(judgeRuns()).toHaveLength(2)
    const s = structureOf(run.summary)
    expect(s.tables[0].header).toEqual([
      'Check',
      'Question',
      'Change',
      'Before',
      'After',
      'Judge',
      'Similarity',
    ])
    const judged = s.tables[0].rows.find((row) => row[0] === 'refunds by the judge')!
    expect(judged[5]).toBe('0.00 → 1.00 · The answer has every key term of the rubric (2).')
    expect(s.tables[0].rows.find((row) => row[0] === 'refunds by similarity')![5]).toBe('– → –')
    expect(run.summary).toContain('4 runs made on both flows (and 2 judge runs);')
  })

  it('a rubric without judge-flow-id is refused before any run, naming the input and the check', async () => {
    const run = await runFlow({ checks: SUITE, 'judge-flow-id': '' })
    expect(run.status).toBe(1)
    expect(decoded(run.stdout)).toContain(
      '::error::Input "judge-flow-id" is required: checks "refunds by the judge", "shipping by the judge" have a rubric, which a judge flow grades.',
    )
    expect(made().filter((r) => r.path.startsWith('/inference/'))).toHaveLength(0)
  })

  it('kb-sync run --judge-flow-id grades the same way', async () => {
    const run = await runCliAsync(
      [
        'run',
        '--base-url',
        emulator.url,
        '--org-id',
        ORG,
        '--flow-id',
        target.flowId,
        '--judge-flow-id',
        JUDGE,
        '--judge-min-score',
        '0.9',
        '--checks',
        'ci/checks.yml',
        '--threshold',
        '0%',
      ],
      { cwd: workspace.dir, env: { KB_SYNC_PUBLIC_KEY: PUBLIC_KEY } },
    )
    expect(run.status).toBe(0)
    expect(run.stdout).toMatch(/\| refunds by the judge \| .* \| 1\.00 · The answer has every key term/)
    expect(run.stdout).toContain('rubric: the judge says fail (score 0.00)')
    expect(judgeRuns()).toHaveLength(2)
  })
})

describe("the judge run under the suite's retries", () => {
  it('a judge run answered 429 is retried like a check run, then graded', async () => {
    let refused = 0
    await startWith({
      inject: ({ path }) => (path.endsWith(`/${JUDGE}`) && refused++ === 0 ? 'rate-limit' : undefined),
    })
    const suite = [
      '- name: refund window',
      `  inputs: {in-0: "${REFUNDS}"}`,
      `  rubric: 'Says "14 days".'`,
    ].join('\n')
    const run = await runFlow({ checks: suite })
    expect(run.status).toBe(0)
    expect(judgeRuns().map((r) => r.status)).toEqual([429, 200])
    expect(decoded(run.stdout)).toMatch(/Flow run attempt 1 did not start \(.*429/)
    expect(structureOf(run.summary).tables[0].rows[0][5]).toBe(
      '1.00 · The answer has every key term of the rubric (1).',
    )
  })
})

describe("the judge run holds the check's concurrency slot", () => {
  beforeEach(() => startWith())

  it('concurrency 1: each judge run follows its check run before the next run starts', async () => {
    const suite = SUITE.replace(/ {2}similar: .*\n/g, '  rubric: \'Says "days".\'\n')
    const run = await runFlow({ checks: suite, concurrency: '1', threshold: '0%' })
    expect(run.status).toBe(0)
    const order = emulator
      .requests()
      .filter((r) => r.path.startsWith('/inference/'))
      .map((r) => (r.path.endsWith(JUDGE) ? 'judge' : 'flow'))
    expect(order).toEqual(['flow', 'judge', 'flow', 'judge', 'flow', 'judge', 'flow', 'judge'])
  })
})

describe('repeats graded by the judge', () => {
  const MISS_RATE = 0.5
  // A seed under which exactly one of the question's first three runs misses.
  const SEED = (() => {
    for (let seed = 1; ; seed++) {
      const missed = createMissPicker(seed, MISS_RATE)
      if ([1, 2, 3].filter(() => missed(REFUNDS)).length === 1) return seed
    }
  })()
  beforeEach(() => startWith({ seed: SEED, missRate: MISS_RATE }))

  it('2 of 3 runs graded pass: the check passes, the missed run failed by the judge', async () => {
    const suite = [
      '- name: refund window',
      `  inputs: {in-0: "${REFUNDS}"}`,
      `  rubric: 'Says "14 days".'`,
      '  repeat: 3',
      '  min-pass: 2',
    ].join('\n')
    const run = await runFlow({ checks: suite })
    expect(run.status).toBe(0)
    expect(judgeRuns()).toHaveLength(3)
    const row = structureOf(run.summary).tables[0].rows[0]
    expect(row[2]).toBe('✅ passed')
    expect(row[3]).toMatch(/^2\/3 \(run [123] failed\)$/)
    expect(row[6]).toMatch(/^run [123]: rubric: the judge says fail \(score 0\.00\)/)
    // The same three answers (a new emulator, the same seed) where every run must pass.
    await emulator.close()
    await startWith({ seed: SEED, missRate: MISS_RATE })
    const failing = await runFlow({ checks: suite.replace('min-pass: 2', 'min-pass: 3') })
    expect(failing.status).toBe(1)
    expect(structureOf(failing.summary).tables[0].rows[0][2]).toBe('❌ failed')
  })
})
