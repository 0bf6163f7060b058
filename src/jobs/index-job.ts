// The index pipeline, shared by the index action and `kb-sync index`, its stages in order:
// recorded state ──► change set (the record's difference, else inferred from history) ──► selection ──►
// plan ──► send (pending record first) ──► (flow run) ──► final record ──► report
import { cancellationOf, NOT_SENT_CANCELLED } from '../cancellation.js'
import { ConfigError } from '../config/errors.js'
import type { IndexConfig } from '../config/index-config.js'
import type { Operation, SelectedFile } from '../model.js'
import type { IndexReport } from '../report/types.js'
import { holdWasmBaseline, holdYoungGeneration, collectIfGrown } from '../chunk-release.js'
import { detectChanges } from './inferred-changes.js'
import { emptyIndexReport, IndexJobFailure, type JobContext } from './job-context.js'
import { planStage } from './plan-stage.js'
import {
  basisOf,
  changesFromRecord,
  recordStage,
  writeFinalRecord,
  type RecordBasis,
} from './recorded-state.js'
import { selectStage, shardUrls } from './selection-stage.js'
import { sendStage } from './send-stage.js'

/**
 * Every item the job knew of without an outcome fails with `cause`: the planned ones, else the URLs of
 * the inputs and the selected files.
 */
function failUnfinished(
  report: IndexReport,
  config: IndexConfig,
  files: readonly SelectedFile[],
  cause: string,
): void {
  const done = new Set(report.items.map((item) => `${item.kind}\0${item.name}`))
  const fallbackOperation: Operation = config.mode === 'upload' ? 'upload' : 'update'
  const known =
    report.planned.length > 0
      ? Array.from(report.planned, (item) => ({
          kind: item.kind,
          name: item.name,
          operation: item.operation,
        }))
      : [
          ...files.map(({ name }) => ({ kind: 'document' as const, name, operation: fallbackOperation })),
          ...shardUrls(config).map((name) => ({ kind: 'url' as const, name, operation: fallbackOperation })),
        ]
  for (const item of known) {
    if (done.has(`${item.kind}\0${item.name}`)) continue
    report.items.push({ ...item, outcome: 'failed', attempts: 0, error: cause })
  }
}

/**
 * Runs the pipeline. Never ends without a report: a failure on the way throws an IndexJobFailure that
 * carries the report so far, with every item known then failed with the cause.
 */
export async function runIndexJob(config: IndexConfig, context: JobContext): Promise<IndexReport> {
  const started = Date.now()
  holdYoungGeneration()
  holdWasmBaseline()
  const report = emptyIndexReport(config.dryRun)
  report.target = config.target
  if (config.shard) report.shard = config.shard
  // The selection's own list once it is made (no list of its names beside it), and what the record needs.
  const state: PipelineState = { files: [] }
  try {
    const finished = await indexPipeline(config, context, report, state)
    await recordFinal(state, report, context)
    // Cancelled on the way (items not sent are failed already): the run is no base for the next one.
    context.signal?.throwIfAborted()
    return finished
  } catch (error) {
    // A bad input found on the way (e.g. --since naming no commit) is still an input error: nothing was sent.
    if (error instanceof ConfigError) throw error
    const cancelled = cancellationOf(context.signal)
    const cause = context.log.clean(
      cancelled
        ? `${cancelled.message}: nothing new was started; every item not sent is listed as failed.`
        : error instanceof Error
          ? error.message
          : String(error),
    )
    failUnfinished(report, config, state.files, cancelled ? NOT_SENT_CANCELLED : cause)
    report.ended = { kind: 'stopped', why: cause }
    // What the node holds is recorded on every way out once something may have been sent.
    if (state.basis?.pendingWritten && report.record?.written === undefined)
      await recordFinal(state, report, context)
    report.durationMs = Date.now() - started
    throw new IndexJobFailure(cause, report)
  }
}

interface PipelineState {
  files: readonly SelectedFile[]
  /** Set when the run records what the node holds (not a dry run or a preview, a store given). */
  basis?: RecordBasis
}

/**
 * The final record. After the run's cancellation it is still written, until the second signal (cutOff)
 * ends the grace the runner gives.
 */
async function recordFinal(state: PipelineState, report: IndexReport, context: JobContext): Promise<void> {
  const basis = state.basis
  if (!basis || report.record?.written !== undefined) return
  // The send's garbage goes before the final record adds its own: at 100,000 documents the end of the
  // run was its highest point (bench/README.md).
  collectIfGrown(0)
  const written = await context.log.group('Record', () =>
    writeFinalRecord(basis, report, context.log, context.cutOff),
  )
  report.record = { ...(report.record ?? { source: 'history' }), written }
  // What the node held and what the checkout selects (~15 MB at 100,000 documents) are not needed once
  // recorded: they go before the report is made.
  state.basis = undefined
  collectIfGrown(0)
}

async function indexPipeline(
  config: IndexConfig,
  context: JobContext,
  report: IndexReport,
  state: PipelineState,
): Promise<IndexReport> {
  const { log } = context
  const started = Date.now()
  context.signal?.throwIfAborted()
  const record = await recordStage(config, context, report)
  const fromRecord =
    record && config.mode === 'auto' ? await changesFromRecord(config, context, record, report) : undefined
  const { changes, staged, base } = await detectChanges(config, context, report, fromRecord?.changes)
  // Cancelled during change detection: nothing is selected or sent.
  context.signal?.throwIfAborted()
  if (changes.kind === 'none') return report

  const selection = fromRecord?.selection ?? (await selectStage(config, context, changes))
  // Selection's garbage (~35 MiB at 100,000 files) is collected before the plan and the send add theirs.
  collectIfGrown()
  state.files = selection.files
  const planned = await planStage(config, context, report, {
    changes,
    selection,
    fromRecord: fromRecord?.found,
    record,
    staged: staged !== undefined,
    base,
  })
  const keeping = config.preview ? undefined : context.record
  if (keeping && !config.dryRun)
    state.basis = await basisOf(keeping, config, context, {
      previous: record,
      desired: fromRecord?.found.desired,
      changes,
      selection,
      drafts: planned.drafts,
      lastmods: planned.sitemaps?.lastmods,
    })
  if (config.dryRun || config.preview) {
    // A dry run's "nothing sent" is the result line of each front end (logIndexResult, the CLI's summary).
    if (config.preview)
      log.notice(
        'Pull request preview: nothing was sent (set "pull-request: index" to send a pull request\'s files).',
      )
    report.durationMs = Date.now() - started
    return report
  }
  try {
    await sendStage(config, context, report, planned, selection, state.basis)
  } finally {
    report.durationMs = Date.now() - started
  }
  return report
}
