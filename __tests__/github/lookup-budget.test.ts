// The run's one budget for GitHub requests, against a real local server that accepts connections and
// answers only when a test lets it: a request that gets no answer in time gives the API up, later
// requests are not sent, and what is left of the budget bounds each request.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { gitHubBudget } from '../../src/actions/runner.js'
import { RunCancelled } from '../../src/cancellation.js'
import { ConfigError } from '../../src/config/errors.js'
import {
  DEADLINE_VARIABLE,
  DEFAULT_GITHUB_DEADLINE_MS,
  GitHubUnanswered,
  LookupBudget,
  readGitHubDeadline,
} from '../../src/github/lookup-budget.js'
import { getOctokit } from '../../src/github/octokit.js'

/** Holds every request until `release` answers the ones held so far. */
class StallingServer {
  readonly paths: string[] = []
  private held: http.ServerResponse[] = []
  private readonly server = http.createServer((request, response) => {
    this.paths.push(request.url ?? '')
    this.held.push(response)
    this.onRequest?.()
  })
  onRequest?: () => void
  url = ''

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve))
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
  }

  release(): void {
    for (const response of this.held.splice(0)) {
      response.writeHead(200, { 'content-type': 'application/json', connection: 'close' })
      response.end('{"total_count":0,"workflow_runs":[]}')
    }
  }

  close(): Promise<void> {
    this.server.closeAllConnections()
    return new Promise((resolve) => this.server.close(() => resolve()))
  }
}

let server: StallingServer
beforeEach(async () => {
  server = new StallingServer()
  await server.start()
})
afterEach(() => server.close())

const listRuns = (budget: LookupBudget) =>
  budget.request((signal) =>
    getOctokit('ghs_budgettest', server.url).rest.actions.listWorkflowRuns({
      owner: 'o',
      repo: 'r',
      workflow_id: 'docs.yml',
      request: { signal },
    }),
  )

/** Resolves once the budget has spent at least `ms` on requests in flight. */
async function spentAtLeast(budget: LookupBudget, ms: number): Promise<void> {
  while (budget.spent() < ms) await new Promise((resolve) => setTimeout(resolve, 20))
}

describe('LookupBudget', () => {
  it('gives the API up when a request gets no answer in time, and sends no later request', async () => {
    const budget = new LookupBudget({ deadlineMs: 300 })
    const first = await listRuns(budget).catch((error: unknown) => error)
    expect(first).toBeInstanceOf(GitHubUnanswered)
    expect((first as Error).message).toBe(
      "GitHub's API did not answer within 0.3 s; it is not asked again in this run",
    )
    expect(budget.gaveUp).toBe((first as Error).message)
    const second = await listRuns(budget).catch((error: unknown) => error)
    expect(second).toBeInstanceOf(GitHubUnanswered)
    expect(server.paths).toHaveLength(1)
  })

  it('a request waits at most its own timeout; the API is given up with most of the budget left', async () => {
    const budget = new LookupBudget({ deadlineMs: 60_000, requestTimeoutMs: 200 })
    await expect(listRuns(budget)).rejects.toThrow("GitHub's API did not answer within 0.2 s")
    // Not the deadline: the API seen not to answer is what keeps the next request from being sent.
    expect(budget.deadlineMs - budget.spent()).toBeGreaterThan(50_000)
    await expect(listRuns(budget)).rejects.toBeInstanceOf(GitHubUnanswered)
    expect(server.paths).toHaveLength(1)
  })

  it('each request gets only what earlier ones left of the budget', async () => {
    const budget = new LookupBudget({ deadlineMs: 2_000, requestTimeoutMs: 60_000 })
    // The first request is answered once it has used at least half of the 2 s.
    server.onRequest = () => {
      server.onRequest = undefined
      void spentAtLeast(budget, 1_000).then(() => server.release())
    }
    await listRuns(budget)
    const used = budget.spent()
    expect(used).toBeGreaterThanOrEqual(1_000)
    const second = (await listRuns(budget).catch((error: unknown) => error)) as Error
    expect(second).toBeInstanceOf(GitHubUnanswered)
    // What it waited is what was left (rounded to a tenth of a second), not a request timeout of 60 s.
    const waited = Number(/within ([\d.]+) s/.exec(second.message)?.[1]) * 1000
    expect(waited).toBeLessThanOrEqual(2_000 - used + 50)
    expect(server.paths).toHaveLength(2)
  })

  it('sends nothing once requests that were answered used up the budget', async () => {
    const budget = new LookupBudget({ deadlineMs: 200, requestTimeoutMs: 60_000 })
    server.onRequest = () => void spentAtLeast(budget, 200).then(() => server.release())
    // Answered by the server in the same turn as the timeout may fire: either way the budget is spent.
    await listRuns(budget).catch(() => undefined)
    server.onRequest = undefined
    await expect(listRuns(budget)).rejects.toBeInstanceOf(GitHubUnanswered)
    expect(budget.gaveUp).toMatch(/GitHub's API (used up the 0.2 s|did not answer within 0.2 s)/)
    expect(server.paths).toHaveLength(1)
  })

  it("a cancelled run rejects with the cancellation's reason, and the API is not given up", async () => {
    const cancel = new AbortController()
    const budget = new LookupBudget({ deadlineMs: 60_000, cancel: cancel.signal })
    const reason = new RunCancelled('SIGINT')
    server.onRequest = () => cancel.abort(reason)
    await expect(listRuns(budget)).rejects.toBe(reason)
    expect(budget.gaveUp).toBeUndefined()
  })
})

describe(`readGitHubDeadline (${DEADLINE_VARIABLE})`, () => {
  it('reads seconds, whole or decimal; the default when unset or empty', () => {
    expect(readGitHubDeadline({})).toEqual({ ok: true, deadlineMs: DEFAULT_GITHUB_DEADLINE_MS })
    expect(readGitHubDeadline({ [DEADLINE_VARIABLE]: '' })).toEqual({
      ok: true,
      deadlineMs: DEFAULT_GITHUB_DEADLINE_MS,
    })
    expect(readGitHubDeadline({ [DEADLINE_VARIABLE]: '2' })).toEqual({ ok: true, deadlineMs: 2_000 })
    expect(readGitHubDeadline({ [DEADLINE_VARIABLE]: ' 1.5 ' })).toEqual({ ok: true, deadlineMs: 1_500 })
  })

  it("a run's budget from a bad value is an input error naming the variable", () => {
    const make = () => gitHubBudget({ [DEADLINE_VARIABLE]: 'soon' }, new AbortController().signal)
    expect(make).toThrow(ConfigError)
    expect(make).toThrow(
      `The variable ${DEADLINE_VARIABLE} must be a number of seconds above 0 and at most 600 (got "soon").`,
    )
    expect(gitHubBudget({ [DEADLINE_VARIABLE]: '3' }, new AbortController().signal).deadlineMs).toBe(3_000)
  })

  it.each(['0', '-1', 'abc', '1e3', '601', 'Infinity', '2s'])('refuses %j, naming the variable', (text) => {
    const read = readGitHubDeadline({ [DEADLINE_VARIABLE]: text })
    expect(read.ok).toBe(false)
    expect(!read.ok && read.why).toContain(DEADLINE_VARIABLE)
  })
})
