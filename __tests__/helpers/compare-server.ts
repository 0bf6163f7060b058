// A local server answering like GitHub's compare endpoint (GET /repos/{owner}/{repo}/compare/{basehead}):
// answers are keyed by basehead; anything else is a 404. Reached through GITHUB_API_URL / apiUrl.
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ComparedFile {
  filename: string
  status: string
  previous_filename?: string
}
export interface CompareAnswer {
  httpStatus?: number
  status?: string
  total_commits?: number
  files?: ComparedFile[]
}

/** Imitates GET /repos/{owner}/{repo}/compare/{base}...{head}; answers keyed by basehead. */
export class CompareServer {
  readonly requests: { path: string; authorization?: string }[] = []
  answers: Record<string, CompareAnswer> = {}
  /** The port it listens on, once started. */
  port = 0

  /** `repository`: owner/name whose compare path is answered. */
  constructor(private readonly repository = 'acme/docs') {}

  /** The request handler, for a server that answers other paths too (WorkflowRunsServer.others). */
  readonly handle: http.RequestListener = (request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1')
    this.requests.push({
      path: decodeURIComponent(url.pathname),
      authorization: request.headers.authorization,
    })
    const prefix = `/repos/${this.repository}/compare/`
    const pathname = decodeURIComponent(url.pathname)
    const match = pathname.startsWith(prefix) ? [pathname, pathname.slice(prefix.length)] : undefined
    const answer = match ? this.answers[match[1]] : undefined
    response.setHeader('content-type', 'application/json')
    if (!answer || (answer.httpStatus ?? 200) !== 200) {
      response.statusCode = answer?.httpStatus ?? 404
      response.end(JSON.stringify({ message: 'Not Found' }))
      return
    }
    const files = answer.files ?? []
    response.end(
      JSON.stringify({
        status: answer.status ?? 'ahead',
        ahead_by: 1,
        behind_by: 0,
        total_commits: answer.total_commits ?? 1,
        commits: [],
        files: files.map((file) => ({
          sha: '0'.repeat(40),
          additions: 1,
          deletions: 0,
          changes: 1,
          ...file,
        })),
      }),
    )
  }

  private readonly server = http.createServer(this.handle)

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve))
    this.port = (this.server.address() as AddressInfo).port
    return `http://127.0.0.1:${this.port}`
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()))
  }
}
