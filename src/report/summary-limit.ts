// The job summary within GitHub's limit. The runner drops a step's summary whole above 1 MiB, and an
// open runner bug drops some just below it: every summary stays at most 1,000 KiB in UTF-8 bytes,
// counting what the step already wrote to the file.
import { utf8Prefix } from '../service/cut.js'

export const SUMMARY_LIMIT_BYTES = 1000 * 1024

/**
 * `markdown` when it fits after `usedBytes` already in the summary file, else its beginning up to a line
 * break and a note saying where the rest is (`pointer`, e.g. the report file).
 */
export function fitSummary(markdown: string, usedBytes: number, pointer: string): string {
  const room = SUMMARY_LIMIT_BYTES - usedBytes
  if (Buffer.byteLength(markdown) <= room) return markdown
  const note = `\n\n_The summary was cut here to stay within GitHub's 1,000 KiB limit for a job summary; ${pointer}._\n`
  if (room < Buffer.byteLength(note)) return ''
  const head = utf8Prefix(markdown, room - Buffer.byteLength(note))
  const lineEnd = head.lastIndexOf('\n')
  return (lineEnd > 0 ? head.slice(0, lineEnd) : '') + note
}
