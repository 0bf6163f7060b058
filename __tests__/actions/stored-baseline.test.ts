// Which baseline the run-flow action compares with (#36 §5): the key of this run (the base commit of the
// event, the checks and the schema files they name, the repeat and judge settings), and the runs where
// no stored baseline can be looked up (no base commit, no artifact storage), which run it live.
import { afterEach, describe, expect, test } from '@jest/globals'
import { baseCommitOf, baselineKeyOf, planBaseline, storable } from '../../src/actions/stored-baseline.js'
import type { RunnerEnvironment } from '../../src/actions/runner.js'
import type { CheckResult } from '../../src/checks/verdict.js'
import { readRunConfig } from '../../src/config/run.js'
import { LookupBudget } from '../../src/github/lookup-budget.js'
import { recordingLog } from '../helpers/log.js'
import { makeWorkspace } from '../helpers/workspace.js'

const SHA = 'a'.repeat(40)
const SUITE = [
  '- name: refunds',
  '  inputs: {in-0: "How long are refunds granted?"}',
  '  contains: 14 days',
  '- name: shape',
  '  inputs: {in-0: "When is support open?"}',
  '  json-schema: ci/answer.schema.json',
].join('\n')

let workspace: ReturnType<typeof makeWorkspace> | undefined
afterEach(() => workspace?.remove())

function configOf(inputs: Record<string, string> = {}, files: Record<string, string> = {}) {
  workspace = makeWorkspace({
    'ci/checks.yml': SUITE,
    'ci/answer.schema.json': '{"type": "object"}',
    ...files,
  })
  const all: Record<string, string> = {
    'org-id': 'org-1',
    'flow-id': 'flow-staging',
    'public-key': 'pk-public-Canary0123456789',
    'baseline-flow-id': 'flow-prod',
    checks: 'ci/checks.yml',
    ...inputs,
  }
  const config = readRunConfig((name) => all[name] ?? '', {
    eventName: 'pull_request',
    workspace: workspace.dir,
  })
  workspace.remove()
  workspace = undefined
  return config
}
const keyOf = (inputs: Record<string, string> = {}, files: Record<string, string> = {}) => {
  const config = configOf(inputs, files)
  return baselineKeyOf(config, config.checks ?? [], SHA)
}

describe('the base commit the baseline stands for', () => {
  test.each([
    ['pull_request', { pull_request: { base: { sha: SHA, ref: 'main' } } }, { commit: SHA, ref: 'main' }],
    [
      'pull_request_target',
      { pull_request: { base: { sha: SHA, ref: 'main' } } },
      { commit: SHA, ref: 'main' },
    ],
    [
      'merge_group',
      { merge_group: { base_sha: SHA, base_ref: 'refs/heads/main' } },
      { commit: SHA, ref: 'main' },
    ],
    ['push', { before: SHA, after: 'b'.repeat(40) }, undefined],
    ['issue_comment', { issue: { number: 1, pull_request: {} } }, undefined],
    ['pull_request', { pull_request: { base: { sha: 'not-a-sha', ref: 'main' } } }, undefined],
  ])('%s', (eventName, payload, expected) => {
    expect(baseCommitOf(eventName, payload)).toEqual(expected)
  })
})

describe('the key of a run', () => {
  test('the checks text and each schema file a check names are in it; the threshold and flow-id are not', () => {
    const key = keyOf()
    expect(key).toEqual({
      host: 'api.stack-ai.com',
      baseline: { orgId: 'org-1', flowId: 'flow-prod' },
      commit: SHA,
      checks: expect.stringMatching(/^[0-9a-f]{64}$/),
      repeat: 1,
    })
    expect(keyOf({}, { 'ci/checks.yml': SUITE.replace('14 days', '15 days') }).checks).not.toBe(key.checks)
    expect(keyOf({}, { 'ci/answer.schema.json': '{"type": "array"}' }).checks).not.toBe(key.checks)
    expect(keyOf({ threshold: '50%', 'flow-id': 'flow-other', concurrency: '4' })).toEqual(key)
    expect(keyOf({ repeat: '3', 'min-pass': '2' })).toMatchObject({ repeat: 3, minPass: 2 })
    expect(keyOf({ 'base-url': 'https://kb.example.com' }).host).toBe('kb.example.com')
  })

  test('the judge flow is in it only when a check has a rubric it grades', () => {
    expect(keyOf({ 'judge-flow-id': 'flow-judge' }).judge).toBeUndefined()
    const graded = `${SUITE}\n  rubric: says the support hours`
    expect(
      keyOf({ 'judge-flow-id': 'flow-judge', 'judge-min-score': '0.8' }, { 'ci/checks.yml': graded }).judge,
    ).toEqual({ orgId: 'org-1', flowId: 'flow-judge', minScore: 0.8 })
  })

  test('only results without an error are stored', () => {
    const result = (verdict: CheckResult['verdict']) => ({ verdict }) as CheckResult
    expect(storable([result('passed'), result('failed')])).toBe(true)
    expect(storable([result('passed'), result('error')])).toBe(false)
    expect(storable([])).toBe(false)
  })
})

describe('runs that cannot look a stored baseline up run it live', () => {
  const runner = (eventName: string, payload: Record<string, unknown>): RunnerEnvironment => ({
    eventName,
    payload,
    workspace: '.',
    repository: { owner: 'octo-org', repo: 'docs' },
    github: new LookupBudget(),
    signal: new AbortController().signal,
    cutOff: new AbortController().signal,
  })

  test('no base commit (a push): a notice with baseline stored, nothing with baseline live', async () => {
    for (const [source, notices] of [
      ['stored', 1],
      ['live', 0],
    ] as const) {
      const config = configOf({ baseline: source })
      const { log, of } = recordingLog()
      const plan = await planBaseline(config, config.checks ?? [], runner('push', {}), log, undefined, {})
      expect(plan).toEqual({ used: { kind: 'live' } })
      expect(of('notice')).toHaveLength(notices)
    }
  })

  test('no artifact storage (not GitHub runner): said in the log only', async () => {
    const config = configOf()
    const { log, of } = recordingLog()
    const event = { pull_request: { base: { sha: SHA, ref: 'main' } } }
    const plan = await planBaseline(
      config,
      config.checks ?? [],
      runner('pull_request', event),
      log,
      undefined,
      {
        GITHUB_RUN_ID: '7',
      },
    )
    expect(plan).toEqual({ used: { kind: 'live', commit: SHA, baseRef: 'main' } })
    expect(of('notice')).toEqual([])
    expect(of('info').map((line) => line.message)).toEqual([
      "Baseline: the baseline flow's results are not stored here (no ACTIONS_RUNTIME_TOKEN (not GitHub's runner)); it runs live.",
    ])
  })

  test('no baseline flow: no plan', async () => {
    const config = configOf({ 'baseline-flow-id': '' })
    const { log } = recordingLog()
    expect(await planBaseline(config, config.checks ?? [], runner('push', {}), log)).toBeUndefined()
  })
})
