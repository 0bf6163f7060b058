// The word-level diff of a check's two answers in markdown for GitHub: removed words in <del> (struck
// through), added words in <ins><b> (underlined and bold), and between words replaced by others an arrow
// with spaces, so the two never run together ("~~1 hour~~24 hours"); GitHub's sanitiser keeps these tags
// and no colour. An HTML paragraph with <br> for the answers' line breaks, rather than a <pre> or a `diff`
// block: those do not wrap, and a changed word in a long line of prose would sit off screen; the exact
// text is in the quoted answers that follow. No line of the paragraph is blank (each line break ends in
// <br>), so the HTML block cannot end early and let markdown parse the answers.
import { DIFF_CHARS, MIN_SHARED_WORDS, type DiffPart, type WordDiff } from '../checks/word-diff.js'
import { formatCount } from '../units.js'
import { neutraliseReferences, sizeOf } from './markdown.js'

const OPEN = { removed: '<del>', added: '<ins><b>' } as const
const CLOSE = { removed: '</del>', added: '</b></ins>' } as const
// Between removed words and the words that replace them.
const REPLACED_BY = ' → '

// Less room than this for the diff's words and it is left out: a few words say nothing.
export const MIN_DIFF_BYTES = 256

const HEADING = `**Word-level diff**: <del>only before</del>${REPLACED_BY}<ins><b>only after</b></ins>`
const LEFT_OUT = "_The word-level diff is left out to stay within GitHub's size limit._"
const CUT_NOTE = "_The diff is cut here to stay within GitHub's size limit; the answers follow._"
const PARTIAL_NOTE = `_The diff compares the first ${formatCount(DIFF_CHARS)} characters of each answer._`

/** Answer text inside HTML: entities for what could open a tag or an entity, line breaks kept. */
const textHtml = (text: string) =>
  neutraliseReferences(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\n/g, '<br>\n')

/** A part as HTML; `replacing`: added words right after removed ones, which the arrow leads. */
function partHtml(part: DiffPart, replacing: boolean, text = part.text): string {
  const html = textHtml(text)
  if (part.change === 'same') return html
  return `${replacing ? REPLACED_BY : ''}${OPEN[part.change]}${html}${CLOSE[part.change]}`
}

/** Whether part `index` holds the words that replace the removed ones just before it. */
const replaces = (parts: readonly DiffPart[], index: number) =>
  parts[index].change === 'added' && index > 0 && parts[index - 1].change === 'removed'

/** The longest beginning of the part whose HTML fits in `room` bytes (whole characters, tags closed). */
function partWithin(part: DiffPart, replacing: boolean, room: number): string {
  let low = 0
  let high = Math.min(part.text.length, room)
  while (low < high) {
    const middle = Math.ceil((low + high) / 2)
    if (sizeOf(partHtml(part, replacing, part.text.slice(0, middle))) <= room) low = middle
    else high = middle - 1
  }
  let text = part.text.slice(0, low)
  if (/[\ud800-\udbff]$/.test(text)) text = text.slice(0, -1)
  return text === '' ? '' : partHtml(part, replacing, text)
}

function notes(partial: boolean, cut: boolean): string {
  const lines = [partial ? PARTIAL_NOTE : '', cut ? CUT_NOTE : ''].filter((line) => line !== '')
  return lines.length === 0 ? '' : `\n\n${lines.join(' ')}`
}

const paragraph = (html: string, partial: boolean, cut: boolean) =>
  `${HEADING}\n\n<p>\n${html}${cut ? '…' : ''}\n</p>${notes(partial, cut)}`

/** Why a check shows no diff, in one line. */
function whyNone(diff: Exclude<WordDiff, { kind: 'diff' }>): string {
  if (diff.kind === 'no-answer') return `_No word-level diff: the ${diff.side} side has no answer._`
  if (diff.kind === 'same-words')
    return diff.partial
      ? `_No word differs in the first ${formatCount(DIFF_CHARS)} characters of the answers; the change is further on._`
      : '_The two answers have the same words; only white space differs._'
  return `_No word-level diff: the two answers have less than ${MIN_SHARED_WORDS * 100}% of their words in common, so they are shown one after the other._`
}

/**
 * The diff section of a changed check within `room` bytes: the heading, the diff (cut at the end with a
 * note when it does not fit, never inside a tag or an entity), or one line saying why there is none.
 * Never larger than `max(room, sizeOf(wordDiffSection(diff, 0)))`: with too little room it is one line.
 */
export function wordDiffSection(diff: WordDiff, room: number): string {
  if (diff.kind !== 'diff') return whyNone(diff)
  const parts = diff.parts.map((part, index) => partHtml(part, replaces(diff.parts, index)))
  const whole = paragraph(parts.join(''), diff.partial, false)
  if (sizeOf(whole) <= room) return whole
  let left = room - sizeOf(paragraph('', diff.partial, true))
  if (left < MIN_DIFF_BYTES) return LEFT_OUT
  const html: string[] = []
  for (const [index, full] of parts.entries()) {
    if (sizeOf(full) <= left) {
      html.push(full)
      left -= sizeOf(full)
      continue
    }
    html.push(partWithin(diff.parts[index], replaces(diff.parts, index), left))
    break
  }
  return paragraph(html.join(''), diff.partial, true)
}
