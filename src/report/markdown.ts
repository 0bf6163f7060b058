// Markdown pieces for the job summary and the pull-request comment. Untrusted text (file names,
// service errors, answers) only ever enters through `inline`, `inlineHtml` or `fenced`, so it cannot
// open HTML, break a table, close a fence or ping someone.
import { displayName, sanitize } from '../log.js'
import { needsWithin } from './shared-room.js'

/** `@name` pings a person or a team on GitHub; a zero-width space after `@` keeps it readable and silent. */
export function neutraliseMentions(text: string): string {
  return text.replace(/@(?=[A-Za-z0-9_-])/g, '@\u200b')
}

const entities = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/** One line of text inside HTML (`<summary>`): entities only, markdown is not parsed there. */
export function inlineHtml(text: string): string {
  return entities(neutraliseMentions(displayName(text)))
}

// Characters that no step of `inline` changes: a text made of them only (most file names) is its own
// markdown, found by one test instead of eight replacements per line of a long list.
const UNCHANGED_INLINE = /^[A-Za-z0-9 ./,:;=?%$^'"(){}-]*$/

/** One line of text in markdown (a table cell, a list item): no HTML, no markup, no column breaks. */
export function inline(text: string): string {
  if (UNCHANGED_INLINE.test(text)) return text
  const escaped = neutraliseMentions(displayName(text)).replace(/([\\*_[\]#~!+])/g, '\\$1')
  return entities(escaped).replace(/\|/g, '&#124;').replace(/`/g, '&#96;')
}

/** At most `max` characters on one line, with an ellipsis when cut (errors must not widen a table). */
export function shortLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`
}

/**
 * A fenced block that the content cannot close: the fence is longer than any backtick run inside.
 * Escape sequences and control characters (a flow's answer may carry them) are removed first.
 */
export function fenced(raw: string): string {
  const text = sanitize(raw)
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length))
  const fence = '`'.repeat(Math.max(3, longest + 1))
  return `${fence}text\n${neutraliseMentions(text)}\n${fence}`
}

// What gives a line of prose a meaning in GitHub-flavoured markdown: emphasis and strikethrough, code, links
// and images, HTML and entities, headings, lists, quotes, tables, setext underlines, math. Each is made
// literal with a backslash (CommonMark escapes any ASCII punctuation).
const PROSE_MARKUP = /[\\`*_[\]<>&#+\-!|~=$]/g
// An ordered list item (`1.`, `2)`) after its indent: its number is text, only the mark after it needs the escape.
const ORDERED_ITEM = /^([ \t]*\d{1,9})([.)])/gm
const NO_BREAK_SPACE = '\u00a0'

// A commit id GitHub links: 7 to 40 hex characters standing alone (`a5c3785`, `jlord@a5c3785`,
// `owner/repo@a5c3785`). Cut into pieces of at most 6, none is an id whatever GitHub counts as its edge.
const COMMIT_ID = /(?<![0-9A-Za-z_])[0-9a-f]{7,40}(?![0-9A-Za-z_])/gi
const COMMIT_ID_PIECE = /[0-9a-f]{1,6}/gi
// GitHub links a bare hex run only when it is a commit of the repository. Nearly every commit id mixes
// digits and letters; a number (a phone number, an order id) or a word ("defaced") is left whole, so that
// copying it from the comment carries no invisible characters. After `@` it is a commit reference.
const MIXED_HEX = /^(?=.*\d)(?=.*[a-f])/i
const breakCommitId = (id: string, offset: number, text: string): string =>
  MIXED_HEX.test(id) || /@\u200b?$/.test(text.slice(Math.max(0, offset - 2), offset))
    ? id.match(COMMIT_ID_PIECE)!.join('\u200b')
    : id

/**
 * Links, mentions and references GitHub finds in the rendered text, where no escape is left: a zero-width
 * space after `@` (a mention, an e-mail address), after `#` or `GH-` before a number (an issue reference,
 * `owner/repo#12` included, which would also cross-link that issue), in `://` and after `www` (a bare
 * address GitHub would link), and every 6 characters of what may be a commit id.
 */
export function neutraliseReferences(text: string): string {
  return neutraliseMentions(text)
    .replace(/#(?=\d)/g, '#\u200b')
    .replace(/\b(GH-)(?=\d)/gi, '$1\u200b')
    .replace(/:(?=\/\/)/g, ':\u200b')
    .replace(/\b(www)(?=\.)/gi, '$1\u200b')
    .replace(COMMIT_ID, breakCommitId)
}

/**
 * `inline` for what a flow wrote (a judge's reason, a failure quoting an answer): its references and
 * addresses link nothing either, as in the quoted answers.
 */
export function inlineFlowText(text: string): string {
  return inline(neutraliseReferences(text))
}

/**
 * Untrusted prose (a flow's question or answer) as a quote block, which GitHub wraps (a fenced block does
 * not: a long answer would scroll sideways). Nothing in it renders as markdown or HTML, nothing links or
 * mentions: markup is escaped, a line's indent becomes no-break spaces (no indented code). Its line breaks
 * are kept (a backslash at a line's end), blank lines part paragraphs. Escape sequences and control
 * characters are removed first.
 */
export function quoted(raw: string): string {
  // Lines trimmed one by one and blank ones dropped at both ends by index: a pattern anchored at a line's
  // end would backtrack over a long run of spaces or line breaks in quadratic time.
  const lines = sanitize(raw)
    .split('\n')
    .map((line) => line.trimEnd())
  let first = 0
  while (first < lines.length && lines[first] === '') first++
  let end = lines.length
  while (end > first && lines[end - 1] === '') end--
  if (first === end) return '>'
  const text = neutraliseReferences(lines.slice(first, end).join('\n'))
    .replace(PROSE_MARKUP, '\\$&')
    .replace(ORDERED_ITEM, '$1\\$2')
    .replace(/^[ \t]+/gm, (indent) =>
      indent.replace(/ /g, NO_BREAK_SPACE).replace(/\t/g, NO_BREAK_SPACE.repeat(4)),
    )
  return `> ${text.replace(/\n+/g, (breaks) => (breaks.length > 1 ? '\n>\n> ' : '\\\n> '))}`
}

export function table(header: string[], rows: string[][]): string {
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`]
  for (const row of rows) lines.push(`| ${row.join(' | ')} |`)
  return lines.join('\n') + '\n'
}

/** A collapsed block; the summary line is HTML, the body markdown (hence the blank lines). */
export function details(summaryHtml: string, body: string): string {
  return `<details><summary>${summaryHtml}</summary>\n\n${body.trimEnd()}\n\n</details>\n`
}

/** The size GitHub's limits are measured in is at most this (UTF-8 bytes ≥ UTF-16 characters). */
export const sizeOf = (text: string): number => Buffer.byteLength(text)

/**
 * A document assembled under a size limit, in reading order: what comes first is what matters most,
 * so later parts are the ones cut. Lists are cut item by item with a note saying how many are missing.
 */
export class BudgetedDocument {
  private readonly parts: string[] = []
  private used = 0

  constructor(private readonly limit: number) {}

  get remaining(): number {
    return this.limit - this.used
  }

  /** Adds the text when it fits, else nothing; says which. `bytes`: its size, when already known. */
  add(text: string, bytes = sizeOf(text)): boolean {
    const size = bytes + 1
    if (size > this.remaining) return false
    this.parts.push(text)
    this.used += size
    return true
  }

  /**
   * Text and collapsed lists in order. The lists share what room is left fairly: the short ones are
   * shown whole and the long ones split the rest equally, so one huge list cannot push the others out
   * and no room is left unused while a list is cut. A cut list ends with a note.
   */
  addAll(parts: (string | CollapsedList)[]): void {
    const texts = parts.filter((p): p is string => typeof p === 'string')
    const lists = parts.filter((p): p is CollapsedList => typeof p !== 'string')
    const textRoom = texts.reduce((n, t) => n + sizeOf(t) + 1, 0)
    const room = this.remaining - textRoom
    const measured = lists.map(measuredList)
    const shares = fairShares(needsWithin(measured, room, measureUpTo), room)
    let list = 0
    for (const part of parts) {
      if (typeof part === 'string') {
        this.add(part)
        continue
      }
      const rendered = renderCollapsedList(part, shares[list], measured[list])
      list++
      if (rendered) this.add(rendered.text, rendered.bytes)
    }
  }

  toString(): string {
    return this.parts.join('\n')
  }
}

export interface CollapsedList {
  summaryHtml: string
  count: number
  /**
   * The line of item `index`, made when it is measured and kept to be shown: only the lines that can fit
   * are made (the lines of 100,000 documents, all held at once, outlived young-generation collections,
   * bench/README.md).
   */
  lineAt: (index: number) => string
  /** The line that replaces `missing` items that did not fit. */
  note: (missing: number) => string
}

/** A collapsed list of `items`, each shown as `line` makes it. */
export function collapsedList<T>(
  summaryHtml: string,
  items: readonly T[],
  line: (item: T) => string,
  note: (missing: number) => string,
): CollapsedList {
  return { summaryHtml, count: items.length, lineAt: (index) => line(items[index]), note }
}

/** Max-min fair shares of `room`: the smallest needs first, each at most an equal part of what is left. */
function fairShares(needs: number[], room: number): number[] {
  const shares = new Array<number>(needs.length).fill(0)
  const order = needs.map((need, index) => ({ need, index })).sort((a, b) => a.need - b.need)
  let left = Math.max(0, room)
  order.forEach(({ need, index }, position) => {
    const share = Math.min(need, Math.floor(left / (order.length - position)))
    shares[index] = share
    left -= share
  })
  return shares
}

const LIST_MARKUP = (list: CollapsedList) =>
  sizeOf(`<details><summary>${list.summaryHtml}</summary>\n\n`) + sizeOf('\n</details>\n') + NOTE_ROOM + 1

/**
 * A list as measured for its share: `need` is the room it takes to be shown whole, or, past the cap it was
 * measured to, only known to be more; `lines` are the lines made while measuring, kept to be shown.
 */
interface MeasuredList {
  list: CollapsedList
  need: number
  lines: string[]
  /** The room each of `lines` takes (its UTF-8 size and a line break). */
  sizes: number[]
}

const measuredList = (list: CollapsedList): MeasuredList => ({
  list,
  need: list.count === 0 ? 0 : LIST_MARKUP(list),
  lines: [],
  sizes: [],
})

/**
 * The room a list needs (0 when empty: it is not shown), measured line by line until it passes `cap`: the
 * lines made are kept to be shown. With no cap (the lists over it compared, shared-room.ts) the lines past
 * the kept ones are made, measured and dropped.
 */
function measureUpTo(measured: MeasuredList, cap: number): number {
  const { list } = measured
  if (list.count === 0) return 0
  const keep = Number.isFinite(cap)
  for (let index = measured.lines.length; index < list.count && measured.need <= cap; index++) {
    const line = `- ${list.lineAt(index)}`
    const size = sizeOf(line) + 1
    if (keep) {
      measured.lines.push(line)
      measured.sizes.push(size)
    }
    measured.need += size
  }
  return measured.need
}

const NOTE_ROOM = 200

/**
 * A `<details>` list within `room` bytes (items cut with a note), or undefined when even that does not
 * fit. `made` are its first lines, already made when it was measured.
 */
function renderCollapsedList(
  list: CollapsedList,
  room: number,
  made: MeasuredList,
): { text: string; bytes: number } | undefined {
  if (list.count === 0) return undefined
  const open = `<details><summary>${list.summaryHtml}</summary>\n\n`
  const close = '\n</details>\n'
  let size = LIST_MARKUP(list)
  if (size > room) return undefined
  // The lines made while measuring, cut or continued in place: a long list's lines are not copied.
  const lines = made.lines
  let linesBytes = 0
  let count = 0
  for (; count < list.count; count++) {
    const line = lines[count] ?? `- ${list.lineAt(count)}`
    const lineSize = made.sizes[count] ?? sizeOf(line) + 1
    if (size + lineSize > room) break
    lines[count] = line
    size += lineSize
    linesBytes += lineSize
  }
  lines.length = count
  const missing = list.count - count
  const tail = missing > 0 ? `\n\n${list.note(missing)}\n` : '\n'
  // Each line's size counts the newline after it; joined, the last has none.
  const bytes = sizeOf(open) + Math.max(0, linesBytes - 1) + sizeOf(tail) + sizeOf(close)
  return { text: `${open}${lines.join('\n')}${tail}${close}`, bytes }
}
