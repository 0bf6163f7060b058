// Runs a suite of checks with bounded concurrency (each run costs the user money), each repeat one run
// under the no-double-run rule of the flow run, and judges each answer.
import { performance } from 'node:perf_hooks'
import { outputsOf } from '../flow/answer.js'
import { FlowRunError, questionOf, runFlow, type FlowRunOptions } from '../flow/run.js'
import type { FlowRunReport, FlowTarget } from '../model.js'
import { ServiceClient } from '../service/client.js'
import { excerpt } from '../service/errors.js'
import { failedAssertions } from './judge.js'
import {
  GRADE_SHAPE,
  JUDGE_OUTPUT,
  judgeFlowName,
  judgeInputs,
  scoreText,
  rubricFailure,
  type JudgeSettings,
} from './judge-flow.js'
import { parseGrade } from './judge-grade.js'
import { repeatsOf, type SuiteRepeats } from './repeats.js'
import type { Check } from './schema.js'
import { checkResultOf, runsMade, runsPassed, type CheckResult, type RunResult } from './verdict.js'

export interface RunChecksOptions extends FlowRunOptions {
  concurrency: number
  /** The suite's `repeat` and `min-pass` (default: each check once). */
  repeats?: SuiteRepeats
  /** The judge flow grading the checks with a rubric. */
  judge?: JudgeSettings
}

/** What the suite's runs gave; `stopped` says why runs were left unsent (no other run could succeed). */
export interface ChecksOutcome {
  results: CheckResult[]
  stopped?: string
}

function runIdOf(response: unknown): string | undefined {
  if (response === null || typeof response !== 'object') return undefined
  const id = (response as Record<string, unknown>).run_id
  return typeof id === 'string' ? id : undefined
}

const notRun = (run: number, why: string): RunResult => ({
  run,
  verdict: 'error',
  failed: [`not run: ${why}`],
  answer: '',
  seconds: 0,
  started: false,
})

const messageOf = (error: unknown) => excerpt(error instanceof Error ? error.message : String(error))

/**
 * One run of a check, judged. This is the boundary of one run: whatever its run or its judging throws
 * (an answer nested too deep for a schema's recursion, a library's own limit) is that run's error, and
 * every other run is still made, judged and reported.
 */
async function runCheck(
  client: Pick<ServiceClient, 'runFlow'>,
  target: FlowTarget,
  check: Check,
  run: number,
  options: FlowRunOptions & { judge?: JudgeSettings },
): Promise<{ result: RunResult; othersCannotRun?: string }> {
  const started = performance.now()
  // The run's time ends when its answer is in: judging (its own, or another check's on the same thread)
  // is never counted against max-seconds.
  const secondsTo = (end: number) => Math.round((end - started) / 100) / 10
  let report: FlowRunReport
  try {
    report = await runFlow(client, { target, inputs: check.inputs, outputKey: check.output }, options)
  } catch (error) {
    const seconds = secondsTo(performance.now())
    const failed = error instanceof FlowRunError ? error.message : `the run failed: ${messageOf(error)}`
    return {
      result: {
        run,
        verdict: 'error',
        failed: [failed],
        answer: '',
        runId: error instanceof FlowRunError ? runIdOf(error.response) : undefined,
        seconds,
        started: true,
      },
      othersCannotRun: error instanceof FlowRunError ? error.othersCannotRun : undefined,
    }
  }
  const seconds = secondsTo(performance.now())
  const answered = { answer: report.result, runId: runIdOf(report.response), seconds, started: true }
  let failed: string[]
  try {
    failed = failedAssertions(check, {
      answer: report.result,
      outputs: outputsOf(report.response),
      seconds,
      response: report.response,
    })
  } catch (error) {
    return {
      result: {
        run,
        verdict: 'error',
        failed: [`the answer could not be judged: ${messageOf(error)}`],
        ...answered,
      },
    }
  }
  if (check.rubric === undefined || options.judge === undefined)
    return { result: { run, verdict: failed.length === 0 ? 'passed' : 'failed', failed, ...answered } }
  const graded = await gradeAnswer(client, check, report.result, options.judge, options)
  const judged = { ...answered, judgeSent: true, ...(graded.grade ? { judge: graded.grade } : {}) }
  if (graded.error !== undefined)
    return {
      result: { run, verdict: 'error', failed: [...failed, graded.error], ...judged },
      ...(graded.othersCannotRun !== undefined ? { othersCannotRun: graded.othersCannotRun } : {}),
    }
  const rubric = rubricFailure(graded.grade, options.judge.minScore, minScoreName(options))
  if (rubric !== undefined) failed.push(rubric)
  return { result: { run, verdict: failed.length === 0 ? 'passed' : 'failed', failed, ...judged } }
}

const minScoreName = (options: FlowRunOptions) => options.names?.ref('judge-min-score') ?? '"judge-min-score"'

/**
 * The judge flow's grade of one answer: a run of the judge flow under the same retries and bounds as the
 * check's own run. A failed judge run, or an answer out of shape, is an error naming the judge flow.
 */
async function gradeAnswer(
  client: Pick<ServiceClient, 'runFlow'>,
  check: Check,
  answer: string,
  judge: JudgeSettings,
  options: FlowRunOptions,
): Promise<
  | { grade: NonNullable<RunResult['judge']>; error?: undefined; othersCannotRun?: undefined }
  | { grade?: undefined; error: string; othersCannotRun?: string }
> {
  const name = judgeFlowName(judge.target)
  let report: FlowRunReport
  try {
    report = await runFlow(
      client,
      {
        target: judge.target,
        inputs: judgeInputs(check, questionOf(check.inputs), answer),
        outputKey: JUDGE_OUTPUT,
      },
      options,
    )
  } catch (error) {
    const message = error instanceof FlowRunError ? error.message : `the run failed: ${messageOf(error)}`
    const othersCannotRun = error instanceof FlowRunError ? error.othersCannotRun : undefined
    return { error: `${name}: ${message}`, ...(othersCannotRun !== undefined ? { othersCannotRun } : {}) }
  }
  const parsed = parseGrade(report.result)
  if ('problem' in parsed)
    return { error: `${name} answered out of shape: ${parsed.problem}; a judge flow answers ${GRADE_SHAPE}` }
  const runId = runIdOf(report.response)
  return { grade: { ...parsed.grade, ...(runId !== undefined ? { runId } : {}) } }
}

/**
 * Results in the order of the checks, each with its runs in order; at most `concurrency` runs in flight.
 * A key the service refused is refused for every run, and a service on this machine that refused the
 * connection is not there for any: no further run is sent after the first.
 */
export async function runChecks(
  client: Pick<ServiceClient, 'runFlow'>,
  target: FlowTarget,
  checks: Check[],
  options: RunChecksOptions,
): Promise<ChecksOutcome> {
  const [outcome] = await runChecksOn(client, [{ target, label: '' }], checks, options)
  return outcome
}

/** One flow the suite runs on; `label` marks its lines in the log (" (before)"). */
export interface SuiteSide {
  target: FlowTarget
  label: string
}

/**
 * The suite on every side, the runs of all sides sharing one pool of `concurrency` runs in flight (each
 * check's runs on every side before the next check's), one outcome per side in the order given.
 */
export async function runChecksOn(
  client: Pick<ServiceClient, 'runFlow'>,
  sides: readonly SuiteSide[],
  checks: Check[],
  options: RunChecksOptions,
): Promise<ChecksOutcome[]> {
  const suite = options.repeats ?? { repeat: 1 }
  const plans = checks.map((check) => repeatsOf(check, suite))
  const work = checks.flatMap((check, index) =>
    Array.from({ length: plans[index].repeat }, (_, run) =>
      sides.map((_, side) => ({ side, index, run: run + 1 })),
    ).flat(),
  )
  const runs: RunResult[][][] = sides.map(() =>
    checks.map((_, index) => new Array<RunResult>(plans[index].repeat)),
  )
  let stopped: string | undefined
  let stoppedWhy = ''
  let next = 0
  const worker = async () => {
    while (next < work.length) {
      const { side, index, run } = work[next++]
      const check = checks[index]
      let result: RunResult
      if (options.signal?.aborted) result = notRun(run, 'the step was cancelled')
      else if (stopped !== undefined) result = notRun(run, stoppedWhy)
      else {
        const made = await runCheck(client, sides[side].target, check, run, options)
        result = made.result
        if (made.othersCannotRun && stopped === undefined) {
          stopped = result.failed[0]
          stoppedWhy = made.othersCannotRun
        }
      }
      runs[side][index][run - 1] = result
      if (result.started)
        options.log.info(
          `Check "${check.name}"${sides[side].label}${plans[index].repeat > 1 ? ` run ${run}` : ''}: ` +
            `${result.verdict} (${result.seconds} s${result.judge ? `; judge score ${scoreText(result.judge.score)}` : ''})`,
        )
    }
  }
  const workers = Math.max(1, Math.min(options.concurrency, work.length))
  await Promise.all(Array.from({ length: workers }, worker))
  return sides.map((side, sideIndex) => {
    const results = checks.map((check, index) => {
      const result = checkResultOf(
        {
          name: check.name,
          question: questionOf(check.inputs),
          minPass: plans[index].minPass,
          advisory: check.advisory,
        },
        runs[sideIndex][index],
      )
      if (plans[index].repeat > 1)
        options.log.info(
          `Check "${check.name}"${side.label}: ${result.verdict} (${runsPassed(result)} of ${runsMade(result)} ` +
            `runs passed, ${result.minPass} needed)`,
        )
      return result
    })
    return { results, ...(stopped !== undefined ? { stopped } : {}) }
  })
}
