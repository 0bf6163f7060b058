// The last successful run, looked up over real HTTP through @actions/github's octokit against a local
// server that lists workflow runs the way GitHub does.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { findLastSuccessfulRun, MAX_PAGES, RUNS_PER_PAGE } from '../../src/github/last-success.js'
import { readWorkflowRun, type WorkflowRun } from '../../src/github/workflow.js'
import { WorkflowRunsServer } from '../helpers/workflow-runs-server.js'
import { GITHUB_TOKEN as TOKEN } from '../helpers/keys.js'
import { LookupBudget } from '../../src/github/lookup-budget.js'

const sha = (digit: string | number) => String(digit).repeat(40)

let server: WorkflowRunsServer
beforeEach(async () => {
  server = new WorkflowRunsServer()
  await server.start()
})
afterEach(() => server.close())

function workflow(overrides: Partial<WorkflowRun> = {}): WorkflowRun {
  return { owner: 'octo-org', repo: 'docs', workflowFile: 'docs.yml', branch: 'main', ...overrides }
}

const lookUp = (overrides: Partial<WorkflowRun> = {}) =>
  findLastSuccessfulRun({
    workflow: workflow(overrides),
    token: TOKEN,
    apiUrl: server.url,
    budget: new LookupBudget(),
  })

describe('readWorkflowRun', () => {
  it('reads the workflow file, branch and run from the runner variables', () => {
    expect(
      readWorkflowRun({
        GITHUB_WORKFLOW_REF: 'octo-org/docs/.github/workflows/docs.yml@refs/heads/release/2.x',
        GITHUB_REPOSITORY: 'octo-org/docs',
        GITHUB_REF: 'refs/heads/release/2.x',
        GITHUB_RUN_ID: '12345678901',
        GITHUB_RUN_NUMBER: '42',
      }),
    ).toEqual({
      ok: true,
      run: {
        owner: 'octo-org',
        repo: 'docs',
        workflowFile: 'docs.yml',
        branch: 'release/2.x',
        runId: 12345678901,
        runNumber: 42,
      },
    })
  })

  it('is undefined off a runner and says why for a reference it cannot read', () => {
    expect(readWorkflowRun({})).toBeUndefined()
    expect(readWorkflowRun({ GITHUB_WORKFLOW_REF: 'docs.yml' })).toEqual({
      ok: false,
      why: expect.stringContaining('GITHUB_WORKFLOW_REF'),
    })
  })

  it('has no branch for a tag', () => {
    const outcome = readWorkflowRun({
      GITHUB_WORKFLOW_REF: 'octo-org/docs/.github/workflows/docs.yml@refs/tags/v1',
      GITHUB_REF: 'refs/tags/v1',
    })
    expect(outcome).toMatchObject({ ok: true, run: { branch: '' } })
  })
})

describe('findLastSuccessfulRun', () => {
  it('asks once, filtered by branch and success, and takes the newest run', async () => {
    server.add({ head_sha: sha(1), conclusion: 'success' })
    const newest = server.add({ head_sha: sha(2), conclusion: 'success' })
    server.add({ head_sha: sha(3), conclusion: 'failure' })
    const outcome = await lookUp({ runId: 9_999_999, runNumber: 4 })
    expect(outcome).toEqual({
      ok: true,
      run: {
        id: newest.id,
        number: 2,
        sha: sha(2),
        event: 'push',
        url: `https://github.com/octo-org/docs/actions/runs/${newest.id}`,
      },
    })
    expect(server.requests).toEqual([
      {
        path: '/repos/octo-org/docs/actions/workflows/docs.yml/runs',
        query: {
          branch: 'main',
          status: 'success',
          exclude_pull_requests: 'true',
          per_page: String(RUNS_PER_PAGE),
          page: '1',
        },
        authorization: `token ${TOKEN}`,
      },
    ])
  })

  it('skips this run, runs created after it, pull request runs and runs titled as dry runs', async () => {
    const base = server.add({ head_sha: sha(1), conclusion: 'success', event: 'workflow_dispatch' })
    server.add({ head_sha: sha(2), conclusion: 'success', event: 'pull_request' })
    server.add({ head_sha: sha(3), conclusion: 'success', display_title: 'Docs [DRY-RUN] preview' })
    const current = server.add({ head_sha: sha(4), conclusion: 'success' }) // a re-run of this run
    server.add({ head_sha: sha(5), conclusion: 'success' }) // created after this run
    const outcome = await lookUp({ runId: current.id, runNumber: current.run_number })
    expect(outcome).toMatchObject({ ok: true, run: { id: base.id, sha: sha(1), event: 'workflow_dispatch' } })
  })

  it('ignores runs of other branches', async () => {
    server.add({ head_sha: sha(1), conclusion: 'success', head_branch: 'feature' })
    const outcome = await lookUp()
    expect(outcome).toEqual({
      ok: true,
      run: undefined,
      why: 'no earlier successful run of docs.yml on branch main',
    })
  })

  it('pages until a run qualifies', async () => {
    const base = server.add({ head_sha: sha(1), conclusion: 'success' })
    for (let i = 0; i < 2 * RUNS_PER_PAGE + 3; i++)
      server.add({ head_sha: sha(2), conclusion: 'success', event: 'pull_request' })
    const outcome = await lookUp()
    expect(outcome).toMatchObject({ ok: true, run: { id: base.id } })
    expect(server.requests.map((request) => request.query.page)).toEqual(['1', '2', '3'])
  })

  it('stops after a bounded number of pages, saying no run qualified', async () => {
    server.add({ head_sha: sha(1), conclusion: 'success' })
    for (let i = 0; i < MAX_PAGES * RUNS_PER_PAGE; i++)
      server.add({ head_sha: sha(2), conclusion: 'success', event: 'pull_request' })
    const outcome = await lookUp()
    expect(outcome).toMatchObject({ ok: true, run: undefined })
    expect(server.requests).toHaveLength(MAX_PAGES)
  })

  it.each([
    [401, 'Bad credentials', /HTTP 401: Bad credentials.*github-token.*actions: read/],
    [
      403,
      'Resource not accessible by integration',
      /HTTP 403: Resource not accessible by integration.*actions: read/,
    ],
    [404, 'Not Found', /HTTP 404: Not Found.*actions: read/],
  ])('is refused on HTTP %i: a permission to grant', async (status, message, why) => {
    server.failure = { status, message }
    const outcome = await lookUp()
    expect(outcome).toEqual({ ok: false, refused: status, why: expect.stringMatching(why) })
    expect(server.requests).toHaveLength(1)
  })

  it.each([
    [500, {}, /^HTTP 500: Server Error - https:\/\/docs.github.com$/],
    [403, { 'x-ratelimit-remaining': '0' }, /^HTTP 403: Server Error.* \(rate limited\)$/],
    [403, { 'retry-after': '60' }, /^HTTP 403: Server Error.* \(rate limited\)$/],
    [429, {}, /^HTTP 429: Server Error.* \(rate limited\)$/],
  ])('cannot answer, for now, on HTTP %i %j', async (status, headers, why) => {
    server.failure = { status, message: 'Server Error', headers }
    const outcome = await lookUp()
    expect(outcome).toEqual({ ok: false, why: expect.stringMatching(why) })
  })

  it.each([
    ['text that is not JSON', '<html>rate limited</html>'],
    ['JSON without runs', '{"total_count": 1}'],
    [
      'a run without a commit id',
      '{"total_count":1,"workflow_runs":[{"id":1,"run_number":1,"head_sha":"HEAD"}]}',
    ],
    [
      'a run whose page is not a web address',
      JSON.stringify({
        total_count: 1,
        workflow_runs: [
          {
            id: 1,
            run_number: 1,
            head_sha: 'a'.repeat(40),
            head_branch: 'main',
            event: 'push',
            conclusion: 'success',
            html_url: 'javascript:alert(1)',
          },
        ],
      }),
    ],
  ])('cannot answer when the body is %s', async (_, garbage) => {
    server.add({ head_sha: sha(1), conclusion: 'success' })
    server.failure = { garbage }
    expect(await lookUp()).toEqual({ ok: false, why: 'the answer is not a list of workflow runs' })
  })

  it('cannot answer when nothing listens', async () => {
    const closed = http.createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const outcome = await findLastSuccessfulRun({
      workflow: workflow(),
      token: TOKEN,
      apiUrl: `http://127.0.0.1:${port}`,
      budget: new LookupBudget(),
    })
    expect(outcome).toEqual({ ok: false, why: expect.stringMatching(/^the request failed: /) })
  })
})
