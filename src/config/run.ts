// The run-flow action's inputs (and `kb-sync run`), in a module of their own: the checks schema (zod,
// yaml) and the RE2 engine load only where a flow is asked, not in the index action.
import { advisoryEntries, markAdvisory } from '../checks/advisory.js'
import type { JudgeSettings } from '../checks/judge-flow.js'
import { plannedRuns, repeatProblems, type SuiteRepeats } from '../checks/repeats.js'
import { ChecksError, parseChecks, type Check } from '../checks/schema.js'
import { readChecksSource } from '../checks/source.js'
import { checksDigest } from '../checks/suite-digest.js'
import {
  PULL_REQUEST_EVENTS,
  readFlowInputs,
  readOutputsBudget,
  readRetry,
  retryPolicyOf,
  type EventContext,
  type RetrySettings,
} from './shared-inputs.js'
import { compileExpectation, type Expectation } from '../flow/expect.js'
import type { FlowRunOptions } from '../flow/run.js'
import type { Logger } from '../log.js'
import type { FlowTarget } from '../model.js'
import { BASELINE_SOURCES, FAIL_ON, RUN_DEFAULTS, type BaselineSource, type FailOn } from './run-inputs.js'
import { readCommentSettings, type CommentSettings } from './comment.js'
import { nearestCheckNames, shownCheckNames } from './check-names.js'
import { quoted } from './errors.js'
import { InputFields, type InputReader } from './fields.js'
import type { SettingNames } from '../setting-names.js'
import { parseThreshold } from '../units.js'
import { readJUnitFile } from './junit-file.js'

export interface RunConfig {
  baseUrl: string
  target: FlowTarget
  publicKey: string
  inputs: Record<string, string>
  outputKey: string
  /** RE2 syntax (linear-time matching). */
  expect?: Expectation
  retry: RetrySettings
  /** The sticky pull-request comment with the answer and the verdict. */
  comment: CommentSettings
  /** Also retry a run answered 500/502/504 (it may have started). */
  retryOnServerError: boolean
  /** Bounds the whole run, retries included (each check's run in a suite). */
  runTimeoutMs: number
  /** Set when the `checks` input is: a suite instead of one question (`inputs` is then empty). */
  checks?: Check[]
  /** Check runs in flight. */
  concurrency: number
  /** The `repeat` and `min-pass` inputs: runs of each check and how many must pass. */
  repeats: SuiteRepeats
  /** The most runs a suite may start, repeats included. */
  maxRuns: number
  /** Percentage of checks that must pass. */
  threshold: number
  /** With checks: the flow the suite also runs on, as before the pull request (`baseline-flow-id`). */
  baseline?: FlowTarget
  /**
   * `baseline` (#36 §5): `stored` reuses the baseline flow's results kept for the same key (the base
   * commit, the checks, the repeat and judge settings), `live` always runs the baseline flow.
   */
  baselineSource: BaselineSource
  /** With checks: the digest of the checks text and the JSON Schema files they name (checks/suite-digest.ts). */
  checksDigest?: string
  /** What fails the step: a check that regressed against the baseline, or the threshold missed. */
  failOn: FailOn
  /** `judge-flow-id`, `judge-org-id` and `judge-min-score`: the flow grading the checks' rubrics. */
  judge?: JudgeSettings
  /** The checks file `checks` names, relative to the workspace; undefined for inline checks or `inputs`. */
  checksFile?: string
  /** `documents-changed`: selected documents the pull request changes (the skip rule); undefined: unknown. */
  documentsChanged?: number
  /** `outputs-budget`: UTF-16 code units for all outputs of the step. */
  outputsBudget: number
  /** Set, instead of an error, when a pull request has no public key: print it as a notice, exit 0. */
  skip?: string
  /** How messages of the run name a setting (the front end's words). */
  names: SettingNames
  // ── settle (#36 §4): waiting for the knowledge base to answer from the sync ──
  /** `settle`: the longest wait before the checks run (0: none). */
  settleMs: number
  /** `settle-check`: a check run until it passes, for at most `settleMs`; unset: a fixed wait of `settleMs`. */
  settleCheck?: string
  // ── junit-file (#36 §3) ──
  /** `junit-file`: the absolute path the suite's JUnit XML report is written to; unset: no report. */
  junitFile?: string
}

function readExpect(fields: InputFields): Expectation | undefined {
  const source = fields.raw('expect')
  if (source === '') return undefined
  const compiled = compileExpectation(source)
  if ('pattern' in compiled) return compiled.pattern
  fields.problem(
    'expect',
    `${fields.names.subject('expect')} must be a regular expression in RE2 syntax (no lookaround or backreferences): ${compiled.problem}.`,
  )
  return undefined
}

function readThreshold(fields: InputFields): number {
  const value = fields.raw('threshold')
  const percent = parseThreshold(value)
  if (percent !== undefined) return percent
  fields.problem(
    'threshold',
    `${fields.names.subject('threshold')} must be a percentage from 0% to 100%, such as 90% (got ${quoted(value)}).`,
  )
  return 100
}

// A check runs at most this often: past it, a flaky flow is better fixed than averaged.
const MAX_REPEAT = 10
// Far more runs than any suite needs; the bound is against a mistyped number, not a budget.
const MAX_RUNS_LIMIT = 10_000

function readRepeats(fields: InputFields): SuiteRepeats {
  const repeat = fields.integer('repeat', 1, MAX_REPEAT)
  if (fields.raw('min-pass') === '') return { repeat }
  const minPass = fields.integer('min-pass', 1, MAX_REPEAT)
  if (minPass > repeat)
    fields.problem(
      'min-pass',
      `${fields.names.subject('min-pass')} must not be more than ${fields.names.ref('repeat')} (${repeat}): ` +
        `${minPass} of ${repeat} runs can never pass (got ${quoted(fields.raw('min-pass'))}).`,
    )
  return { repeat, minPass }
}

/**
 * No `<whose>-flow-id`: the other flow is not set, and a `<whose>-org-id` alone is a problem (it names that
 * flow's organization).
 */
function orgWithoutFlow(fields: InputFields, whose: 'baseline' | 'judge'): boolean {
  const [flow, org] = [`${whose}-flow-id`, `${whose}-org-id`]
  if (fields.raw(flow) !== '') return false
  if (fields.raw(org) !== '')
    fields.problem(
      org,
      `${fields.names.subject(org)} needs ${fields.names.ref(flow)}: it names the ${whose} flow's organization.`,
    )
  return true
}

/** `baseline-flow-id` and `baseline-org-id` (the run's org by default); undefined when no baseline is set. */
function readBaseline(fields: InputFields, orgId: string): FlowTarget | undefined {
  if (orgWithoutFlow(fields, 'baseline')) return undefined
  const names = fields.names
  const flowId = fields.id('baseline-flow-id')
  const baseline = {
    orgId: fields.raw('baseline-org-id') === '' ? orgId : fields.id('baseline-org-id'),
    flowId,
  }
  if (baseline.orgId === orgId && flowId === fields.raw('flow-id'))
    fields.problem(
      'baseline-flow-id',
      `${names.subject('baseline-flow-id')} names the flow of ${names.ref('flow-id')} itself: compare with another flow ` +
        '(e.g. production, while flow-id is the staging flow).',
    )
  return baseline
}

/** `fail-on`: `regression` (the default with a baseline) or `threshold` (the default without one). */
function readFailOn(fields: InputFields, baseline: boolean): FailOn {
  const value = fields.raw('fail-on')
  if (value === '') return baseline ? 'regression' : 'threshold'
  if (!(FAIL_ON as readonly string[]).includes(value)) {
    fields.problem(
      'fail-on',
      `${fields.names.subject('fail-on')} must be "regression" or "threshold" (got ${quoted(value)}).`,
    )
    return 'threshold'
  }
  if (value === 'regression' && !baseline)
    fields.problem(
      'fail-on',
      `${fields.names.subject('fail-on')} "regression" needs ${fields.names.ref('baseline-flow-id')}: without a baseline no check can regress.`,
    )
  return value as FailOn
}

/** `judge-min-score`: a number from 0 to 1. */
function readMinScore(fields: InputFields): number {
  const value = fields.raw('judge-min-score')
  const score = /^(0|1|0?\.\d+|1\.0*)$/.test(value) ? Number(value) : NaN
  if (score >= 0 && score <= 1) return score
  fields.problem(
    'judge-min-score',
    `${fields.names.subject('judge-min-score')} must be a number from 0 to 1, such as 0.7 (got ${quoted(value)}).`,
  )
  return 1
}

/** `judge-flow-id`, `judge-org-id` (the run's org by default) and `judge-min-score`; undefined without a judge flow. */
function readJudge(fields: InputFields, target: FlowTarget): JudgeSettings | undefined {
  const minScore = readMinScore(fields)
  if (orgWithoutFlow(fields, 'judge')) return undefined
  const names = fields.names
  const judge = {
    target: {
      orgId: fields.raw('judge-org-id') === '' ? target.orgId : fields.id('judge-org-id'),
      flowId: fields.id('judge-flow-id'),
    },
    minScore,
  }
  if (judge.target.orgId === target.orgId && judge.target.flowId === target.flowId)
    fields.problem(
      'judge-flow-id',
      `${names.subject('judge-flow-id')} names the flow of ${names.ref('flow-id')} itself: a judge flow is a flow of its ` +
        'own that grades answers (see the README, "Judge flow").',
    )
  return judge
}

/** Checks with a rubric need a judge flow; `advisory-checks` marks the checks it names advisory. */
function applySuiteSettings(fields: InputFields, config: RunConfig, checks: Check[]): Check[] {
  const names = fields.names
  const graded = checks
    .filter((check) => check.rubric !== undefined)
    .map((check) => JSON.stringify(check.name))
  if (graded.length > 0 && !config.judge)
    fields.problem(
      'judge-flow-id',
      `${names.subject('judge-flow-id')} is required: ${graded.length === 1 ? 'check' : 'checks'} ` +
        `${graded.slice(0, 5).join(', ')}${graded.length > 5 ? ` and ${graded.length - 5} more` : ''} ` +
        `${graded.length === 1 ? 'has a rubric' : 'have a rubric'}, which a judge flow grades.`,
    )
  const marked = markAdvisory(checks, advisoryEntries(fields.raw('advisory-checks')))
  if (marked.unmatched.length > 0)
    fields.problem(
      'advisory-checks',
      `${names.subject('advisory-checks')} names no check with ${marked.unmatched.map((entry) => quoted(entry)).join(', ')} ` +
        `(check names: ${shownCheckNames(checks)}; "*" matches any characters).` +
        nearestCheckNames(marked.unmatched, checks),
    )
  return marked.checks
}

/** Every check's `min-pass` against the runs it gets, and the suite's runs against `max-runs`. */
function checkRunCounts(fields: InputFields, config: RunConfig, checks: Check[]): void {
  const names = fields.names
  for (const problem of repeatProblems(checks, config.repeats))
    fields.problem('checks', `${names.subject('checks')}: ${problem}.`)
  // With a baseline every run is made on both flows; with a judge flow each answer of a check with a
  // rubric costs one judge run more.
  const judged = config.judge !== undefined && checks.some((check) => check.rubric !== undefined)
  const runs = plannedRuns(checks, config.repeats, judged) * (config.baseline ? 2 : 1)
  const parts = [
    'repeats',
    ...(judged ? ['judge runs'] : []),
    ...(config.baseline ? ['the baseline flow'] : []),
  ]
  const counted = `${parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}` : parts[0]} included`
  if (runs > config.maxRuns)
    fields.problem(
      'max-runs',
      `The checks would start ${runs} runs (${checks.length} ${checks.length === 1 ? 'check' : 'checks'}, ${counted}), more than ` +
        `${names.ref('max-runs')} allows (${config.maxRuns}); no run was started. Raise ${names.ref('max-runs')}, ` +
        `or lower ${names.ref('repeat')} (or a check's repeat) or the number of checks.`,
    )
}

/** `documents-changed`: empty (unknown) or a whole number; the index step's `pull-request-changed`. */
function readDocumentsChanged(fields: InputFields): number | undefined {
  const value = fields.raw('documents-changed')
  if (value === '') return undefined
  if (/^\d+$/.test(value) && Number.isSafeInteger(Number(value))) return Number(value)
  fields.problem(
    'documents-changed',
    `${fields.names.subject('documents-changed')} must be empty (unknown) or a whole number of 0 or more, ` +
      `such as the index step's "pull-request-changed" output (got ${quoted(value)}).`,
  )
  return undefined
}

function readChecks(
  fields: InputFields,
  value: string,
  event: EventContext,
): { checks?: Check[]; file?: string; digest?: string } {
  const source = readChecksSource(value, event.workspace ?? process.cwd(), { anywhere: event.checksAnywhere })
  const checks = fields.names.subject('checks')
  if ('problem' in source) {
    fields.problem('checks', `${checks} ${source.problem}.`)
    return {}
  }
  const file = source.origin === 'inline' ? undefined : source.origin
  try {
    const workspace = event.workspace ?? process.cwd()
    const parsed = parseChecks(source.text, { workspace })
    const digest = checksDigest(source.text, parsed, workspace, { anywhere: event.checksAnywhere })
    return { checks: parsed, file, digest }
  } catch (error) {
    if (!(error instanceof ChecksError)) throw error
    const where = file === undefined ? checks : `${checks} (${file})`
    for (const problem of error.problems) fields.problem('checks', `${where}: ${problem}.`)
    return { file }
  }
}

/** Reads the run-flow action's inputs. Throws a ConfigError listing every problem. */
export function readRunConfig(read: InputReader, event: EventContext): RunConfig {
  const fields = new InputFields(read, RUN_DEFAULTS, event.names)
  const names = fields.names
  const target = { orgId: fields.id('org-id'), flowId: fields.id('flow-id') }
  const baseline = readBaseline(fields, target.orgId)
  const judge = readJudge(fields, target)
  const config: RunConfig = {
    baseUrl: fields.baseUrl('base-url'),
    target,
    publicKey: fields.key('public-key'),
    inputs: Object.create(null) as Record<string, string>,
    outputKey: fields.raw('output-key'),
    expect: readExpect(fields),
    retry: readRetry(fields),
    comment: readCommentSettings(fields, event.eventName, fields.token('github-token')),
    retryOnServerError: fields.boolean('retry-on-server-error'),
    // A GitHub job runs at most 6 hours.
    runTimeoutMs: fields.duration('run-timeout', 1000, 6 * 3_600_000),
    concurrency: fields.integer('concurrency', 1, 8),
    repeats: readRepeats(fields),
    maxRuns: fields.integer('max-runs', 1, MAX_RUNS_LIMIT),
    threshold: readThreshold(fields),
    ...(baseline ? { baseline } : {}),
    baselineSource: fields.oneOf('baseline', BASELINE_SOURCES),
    failOn: readFailOn(fields, baseline !== undefined),
    ...(judge ? { judge } : {}),
    documentsChanged: readDocumentsChanged(fields),
    outputsBudget: readOutputsBudget(fields),
    names: fields.names,
    settleMs: 0,
  }
  const inputs = fields.raw('inputs')
  const checks = fields.raw('checks')
  const suiteOnly: Record<string, string> = {
    'baseline-flow-id': 'a suite is compared, not one question',
    'fail-on': 'a suite is compared, not one question',
    'judge-flow-id': "it grades the checks' rubrics",
    'advisory-checks': 'it names checks',
  }
  for (const [name, why] of Object.entries(suiteOnly))
    if (checks === '' && fields.raw(name) !== '')
      fields.problem(name, `${names.subject(name)} applies to ${names.ref('checks')} only: ${why}.`)
  if (checks !== '') {
    const suite = readChecks(fields, checks, event)
    config.checks = suite.checks && applySuiteSettings(fields, config, suite.checks)
    if (suite.file !== undefined) config.checksFile = suite.file
    if (suite.digest !== undefined) config.checksDigest = suite.digest
    if (config.checks) checkRunCounts(fields, config, config.checks)
    if (inputs !== '')
      fields.problem(
        'inputs',
        `${names.pair('inputs', 'checks')} are exclusive: give one question or a suite of checks.`,
      )
    if (config.expect)
      fields.problem(
        'expect',
        `${names.subject('expect')} applies to ${names.ref('inputs')} only: put the pattern in a check ("expect" field).`,
      )
  } else if (inputs === '')
    fields.problem(
      'inputs',
      `${names.subject('inputs')} is required (a JSON object such as {"in-0": "..."}) unless ${names.ref('checks')} is set.`,
    )
  else config.inputs = readFlowInputs(fields, inputs, 'inputs')
  if (config.publicKey === '') {
    if (PULL_REQUEST_EVENTS.has(event.eventName))
      config.skip =
        'No public key in this pull request: forks and Dependabot do not get secrets; the flow run is skipped.'
    else fields.problem('public-key', `${names.subject('public-key')} is required.`)
  }
  readSettle(fields, config)
  const junitFile = readJUnitFile(fields, event.workspace ?? process.cwd())
  if (junitFile !== undefined) config.junitFile = junitFile
  fields.throwIfAny()
  return config
}

// ── settle (#36 §4) ──
// A GitHub job runs at most 6 hours; an hour of waiting is already far past any indexing worth waiting for.
const MAX_SETTLE_MS = 3_600_000

/** `settle` and `settle-check`: how long to wait for the sync, and the check that tells it arrived. */
function readSettle(fields: InputFields, config: RunConfig): void {
  const names = fields.names
  config.settleMs = fields.duration('settle', 0, MAX_SETTLE_MS)
  if (config.settleMs > 0 && !fields.raw('checks'))
    fields.problem(
      'settle',
      `${names.subject('settle')} applies to ${names.ref('checks')} only: it waits for the sync before a suite runs.`,
    )
  const name = fields.raw('settle-check')
  if (name === '') return
  if (!fields.raw('checks')) {
    fields.problem(
      'settle-check',
      `${names.subject('settle-check')} names a check of ${names.ref('checks')}, which is empty.`,
    )
    return
  }
  if (config.settleMs === 0)
    fields.problem(
      'settle-check',
      `${names.subject('settle-check')} needs ${names.ref('settle')} above 0: the longest time the check is run ` +
        'until it passes (e.g. 300).',
    )
  if (!config.checks) return
  if (!config.checks.some((check) => check.name === name)) {
    fields.problem(
      'settle-check',
      `${names.subject('settle-check')} names no check of ${names.ref('checks')} (got ${quoted(name)}; the ` +
        `checks are ${shownCheckNames(config.checks)}).${nearestCheckNames([name], config.checks)}`,
    )
    return
  }
  // Every poll is a billed run: the suite's own runs are reserved, the polls use what max-runs leaves.
  const suiteRuns = plannedRuns(config.checks, config.repeats) * (config.baseline ? 2 : 1)
  if (suiteRuns < config.maxRuns) config.settleCheck = name
  else if (suiteRuns === config.maxRuns)
    fields.problem(
      'settle-check',
      `${names.subject('settle-check')} needs runs of its own, but the checks' ${suiteRuns} runs take all of ` +
        `${names.ref('max-runs')} (${config.maxRuns}); raise ${names.ref('max-runs')}: each run of the settle check counts in it.`,
    )
}

/** Where the run-flow action's sticky comment goes: enough to replace its verdict when the run cannot start. */
export interface CommentTarget {
  comment: CommentSettings
  flowId: string
  /** `### Flow checks` for a suite, `### Flow check` for one question. */
  heading: string
}

/**
 * The comment's settings read on their own, for a run whose other inputs were refused; undefined when
 * these are themselves invalid (then no comment can be told apart safely).
 */
export function readCommentTarget(read: InputReader, event: EventContext): CommentTarget | undefined {
  const fields = new InputFields(read, RUN_DEFAULTS, event.names)
  const target: CommentTarget = {
    comment: readCommentSettings(fields, event.eventName, fields.token('github-token')),
    flowId: fields.id('flow-id'),
    heading: fields.raw('checks') === '' ? '### Flow check' : '### Flow checks',
  }
  return fields.problems.length === 0 ? target : undefined
}

/** How a run of the run-flow action (or `kb-sync run`) is retried and bounded, from its inputs. */
export function flowRunOptions(config: RunConfig, log: Logger, signal?: AbortSignal): FlowRunOptions {
  return {
    log,
    retry: retryPolicyOf(config),
    retryOnServerError: config.retryOnServerError,
    timeoutMs: config.runTimeoutMs,
    signal,
    names: config.names,
  }
}
