// Step outputs of both actions and the index run's log lines and progress, from what happened. Reporting
// never decides what to send.
import type { SendProgress } from '../model.js'
import type { FlowRunReport, ItemOutcome, SkippedItem } from '../model.js'
import { outputsOf } from '../flow/answer.js'
import { formatBytes } from '../units.js'
import { displayName, type Logger } from '../log.js'
import { splitByOutcome } from './by-outcome.js'
import { firstNames, groupFailures } from './causes.js'
import type { IndexReport } from './types.js'
import type { OutputSpec } from './output-budget.js'
import { plannedOutputSpecs } from './planned.js'
import { shardLabel } from '../select/shard.js'

export interface IndexOutputs {
  uploaded: string[]
  updated: string[]
  skipped: string[]
  failed: string[]
  /** Removed documents blanked by a placeholder (or not in the knowledge base: nothing to remove). */
  removed: string[]
  /** Removed documents that stay in the knowledge base. */
  left: string[]
}

/** The lists of names by outcome, in one pass over the items. */
export function indexOutputs(report: IndexReport): IndexOutputs {
  const names = splitByOutcome(report.items, (item) => item.name)
  // In this order: the outputs and the counts line list them so.
  return {
    uploaded: names.uploaded,
    updated: names.updated,
    skipped: report.skipped.map((s) => s.name),
    failed: names.failed,
    removed: names.removed,
    left: report.left.map((document) => document.name),
  }
}

/**
 * The index action's outputs (but `report-file`): the five lists, their exact counts, the base, and the
 * flow run's outputs when it ran. The report file holds the same fields uncut.
 */
export function indexOutputSpecs(report: IndexReport, outputs = indexOutputs(report)): OutputSpec[] {
  const lists = Object.entries(outputs)
  const specs: OutputSpec[] = [
    ...lists.map(([name, names]) => ({ name, list: names })),
    ...lists.map(([name, names]) => ({ name: `${name}-count`, count: names.length })),
    { name: 'base', exact: report.base?.sha ?? '' },
    { name: 'base-source', exact: report.base?.source ?? 'none' },
    { name: 'record', exact: report.record?.source === 'state' ? (report.record.from ?? '') : '' },
    { name: 'shard', exact: report.shard ? shardLabel(report.shard) : '' },
    { name: 'pull-request-changed', exact: report.pullRequestChanged?.toString() ?? '' },
    ...plannedOutputSpecs(report),
  ]
  if (report.flow) specs.push(...flowOutputSpecs(report.flow))
  else if (report.flowError) specs.push(...failedFlowOutputSpecs(undefined))
  return specs
}

/** `result`, `response` and `outputs` of a flow run (already cut under 1 MiB by the run). */
export function flowOutputSpecs(flow: FlowRunReport): OutputSpec[] {
  return [
    { name: 'result', text: flow.result, wholeBytes: flow.resultBytes },
    { name: 'response', json: flow.response },
    { name: 'outputs', json: outputsOf(flow.response) },
  ]
}

/** The outputs of a run that failed: empty `result`, and the answer when the service gave one. */
export function failedFlowOutputSpecs(response: unknown): OutputSpec[] {
  return [
    { name: 'result', exact: '' },
    response === undefined ? { name: 'response', exact: '' } : { name: 'response', json: response },
    { name: 'outputs', json: outputsOf(response) },
  ]
}

/** One line of counts: what the step did, for an error that must say it. */
export function indexCountsLine(report: IndexReport, outputs = indexOutputs(report)): string {
  // Never a bare "removed": it would read as deleted.
  const words: Record<string, string> = {
    removed: 'removed from answers',
    left: 'left in the knowledge base',
  }
  const counts = Object.entries(outputs).map(([name, names]) => `${words[name] ?? name} ${names.length}`)
  return `${report.dryRun ? 'dry run, nothing sent: ' : ''}${counts.join(', ')}`
}

// GitHub shows 10 error annotations per step: one per cause, and the rest folded into the last one.
const ANNOTATED_CAUSES = 9
const NAMES_PER_ANNOTATION = 5

/**
 * One error annotation per cause (count and first names), every failed item as a plain log line, and a
 * closing count, so the log alone tells what happened and the annotations stay readable.
 */
export function logIndexResult(
  report: IndexReport,
  log: Logger,
  outputs = indexOutputs(report),
  /** false: the counts are shown elsewhere (the CLI's summary), only the failures are logged. */
  resultLine = true,
): void {
  const failed = outputs.failed.length > 0 ? report.items.filter((i) => i.outcome === 'failed') : []
  for (const item of failed) {
    log.info(
      `${item.kind} ${displayName(item.name)} failed after ${item.attempts} attempt(s): ${item.error ?? 'unknown error'}`,
    )
  }
  const causes = groupFailures(failed)
  const names = (items: ItemOutcome[]) =>
    firstNames(
      items.map((i) => i.name),
      NAMES_PER_ANNOTATION,
      displayName,
    )
  for (const { cause, items } of causes.slice(0, ANNOTATED_CAUSES)) {
    log.error(
      `${items.length} item(s) failed: ${cause} (${names(items)}). The "failed" output and the job summary list all.`,
    )
  }
  const rest = causes.slice(ANNOTATED_CAUSES)
  if (rest.length > 0) {
    const items = rest.flatMap((c) => c.items)
    log.error(
      `${items.length} more item(s) failed for ${rest.length} other cause(s) (${names(items)}); the job summary groups them by cause.`,
    )
  }
  if (outputs.removed.length > 0) {
    log.notice(
      `${outputs.removed.length} removed document(s) no longer answer: a placeholder replaced each in the ` +
        `knowledge base (${names(report.items.filter((i) => i.outcome === 'removed'))}).`,
    )
  }
  if (!resultLine) return
  if (report.dryRun)
    log.notice(`Dry run: ${report.planned.length} planned, ${outputs.skipped.length} skipped, nothing sent.`)
  else
    log.info(
      `Uploaded ${outputs.uploaded.length}, updated ${outputs.updated.length}, skipped ${outputs.skipped.length}, ` +
        `failed ${outputs.failed.length}, removed from answers ${outputs.removed.length}, ` +
        `left in the knowledge base ${outputs.left.length}.`,
    )
}

// Skips a user should act on (a warning); the others are expected and only logged.
const WARNED_SKIPS = new Set<SkippedItem['reason']>([
  'too-large',
  'outside-workspace',
  'unreadable',
  'bad-name',
  'name-conflict',
])

const INDIVIDUAL_SKIP_WARNINGS = 5

/** Every skip as a log line, and warning annotations (at most one per reason) for those that need attention. */
export function logSkipped(skipped: readonly SkippedItem[], log: Logger): void {
  const warned = new Map<SkippedItem['reason'], SkippedItem[]>()
  for (const item of skipped) {
    log.info(`Skipped ${displayName(item.name)}: ${item.detail}`)
    if (!WARNED_SKIPS.has(item.reason)) continue
    const list = warned.get(item.reason) ?? []
    list.push(item)
    warned.set(item.reason, list)
  }
  // A few skips are each worth their own warning (name and reason); more are grouped by reason, since
  // GitHub shows only 10 warning annotations per step.
  const total = [...warned.values()].reduce((n, items) => n + items.length, 0)
  if (total <= INDIVIDUAL_SKIP_WARNINGS) {
    for (const item of [...warned.values()].flat())
      log.warning(`Skipped ${displayName(item.name)}: ${item.detail}`)
    return
  }
  for (const items of warned.values()) {
    const first = items[0]
    const names = firstNames(
      items.map((i) => i.name),
      NAMES_PER_ANNOTATION,
      displayName,
    )
    log.warning(
      items.length === 1
        ? `Skipped ${displayName(first.name)}: ${first.detail}`
        : `Skipped ${items.length} files (${first.reason}; ${names}), e.g. ${displayName(first.name)}: ` +
            `${first.detail.replace(/\.$/, '')}. The "skipped" output and the job summary list all.`,
    )
  }
}

/**
 * The send's progress, told to `forward` only once `show` is called (a sync that sends while it reads
 * its drafts logs its plan first): then the latest at once, and every later update as it comes.
 */
export function heldProgress(forward: (progress: SendProgress) => void) {
  let shown = false
  let latest: SendProgress | undefined
  return {
    update(progress: SendProgress): void {
      latest = progress
      if (shown) forward(progress)
    },
    show(): void {
      shown = true
      if (latest) forward(latest)
    },
  }
}

/** One progress line at least every `intervalMs` while a long run goes on. */
export function startProgress(log: Logger, total: number, intervalMs = 5000) {
  const started = Date.now()
  let done = 0
  let bytes = 0
  const print = () => {
    const seconds = Math.max((Date.now() - started) / 1000, 0.001)
    log.info(
      `Progress: ${done}/${total} batches done, ${formatBytes(bytes)} sent (${formatBytes(bytes / seconds)}/s)`,
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
