// A local server speaking the REST shapes octokit uses for issue comments: list (paginated with a
// Link header, as GitHub does), create, update. Writes can be refused as a read-only token is.
import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface StoredComment {
  id: number
  issue: number
  body: string
  user: { login: string; type: string }
}

export interface CommentsServer {
  url: string
  comments: StoredComment[]
  requests: { method: string; path: string; authorization?: string }[]
  /** Answer every create/update with this status (403 like a token without pull-requests: write). */
  refuseWrites?: number
  /**
   * Each user's permission (`admin`, `maintain`, `write`, `triage`, `read`), answered by
   * collaborators/{user}/permission; a user not listed is not a collaborator (404).
   */
  permissions: Record<string, string>
  /** Answers the routes this server does not know (e.g. the artifacts' REST API, forwarded). */
  others?: RequestListener
  close(): Promise<void>
}

// GitHub's own limit; a longer body is a 422 there.
const MAX_BODY = 65_536

function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    request.on('data', (c: Buffer) => chunks.push(c))
    request.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>)
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)))
      }
    })
    request.on('error', reject)
  })
}

export async function startCommentsServer(options: { owner: string; repo: string }): Promise<CommentsServer> {
  let nextId = 1000
  const state: CommentsServer = {
    url: '',
    comments: [],
    requests: [],
    permissions: {},
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
  const prefix = `/repos/${options.owner}/${options.repo}/issues`
  const shape = (c: StoredComment, base: string) => ({
    id: c.id,
    body: c.body,
    user: c.user,
    html_url: `https://github.test/${options.owner}/${options.repo}/pull/${c.issue}#issuecomment-${c.id}`,
    url: `${base}${prefix}/comments/${c.id}`,
  })
  const send = (
    response: import('node:http').ServerResponse,
    status: number,
    body: unknown,
    headers = {},
  ) => {
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers })
    response.end(JSON.stringify(body))
  }
  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', state.url)
      state.requests.push({
        method: request.method ?? '',
        path: url.pathname,
        authorization: request.headers.authorization,
      })
      const list = new RegExp(`^${prefix}/(\\d+)/comments$`).exec(url.pathname)
      const one = new RegExp(`^${prefix}/comments/(\\d+)$`).exec(url.pathname)
      const refuse = () =>
        send(response, state.refuseWrites!, {
          message: 'Resource not accessible by integration',
          documentation_url: 'https://docs.github.com/rest/issues/comments',
          status: String(state.refuseWrites),
        })
      const tooLong = (body: string) =>
        body.length > MAX_BODY &&
        (send(response, 422, {
          message: 'Validation Failed',
          errors: [{ message: 'Body is too long (maximum is 65536 characters)' }],
        }),
        true)
      const permission = new RegExp(
        `^/repos/${options.owner}/${options.repo}/collaborators/([^/]+)/permission$`,
      ).exec(url.pathname)
      if (permission && request.method === 'GET') {
        const login = decodeURIComponent(permission[1])
        const role = state.permissions[login]
        if (role === undefined) return send(response, 404, { message: 'Not Found' })
        // GitHub's `permission` folds maintain into write and triage into read; `role_name` keeps the role.
        const folded = role === 'maintain' ? 'write' : role === 'triage' ? 'read' : role
        return send(response, 200, { permission: folded, role_name: role, user: { login } })
      }
      if (list && request.method === 'GET') {
        const issue = Number(list[1])
        const perPage = Math.min(Number(url.searchParams.get('per_page') ?? 30), 100)
        const page = Number(url.searchParams.get('page') ?? 1)
        const all = state.comments.filter((c) => c.issue === issue)
        const slice = all.slice((page - 1) * perPage, page * perPage)
        const headers: Record<string, string> = {}
        if (page * perPage < all.length) {
          const next = new URL(url)
          next.searchParams.set('page', String(page + 1))
          headers.link = `<${next.toString()}>; rel="next"`
        }
        send(
          response,
          200,
          slice.map((c) => shape(c, state.url)),
          headers,
        )
      } else if (list && request.method === 'POST') {
        const { body } = await readJson(request)
        if (state.refuseWrites) return refuse()
        if (tooLong(String(body))) return
        const comment = {
          id: nextId++,
          issue: Number(list[1]),
          body: String(body),
          user: { login: 'github-actions[bot]', type: 'Bot' },
        }
        state.comments.push(comment)
        send(response, 201, shape(comment, state.url))
      } else if (one && request.method === 'PATCH') {
        const { body } = await readJson(request)
        if (state.refuseWrites) return refuse()
        if (tooLong(String(body))) return
        const comment = state.comments.find((c) => c.id === Number(one[1]))
        if (!comment) return send(response, 404, { message: 'Not Found' })
        comment.body = String(body)
        send(response, 200, shape(comment, state.url))
      } else if (state.others) {
        state.others(request, response)
      } else {
        send(response, 404, { message: 'Not Found' })
      }
    })()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return state
}
