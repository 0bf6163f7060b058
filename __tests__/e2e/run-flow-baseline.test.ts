// The built run-flow action (and `kb-sync run`) comparing a suite on two flows of the emulator whose
// knowledge bases differ: one check fixed, one regressed, one still passing with the same answer. What
// people read (the summary, the sticky comment over a local GitHub REST server, rendered as GitHub does),
// the outputs, the results file, and `fail-on` both ways.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { ServiceClient } from '../../src/service/client.js'
import { ArtifactService } from '../helpers/artifact-service.js'
import { runCliAsync } from '../helpers/cli.js'
import { GitFixture } from '../helpers/git-fixture.js'
import { startCommentsServer, type CommentsServer } from '../helpers/github-comments-server.js'
import { GITHUB_TOKEN, PRIVATE_KEY, PUBLIC_KEY } from '../helpers/keys.js'
import { runAction } from '../helpers/run-action.js'
import { makeWorkspace } from '../helpers/workspace.js'
import { structureOf } from '../report/gfm.js'
import { pullRequestExample, webhookExamples } from '../helpers/webhook-examples.js'
import { junitSchemaErrors, parseJUnit } from '../helpers/junit-report.js'
import { forwardTo } from '../helpers/workflow-runs-server.js'

const ORG = 'b2a1c3d4-0000-4000-8000-000000000001'
const after = { orgId: ORG, flowId: '65f0c0ffee0000000000beef', nodeId: 'knowledgebase-1' }
const before = { orgId: ORG, flowId: '65f0c0ffee0000000000b0f0', nodeId: 'knowledgebase-1' }
const payload = pullRequestExample('synchronize')

const SUITE = [
  '- name: refund window',
  '  inputs: {in-0: "How long are refunds granted?"}',
  '  contains: 14 days',
  '- name: shipping',
  '  inputs: {in-0: "How long does shipping take?"}',
  '  contains: 3 business days',
  '- name: support hours',
  '  inputs: {in-0: "When is support open?"}',
  '  contains: 9 to 5',
].join('\n')

// One check whose JSON Schema is a file of its own: a pull request may change that file alone.
const SCHEMA_SUITE = [
  '- name: answer shape',
  '  inputs: {in-0: "When is support open?"}',
  '  json-schema: ci/answer.schema.json',
].join('\n')

let emulator: Emulator
let github: CommentsServer
let workspace: ReturnType<typeof makeWorkspace>
let runnerTemp: string

beforeAll(async () => {
  emulator = await startEmulator({
    privateKey: PRIVATE_KEY,
    publicKey: PUBLIC_KEY,
    flows: [after, before],
  })
  workspace = makeWorkspace({
    'new/refunds.md': '# Refunds\n\nRefunds are granted within 14 days of a payment.\n',
    'old/refunds.md': '# Refunds\n\nRefunds are granted within 30 days of a payment.\n',
    'old/shipping.md': '# Shipping\n\nShipping takes 3 business days.\n',
    'support.md': '# Support\n\nSupport is open from 9 to 5.\n',
    'ci/checks.yml': SUITE,
  })
  runnerTemp = mkdtempSync(join(tmpdir(), 'kb-sync-baseline-'))
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
  workspace.remove()
  rmSync(runnerTemp, { recursive: true, force: true })
})
beforeEach(async () => {
  await github?.close()
  github = await startCommentsServer({ owner: 'octo-org', repo: 'docs' })
})
afterAll(() => github.close())

function runFlow(
  inputs: Record<string, string>,
  where: { payload: object; workspace: string } = { payload, workspace: workspace.dir },
) {
  return runAction({
    action: 'run-flow/action.yml',
    eventName: 'pull_request',
    ...where,
    inputs: {
      'base-url': emulator.url,
      'flow-id': after.flowId,
      'org-id': ORG,
      'public-key': PUBLIC_KEY,
      'github-token': GITHUB_TOKEN,
      'baseline-flow-id': before.flowId,
      ...inputs,
    },
    env: { GITHUB_API_URL: github.url, RUNNER_TEMP: runnerTemp },
  })
}

const decoded = (stdout: string) => stdout.replace(/%25/g, '%')
const ours = () => github.comments.filter((c) => c.body.startsWith('<!-- kb-sync'))
const runsOn = (flowId: string) =>
  emulator.requests().filter((r) => r.path === `/inference/v0/run/${ORG}/${flowId}`)

describe('before and after', () => {
  it('one check fixed, one regressed: the lead, the verdicts, the outputs; fail-on regression fails', async () => {
    const requestsBefore = emulator.requests().length
    const run = await runFlow({ checks: 'ci/checks.yml' })
    const made = emulator.requests().slice(requestsBefore)
    expect(made.filter((r) => r.path.endsWith(after.flowId))).toHaveLength(3)
    expect(made.filter((r) => r.path.endsWith(before.flowId))).toHaveLength(3)
    expect(run.status).toBe(1)
    // documents-changed left empty (unknown): the checks run.
    expect(run.outputs.skipped).toBe('false')

    const lead = '🔴 This pull request fixes 1 check and breaks 1.'
    for (const markdown of [run.summary, ours()[0].body]) {
      const s = structureOf(markdown)
      expect(s.headings[0]).toBe('Flow checks: before and after')
      expect(s.html).toContain(`<strong>${lead}</strong>`)
      // fail-on regression: the threshold does not decide, so the after side is counted, not judged.
      expect(markdown).toContain('After: 2 of 3 checks pass (66.7%).')
      expect(markdown).not.toContain('threshold')
      expect(s.tables[0].header).toEqual(['Check', 'Question', 'Change', 'Before', 'After', 'Similarity'])
      // The regression first, then what it fixed, then what still passes.
      const [shipping, window, support] = s.tables[0].rows
      expect(window.slice(0, 5)).toEqual([
        'refund window',
        'How long are refunds granted?',
        '🟢 fixed',
        '❌ failed · 0/1',
        '✅ passed · 1/1',
      ])
      expect(Number(window[5])).toBeGreaterThan(0.8)
      expect(shipping.slice(2, 5)).toEqual(['🔴 regressed', '✅ passed · 1/1', '❌ failed · 0/1'])
      expect(Number(shipping[5])).toBeLessThan(0.5)
      expect(support.slice(2)).toEqual([
        '✅ still passing',
        '✅ passed · 1/1',
        '✅ passed · 1/1',
        'answer unchanged',
      ])
      expect(s.summaries).toEqual([
        'shipping — 🔴 regressed',
        'refund window — 🟢 fixed',
        'support hours — ✅ still passing',
      ])
      // The changed words of the fixed check's answer, then both answers, collapsed; one answer of an
      // unchanged one.
      // The removed and the added words apart, as GitHub renders them.
      expect(s.html).toMatch(/Refunds are granted within <del>30<\/del> → <ins><b>14<\/b><\/ins> days/)
      expect(s.html).toContain('Refunds are granted within 30 days')
      expect(s.html).toContain('Refunds are granted within 14 days')
      expect(s.html).toContain('<em>The answer did not change.</em>')
    }
    expect(ours()).toHaveLength(1)
    expect(decoded(run.stdout)).toContain(
      '::error::Flow checks: This pull request fixes 1 check and breaks 1. After: 2 of 3 checks pass (66.7%).',
    )

    expect(run.outputs.fixed).toBe('["refund window"]')
    expect(run.outputs.regressed).toBe('["shipping"]')
    expect([run.outputs['fixed-count'], run.outputs['regressed-count']]).toEqual(['1', '1'])
    expect([run.outputs.passed, run.outputs.failed]).toEqual(['2', '1'])

    const file = JSON.parse(readFileSync(run.outputs['results-file'], 'utf8')) as {
      results: {
        name: string
        change: string
        before: { verdict: string; runs: { answer: string }[] }
        after: { verdict: string; runs: { answer: string }[] }
      }[]
    }
    expect(file.results.map((r) => [r.name, r.change, r.before.verdict, r.after.verdict])).toEqual([
      ['refund window', 'fixed', 'failed', 'passed'],
      ['shipping', 'regressed', 'passed', 'failed'],
      ['support hours', 'still-passing', 'passed', 'passed'],
    ])
    expect(file.results[0].before.runs[0].answer).toContain('Refunds are granted within 30 days')
    expect(file.results[0].after.runs[0].answer).toContain('Refunds are granted within 14 days')
  })

  it('fail-on threshold: the regression alone does not fail the step when the threshold is met', async () => {
    const run = await runFlow({ checks: 'ci/checks.yml', 'fail-on': 'threshold', threshold: '60%' })
    expect(run.status).toBe(0)
    expect(decoded(run.stdout)).toContain(
      '::warning::Flow checks: This pull request fixes 1 check and breaks 1. After: 2 of 3 checks passed (66.7%); threshold 60% met',
    )
    expect(run.summary).toContain('After: ⚠️ 2 of 3 checks passed (66.7%); threshold 60% met, 1 failed.')
  })

  it('fail-on threshold below the threshold fails; fail-on regression without a regression passes', async () => {
    expect((await runFlow({ checks: 'ci/checks.yml', 'fail-on': 'threshold' })).status).toBe(1)
    const noRegression = SUITE.split('\n- name: shipping')[0]
    const failing = `${noRegression}\n- name: never\n  inputs: {in-0: "How long are refunds granted?"}\n  contains: 99 days`
    const run = await runFlow({ checks: failing })
    expect(run.status).toBe(0)
    expect(run.summary).toContain('🟢 This pull request fixes 1 check and breaks none.')
    expect(structureOf(run.summary).tables[0].rows[0][2]).toBe('❌ still failing')
    expect(run.outputs.regressed).toBe('[]')
  })

  it('kb-sync run --baseline-flow-id prints the lead and the table, and exits 1 for the regression', async () => {
    const run = await runCliAsync(
      [
        'run',
        '--base-url',
        emulator.url,
        '--org-id',
        ORG,
        '--flow-id',
        after.flowId,
        '--baseline-flow-id',
        before.flowId,
        '--checks',
        'ci/checks.yml',
      ],
      { cwd: workspace.dir, env: { KB_SYNC_PUBLIC_KEY: PUBLIC_KEY } },
    )
    expect(run.status).toBe(1)
    expect(run.stdout).toContain('🔴 This pull request fixes 1 check and breaks 1.')
    expect(run.stdout).toMatch(/\| refund window \| How long are refunds granted\? \| 🟢 fixed \|/)
    expect(run.stdout).toContain('Check "shipping": 🔴 regressed')
    expect(run.stdout).toMatch(/Refunds are granted within \[-30-\]\{\+14\+\} days/)
    expect(run.stderr).toContain('Flow checks: This pull request fixes 1 check and breaks 1.')
    expect(runsOn(before.flowId).length).toBeGreaterThan(0)
  })
})

// Skip when irrelevant: the index step's pull-request-changed output given as documents-changed. A real
// origin with the checks file, a depth-1 checkout of the pull request's head, as actions/checkout leaves it.
describe('documents-changed: skip when the pull request changes nothing the checks measure', () => {
  let fixture: GitFixture
  let base: string
  const heads: Record<string, string> = {}
  const MARKER = `<!-- kb-sync run-flow ${after.flowId} -->`
  const EARLIER = '### Flow checks: before and after\n\n🔴 This pull request fixes 1 check and breaks 1.\n'

  beforeAll(() => {
    fixture = GitFixture.create()
    const author = fixture.author()
    author
      .write('ci/checks.yml', SUITE)
      .write('ci/schema-checks.yml', SCHEMA_SUITE)
      .write('ci/answer.schema.json', '{"type": "object"}\n')
      .write('README.md', 'readme\n')
    base = author.commit('base')
    author.push()
    heads.readme = author.branch('readme', base, (copy) => copy.write('README.md', 'new readme\n'))
    heads.checks = author.branch('checks', base, (copy) =>
      copy.write('ci/checks.yml', `${SUITE}\n# reworded\n`),
    )
    heads.schema = author.branch('schema', base, (copy) =>
      copy.write('ci/answer.schema.json', '{"type": "object", "required": ["answer"]}\n'),
    )
  })
  afterAll(() => fixture.cleanup())

  let checkouts = 0
  function runOn(branch: string, inputs: Record<string, string>, where?: string) {
    const synchronize = structuredClone(payload) as {
      pull_request: { base: { sha: string }; head: { sha: string } }
    }
    synchronize.pull_request.base.sha = base
    synchronize.pull_request.head.sha = heads[branch]
    return runFlow(
      { checks: 'ci/checks.yml', ...inputs },
      {
        payload: synchronize,
        workspace: where ?? fixture.checkout({ branch, name: `skip-${++checkouts}` }).dir,
      },
    )
  }
  const flowRuns = () => runsOn(after.flowId).length + runsOn(before.flowId).length
  const number = (payload.pull_request as { number: number }).number

  it('0 and the checks file unchanged: nothing runs, outputs and summary say so, the comment gets one note', async () => {
    github.comments.push({
      id: 1,
      issue: number,
      body: `${MARKER}\n${EARLIER}`,
      user: { login: 'github-actions[bot]', type: 'Bot' },
    })
    const runsBefore = flowRuns()
    const run = await runOn('readme', { 'documents-changed': '0' })
    expect(run.status).toBe(0)
    expect(flowRuns()).toBe(runsBefore)
    const reason =
      'Flow checks skipped: this pull request changes none of the selected documents nor ci/checks.yml; ' +
      'the last result still holds for the documents it measured.'
    expect(decoded(run.stdout)).toContain(`::notice::${reason}`)
    expect(run.summary).toBe(`## Flow checks skipped\n\n${reason}\n`)
    expect(run.outputs).toMatchObject({
      skipped: 'true',
      passed: '0',
      failed: '0',
      'fixed-count': '0',
      'regressed-count': '0',
      fixed: '[]',
      regressed: '[]',
      results: '[]',
      result: '',
    })
    const note =
      `> **Not run again for \`${heads.readme.slice(0, 12)}\`**: this push changes none of the selected ` +
      'documents nor the checks file ci/checks.yml; the result below still holds for the documents it measured.'
    expect(github.comments).toHaveLength(1)
    expect(github.comments[0].body).toBe(`${MARKER}\n${note}\n\n${EARLIER}`)

    // A second skip replaces the note instead of stacking another.
    await runOn('readme', { 'documents-changed': '0' })
    expect(github.comments).toHaveLength(1)
    expect(github.comments[0].body).toBe(`${MARKER}\n${note}\n\n${EARLIER}`)
    expect(flowRuns()).toBe(runsBefore)
  })

  it('0 without an earlier comment: none is created', async () => {
    const run = await runOn('readme', { 'documents-changed': '0', 'junit-file': 'reports/kb-checks.xml' })
    expect(run.outputs.skipped).toBe('true')
    expect(github.comments).toHaveLength(0)
    expect(github.requests.map((r) => r.method)).toEqual(['GET'])
    // junit-file (#36 §3): where the input put it (its folder made), every check a skipped test case.
    expect(run.outputs['junit-file']).toMatch(/\/reports\/kb-checks\.xml$/)
    const xml = readFileSync(run.outputs['junit-file'], 'utf8')
    expect(await junitSchemaErrors(xml)).toEqual([])
    expect(parseJUnit(xml).cases.map((c) => c.outcome)).toEqual(['skipped', 'skipped', 'skipped'])
  })

  it('0 but the pull request changes the checks file: the checks run', async () => {
    const runsBefore = flowRuns()
    const run = await runOn('checks', { 'documents-changed': '0' })
    expect(flowRuns() - runsBefore).toBe(6)
    expect(run.outputs.skipped).toBe('false')
    expect(run.outputs['fixed-count']).toBe('1')
    expect(decoded(run.stdout)).toContain(
      'Flow checks not skipped: this pull request changes none of the selected documents, but it changes ci/checks.yml.',
    )
  })

  it('0 and neither the checks file nor the schema file its check names changed: skipped, naming both', async () => {
    const runsBefore = flowRuns()
    const run = await runOn('readme', { checks: 'ci/schema-checks.yml', 'documents-changed': '0' })
    expect(flowRuns() - runsBefore).toBe(0)
    expect(run.outputs.skipped).toBe('true')
    expect(decoded(run.stdout)).toContain(
      'Flow checks skipped: this pull request changes none of the selected documents nor ' +
        'ci/schema-checks.yml or ci/answer.schema.json;',
    )
  })

  it('0 but the pull request changes only a schema file a check names: the checks run', async () => {
    const runsBefore = flowRuns()
    const run = await runOn('schema', { checks: 'ci/schema-checks.yml', 'documents-changed': '0' })
    expect(flowRuns() - runsBefore).toBe(2)
    expect(run.outputs.skipped).toBe('false')
    expect(decoded(run.stdout)).toContain(
      'Flow checks not skipped: this pull request changes none of the selected documents, but it changes ' +
        'ci/answer.schema.json.',
    )
  })

  // Empty (unknown) runs them too: every case of 'before and after' leaves the input empty.
  it('documents-changed "1": the checks run', async () => {
    const runsBefore = flowRuns()
    const run = await runOn('readme', { 'documents-changed': '1' })
    expect(flowRuns() - runsBefore).toBe(6)
    expect(run.outputs.skipped).toBe('false')
    expect(run.summary).toContain('Flow checks: before and after')
  })

  it('0 where the checks file change cannot be told: the checks run, with a warning saying why', async () => {
    const runsBefore = flowRuns()
    // Not a git repository, and the compare API answers 404.
    const run = await runOn('readme', { 'documents-changed': '0' }, workspace.dir)
    expect(flowRuns() - runsBefore).toBe(6)
    expect(run.outputs.skipped).toBe('false')
    expect(decoded(run.stdout)).toMatch(
      /::warning::Flow checks not skipped: this pull request changes none of the selected documents, but whether it changes ci\/checks\.yml is unknown \(the change set is unknown \(git: .*compare API: /,
    )
  })
  // A value that is not a whole number is refused by readRunConfig, naming the input, before anything
  // runs: __tests__/checks/skip-rule.test.ts; 'a bad value names the input' below goes that way end to end.
})

describe('baseline: stored (#36 §5)', () => {
  const base = (payload.pull_request as { base: { ref: string; sha: string } }).base
  const baseRef = base.ref
  const pullNumber = (payload.pull_request as { number: number }).number
  let artifacts: ArtifactService
  /** The base branch's head, as GitHub's branches API answers it; undefined: 404. */
  let branchHead: string | undefined
  beforeEach(async () => {
    artifacts = new ArtifactService()
    await artifacts.start()
    branchHead = undefined
    // One GitHub API: the comments here, the base branch's head, the artifacts' REST routes passed on.
    const artifactRoutes = forwardTo(artifacts.url)
    github.others = (request, response) => {
      // A /kb-check comment names the pull request only: its base is asked of the pulls API.
      if (request.url === `/repos/octo-org/docs/pulls/${pullNumber}`) {
        response.writeHead(200, { 'content-type': 'application/json' })
        return response.end(JSON.stringify({ number: pullNumber, base }))
      }
      if (request.url !== `/repos/octo-org/docs/branches/${baseRef}`) return artifactRoutes(request, response)
      response.writeHead(branchHead ? 200 : 404, { 'content-type': 'application/json' })
      response.end(JSON.stringify(branchHead ? { name: baseRef, commit: { sha: branchHead } } : {}))
    }
  })
  afterEach(() => artifacts.close())

  /** A push to the pull request: a job of workflow run `runId`; its event names the example's base commit. */
  function push(runId: number, inputs: Record<string, string> = {}) {
    return runAction(pushRun(runId, inputs))
  }
  function pushRun(runId: number, inputs: Record<string, string> = {}) {
    return {
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
        'baseline-flow-id': before.flowId,
        checks: 'ci/checks.yml',
        ...inputs,
      },
      env: {
        ...artifacts.envOf(runId),
        GITHUB_API_URL: github.url,
        GITHUB_RUN_NUMBER: String(runId - 100),
        RUNNER_TEMP: runnerTemp,
      },
    }
  }
  const stored = () =>
    artifacts.artifacts.filter((a) => a.finalized && a.name.startsWith('kb-sync-baseline-'))

  it('two pushes on one base commit: the second runs only the flow; main moves: the baseline runs and is stored again', async () => {
    const [main1, main2] = ['a'.repeat(40), 'b'.repeat(40)]
    let made = runsOn(before.flowId).length
    const newRuns = (flowId: string) => {
      const now = runsOn(flowId).length
      const count = now - made
      made = now
      return count
    }
    // The event's base commit lags behind the branch (the pull request was opened before main moved).
    branchHead = main1
    const first = await push(101)
    expect(first.status).toBe(1)
    expect(first.outputs.regressed).toBe('["shipping"]')
    expect(newRuns(before.flowId)).toBe(3)
    expect(decoded(first.stdout)).toContain(
      `::notice::Baseline: no stored results of the baseline flow for ${baseRef} aaaaaaa with these checks`,
    )
    expect(stored()).toHaveLength(1)
    expect(first.summary).toContain(`> **Baseline:** live, measured now at ${baseRef} \`aaaaaaa\``)

    // The second push: the stored results are the before side, the baseline flow gets no run.
    const second = await push(102)
    expect(newRuns(before.flowId)).toBe(0)
    expect(second.status).toBe(1)
    expect(second.outputs.fixed).toBe('["refund window"]')
    expect(second.outputs.regressed).toBe('["shipping"]')
    const befores = (run: typeof first) =>
      (JSON.parse(run.outputs.results) as { before: unknown }[]).map((entry) => entry.before)
    expect(befores(second)).toEqual(befores(first))
    const line = new RegExp(
      `> \\*\\*Baseline:\\*\\* stored, measured \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC at ${baseRef} \`aaaaaaa\` \\(run #1\\); the baseline flow was not run`,
    )
    expect(second.summary).toMatch(line)
    expect(ours()).toHaveLength(1)
    expect(ours()[0].body).toMatch(line)
    expect(decoded(second.stdout)).not.toContain('::notice::Baseline')
    expect(stored()).toHaveLength(1)

    // baseline: live runs it whatever is stored.
    await push(103, { baseline: 'live' })
    expect(newRuns(before.flowId)).toBe(3)

    // main moved: another key; the baseline runs live and is stored under it.
    branchHead = main2
    const moved = await push(104)
    expect(newRuns(before.flowId)).toBe(3)
    expect(decoded(moved.stdout)).toContain(`for ${baseRef} bbbbbbb with these checks`)
    expect(moved.summary).toContain(`> **Baseline:** live, measured now at ${baseRef} \`bbbbbbb\``)
    expect(new Set(stored().map((a) => a.name)).size).toBe(2)
    const again = await push(105)
    expect(newRuns(before.flowId)).toBe(0)
    expect(again.summary).toMatch(/stored, measured .* `bbbbbbb` \(run #4\)/)

    // A /kb-check comment (issue_comment) names the pull request, not its base: the base is asked of
    // GitHub, and the stored results of that base's head are used.
    github.permissions = { 'a-writer': 'write' }
    const comment = structuredClone(webhookExamples('issue_comment')[0]) as {
      issue: { number: number; pull_request?: unknown }
      comment: { body: string; user: { login: string } }
    }
    comment.issue.number = pullNumber
    comment.issue.pull_request = { url: `https://api.github.com/repos/octo-org/docs/pulls/${pullNumber}` }
    comment.comment.body = '/kb-check'
    comment.comment.user.login = 'a-writer'
    const onComment = await runAction({
      ...pushRun(107),
      eventName: 'issue_comment',
      payload: comment,
    })
    expect(newRuns(before.flowId)).toBe(0)
    expect(onComment.summary).toMatch(
      /stored, measured .* `bbbbbbb` \(run #4\); the baseline flow was not run/,
    )

    // Without `actions: read` nothing stored can be listed: a notice naming the permission, a live run.
    // The branch not found: the event's base commit stands.
    artifacts.refuseRest = true
    branchHead = undefined
    const refused = await push(106)
    expect(newRuns(before.flowId)).toBe(3)
    expect(decoded(refused.stdout)).toMatch(
      /::notice::Baseline: the stored results of the baseline flow are not used \(.*actions: read/,
    )
    expect(refused.summary).toContain(
      `> **Baseline:** live, measured now at ${baseRef} \`${base.sha.slice(0, 7)}\``,
    )
  }, 120_000)

  it('what is stored holds no key: a key in a question is masked before the artifact is written', async () => {
    const checks = `- name: key echo\n  inputs: {in-0: "Is ${PUBLIC_KEY} a key?"}\n  contains: key\n`
    const run = await push(111, { checks })
    expect(run.stdout.replace(/^::add-mask::.*$/gm, '')).not.toContain(PUBLIC_KEY)
    expect(stored()).toHaveLength(1)
    const text = gunzipSync(artifacts.fileOf(stored()[0].id).content).toString('utf8')
    expect(text).toContain('key echo')
    expect(text).not.toContain(PUBLIC_KEY)
    expect(text).toContain('***')
  }, 60_000)

  it('a bad value names the input, before any request', async () => {
    const requests = emulator.requests().length
    const run = await push(110, { baseline: 'cached' })
    expect(run.status).toBe(1)
    expect(run.stdout).toContain('Input "baseline" must be one of stored, live (got "cached").')
    expect(emulator.requests()).toHaveLength(requests)
    expect(run.outputs.skipped).toBeUndefined()
    expect(artifacts.requests).toEqual([])
  }, 60_000)
})
