// The built run-flow action with advisory checks (`advisory: true`, and the `advisory-checks` input):
// reported with their verdict, apart ("Advisory: 2 failed"), never failing the step, the threshold nor
// `fail-on: regression` — against two flows of the emulator whose knowledge bases differ.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { ServiceClient } from '../../src/service/client.js'
import { startCommentsServer, type CommentsServer } from '../helpers/github-comments-server.js'
import { GITHUB_TOKEN, PRIVATE_KEY, PUBLIC_KEY } from '../helpers/keys.js'
import { runAction } from '../helpers/run-action.js'
import { makeWorkspace } from '../helpers/workspace.js'
import { pullRequestExample } from '../helpers/webhook-examples.js'
import { structureOf } from '../report/gfm.js'
import { junitSchemaErrors, parseJUnit } from '../helpers/junit-report.js'

const ORG = 'b2a1c3d4-0000-4000-8000-000000000001'
const after = { orgId: ORG, flowId: '65f0c0ffee0000000000beef', nodeId: 'knowledgebase-1' }
const before = { orgId: ORG, flowId: '65f0c0ffee0000000000b0f0', nodeId: 'knowledgebase-1' }
const payload = pullRequestExample('synchronize')

const SUITE = [
  '- name: refund window',
  '  inputs: {in-0: "How long are refunds granted?"}',
  '  contains: 14 days',
  '- name: support hours',
  '  inputs: {in-0: "When is support open?"}',
  '  contains: 24/7',
  '  advisory: true',
  '- name: shipping time',
  '  inputs: {in-0: "How long does shipping take?"}',
  '  contains: 3 business days',
].join('\n')

let emulator: Emulator
let github: CommentsServer
let workspace: ReturnType<typeof makeWorkspace>
let runnerTemp: string

beforeAll(async () => {
  emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY, flows: [after, before] })
  workspace = makeWorkspace({
    'new/refunds.md': '# Refunds\n\nRefunds are granted within 14 days of a payment.\n',
    'old/refunds.md': '# Refunds\n\nRefunds are granted within 30 days of a payment.\n',
    'old/shipping.md': '# Shipping\n\nShipping takes 3 business days.\n',
    'support.md': '# Support\n\nSupport is open from 9 to 5.\n',
    'ci/checks.yml': SUITE,
  })
  runnerTemp = mkdtempSync(join(tmpdir(), 'kb-sync-advisory-'))
  const client = new ServiceClient({ baseUrl: emulator.url, privateKey: PRIVATE_KEY })
  const doc = (name: string, path: string) => ({ name, path: `${workspace.dir}/${path}` })
  await client.uploadDocuments(after, [doc('refunds.md', 'new/refunds.md'), doc('support.md', 'support.md')])
  await client.uploadDocuments(before, [
    doc('refunds.md', 'old/refunds.md'),
    doc('shipping.md', 'old/shipping.md'),
    doc('support.md', 'support.md'),
  ])
  await client.close()
})
afterAll(async () => {
  await emulator.close()
  await github.close()
  workspace.remove()
  rmSync(runnerTemp, { recursive: true, force: true })
})
beforeEach(async () => {
  await github?.close()
  github = await startCommentsServer({ owner: 'octo-org', repo: 'docs' })
})

function runFlow(inputs: Record<string, string>) {
  return runAction({
    action: 'run-flow/action.yml',
    eventName: 'pull_request',
    payload,
    workspace: workspace.dir,
    inputs: {
      'base-url': emulator.url,
      'flow-id': after.flowId,
      'org-id': ORG,
      'public-key': PUBLIC_KEY,
      'github-token': GITHUB_TOKEN,
      checks: 'ci/checks.yml',
      ...inputs,
    },
    env: { GITHUB_API_URL: github.url, RUNNER_TEMP: runnerTemp },
  })
}

const decoded = (stdout: string) => stdout.replace(/%25/g, '%')
const ours = () => github.comments.filter((c) => c.body.startsWith('<!-- kb-sync'))

describe('advisory checks', () => {
  it('two advisory checks fail (the field and advisory-checks): reported apart, the step passes', async () => {
    const run = await runFlow({ 'advisory-checks': 'ship*' })
    expect(run.status).toBe(0)
    const advisory =
      'Advisory: 2 failed ("support hours", "shipping time"); not counted toward the threshold nor failing the step.'
    for (const markdown of [run.summary, ours()[0].body]) {
      expect(markdown).toContain('✅ 1 of 1 checks passed (100.0%); threshold 100%.')
      expect(markdown).toContain(advisory)
      const s = structureOf(markdown)
      expect(s.tables[0].rows.map((row) => [row[0], row[2]])).toEqual([['refund window', '✅ passed']])
      expect(s.html).toContain('<strong>Advisory checks</strong> (not counted toward the threshold)')
      expect(s.tables[1].rows.map((row) => [row[0], row[2]])).toEqual([
        ['support hours', '❌ failed'],
        ['shipping time', '❌ failed'],
      ])
      expect(s.summaries).toContain('support hours — ❌ failed · 0/1 · advisory')
    }
    expect(decoded(run.stdout)).toContain(`::notice::Flow checks: ${advisory}`)
    expect(decoded(run.stdout)).not.toContain('::warning::')
    expect(decoded(run.stdout)).not.toContain('::error::')
    expect([run.outputs.passed, run.outputs.failed]).toEqual(['1', '0'])
    const results = JSON.parse(run.outputs.results) as { name: string; advisory?: boolean }[]
    expect(results.map((r) => [r.name, r.advisory ?? false])).toEqual([
      ['refund window', false],
      ['support hours', true],
      ['shipping time', true],
    ])

    // Without advisory-checks the shipping check blocks: the same answers fail the step.
    const blocking = await runFlow({})
    expect(blocking.status).toBe(1)
    expect(decoded(blocking.stdout)).toContain('Failed checks: "shipping time".')
  })

  it('with a baseline, an advisory check that regressed is shown regressed and does not fail fail-on regression', async () => {
    const run = await runFlow({ 'advisory-checks': 'shipping time', 'baseline-flow-id': before.flowId })
    expect(run.status).toBe(0)
    const lead = 'This pull request fixes 1 check and breaks 1 (advisory).'
    for (const markdown of [run.summary, ours()[0].body]) {
      const s = structureOf(markdown)
      expect(s.html).toContain(`<strong>⚠️ ${lead}</strong>`)
      const rows = Object.fromEntries(s.tables[0].rows.map((row) => [row[0], row]))
      expect(rows['shipping time'].slice(2, 5)).toEqual([
        '🔴 regressed · advisory',
        '✅ passed · 1/1',
        '❌ failed · 0/1',
      ])
      expect(rows['support hours'][2]).toBe('❌ still failing · advisory')
      expect(rows['refund window'][2]).toBe('🟢 fixed')
      expect(markdown).toContain('Advisory: 2 failed ("support hours", "shipping time")')
    }
    expect(run.outputs.regressed).toBe('["shipping time"]')
    expect(decoded(run.stdout)).not.toContain('::error::')
  })

  // The same regression, blocking (only "support hours" advisory), in one run read by both cases.
  describe('with a baseline, the regression of a blocking check', () => {
    let run: Awaited<ReturnType<typeof runFlow>>
    beforeAll(async () => {
      // The cases' own beforeEach comes after this hook: the first case of a filtered run has no server yet.
      github ??= await startCommentsServer({ owner: 'octo-org', repo: 'docs' })
      run = await runFlow({
        'advisory-checks': 'support hours',
        'baseline-flow-id': before.flowId,
        'junit-file': 'true',
      })
    })

    it('fails fail-on regression', () => {
      expect(run.status).toBe(1)
      expect(decoded(run.stdout)).toContain(
        '::error::Flow checks: This pull request fixes 1 check and breaks 1. After:',
      )
    })

    // junit-file (#36 §3): the JUnit report at the output's path, valid, as a test reporter reads it.
    it('junit-file true: a JUnit report in RUNNER_TEMP, valid; regressed, fixed and advisory as reporters read them', async () => {
      expect(run.status).toBe(1)
      const path = run.outputs['junit-file']
      expect(dirname(path)).toBe(runnerTemp)
      const xml = readFileSync(path, 'utf8')
      expect(await junitSchemaErrors(xml)).toEqual([])
      const report = parseJUnit(xml)
      expect(report.cases.map((c) => [c.name, c.outcome, c.message ?? c.text])).toEqual([
        ['refund window', 'passed', undefined],
        [
          'support hours',
          'skipped',
          'Advisory check failed (never fails the step): still failing: contains "24/7": not found',
        ],
        ['shipping time', 'failure', 'regressed: contains "3 business days": not found'],
      ])
      expect(report.cases[0].output).toContain(
        'Change: fixed (failed on the baseline flow, passes on this one).',
      )
      expect(report.suite).toMatchObject({ tests: '3', failures: '1', errors: '0', skipped: '1' })
      expect(report.properties['baseline-flow']).toBe(`${ORG}/${before.flowId}`)
      expect(xml).not.toContain(PUBLIC_KEY)
    })
  })

  it('advisory-checks naming no check is refused before any run, listing the names', async () => {
    const runs = emulator.requests().length
    const run = await runFlow({ 'advisory-checks': 'shiping*, support hours' })
    expect(run.status).toBe(1)
    expect(decoded(run.stdout)).toContain(
      '::error::Input "advisory-checks" names no check with "shiping*" (check names: "refund window", "support hours", "shipping time"; "*" matches any characters).',
    )
    expect(emulator.requests().length).toBe(runs)
  })
})
