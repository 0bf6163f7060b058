// The run-flow action's skip rule at work (the rule itself: checks/skip-rule.ts): in a pull request that
// changes none of the selected documents (`documents-changed: 0`) nor the files the checks read, nothing
// runs; the outputs, the summary and the sticky comment say so.
import {
  checksFiles,
  checksFilesChange,
  decideSkip,
  documentsAllowSkip,
  type SkipDecision,
} from '../checks/skip-rule.js'
import type { RunConfig } from '../config/run.js'
import type { Logger } from '../log.js'
import { skippedOutputSpecs } from '../report/checks-results.js'
import { renderStoppedSummary } from '../report/index-summary.js'
import { commentNotRerun } from './flow-comment.js'
import type { RunnerEnvironment } from './runner.js'
import { writeSummary } from './runner.js'
import { writeStepOutputs } from './step-outputs.js'
import { writeJUnitStep, type JUnitStep } from './junit-step.js'
import { junitTargetsOf } from '../report/junit-file.js'

const stepWork = (config: RunConfig) => (config.checks ? 'Flow checks' : 'Flow run')

/** Whether the step skips, after looking up (only when the documents allow it) the checks' files' changes. */
export async function skipDecision(
  config: RunConfig,
  runner: RunnerEnvironment,
  log: Logger,
): Promise<SkipDecision | undefined> {
  if (config.documentsChanged !== undefined && runner.eventName !== 'pull_request')
    log.info(
      `Input "documents-changed" applies to pull_request events only; this is ${runner.eventName || 'no event'}.`,
    )
  if (!documentsAllowSkip(runner.eventName, config.documentsChanged)) return undefined
  const what = stepWork(config)
  const files = checksFiles(config.checksFile, config.checks)
  if (files.length === 0) return decideSkip(what)
  // Loaded only here: change detection brings git and octokit, which a run that does not skip never needs.
  const { detectPullRequestChanges } = await import('../history/pull-request-changes.js')
  const changes = await log.group("Changes to the checks' files", async () => {
    const found = await detectPullRequestChanges(
      {
        payload: runner.payload,
        workspace: runner.workspace,
        patterns: files,
        repository: runner.repository,
        githubToken: config.comment.githubToken,
        apiUrl: runner.apiUrl,
        log,
        signal: runner.signal,
        github: runner.github,
      },
      // The decision's own warning says why the checks run; one warning, not two.
      { quiet: true },
    )
    log.info(`Whether the pull request changes ${files.join(', ')}: ${found.description}`)
    return found
  })
  return decideSkip(what, files, checksFilesChange(changes.decision, files))
}

/** Nothing runs: a notice, the outputs a skip means, the summary, and a note on an existing comment. */
export async function skipStep(
  config: RunConfig,
  reason: string,
  runner: RunnerEnvironment,
  log: Logger,
): Promise<void> {
  log.notice(reason)
  const done = 'nothing ran (skipped: the pull request changes none of the selected documents)'
  // junit-file (#36 §3): every check a skipped test case, so a reporter step after this one finds its file.
  const junit: JUnitStep = config.checks
    ? await writeJUnitStep(config, log, {
        kind: 'skipped',
        input: {
          ...junitTargetsOf(config),
          names: config.checks.map((check) => check.name),
          reason,
          startedAt: new Date(),
        },
      })
    : { specs: [] }
  // Outputs that cannot be written fail the step, after the summary and the comment are written.
  let outputsError: unknown
  await writeStepOutputs([...skippedOutputSpecs(), ...junit.specs], log, {
    budget: config.outputsBudget,
    fileOutput: 'results-file',
    done,
  }).catch((error: unknown) => {
    outputsError = error
  })
  await writeSummary(renderStoppedSummary(`${stepWork(config)} skipped`, reason), log, { done })
  await commentNotRerun(config, runner, log)
  if (outputsError !== undefined) throw outputsError
  if (junit.error !== undefined) throw junit.error
}
