// The index pipeline, shared by the index action and `kb-sync index`:
// change set ──► selection ──► plan ──► send ──► (flow run) ──► report
import type { IndexConfig } from '../config.js'
import { displayName, type Logger } from '../log.js'
import type { ChangeDecision, FileSelection, SkippedItem } from '../model.js'
import { planSync, plannedItems } from '../plan.js'
import { startProgress, type IndexReport } from '../report.js'
import { ServiceClient } from '../service/client.js'
import {
  hasSelectableFile,
  nameIsSelectable,
  selectFiles,
  selectNamedFiles,
  type FileSelectionOptions,
} from '../select/files.js'
import { nameMatcher } from '../select/match.js'
import { sendPlan } from '../send.js'
import { runFlow, retryPolicyOf } from './flow-run.js'

export interface JobContext {
  /** Files are selected below this folder and named relative to it (GITHUB_WORKSPACE, or the CLI's cwd). */
  workspace: string
  eventName: string
  payload: Record<string, unknown>
  repository?: { owner: string; repo: string }
  apiUrl?: string
  log: Logger
  /** Runner cancellation. */
  signal?: AbortSignal
}

/** A failure of the job as a whole (not of one document), with a message a user can act on. */
export class JobError extends Error {}

const SOURCE_TEXT = {
  'git-diff': 'git diff of the push (before..after)',
  'fetched-before': 'git diff of the push, after fetching the before commit',
  'compare-api': 'GitHub compare API',
  payload: 'commit lists of the push payload',
} as const

export function describeChanges(changes: ChangeDecision): string {
  if (changes.kind === 'changes') return SOURCE_TEXT[changes.source]
  if (changes.kind === 'all') return `full sync (${changes.reason})`
  return `nothing to index (${changes.reason})`
}

async function decideChanges(config: IndexConfig, context: JobContext): Promise<ChangeDecision> {
  if (config.mode !== 'auto')
    return { kind: 'all', source: 'full-sync', reason: `mode ${config.mode}: every selected file` }
  if (context.eventName !== 'push')
    return { kind: 'all', source: 'full-sync', reason: `event ${context.eventName}: every selected file` }
  // Evaluated only for a push: change detection brings git and @actions/github (octokit), whose set-up
  // every other run would pay at start-up for nothing. "eager" keeps it in the one bundle file: ncc
  // writes licenses.txt for one chunk only, so a separate chunk would drop the others' licenses.
  const { detectChanges } = await import(/* webpackMode: "eager" */ '../select/changes.js')
  return detectChanges({
    eventName: context.eventName,
    payload: context.payload,
    workspace: context.workspace,
    repository: context.repository,
    githubToken: config.githubToken,
    apiUrl: context.apiUrl,
    log: context.log,
  })
}

async function select(
  config: IndexConfig,
  context: JobContext,
  changes: ChangeDecision,
): Promise<FileSelection> {
  if (config.files.length === 0) return { files: [], skipped: [] }
  const options: FileSelectionOptions = {
    patterns: config.files,
    workspace: context.workspace,
    includeHidden: config.includeHiddenFiles,
    maxFileSize: config.maxFileSize,
    followSymlinks: config.followSymlinks,
  }
  // A push sends only what it changed: only those paths are checked on disk, not the whole workspace.
  const selection =
    changes.kind === 'changes'
      ? await selectNamedFiles(options, [...changes.added, ...changes.modified])
      : await selectFiles(options)
  const none =
    selection.files.length === 0 && (changes.kind !== 'changes' || !(await hasSelectableFile(options)))
  if (none) {
    const message = `No files were found with the "files" patterns (${config.files.join(', ')}) in ${context.workspace}.`
    if (config.ifNoFilesFound === 'error')
      throw new JobError(`${message} Set "if-no-files-found" to warn or ignore to allow this.`)
    if (config.ifNoFilesFound === 'warn') context.log.warning(message)
  }
  return selection
}

/** Removed names that the selection would have sent: the others were never in the knowledge base. */
function selectedRemovals(config: IndexConfig, removed: string[]): string[] {
  const matches = nameMatcher(config.files)
  const options = { patterns: config.files, includeHidden: config.includeHiddenFiles }
  return removed.filter((name) => matches(name) && nameIsSelectable(name, options))
}

function logSkipped(skipped: SkippedItem[], log: Logger): void {
  for (const item of skipped) {
    const line = `Skipped ${displayName(item.name)}: ${item.detail}`
    if (item.reason === 'too-large' || item.reason === 'outside-workspace') log.warning(line)
    else log.info(line)
  }
}

export async function runIndexJob(config: IndexConfig, context: JobContext): Promise<IndexReport> {
  const { log } = context
  const started = Date.now()
  const notices: string[] = []
  const changes = await log.group('Change detection', async () => {
    const decision = await decideChanges(config, context)
    log.info(`Change set: ${describeChanges(decision)}`)
    return decision
  })
  const report: IndexReport = {
    dryRun: config.dryRun,
    changeSource: describeChanges(changes),
    planned: [],
    items: [],
    skipped: [],
    removed: [],
    requests: 0,
    durationMs: 0,
    notices,
  }
  if (changes.kind === 'none') {
    log.notice(`Nothing to index: ${changes.reason}.`)
    notices.push(`Nothing to index: ${changes.reason}.`)
    return report
  }

  const selection = await log.group('Selection', async () => {
    const found = await select(config, context, changes)
    const which = changes.kind === 'changes' ? 'changed file(s)' : 'file(s)'
    log.info(`${found.files.length} ${which} selected, ${found.skipped.length} skipped.`)
    return found
  })
  const removed = changes.kind === 'changes' ? selectedRemovals(config, changes.removed) : []
  const plan = planSync({
    selection,
    urls: config.urls,
    mode: config.mode,
    changes: changes.kind === 'changes' ? { ...changes, removed } : changes,
    batchSize: config.batchSize,
  })
  report.planned = plannedItems(plan)
  report.skipped = plan.skipped
  report.removed = plan.removed
  logSkipped(plan.skipped, log)

  await log.group('Plan', async () => {
    log.info(`${report.planned.length} item(s) in ${plan.batches.length} request(s).`)
    for (const item of report.planned) {
      log.info(
        `  ${item.operation}${item.fallback ? ' (upsert)' : ''} ${item.kind} ${displayName(item.name)}`,
      )
    }
  })
  if (config.dryRun) {
    log.notice('Dry run: nothing was sent.')
    report.durationMs = Date.now() - started
    return report
  }

  const client = new ServiceClient({
    baseUrl: config.baseUrl,
    privateKey: config.privateKey,
    publicKey: config.flowRun?.publicKey,
    connections: config.concurrency,
  })
  try {
    if (plan.batches.length > 0) {
      const result = await log.group('Send', async () => {
        const progress = startProgress(log, plan.batches.length)
        try {
          return await sendPlan(plan, client, config.target, {
            concurrency: config.concurrency,
            retry: retryPolicyOf(config),
            log,
            signal: context.signal,
            onProgress: (p) => progress.update(p),
          })
        } finally {
          progress.stop()
        }
      })
      report.items = result.items
      report.requests = result.requests
      if (result.cancelled) notices.push('The run was cancelled: unsent items are reported as failed.')
    }
    const failed = report.items.some((item) => item.outcome === 'failed')
    if (config.flowRun && !context.signal?.aborted) {
      if (failed)
        log.warning('Some items failed to sync; the flow runs anyway on what the knowledge base holds.')
      try {
        report.flow = await log.group('Flow run', () =>
          runFlow(
            client,
            {
              target: { orgId: config.target.orgId, flowId: config.target.flowId },
              inputs: config.flowRun!.inputs,
              outputKey: 'out-0',
            },
            { log, retry: retryPolicyOf(config), signal: context.signal },
          ),
        )
      } catch (error) {
        // The sync results stay reported; the step fails on the flow error.
        report.flowError = error instanceof Error ? error.message : String(error)
      }
    }
  } finally {
    await client.close()
    report.durationMs = Date.now() - started
  }
  return report
}
