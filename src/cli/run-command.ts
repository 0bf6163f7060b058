// `kb-sync run`: one flow run or a checks suite, as the run-flow action (its own module: `index` does not
// load the checks' schemas, YAML, ajv, re2js and the word diff at each start).
import { cancellationSignal } from '../actions/runner.js'
import { cancellationOf, cancelledExitStatus } from '../cancellation.js'
import { performance } from 'node:perf_hooks'
import {
  checksOutputSpecs,
  checksResultsJson,
  comparedOutputSpecs,
  comparedResultsJson,
} from '../report/checks-results.js'
import {
  blockingRegressions,
  changeSentence,
  changeSummary,
  compareResults,
  type ComparedCheck,
} from '../checks/baseline.js'
import { afterText, renderComparedSummary } from '../report/baseline-markdown.js'
import type { ChecksJUnitInput } from '../report/checks-junit.js'
import { renderChecksSummary, verdictText } from '../report/checks-markdown.js'
import { runCheckSuite } from '../jobs/checks-suite.js'
import { singleQuestionResult, type SuiteVerdict } from '../checks/verdict.js'
import type { Check } from '../checks/schema.js'
import { readRunConfig, type RunConfig } from '../config/run.js'
import { outputsOf } from '../flow/answer.js'
import { runFlowJob } from '../jobs/flow-run.js'
import { Logger } from '../log.js'
import { flowSection } from '../report/flow-section.js'
import { flowOutputSpecs } from '../report/index-outputs.js'
import { ReportFileError } from '../report/report-file.js'
import { junitTargetsOf, writeJUnitFile } from '../report/junit-file.js'
import { redactDeep } from '../report/redact.js'
import { checksText, comparedText } from './checks-text.js'
import { commandLogger, printResult, reportError } from './console.js'
import { EXIT_FAILURE, UsageError } from './errors.js'
import { inputReader, QUESTION_INPUT, type Flags } from './inputs.js'
import { checkPaths, cliContext, writeReportFileFlag, writeSummaryFile } from './commands.js'

export async function runCommand(flags: Flags): Promise<void> {
  const log = commandLogger(flags)
  const signal = cancellationSignal(log)
  try {
    if (typeof flags.question === 'string' && typeof flags.inputs === 'string')
      throw new UsageError(
        `--question and --inputs are exclusive: --question TEXT is the short form of --inputs '{"${QUESTION_INPUT}": TEXT}'.`,
      )
    const config = readRunConfig(inputReader(flags), {
      ...cliContext(flags),
      workspace: process.cwd(),
      checksAnywhere: true,
    })
    checkPaths(flags)
    if (config.checks) return await checksCommand(config, config.checks, flags, log, signal)
    const started = performance.now()
    // The answer is printed on stdout: a missed --expect names the pattern without quoting it again.
    const run = await runFlowJob(config, log, signal, { answerShown: true })
    if (!run.ok) throw run.error
    const { report, problem } = run
    const { verdict } = singleQuestionResult({
      question: report.question,
      answer: report.result,
      problem,
      seconds: (performance.now() - started) / 1000,
    })
    printResult(
      log,
      flags.json
        ? JSON.stringify({
            result: report.result,
            response: report.response,
            outputs: outputsOf(report.response),
          })
        : report.result,
    )
    writeSummaryFile(log, flags, () =>
      flowSection(redactDeep(report, log.secrets), verdict, problem ? [log.secrets.redact(problem)] : []),
    )
    await writeReportFileFlag(log, flags, flowOutputSpecs(report), 'the flow run completed')
    if (problem) {
      log.error(problem)
      process.exitCode = EXIT_FAILURE
    }
  } catch (error) {
    reportError(log, error)
  }
}

async function checksCommand(
  config: RunConfig,
  checks: Check[],
  flags: Flags,
  log: Logger,
  signal: AbortSignal,
): Promise<void> {
  const startedAt = new Date()
  const { results, verdict, stopped, before } = await runCheckSuite(config, checks, log, signal)
  const compared = before ? compareResults(before, results) : undefined
  if (compared) await comparedChecksOutcome(compared, verdict, stopped, flags, log, signal, config.failOn)
  else {
    printResult(log, flags.json ? checksResultsJson(results) : checksText(results, verdict))
    writeSummaryFile(log, flags, () =>
      renderChecksSummary(redactDeep(results, log.secrets), redactDeep(verdict, log.secrets)),
    )
    await writeReportFileFlag(log, flags, checksOutputSpecs(results, verdict), verdictText(verdict))
    settleSuiteExit(log, signal, stopped, {
      failed: !verdict.ok,
      anyCheckFailed: verdict.failed > 0,
      line: `Flow checks: ${verdictText(verdict)}`,
    })
  }
  // After the results are out: a report that cannot be written does not hide them.
  await writeJUnitFlag(config, log, flags, {
    ...junitTargetsOf(config),
    results,
    ...(compared ? { compared } : {}),
    verdictLine: compared
      ? `${changeSentence(changeSummary(compared))} After: ${afterText(verdict, config.failOn)}`
      : verdictText(verdict),
    startedAt,
  })
}

/** `--junit-file`: the suite as a JUnit XML report; a failure names the flag and the file. */
async function writeJUnitFlag(
  config: RunConfig,
  log: Logger,
  flags: Flags,
  input: ChecksJUnitInput,
): Promise<void> {
  if (config.junitFile === undefined) return
  try {
    await writeJUnitFile(config.junitFile, { kind: 'checks', input }, log.secrets)
  } catch (error) {
    if (!(error instanceof ReportFileError)) throw error
    throw new Error(`--junit-file: ${error.message} The checks ran: ${input.verdictLine}`, { cause: error })
  }
  // `true` names no file: the one made in the temporary folder is said.
  if (typeof flags.junitFile === 'string' && /^true$/i.test(flags.junitFile.trim()))
    log.notice(`JUnit report: ${config.junitFile}`)
  else log.info(`JUnit report: ${config.junitFile}`)
}

/**
 * The exit status of a suite, as the action's step ends: cancelled, stopped early, failed; or passed,
 * with a warning when some checks failed (the step passes, and the checks that failed are not silent).
 */
function settleSuiteExit(
  log: Logger,
  signal: AbortSignal,
  stopped: string | undefined,
  outcome: { failed: boolean; anyCheckFailed: boolean; line: string },
): void {
  const cancelled = cancellationOf(signal)
  if (cancelled) {
    log.error(`${cancelled.message}: checks that had not answered are reported as errors.`)
    process.exitCode = cancelledExitStatus(cancelled)
  } else if (stopped) {
    log.error(`${stopped} No further run of the suite was sent.`)
    process.exitCode = EXIT_FAILURE
  } else if (outcome.failed) {
    log.error(outcome.line)
    process.exitCode = EXIT_FAILURE
  } else if (outcome.anyCheckFailed) log.warning(outcome.line)
}

/** A suite compared with its baseline flow: printed, summarised and judged like the action's step. */
async function comparedChecksOutcome(
  compared: ComparedCheck[],
  verdict: SuiteVerdict,
  stopped: string | undefined,
  flags: Flags,
  log: Logger,
  signal: AbortSignal,
  failOn: RunConfig['failOn'],
): Promise<void> {
  const change = changeSummary(compared)
  printResult(log, flags.json ? comparedResultsJson(compared) : comparedText(compared, verdict, failOn))
  writeSummaryFile(log, flags, () =>
    renderComparedSummary(redactDeep(compared, log.secrets), redactDeep(verdict, log.secrets), failOn),
  )
  await writeReportFileFlag(log, flags, comparedOutputSpecs(compared, verdict), changeSentence(change))
  settleSuiteExit(log, signal, stopped, {
    failed: failOn === 'regression' ? blockingRegressions(change) > 0 : !verdict.ok,
    anyCheckFailed: verdict.failed > 0,
    line: `Flow checks: ${changeSentence(change)} After: ${afterText(verdict, failOn)}`,
  })
}
