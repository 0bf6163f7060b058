// Outputs, job summary and log lines from what happened. Reporting never decides what to send.
import type { ChangeBase, ItemOutcome, SkippedItem } from './model.js'
import type { PlannedItem } from './plan.js'
import { displayName, type Logger } from './log.js'

/** GitHub refuses a step summary over 1 MiB; we stay clearly under it. */
export const SUMMARY_LIMIT = 1_000_000
const ANSWER_LIMIT = 64 * 1024

export interface FlowRunReport {
  question: string
  result: string
  response: unknown
}

export interface IndexReport {
  dryRun: boolean
  /** Where the change set came from (git diff, compare API, full sync and why, …). */
  changeSource: string
  /** The commit the change set was measured from (none for a full sync). */
  base?: ChangeBase
  /** What would be sent (dry run) or was planned. */
  planned: PlannedItem[]
  items: ItemOutcome[]
  skipped: SkippedItem[]
  removed: string[]
  requests: number
  durationMs: number
  notices: string[]
  flow?: FlowRunReport
  /** Why the flow run after indexing failed. */
  flowError?: string
}

export interface IndexOutputs {
  uploaded: string[]
  updated: string[]
  skipped: string[]
  failed: string[]
  removed: string[]
}

export function indexOutputs(report: IndexReport): IndexOutputs {
  const named = (outcome: ItemOutcome['outcome']) =>
    report.items.filter((i) => i.outcome === outcome).map((i) => i.name)
  return {
    uploaded: named('uploaded'),
    updated: named('updated'),
    skipped: report.skipped.map((s) => s.name),
    failed: named('failed'),
    removed: report.removed,
  }
}

/** Where the action writes its outputs: `core.setOutput` on the runner, a JSON object for the CLI. */
export type OutputWriter = (name: string, value: string) => void

export function writeIndexOutputs(report: IndexReport, write: OutputWriter): void {
  for (const [name, names] of Object.entries(indexOutputs(report))) write(name, JSON.stringify(names))
  write('base', report.base?.sha ?? '')
  write('base-source', report.base?.source ?? 'none')
  if (report.flow) writeFlowOutputs(report.flow, write)
}

export function writeFlowOutputs(flow: FlowRunReport, write: OutputWriter): void {
  write('result', flow.result)
  write('response', JSON.stringify(flow.response))
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB']
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(1)} ${units[unit]}`
}

/** A table cell: one line, no HTML, no column breaks. */
function cell(text: string): string {
  return displayName(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '&#124;')
    .replace(/`/g, '&#96;')
}

/** A fenced block that the content cannot close: the fence is longer than any backtick run inside. */
export function fenced(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length))
  const fence = '`'.repeat(Math.max(3, longest + 1))
  return `${fence}text\n${text}\n${fence}`
}

function truncate(text: string, limit: number): { text: string; truncated: boolean } {
  if (text.length <= limit) return { text, truncated: false }
  return { text: text.slice(0, limit), truncated: true }
}

/** Builds the summary from sections, dropping table rows past the size budget with a note. */
class SummaryBuilder {
  private readonly parts: string[] = []
  private size = 0
  private truncated = false

  constructor(private readonly limit: number) {}

  add(text: string): boolean {
    const bytes = Buffer.byteLength(text) + 1
    if (this.size + bytes > this.limit) {
      this.truncated = true
      return false
    }
    this.parts.push(text)
    this.size += bytes
    return true
  }

  table(header: string[], rows: string[][]): void {
    if (rows.length === 0) return
    this.add(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|`)
    for (const [index, row] of rows.entries()) {
      if (!this.add(`| ${row.map(cell).join(' | ')} |`)) {
        this.parts.push(
          `\n_Truncated: ${rows.length - index} more rows not shown (the summary is limited to 1 MiB)._`,
        )
        return
      }
    }
    this.add('')
  }

  toString(): string {
    const text = this.parts.join('\n') + '\n'
    return this.truncated && !text.includes('_Truncated')
      ? `${text}\n_Truncated to stay under 1 MiB._\n`
      : text
  }
}

export function renderIndexSummary(report: IndexReport, limit = SUMMARY_LIMIT): string {
  // Reserve room for the notes the builder may append.
  const out = new SummaryBuilder(limit - 512)
  const outputs = indexOutputs(report)
  out.add(report.dryRun ? '## Knowledge base sync (dry run: nothing sent)\n' : '## Knowledge base sync\n')
  out.add(`Change set: ${cell(report.changeSource)}\n`)
  if (report.base?.sha) out.add(`${renderBaseLine(report.base)}\n`)
  if (report.dryRun) {
    out.add(
      `Planned: **${report.planned.length}**, skipped: **${outputs.skipped.length}**, removed: **${outputs.removed.length}**\n`,
    )
  } else {
    out.add(
      `Uploaded: **${outputs.uploaded.length}**, updated: **${outputs.updated.length}**, skipped: **${outputs.skipped.length}**, ` +
        `failed: **${outputs.failed.length}**, removed: **${outputs.removed.length}** ` +
        `(${report.requests} requests, ${(report.durationMs / 1000).toFixed(1)} s)\n`,
    )
  }
  for (const notice of report.notices) out.add(`> ${cell(notice)}\n`)

  const documents = report.items.filter((i) => i.kind === 'document')
  const urls = report.items.filter((i) => i.kind === 'url')
  if (report.dryRun) {
    out.table(
      ['Planned item', 'Operation', 'Size'],
      report.planned.map((p) => [
        p.name,
        p.operation === 'upload'
          ? p.fallback
            ? 'upload (409 → update)'
            : 'upload'
          : p.fallback
            ? 'update (404 → upload)'
            : 'update',
        p.size === undefined ? '' : formatBytes(p.size),
      ]),
    )
  }
  out.table(
    ['Document', 'Operation', 'Size', 'Outcome', 'Attempts', 'Error'],
    documents.map((i) => [
      i.name,
      i.operation,
      formatBytes(i.size ?? 0),
      i.outcome,
      String(i.attempts),
      i.error ?? '',
    ]),
  )
  out.table(
    ['URL', 'Operation', 'Outcome', 'Attempts', 'Error'],
    urls.map((i) => [i.name, i.operation, i.outcome, String(i.attempts), i.error ?? '']),
  )
  out.table(
    ['Skipped', 'Reason'],
    report.skipped.map((s) => [s.name, s.detail]),
  )
  out.table(
    ['Removed (not sent: the service has no delete)'],
    report.removed.map((name) => [name]),
  )
  if (report.flow) out.add(renderFlowSection(report.flow))
  if (report.flowError) out.add(`### Flow run failed\n\n${fenced(report.flowError)}\n`)
  return out.toString()
}

/** Which commit the change set was measured from, with a link to the run that synced it. */
export function renderBaseLine(base: ChangeBase): string {
  const commit = `\`${base.sha.slice(0, 12)}\``
  if (base.source === 'last-success' && base.run)
    return `Base: ${commit}, synced by the last successful run [#${base.run.number}](${base.run.url})`
  if (base.source === 'push') return `Base: ${commit}, the push's before commit`
  return `Base: ${commit}`
}

export function renderFlowSection(flow: FlowRunReport): string {
  const question = truncate(flow.question, ANSWER_LIMIT)
  const answer = truncate(flow.result, ANSWER_LIMIT)
  const note = (t: { truncated: boolean }) =>
    t.truncated ? `\n_Truncated to ${ANSWER_LIMIT / 1024} KiB._\n` : ''
  return `### Flow run\n\nQuestion:\n\n${fenced(question.text)}\n${note(question)}\nAnswer:\n\n${fenced(answer.text)}\n${note(answer)}`
}

/** Prints one line per failure and a closing count, so the log alone tells what happened. */
export function logIndexResult(report: IndexReport, log: Logger): void {
  const outputs = indexOutputs(report)
  for (const item of report.items.filter((i) => i.outcome === 'failed')) {
    log.error(
      `${item.kind} ${displayName(item.name)} failed after ${item.attempts} attempt(s): ${item.error ?? 'unknown error'}`,
    )
  }
  if (report.removed.length > 0) {
    log.notice(
      `${report.removed.length} document(s) removed by this push were not sent (the service has no delete): ` +
        report.removed.map(displayName).join(', '),
    )
  }
  log.info(
    report.dryRun
      ? `Dry run: ${report.planned.length} planned, ${outputs.skipped.length} skipped, nothing sent.`
      : `Uploaded ${outputs.uploaded.length}, updated ${outputs.updated.length}, skipped ${outputs.skipped.length}, ` +
          `failed ${outputs.failed.length}, removed ${outputs.removed.length}.`,
  )
}

/** One progress line at least every `intervalMs` while a long run goes on. */
export function startProgress(log: Logger, total: number, intervalMs = 5000) {
  const started = Date.now()
  let done = 0
  let bytes = 0
  const print = () => {
    const seconds = Math.max((Date.now() - started) / 1000, 0.001)
    log.info(
      `Progress: ${done}/${total} requests done, ${formatBytes(bytes)} sent (${formatBytes(bytes / seconds)}/s)`,
    )
  }
  const timer = setInterval(print, intervalMs)
  timer.unref()
  return {
    update(progress: { done: number; bytes: number }) {
      done = progress.done
      bytes = progress.bytes
    },
    stop() {
      clearInterval(timer)
    },
  }
}
