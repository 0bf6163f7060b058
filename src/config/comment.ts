// The pull-request comment inputs shared by both actions: `comment`, `comment-key`, `github-token`.
import { idProblem } from '../service/ids.js'
import { quoted } from './errors.js'
import type { InputFields } from './fields.js'

export interface CommentSettings {
  /** Post (or update) the sticky comment when the event is a pull request. */
  enabled: boolean
  /** Tells two steps of the same flow apart, so each keeps its own comment. */
  key: string
  githubToken: string
}

/** `comment` is on by default in pull_request events only (an empty input means that default). */
export function readCommentSettings(
  fields: InputFields,
  eventName: string,
  githubToken: string,
): CommentSettings {
  const raw = fields.raw('comment')
  const enabled = raw === '' ? eventName === 'pull_request' : fields.boolean('comment')
  const key = fields.raw('comment-key')
  // The key goes into an HTML comment in the body: the id alphabet cannot close it.
  const problem = key === '' ? undefined : idProblem(key)
  if (problem)
    fields.problem('comment-key', `${fields.names.subject('comment-key')} ${problem} (got ${quoted(key)}).`)
  return { enabled, key, githubToken }
}
