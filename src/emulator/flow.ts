// The emulator's flow: a small but real retrieval over the flow's knowledge bases. Text documents
// (markdown, plain text, HTML and XML without their tags, JSON, YAML, CSV) are split into passages (by
// headings and blank lines) and ranked against the question with MiniSearch (BM25+); other documents
// are listed by name, indexed URLs by value (never fetched: the emulator makes no network calls).
// Only what a reader of a document sees is searched, not its metadata (searchableText), and a block
// without a word is no passage: a removed document's placeholder has neither, so, as in a real index,
// no question finds it. It is told by having nothing to search, not by a marker the emulator knows.
import path from 'node:path'
import MiniSearch from 'minisearch'
import { seededRandom } from './faults.js'

export interface FlowDocument {
  /** Knowledge base (node) the document is in. */
  nodeId: string
  name: string
  contentType: string
  /** The text of a text document (possibly cut at a size limit); undefined for other types. */
  text: string | undefined
}

export interface FlowKnowledge {
  documents: FlowDocument[]
  urls: string[]
}

export interface Passage {
  document: string
  heading: string
  text: string
}

export const TOP_PASSAGES = 3

const TEXT_EXTENSIONS = new Set([
  '.md',
  '.markdown',
  '.mdx',
  '.txt',
  '.text',
  '.rst',
  '.adoc',
  '.html',
  '.htm',
  '.xml',
  '.json',
  '.yaml',
  '.yml',
  '.csv',
  '.tsv',
])
const TEXT_TYPES = new Set([
  'text/markdown',
  'text/plain',
  'text/x-rst',
  'text/html',
  'application/xml',
  'application/json',
  'application/yaml',
  'text/csv',
  'text/tab-separated-values',
])
const MARKUP_EXTENSIONS = new Set(['.html', '.htm', '.xml'])
const HTML_EXTENSIONS = new Set(['.html', '.htm'])
const MARKDOWN_EXTENSIONS = new Set(['.md', '.markdown', '.mdx'])
const ASCIIDOC_EXTENSIONS = new Set(['.adoc', '.asciidoc'])

/** Text formats are searched; anything else (PDF, Office files, images) is listed by name only. */
export function isTextDocument(name: string, contentType: string): boolean {
  const type = contentType.split(';')[0].trim().toLowerCase()
  if (TEXT_TYPES.has(type)) return true
  return TEXT_EXTENSIONS.has(path.posix.extname(name).toLowerCase())
}

// YAML (`---`) or TOML (`+++`) front matter at the very top, up to its closing line.
const FRONT_MATTER = /^\ufeff?(---|\+\+\+)[ \t]*\r?\n(?:[\s\S]*?\r?\n)?(?:\1|\.\.\.)[ \t]*(?:\r?\n|$)/
// An AsciiDoc attribute entry (`:name: value`, `:name!:`), a line of its own.
const ATTRIBUTE_ENTRY = /^:!?\w[\w-]*!?:(?:[ \t].*)?$/gm

/**
 * The words of a text document a reader sees, which is what retrieval searches: not its metadata —
 * markdown's front matter, an HTML page's <head>, AsciiDoc's attribute entries — and HTML and XML
 * without their tags and attributes (each tag ends a passage). A removed document's placeholder keeps
 * its commit there (placeholders.ts), so it has no words here, and is never found.
 */
export function searchableText(name: string, text: string): string {
  const extension = path.posix.extname(name).toLowerCase()
  if (MARKDOWN_EXTENSIONS.has(extension)) return text.replace(FRONT_MATTER, '')
  if (ASCIIDOC_EXTENSIONS.has(extension)) return text.replace(ATTRIBUTE_ENTRY, '')
  if (!MARKUP_EXTENSIONS.has(extension)) return text
  const body = HTML_EXTENSIONS.has(extension)
    ? text.replace(/<head\b[^>]*>[\s\S]*?<\/head\s*>/gi, '\n\n')
    : text
  return body
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '\n\n')
    .replace(/<[^>]*>/g, '\n\n')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
}

const WORD = /[\p{L}\p{N}]/u
const HEADING = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/

/** Splits text into passages: blocks between blank lines, each remembering the heading above it. */
export function splitPassages(document: string, text: string): Passage[] {
  const passages: Passage[] = []
  let heading = ''
  let block: string[] = []
  const flush = () => {
    const body = block.join('\n').trim()
    // A block without a letter or a digit (`{}`, a rule, punctuation) has nothing to be found by.
    if (WORD.test(body)) passages.push({ document, heading, text: body })
    block = []
  }
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    const match = HEADING.exec(line)
    if (match) {
      flush()
      heading = match[1]
    } else if (line.trim() === '') {
      flush()
    } else {
      block.push(line)
    }
  }
  flush()
  return passages
}

// Words that carry no meaning for ranking (the question is natural language).
const STOP_WORDS = new Set(
  (
    'a an and are as at be by can do does for from how i if in is it of on or so that the this to ' +
    'was what when where which who why will with you your my me we our'
  ).split(' '),
)

function processTerm(term: string): string | null {
  const lower = term.toLowerCase()
  return STOP_WORDS.has(lower) ? null : lower
}

/** The best passages for the question, best first. */
export function rankPassages(question: string, passages: Passage[], limit = TOP_PASSAGES): Passage[] {
  const index = new MiniSearch<{ id: number; heading: string; text: string }>({
    fields: ['heading', 'text'],
    processTerm,
    searchOptions: {
      boost: { heading: 1.5 },
      prefix: (term) => term.length > 3,
      fuzzy: (term) => (term.length > 5 ? 0.2 : false),
      combineWith: 'OR',
    },
  })
  index.addAll(passages.map((passage, id) => ({ id, heading: passage.heading, text: passage.text })))
  return index
    .search(question)
    .slice(0, limit)
    .map((result) => passages[result.id as number])
}

/** The question of a run: `in-0`, then every other input, one per line. */
export function questionOf(inputs: Record<string, string>): string {
  const rest = Object.entries(inputs)
    .filter(([key]) => key !== 'in-0')
    .map(([, value]) => value)
  return [inputs['in-0'] ?? '', ...rest].filter((part) => part.trim() !== '').join('\n')
}

function describe(passage: Passage, rank: number): string {
  const where = passage.heading ? `${passage.document} (${passage.heading})` : passage.document
  return `[${rank}] ${where}\n${passage.text}`
}

/** The answer of a run as the real service shapes it: a completed run with its outputs and citations. */
export interface FlowRunAnswer {
  outputs: { 'out-0': string }
  run_id: string
  state: 'COMPLETED'
  error: null
  pause: null
  citations: { document: string; heading: string }[]
}

/** What a flow answers on a run that missed: as if retrieval found nothing (a real flow's bad day). */
export const MISSED_ANSWER = 'No passage of the indexed documents matches the question.'

/**
 * Decides which runs of a question miss, so repeats of one question can be answered differently. Each
 * question has its own seeded sequence (mulberry32 seeded with `seed` and the question's hash), drawn
 * once per run of that question in arrival order: the nth run of a question misses or not whatever the
 * other questions do, so a suite run at any concurrency gives the same answers per check.
 */
export function createMissPicker(seed: number, missRate: number): (question: string) => boolean {
  const sequences = new Map<string, () => number>()
  return (question) => {
    let next = sequences.get(question)
    if (!next) {
      next = seededRandom((seed ^ hashOf(question)) >>> 0)
      sequences.set(question, next)
    }
    return next() < missRate
  }
}

/** FNV-1a over UTF-16 code units: a stable 32-bit hash of the question. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193)
  return hash >>> 0
}

export function flowRunAnswer(
  question: string,
  knowledge: FlowKnowledge,
  flowName: string,
  runId: string,
  missed = false,
): FlowRunAnswer {
  const { text, cited } = missed
    ? { text: MISSED_ANSWER, cited: [] }
    : composeAnswer(question, knowledge, flowName)
  return {
    outputs: { 'out-0': text },
    run_id: runId,
    state: 'COMPLETED',
    error: null,
    pause: null,
    citations: cited.map((passage) => ({ document: passage.document, heading: passage.heading })),
  }
}

/** The text of `out-0` for a question over a flow's knowledge. */
export function answerQuestion(question: string, knowledge: FlowKnowledge, flowName: string): string {
  return composeAnswer(question, knowledge, flowName).text
}

function composeAnswer(
  question: string,
  knowledge: FlowKnowledge,
  flowName: string,
): { text: string; cited: Passage[] } {
  const textDocuments = knowledge.documents.filter((document) => document.text !== undefined)
  const otherDocuments = knowledge.documents.filter((document) => document.text === undefined)
  if (knowledge.documents.length === 0 && knowledge.urls.length === 0)
    return { text: `No documents indexed: the knowledge bases of ${flowName} are empty.`, cited: [] }

  const sections: string[] = []
  let cited: Passage[] = []
  if (question === '') {
    sections.push('No question was given (input "in-0" is empty).')
  } else {
    const passages = textDocuments.flatMap((document) =>
      splitPassages(document.name, searchableText(document.name, document.text ?? '')),
    )
    cited = rankPassages(question, passages)
    if (cited.length > 0) sections.push(cited.map((passage, i) => describe(passage, i + 1)).join('\n\n'))
    else if (textDocuments.length > 0)
      sections.push('No passage of the indexed documents matches the question.')
    else sections.push('No text documents are indexed to search.')
  }
  if (otherDocuments.length > 0)
    sections.push(
      `Other documents (not searched):\n${otherDocuments.map((document) => `- ${document.name}`).join('\n')}`,
    )
  if (knowledge.urls.length > 0)
    sections.push(`Indexed websites (not fetched):\n${knowledge.urls.map((url) => `- ${url}`).join('\n')}`)
  return { text: sections.join('\n\n'), cited }
}

/**
 * The emulator's judge flow (`judgeFlows`): grades `in-1` (the answer) by the key terms of `in-2` (the
 * rubric) found in it — the phrases in double quotes, else every word of three letters or more that is
 * not a stop word. Its score is the share found (two decimals), its verdict pass from one half up. Not a
 * model: a deterministic stand-in, so repeats and score thresholds are tested for real. Answers in the
 * shape the README's "Judge flow" section defines, as JSON text in `out-0`.
 */
export function judgeRunAnswer(inputs: Record<string, string>, runId: string): FlowRunAnswer {
  const answer = (inputs['in-1'] ?? '').toLowerCase()
  const terms = keyTermsOf(inputs['in-2'] ?? '')
  const missing = terms.filter((term) => !containsTerm(answer, term))
  const score =
    terms.length === 0 ? 0 : Math.round(((terms.length - missing.length) / terms.length) * 100) / 100
  const reason =
    terms.length === 0
      ? 'The rubric names no key term to look for.'
      : missing.length === 0
        ? `The answer has every key term of the rubric (${terms.length}).`
        : `The answer has ${terms.length - missing.length} of ${terms.length} key terms of the rubric; ` +
          `missing: ${missing.map((term) => JSON.stringify(term)).join(', ')}.`
  const grade = { verdict: score >= 0.5 ? 'pass' : 'fail', score, reason }
  return {
    outputs: { 'out-0': JSON.stringify(grade) },
    run_id: runId,
    state: 'COMPLETED',
    error: null,
    pause: null,
    citations: [],
  }
}

function keyTermsOf(rubric: string): string[] {
  const quoted = [...rubric.matchAll(/"([^"]+)"/g)].map((match) => match[1].trim().toLowerCase())
  if (quoted.length > 0) return [...new Set(quoted.filter((term) => term !== ''))]
  const words = rubric.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []
  return [...new Set(words.filter((word) => !STOP_WORDS.has(word)))]
}

/** The term as whole words of the (lower-cased) answer. */
function containsTerm(answer: string, term: string): boolean {
  let from = answer.indexOf(term)
  while (from >= 0) {
    const before = answer[from - 1]
    const after = answer[from + term.length]
    const edge = (char: string | undefined) => char === undefined || !/[\p{L}\p{N}]/u.test(char)
    if (edge(before) && edge(after)) return true
    from = answer.indexOf(term, from + 1)
  }
  return false
}
