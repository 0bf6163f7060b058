// The note a skipped run puts on top of its sticky comment: the result below was measured on an earlier
// push and still holds, since this push changes none of what it measured. A later skip replaces the
// note instead of stacking another.
import { inline } from './markdown.js'

const NOTE_START = '> **Not run again for '
const EARLIER_NOTE = /^> \*\*Not run again for [^\r\n]*(?:\r?\n)+/

export function notRerunNote(headSha: string | undefined, checksFile: string | undefined): string {
  const commit = headSha ? `\`${headSha.slice(0, 12).replace(/[^0-9a-f]/gi, '')}\`` : 'this push'
  const nor = checksFile ? ` nor the checks file ${inline(checksFile)}` : ''
  return (
    `${NOTE_START}${commit}**: this push changes none of the selected documents${nor}; the result ` +
    'below still holds for the documents it measured.'
  )
}

/** `body` with `note` on top, in place of an earlier such note. */
export function withNotRerunNote(body: string, note: string): string {
  return `${note}\n\n${body.replace(EARLIER_NOTE, '')}`
}
