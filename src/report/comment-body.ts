// The sticky pull-request comments: the flow's verdicts and answers, and the preview of a sync. GitHub
// refuses a comment over 65,536 characters; answers are what gets cut first, and the comment says so.
import { renderIndexSummary } from './index-summary.js'
import { details, fenced, inline, inlineHtml, shortLine, sizeOf, table } from './markdown.js'
import type { IndexReport } from './types.js'

export const COMMENT_LIMIT = 65_536
// Room kept for the marker, the footer and rounding.
const RESERVE = 1_024

/** One row of the verdicts table: today a single question, a checks suite later. */
export interface VerdictRow {
  name: string
  verdict: 'passed' | 'failed' | 'error'
  seconds?: number
  /** Which assertion failed, or the error. */
  problem?: string
  /** The answer, shown collapsed under the table. */
  answer?: string
}

/** Where the comment's result comes from. */
export interface CommentFooter {
  commit?: string
  runUrl?: string
}

const ICON = { passed: '✅', failed: '❌', error: '⚠️' } as const

export function verdictTable(rows: readonly VerdictRow[]): string {
  return table(
    ['Check', 'Verdict', 'Seconds', 'Failed assertion'],
    rows.map((row) => [
      inline(shortLine(row.name, 80)),
      `${ICON[row.verdict]} ${row.verdict}`,
      row.seconds === undefined ? '' : row.seconds.toFixed(1),
      row.problem ? inline(shortLine(row.problem, 160)) : '',
    ]),
  )
}

function footer({ commit, runUrl }: CommentFooter): string {
  const parts = [
    commit ? `Ran on \`${commit.slice(0, 12).replace(/[^0-9a-f]/gi, '')}\`` : '',
    runUrl ? `[workflow run](${encodeURI(runUrl)})` : '',
  ].filter(Boolean)
  return parts.length > 0 ? `\n_${parts.join(' · ')}_\n` : ''
}

function verdictHeading(title: string, rows: readonly VerdictRow[]): string {
  const bad = rows.filter((r) => r.verdict !== 'passed').length
  if (bad === 0) return `### ✅ ${inline(title)}: passed\n`
  return rows.length === 1
    ? `### ❌ ${inline(title)}: ${rows[0].verdict}\n`
    : `### ❌ ${inline(title)}: ${bad} of ${rows.length} failed\n`
}

/** A body cut to `limit` characters, cutting the answers first (each to an equal share). */
export function renderFlowComment(
  title: string,
  rows: readonly VerdictRow[],
  context: CommentFooter,
  limit = COMMENT_LIMIT,
): string {
  const head = verdictHeading(title, rows)
  let verdicts = verdictTable(rows)
  let shown: readonly VerdictRow[] = rows
  const tail = footer(context)
  const budget = limit - RESERVE
  if (sizeOf(head + verdicts + tail) > budget / 2) {
    // A huge suite: keep the rows that fit in half the room; the answers share the rest.
    const kept: VerdictRow[] = []
    let size = sizeOf(verdictTable([]))
    for (const row of rows) {
      size += sizeOf(verdictTable([row])) - sizeOf(verdictTable([]))
      if (size > budget / 2) break
      kept.push(row)
    }
    shown = kept
    verdicts = `${verdictTable(kept)}\n_${rows.length - kept.length} more checks not shown (the comment is limited to 65,536 characters); the job summary lists all._\n`
  }
  const wrapperOf = (row: VerdictRow, body: string) =>
    details(`${inlineHtml(shortLine(row.name, 80))}: ${row.verdict}`, body)
  // Answers whose empty block does not fit are left out; the others share the room equally.
  let room = budget - sizeOf(head + verdicts + tail) - 400
  const answered: VerdictRow[] = []
  for (const row of shown) {
    if (row.answer === undefined) continue
    const empty = sizeOf(wrapperOf(row, fenced(''))) + 120
    if (empty > room) break
    answered.push(row)
    room -= empty
  }
  const share = Math.floor(room / Math.max(1, answered.length))
  let cut = answered.length < shown.filter((r) => r.answer !== undefined).length
  const blocks = answered.map((row) => {
    let text = row.answer ?? ''
    let note = ''
    if (sizeOf(fenced(text)) - sizeOf(fenced('')) > share) {
      cut = true
      text = cutToBytes(text, share + sizeOf(fenced('')))
      note = `\n\n_Cut to ${text.length.toLocaleString('en-US')} of ${(row.answer ?? '').length.toLocaleString('en-US')} characters._`
    }
    return wrapperOf(row, `${fenced(text)}${note}`)
  })
  const cutNote = cut
    ? '\n_Answers were cut to keep this comment under GitHub’s 65,536-character limit; the `response` output has them whole._\n'
    : ''
  return [head, verdicts, ...blocks, cutNote, tail].filter(Boolean).join('\n')
}

/** The longest prefix of `text` whose fenced form stays within `bytes` (never splitting a surrogate pair). */
function cutToBytes(whole: string, bytes: number): string {
  // A character is at least one byte: nothing past `bytes` characters can fit.
  const text = whole.slice(0, bytes)
  let low = 0
  let high = text.length
  while (low < high) {
    const mid = Math.ceil((low + high) / 2)
    if (sizeOf(fenced(text.slice(0, mid))) <= bytes) low = mid
    else high = mid - 1
  }
  let end = low
  const code = text.charCodeAt(end - 1)
  if (code >= 0xd800 && code <= 0xdbff) end -= 1
  return text.slice(0, end)
}

/** The preview (or result) of a sync as a comment: the summary's reading order, cut to the comment limit. */
export function renderIndexComment(
  report: IndexReport,
  context: CommentFooter,
  limit = COMMENT_LIMIT,
): string {
  return `${renderIndexSummary(report, limit - RESERVE)}${footer(context)}`
}
