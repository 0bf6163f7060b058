// The checks suite as data: the `results` output (JSON, answers as excerpts, within the outputs budget)
// and the results file (every run's whole answer, assertions and timings).
import { cutJson, OUTPUT_LIMIT_BYTES } from '../service/cut.js'
import { runsMade, runsPassed, type CheckResult, type RunResult } from '../checks/verdict.js'
import type { OutputSpec } from './output-budget.js'
import type { SuiteVerdict } from '../checks/verdict.js'
import { changeSummary, type ComparedCheck } from '../checks/baseline.js'

// The answer's beginning kept in the `results` output.
const EXCERPT_CHARS = 500

function excerpt(answer: string): string {
  return answer.length <= EXCERPT_CHARS ? answer : `${answer.slice(0, EXCERPT_CHARS)}…`
}

/** The judge flow's grade as the outputs hold it. */
const judgeEntry = (judge: NonNullable<RunResult['judge']>) => ({
  verdict: judge.verdict,
  score: judge.score,
  reason: judge.reason,
  run_id: judge.runId ?? null,
})

function runEntry(run: RunResult, whole: boolean): Record<string, unknown> {
  return {
    run: run.run,
    verdict: run.verdict,
    failed: run.failed,
    ...(whole ? { answer: run.answer } : { excerpt: excerpt(run.answer) }),
    run_id: run.runId ?? null,
    seconds: run.seconds,
    started: run.started,
    ...(run.judge ? { judge: judgeEntry(run.judge) } : {}),
  }
}

/**
 * One entry per check: what the `results` output holds (answers as excerpts), or with `whole` what the
 * results file holds (every run's whole answer).
 */
export function checksResultEntries(
  results: readonly CheckResult[],
  whole = false,
): Record<string, unknown>[] {
  return results.map((result) => ({
    name: result.name,
    question: result.question,
    verdict: result.verdict,
    runs_passed: runsPassed(result),
    runs_made: runsMade(result),
    min_pass: result.minPass,
    failed: result.failed,
    excerpt: excerpt(result.answer),
    run_id: result.runId ?? null,
    seconds: result.seconds,
    ...(result.judge ? { judge: judgeEntry(result.judge) } : {}),
    ...(result.advisory ? { advisory: true } : {}),
    runs: result.runs.map((run) => runEntry(run, whole)),
  }))
}

/** The step's outputs of a suite: counts, the results (the file holds every run whole) and the run times. */
export function checksOutputSpecs(results: readonly CheckResult[], verdict: SuiteVerdict): OutputSpec[] {
  return [
    { name: 'passed', count: verdict.passed },
    { name: 'failed', count: verdict.failed },
    { name: 'results', list: checksResultEntries(results), fileList: checksResultEntries(results, true) },
  ]
}

/** The results as one JSON text under 1 MiB (`kb-sync run --json`). */
export function checksResultsJson(results: readonly CheckResult[]): string {
  return cutJson(checksResultEntries(results), OUTPUT_LIMIT_BYTES).text
}

/** One entry per check compared: the change, the similarity of the answers, and each side's entry. */
export function comparedResultEntries(
  compared: readonly ComparedCheck[],
  whole = false,
): Record<string, unknown>[] {
  const before = checksResultEntries(
    compared.map((c) => c.before),
    whole,
  )
  const after = checksResultEntries(
    compared.map((c) => c.after),
    whole,
  )
  return compared.map((c, index) => ({
    name: c.name,
    question: c.question,
    change: c.change,
    similarity: Math.round(c.similarity * 1000) / 1000,
    answer_unchanged: c.unchanged,
    before: before[index],
    after: after[index],
  }))
}

/**
 * The outputs of a suite compared with a baseline: the names fixed and regressed with their counts, the
 * after side's counts, and the results (the file holds both sides' every answer whole).
 */
export function comparedOutputSpecs(compared: readonly ComparedCheck[], verdict: SuiteVerdict): OutputSpec[] {
  const { fixed, regressed } = changeSummary(compared)
  return [
    { name: 'fixed-count', count: fixed.length },
    { name: 'regressed-count', count: regressed.length },
    { name: 'passed', count: verdict.passed },
    { name: 'failed', count: verdict.failed },
    { name: 'regressed', list: regressed },
    { name: 'fixed', list: fixed },
    {
      name: 'results',
      list: comparedResultEntries(compared),
      fileList: comparedResultEntries(compared, true),
    },
  ]
}

/** The compared results as one JSON text under 1 MiB (`kb-sync run --baseline-flow-id … --json`). */
export function comparedResultsJson(compared: readonly ComparedCheck[]): string {
  return cutJson(comparedResultEntries(compared), OUTPUT_LIMIT_BYTES).text
}

/** The `skipped` output of a step that ran. */
export const NOT_SKIPPED: OutputSpec = { name: 'skipped', exact: 'false' }

/**
 * The outputs of a step that ran nothing under the skip rule (`documents-changed`): every count 0, every
 * list empty, `result`, `response` and `outputs` empty, and `skipped` true.
 */
export function skippedOutputSpecs(): OutputSpec[] {
  return [
    ...['passed', 'failed', 'fixed-count', 'regressed-count'].map((name) => ({ name, count: 0 })),
    ...['fixed', 'regressed', 'results'].map((name) => ({ name, list: [] })),
    ...['result', 'response', 'outputs'].map((name) => ({ name, exact: '' })),
    { name: 'skipped', exact: 'true' },
  ]
}
