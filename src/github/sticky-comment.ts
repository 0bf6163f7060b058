// One comment per marker on a pull request, updated in place: the marker (a hidden HTML comment at the
// start of the body) is how the next run finds the comment this step wrote before.
import type { LookupBudget } from './lookup-budget.js'
import type { Octokit } from './octokit.js'

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

/**
 * Creates the comment, or updates the one that carries the same marker, within the run's GitHub budget
 * (nothing is sent once the API was seen not to answer). Never throws.
 */
export async function upsertStickyComment(
  octokit: Octokit,
  comment: StickyComment,
  budget: LookupBudget,
): Promise<CommentOutcome> {
  const where = { owner: comment.owner, repo: comment.repo }
  try {
    let existing: { id: number; body?: string | null } | undefined
    // Paged by hand: octokit.paginate drops the `request` options (the timeout and the cancellation).
    for (let page = 1; !existing; page++) {
      const { data } = await budget.request((signal) =>
        octokit.rest.issues.listComments({
          ...where,
          issue_number: comment.issueNumber,
          per_page: COMMENTS_PER_PAGE,
          page,
          request: { signal },
        }),
      )
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
      const id = existing.id
      const { data } = await budget.request((signal) =>
        octokit.rest.issues.updateComment({
          ...where,
          comment_id: id,
          body,
          request: { signal },
        }),
      )
      return { ok: true, action: 'updated', id: data.id, url: data.html_url }
    }
    const { data } = await budget.request((signal) =>
      octokit.rest.issues.createComment({
        ...where,
        issue_number: comment.issueNumber,
        body,
        request: { signal },
      }),
    )
    return { ok: true, action: 'created', id: data.id, url: data.html_url }
  } catch (error) {
    return failure(error)
  }
}
