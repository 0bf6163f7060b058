// A local server answering GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs as GitHub
// does: filtered by branch and status (a conclusion), newest first, paged with per_page / page, a Link
// header and total_count. Failures are scripted per test (an HTTP status, a body that is not JSON, or
// no answer at all).
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ListedRun {
  id: number
  run_number: number
  head_sha: string
  head_branch?: string
  event?: string
  conclusion?: 'success' | 'failure' | 'cancelled' | null
  display_title?: string
  /** When its latest attempt started (a re-run starts later than it was created); by default at creation. */
  run_started_at?: string
  run_attempt?: number
  /** What a pull_request run merged, as GitHub lists it (empty for a fork's pull request). */
  pull_requests?: { number: number; base: string; head: string }[]
}

export interface RecordedRequest {
  path: string
  query: Record<string, string>
  authorization?: string
}

export type ScriptedFailure =
  | { status: number; message?: string; headers?: Record<string, string> }
  | { garbage: string }
  | { hang: true }

export class WorkflowRunsServer {
  readonly requests: RecordedRequest[] = []
  /** Oldest first, as they were created; listed newest first. */
  readonly runs: ListedRun[] = []
  failure?: ScriptedFailure
  /** Called with each request as it arrives. */
  onRequest?: (request: RecordedRequest) => void
  /** Answers the requests for other paths (e.g. a CompareServer's handler), instead of a 404. */
  others?: http.RequestListener
  url = ''
  private readonly server = http.createServer((request, response) => this.answer(request, response))

  constructor(
    readonly owner = 'octo-org',
    readonly repo = 'docs',
    readonly workflowFile = 'docs.yml',
  ) {}

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve))
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
    return this.url
  }

  close(): Promise<void> {
    this.server.closeAllConnections()
    return new Promise((resolve) => this.server.close(() => resolve()))
  }

  /** Adds a run as the newest; returns it. */
  add(run: Omit<ListedRun, 'id' | 'run_number'> & Partial<ListedRun>): ListedRun {
    const number = this.runs.length + 1
    const full: ListedRun = { id: 9_000_000 + number, run_number: number, ...run }
    this.runs.push(full)
    return full
  }

  private answer(request: http.IncomingMessage, response: http.ServerResponse): void {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1')
    const query = Object.fromEntries(url.searchParams)
    const recorded = { path: url.pathname, query, authorization: request.headers.authorization }
    this.requests.push(recorded)
    this.onRequest?.(recorded)
    if (this.failure && 'hang' in this.failure) return
    const send = (status: number, body: string, headers: Record<string, string> = {}) => {
      // No keep-alive: a test that blocks its event loop (git through execFileSync) between two lookups
      // would otherwise race the server's idle timeout with the client reusing the socket ("fetch failed").
      response.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        connection: 'close',
        ...headers,
      })
      response.end(body)
    }
    if (this.failure && 'garbage' in this.failure) return send(200, this.failure.garbage)
    if (this.failure)
      return send(
        this.failure.status,
        JSON.stringify({
          message: this.failure.message ?? 'Error',
          documentation_url: 'https://docs.github.com',
        }),
        this.failure.headers,
      )
    const expected = `/repos/${this.owner}/${this.repo}/actions/workflows/${this.workflowFile}/runs`
    if (url.pathname !== expected && this.others) return void this.others(request, response)
    if (request.method !== 'GET' || url.pathname !== expected)
      return send(404, JSON.stringify({ message: 'Not Found', documentation_url: 'https://docs.github.com' }))

    const matching = [...this.runs].reverse().filter((run) => {
      if (query.branch && (run.head_branch ?? 'main') !== query.branch) return false
      if (query.status && (run.conclusion ?? null) !== query.status) return false
      return true
    })
    const perPage = Math.min(Number(query.per_page ?? 30), 100)
    const page = Number(query.page ?? 1)
    const slice = matching.slice((page - 1) * perPage, page * perPage)
    const headers: Record<string, string> = {}
    if (page * perPage < matching.length) {
      const next = new URL(url.href.replace('http://127.0.0.1', this.url))
      next.searchParams.set('page', String(page + 1))
      headers.link = `<${next.href}>; rel="next"`
    }
    send(
      200,
      JSON.stringify({ total_count: matching.length, workflow_runs: slice.map((run) => this.shape(run)) }),
      headers,
    )
  }

  /** The fields GitHub returns for a workflow run (the ones a client may read, and some it should ignore). */
  private shape(run: ListedRun) {
    const html = `https://github.com/${this.owner}/${this.repo}/actions/runs/${run.id}`
    return {
      id: run.id,
      name: 'Docs',
      node_id: `WFR_${run.id}`,
      head_branch: run.head_branch ?? 'main',
      head_sha: run.head_sha,
      path: `.github/workflows/${this.workflowFile}`,
      display_title: run.display_title ?? 'Update docs',
      run_number: run.run_number,
      event: run.event ?? 'push',
      status: 'completed',
      conclusion: run.conclusion ?? null,
      workflow_id: 161335,
      url: `${this.url}/repos/${this.owner}/${this.repo}/actions/runs/${run.id}`,
      html_url: html,
      pull_requests: (run.pull_requests ?? []).map((pr) => ({
        url: `${this.url}/repos/${this.owner}/${this.repo}/pulls/${pr.number}`,
        id: 1_000_000 + pr.number,
        number: pr.number,
        head: { ref: `pr-${pr.number}`, sha: pr.head, repo: { id: 1, url: this.url, name: this.repo } },
        base: { ref: 'main', sha: pr.base, repo: { id: 1, url: this.url, name: this.repo } },
      })),
      created_at: new Date(Date.UTC(2026, 0, 1, 0, run.run_number)).toISOString(),
      updated_at: new Date(Date.UTC(2026, 0, 1, 0, run.run_number, 30)).toISOString(),
      run_attempt: run.run_attempt ?? 1,
      run_started_at: run.run_started_at ?? new Date(Date.UTC(2026, 0, 1, 0, run.run_number)).toISOString(),
      jobs_url: `${this.url}/repos/${this.owner}/${this.repo}/actions/runs/${run.id}/jobs`,
      head_commit: { id: run.head_sha, message: run.display_title ?? 'Update docs' },
      repository: { id: 1, full_name: `${this.owner}/${this.repo}` },
    }
  }
}

/** A handler for `others` that passes each request on to another local server (e.g. the comments server). */
export function forwardTo(baseUrl: string): http.RequestListener {
  return (request, response) => {
    const target = new URL(request.url ?? '/', baseUrl)
    const forwarded = http.request(
      target,
      { method: request.method, headers: { ...request.headers, host: target.host } },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(response)
      },
    )
    forwarded.on('error', () => response.destroy())
    request.pipe(forwarded)
  }
}
