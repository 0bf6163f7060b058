// The send stage of the index job: the pending record, the placeholders' files, the send (drafts looked
// for while the first batches leave), then the flow run when `flow-inputs` asks for one.
import type { IndexConfig } from '../config/index-config.js'
import { retryPolicyOf } from '../config/shared-inputs.js'
import type { FileSelection, ItemOutcome, PlaceholderDocument } from '../model.js'
import { placeholderBatches, plannedItems, withDraftsFound } from '../plan.js'
import { heldProgress, startProgress } from '../report/index-outputs.js'
import type { IndexReport } from '../report/types.js'
import { DraftScanner, type DraftScan } from '../select/document/drafts.js'
import {
  PlaceholderFilesError,
  writePlaceholderFiles,
  type PlaceholderFiles,
} from '../send/placeholder-files.js'
import { sendPlan } from '../send/send-plan.js'
import { ServiceClient } from '../service/client.js'
import type { JobContext } from './job-context.js'
import { logPlan, reportUnparsable, type PlannedSync } from './plan-stage.js'
import { writePendingRecord, type RecordBasis } from './recorded-state.js'

/** Sends the plan; every outcome lands in the report, a failure of the send itself is thrown. */
export async function sendStage(
  config: IndexConfig,
  context: JobContext,
  report: IndexReport,
  planned: PlannedSync,
  selection: FileSelection,
  basis: RecordBasis | undefined,
): Promise<void> {
  const { log } = context
  const notices = report.notices
  const { unsent } = planned
  let plan = planned.plan
  const client = new ServiceClient({
    baseUrl: config.baseUrl,
    privateKey: config.privateKey,
    publicKey: config.flowRun?.publicKey,
    connections: config.concurrency,
  })
  let placeholders: PlaceholderFiles | undefined
  try {
    // Nothing to send (the record says the node is in step): no pending record, only the final one.
    if (basis && (plan.batches.length > 0 || plan.placeholders.length > 0))
      await log.group('Record', () =>
        writePendingRecord(basis, plannedDocumentNames(plan), log, context.cutOff),
      )
    placeholders = await placeholdersOrFailed(plan.placeholders, unsent)
    const placeholderRequests = placeholderBatches(placeholders.files, config.batchSize)
    const batches = [...plan.batches, ...placeholderRequests]
    const scanner = planned.draftsWhileSending
      ? new DraftScanner(plan.batches.map((batch) => (batch.kind === 'documents' ? batch.documents : [])))
      : undefined
    // The send's lines follow the plan in the log, even when its first requests leave before the plan is
    // complete.
    const held = log.held()
    let progress: ReturnType<typeof startProgress> | undefined
    // Progress, as the log's lines, follows the plan (the CLI draws its own from it).
    const shown = heldProgress((p) => {
      progress?.update(p)
      context.onProgress?.(p)
    })
    const sending =
      batches.length === 0
        ? undefined
        : sendPlan({ ...plan, batches }, client, config.target, {
            concurrency: config.concurrency,
            maxFileSize: config.maxFileSize,
            names: config.names,
            retry: retryPolicyOf(config),
            log: held.log,
            signal: context.signal,
            cutOff: context.cutOff,
            withhold: scanner && ((index) => scanner.drafts(index)),
            onProgress: (p) => shown.update(p),
          })
    // Awaited below; a failure of the send itself must not go unhandled while the drafts are looked for.
    sending?.catch(() => undefined)
    if (scanner) {
      let scan: DraftScan
      try {
        scan = await scanner.done
      } catch (error) {
        // Every batch still waiting for the drafts failed with the error: the report has each outcome.
        const result = await sending
        if (result) report.items = [...unsent, ...result.items]
        held.release()
        throw error
      }
      reportUnparsable(scan, log, notices)
      plan = withDraftsFound(plan, selection, scan.drafts)
      for (const name of scan.drafts.keys()) basis?.desired.delete(name)
      await logPlan(plan, config, report, log)
    }
    if (sending) {
      const result = await log.group('Send', async () => {
        held.release()
        progress = startProgress(log, plan.batches.length + placeholderRequests.length)
        shown.show()
        try {
          return await sending
        } finally {
          progress.stop()
        }
      })
      // The send's list is the report's when nothing precedes it (not a copy of 100,000 entries).
      report.items = unsent.length === 0 ? result.items : [...unsent, ...result.items]
      report.requests = result.requests
      if (result.cancelled) notices.push('The run was cancelled: unsent items are reported as failed.')
    } else held.release()
    await flowRunStage(config, context, report, client)
  } finally {
    await Promise.all([client.close(), placeholders?.remove()])
  }
}

/** The flow run after indexing (`flow-inputs`): its failure is reported, the sync's results stand. */
async function flowRunStage(
  config: IndexConfig,
  context: JobContext,
  report: IndexReport,
  client: ServiceClient,
): Promise<void> {
  const { log } = context
  if (!config.flowRun || context.signal?.aborted) return
  if (report.items.some((item) => item.outcome === 'failed'))
    log.warning('Some items failed to sync; the flow runs anyway on what the knowledge base holds.')
  try {
    // From its own chunk: only a sync with `flow-inputs` runs a flow (see inferred-changes.ts).
    const { runFlow } = await import('../flow/run.js')
    report.flow = await log.group('Flow run', () =>
      runFlow(
        client,
        {
          target: { orgId: config.target.orgId, flowId: config.target.flowId },
          inputs: config.flowRun!.inputs,
          outputKey: 'out-0',
        },
        {
          log,
          retry: retryPolicyOf(config),
          timeoutMs: config.flowRun!.timeoutMs,
          signal: context.signal,
          names: config.names,
        },
      ),
    )
  } catch (error) {
    // The sync results stay reported; the step fails on the flow error.
    report.flowError = error instanceof Error ? error.message : String(error)
  }
}

/**
 * The placeholders' files; when they cannot be written, each removal is failed with the cause (in
 * `failed`) and every other document is sent as planned.
 */
async function placeholdersOrFailed(
  placeholders: readonly PlaceholderDocument[],
  failed: ItemOutcome[],
): Promise<PlaceholderFiles> {
  try {
    return await writePlaceholderFiles(placeholders)
  } catch (error) {
    if (!(error instanceof PlaceholderFilesError)) throw error
    for (const { name } of placeholders)
      failed.push({
        kind: 'document',
        name,
        outcome: 'failed',
        operation: 'update',
        attempts: 0,
        error: error.message,
      })
    return { files: [], remove: () => Promise.resolve() }
  }
}

/** The names of the documents the plan sends, in one list (kept by the pending record to the run's end). */
function plannedDocumentNames(plan: PlannedSync['plan']): string[] {
  const names: string[] = []
  for (const item of plannedItems(plan)) if (item.kind === 'document') names.push(item.name)
  return names
}
