// `kb-sync index` and `status`: the same pipeline as the index action, flags instead of action inputs
// (`run` is run-command.ts, `serve` serve.ts), and what the commands share.
import { accessSync, constants, statSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { cancellationSignal, gitHubBudget } from '../actions/runner.js'
import { cancellationOf, runCutOff } from '../cancellation.js'
import { ConfigError } from '../config/errors.js'
import { readIndexConfig, type IndexConfig } from '../config/index-config.js'
import { outputsOf } from '../flow/answer.js'
import { readWorkflowRun } from '../github/workflow.js'
import { runIndexJob } from '../jobs/index-job.js'
import { IndexJobFailure, type JobContext } from '../jobs/job-context.js'
import { Logger } from '../log.js'
import { renderIndexSummary } from '../report/index-summary.js'
import { indexCountsLine, indexOutputs, indexOutputSpecs, logIndexResult } from '../report/index-outputs.js'
import type { IndexReport } from '../report/types.js'
import { fileFields, type OutputSpec } from '../report/output-budget.js'
import { ReportFileError, writeReportFile } from '../report/report-file.js'
import { plannedEntries } from '../report/planned.js'
import { shardLabel } from '../select/shard.js'
import { redactForSummary } from '../report/redact.js'
import { LAST_SUCCESS } from '../history/since.js'
import { commandLogger, printResult, reportError } from './console.js'
import { EXIT_FAILURE, UsageError } from './errors.js'
import { cliSettingNames, inputReader, type Flags } from './inputs.js'
import { progressReporter } from './progress.js'
import { fileRecordKeeping, runnerRecordKeeping } from './record-keeping.js'
import { statusLists, statusReport, statusText } from './status.js'
import { indexSummaryText } from './summary.js'

const NO_EVENT = { eventName: '' }

/** What the config needs to know of the CLI: no event, and its own names for the settings. */
export const cliContext = (flags: Flags) => ({ ...NO_EVENT, names: cliSettingNames(flags) })

/** A file system error's code (`EACCES`), else its text. */
function reasonOf(error: unknown): string {
  return error instanceof Error && 'code' in error ? String(error.code) : String(error)
}

/** A bad `--summary-file`, `--report-file` or `--workspace` is a usage error before any request. */
export function checkPaths(flags: Flags): void {
  for (const [flag, file] of [
    ['--summary-file', flags.summaryFile],
    ['--report-file', flags.reportFile],
  ] as const) {
    if (typeof file !== 'string') continue
    let problem: string | undefined
    try {
      const stats = statSync(file, { throwIfNoEntry: false })
      // An existing file must be writable, and not a folder; a new one needs a writable folder.
      if (stats?.isDirectory()) problem = 'EISDIR'
      else accessSync(stats ? file : dirname(resolve(file)), constants.W_OK)
    } catch (error) {
      problem = reasonOf(error)
    }
    if (problem) throw new UsageError(`${flag}: cannot write ${file} (${problem}).`)
  }
  if (typeof flags.workspace === 'string') {
    const stats = statSync(flags.workspace, { throwIfNoEntry: false })
    if (!stats?.isDirectory())
      throw new UsageError(`--workspace: ${flags.workspace} is not a folder${stats ? '' : ' (ENOENT)'}.`)
  }
}

/** `--summary-file`: the markdown, made only when the flag asks for it (a long run's is not cheap). */
export function writeSummaryFile(log: Logger, flags: Flags, render: () => string): void {
  if (typeof flags.summaryFile !== 'string') return
  const markdown = render()
  try {
    writeFileSync(flags.summaryFile, log.secrets.redact(markdown))
  } catch (error) {
    throw new UsageError(`--summary-file: cannot write ${flags.summaryFile} (${reasonOf(error)}).`)
  }
}

/** `--report-file`: every output uncut, as the action's report file; a failure names the file and what was done. */
export async function writeReportFileFlag(
  log: Logger,
  flags: Flags,
  specs: OutputSpec[],
  done: string,
): Promise<void> {
  if (typeof flags.reportFile !== 'string') return
  try {
    await writeReportFile(flags.reportFile, fileFields(specs), (text) => log.secrets.redact(text))
  } catch (error) {
    if (!(error instanceof ReportFileError)) throw error
    throw new Error(`--report-file: ${error.message} This run: ${done}.`, { cause: error })
  }
}

function indexJson(report: IndexReport): Record<string, unknown> {
  const flow = report.flow
    ? { result: report.flow.result, response: report.flow.response, outputs: outputsOf(report.flow.response) }
    : {}
  const base = { base: report.base?.sha ?? '', 'base-source': report.base?.source ?? 'none' }
  const shard = report.shard ? shardLabel(report.shard) : ''
  return { ...indexOutputs(report), ...base, shard, planned: plannedEntries(report), ...flow }
}

/**
 * The index config as the CLI gives it, read once: `--since` needs mode auto, and `--since last-success`
 * takes the workflow runs API's token from GITHUB_TOKEN, as a workflow step's environment has it.
 */
function readIndexCliConfig(flags: Flags): IndexConfig {
  const read = inputReader(flags)
  const tokenFromEnvironment = flags.since === LAST_SUCCESS
  const config = readIndexConfig(
    (name) =>
      name === 'github-token' && tokenFromEnvironment
        ? read(name) || (process.env.GITHUB_TOKEN?.trim() ?? '')
        : read(name),
    cliContext(flags),
  )
  if (typeof flags.since === 'string' && config.mode !== 'auto')
    throw new ConfigError([
      { input: 'since', message: `Option --since needs --mode auto (got --mode ${config.mode}).` },
    ])
  return config
}

/** `--since REF` or `--since last-success` (then this workflow run from the GITHUB_* variables). */
function sinceContext(flags: Flags, config: IndexConfig, log: Logger): Partial<JobContext> {
  if (typeof flags.since !== 'string') return {}
  if (flags.since !== LAST_SUCCESS) return { since: flags.since }
  const workflow = readWorkflowRun(process.env)
  if (!workflow)
    throw new ConfigError([
      {
        input: 'since',
        message:
          'Option --since last-success needs the GITHUB_WORKFLOW_REF, GITHUB_REPOSITORY and GITHUB_REF variables of a workflow run; give a commit or ref instead.',
      },
    ])
  log.addSecret(config.githubToken)
  return {
    since: LAST_SUCCESS,
    workflow,
    repository: workflow.ok ? { owner: workflow.run.owner, repo: workflow.run.repo } : undefined,
    apiUrl: process.env.GITHUB_API_URL || undefined,
  }
}

/** What the run did: the summary (or the JSON outputs) on stdout, the markdown to --summary-file. */
async function printIndexReport(report: IndexReport, flags: Flags, log: Logger): Promise<void> {
  const verbose = flags.verbose === true
  // Each failed item with --verbose; the counts are the summary's (with --json, the log's).
  if (verbose) logIndexResult(report, log, undefined, flags.json === true)
  printResult(log, flags.json ? JSON.stringify(indexJson(report)) : indexSummaryText(report, { verbose }))
  writeSummaryFile(log, flags, () => {
    const summary = redactForSummary(report, log.secrets)
    return renderIndexSummary(summary.report, undefined, summary.maskItemText)
  })
  await writeReportFileFlag(log, flags, indexOutputSpecs(report), indexCountsLine(report))
}

/** What the index job is given off a runner: the workspace, no event, the run's signals and budget. */
function jobContext(flags: Flags, log: Logger, signal: AbortSignal): JobContext {
  return {
    workspace: typeof flags.workspace === 'string' ? flags.workspace : process.cwd(),
    ...NO_EVENT,
    payload: {},
    log,
    signal,
    github: gitHubBudget(process.env, signal),
    cutOff: runCutOff,
  }
}

export async function indexCommand(flags: Flags): Promise<void> {
  const log = commandLogger(flags)
  const signal = cancellationSignal(log)
  try {
    const config = readIndexCliConfig(flags)
    checkPaths(flags)
    const report = await runIndexJob(config, {
      ...jobContext(flags, log, signal),
      onProgress: progressReporter(),
      record: await fileRecordKeeping(flags),
      ...sinceContext(flags, config, log),
    })
    await printIndexReport(report, flags, log)
    if (report.flowError && flags.json) log.error(`The flow run after indexing failed: ${report.flowError}`)
    if (indexOutputs(report).failed.length > 0 || report.flowError) process.exitCode = EXIT_FAILURE
  } catch (error) {
    // Ctrl-C: what was done (and every item not sent, as failed), then the cause.
    if (error instanceof IndexJobFailure && cancellationOf(signal))
      await printIndexReport(error.report, flags, log)
    reportError(log, error)
  }
}

/** `kb-sync status`: the record against the checkout, nothing sent (cli/status.ts). */
export async function statusCommand(flags: Flags): Promise<void> {
  const log = commandLogger(flags)
  const signal = cancellationSignal(log)
  try {
    const config = readIndexCliConfig({ ...flags, dryRun: true })
    checkPaths(flags)
    const keeping = (await fileRecordKeeping(flags)) ?? (await runnerRecordKeeping(process.env, signal))
    const report = await statusReport(config, jobContext(flags, log, signal), keeping)
    const lists = statusLists(report)
    printResult(
      log,
      flags.json
        ? JSON.stringify({
            record: report.record?.from,
            settingsChanged: report.record?.settingsChanged ?? [],
            ...lists,
          })
        : statusText(report, lists),
    )
  } catch (error) {
    reportError(log, error)
  }
}
