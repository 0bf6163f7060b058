// One comment per marker on a pull request, updated in place: the marker (a hidden HTML comment at the
// start of the body) is how the next run finds the comment this step wrote before.
import { withTimeout } from '../cancellation.js'
import type { Octokit } from './octokit.js'

const REQUEST_TIMEOUT_MS = 30_000
const COMMENTS_PER_PAGE = 100

export interface StickyComment {
  owner: string
  repo: string
  issueNumber: number
  /** `<!-- … -->`, unique per flow and comment key. */
  marker: string
  /**
   * The body after the marker; or built from the comment found (its body after the marker line, undefined
   * when there is none), where undefined leaves everything as it is (no comment is created).
   */
  body: string | ((existing: string | undefined) => string | undefined)
}

export type CommentOutcome =
  | { ok: true; action: 'created' | 'updated'; id: number; url: string }
  | { ok: true; action: 'left' }
  | { ok: false; status?: number; why: string }

function failure(error: unknown): CommentOutcome {
  const status = (error as { status?: unknown })?.status
  const message = error instanceof Error ? error.message : String(error)
  return { ok: false, status: typeof status === 'number' ? status : undefined, why: message }
}

/** The body below the marker line. */
const afterMarker = (body: string, marker: string) => body.slice(marker.length).replace(/^\r?\n/, '')

/** Creates the comment, or updates the one that carries the same marker. Never throws. */
export async function upsertStickyComment(
  octokit: Octokit,
  comment: StickyComment,
  signal?: AbortSignal,
): Promise<CommentOutcome> {
  const where = { owner: comment.owner, repo: comment.repo }
  const request = () => ({ signal: withTimeout(signal, REQUEST_TIMEOUT_MS) })
  try {
    let existing: { id: number; body?: string | null } | undefined
    // Paged by hand: octokit.paginate drops the `request` options (the timeout and the cancellation).
    for (let page = 1; !existing; page++) {
      const { data } = await octokit.rest.issues.listComments({
        ...where,
        issue_number: comment.issueNumber,
        per_page: COMMENTS_PER_PAGE,
        page,
        request: request(),
      })
      existing = data.find((c) => (c.body ?? '').startsWith(comment.marker))
      if (data.length < COMMENTS_PER_PAGE) break
    }
    const text =
      typeof comment.body === 'string'
        ? comment.body
        : comment.body(existing ? afterMarker(existing.body ?? '', comment.marker) : undefined)
    if (text === undefined) return { ok: true, action: 'left' }
    const body = `${comment.marker}\n${text}`
    if (existing) {
      const { data } = await octokit.rest.issues.updateComment({
        ...where,
        comment_id: existing.id,
        body,
        request: request(),
      })
      return { ok: true, action: 'updated', id: data.id, url: data.html_url }
    }
    const { data } = await octokit.rest.issues.createComment({
      ...where,
      issue_number: comment.issueNumber,
      body,
      request: request(),
    })
    return { ok: true, action: 'created', id: data.id, url: data.html_url }
  } catch (error) {
    return failure(error)
  }
}
