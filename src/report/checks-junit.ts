// The checks suite as a JUnit XML report (the `junit-file` input), for test reporters (dorny/test-reporter,
// mikepenz/action-junit-report, Jenkins, GitLab): one test case per check, from the same results as the
// summary and the outputs. A case fails (<failure>) or errs (<error>) exactly as the check's verdict on
// the flow says, except what never fails the step either: an advisory check that did not pass is
// <skipped>, its verdict in the text (pytest reports an expected failure the same way), so a reporter
// never fails a build on it. A check none of whose runs was sent is <skipped> with the reason.
import type { ChangeVerdict, ComparedCheck } from '../checks/baseline.js'
import { scoreText } from '../checks/judge-flow.js'
import { runsMade, runsPassed, type CheckResult, type RunResult } from '../checks/verdict.js'
import type { FlowTarget } from '../model.js'
import { renderXmlDocument, type XmlElement } from './xml.js'

export interface ChecksJUnitInput {
  /** The checks on the flow (the after side with a baseline), in suite order. */
  results: readonly CheckResult[]
  /** With a baseline flow: each check compared, in the same order as `results`. */
  compared?: readonly ComparedCheck[]
  flow: FlowTarget
  baseline?: FlowTarget
  judge?: FlowTarget
  /** The checks file, relative to the workspace (the test cases' class name); undefined for inline checks. */
  checksFile?: string
  /** The suite's verdict as the step's log line says it. */
  verdictLine: string
  /** When the suite started. */
  startedAt: Date
}

/** A suite that did not run (the skip rule): every check a skipped test case, with the reason. */
export interface SkippedJUnitInput {
  names: readonly string[]
  reason: string
  flow: FlowTarget
  checksFile?: string
  startedAt: Date
}

// An answer's beginning in a test case's output; the results file holds every answer whole.
const ANSWER_CHARS = 2000
// A failure's one-line message; the element's text holds every failed assertion.
const MESSAGE_CHARS = 500

const SUITES_NAME = 'kb-sync checks'

const CHANGE_WORDS: Readonly<Record<ChangeVerdict, string>> = {
  fixed: 'fixed (failed on the baseline flow, passes on this one)',
  regressed: 'regressed (passed on the baseline flow, fails on this one)',
  'still-passing': 'still passing (passes on both flows)',
  'still-failing': 'still failing (fails on both flows)',
  error: 'not compared (a run failed on one side)',
}

const changeShort = (change: ChangeVerdict) =>
  change === 'error' ? 'not compared' : change.replace('-', ' ')

const seconds = (value: number) => value.toFixed(3)

const oneLine = (text: string, chars = MESSAGE_CHARS) => {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length <= chars ? line : `${line.slice(0, chars - 1)}…`
}

const flowName = (target: FlowTarget) => `${target.orgId}/${target.flowId}`

/** The time the check's runs took (judging apart), each run sent counted. */
const checkSeconds = (result: CheckResult) =>
  result.runs.filter((run) => run.started).reduce((sum, run) => sum + run.seconds, 0)

const repeated = (result: CheckResult) => result.runs.length > 1

const runsLine = (result: CheckResult) =>
  `${runsPassed(result)} of ${runsMade(result)} runs passed, ${result.minPass} needed`

function judgeText(judge: NonNullable<RunResult['judge']>): string {
  return `judge ${judge.verdict}, score ${scoreText(judge.score)}: ${judge.reason}`
}

function runLine(run: RunResult): string {
  const parts = [`${run.verdict}, ${run.seconds} s`]
  if (run.runId) parts.push(`run id ${run.runId}`)
  if (run.judge) parts.push(judgeText(run.judge))
  const failed = run.failed.length > 0 ? `: ${run.failed.join('; ')}` : ''
  return `Run ${run.run}: ${parts.join('; ')}${failed}`
}

function answerText(answer: string): string {
  if (answer.length <= ANSWER_CHARS) return answer
  return `${answer.slice(0, ANSWER_CHARS)}… (cut; the results file holds the whole answer)`
}

/** What the test case's output tells: the question, the runs, the change, the answer shown. */
function caseOutput(result: CheckResult, compared?: ComparedCheck): string {
  const lines = [`Question: ${result.question}`]
  if (repeated(result)) lines.push(`Runs: ${runsLine(result)}.`)
  if (result.advisory) lines.push('Advisory: reported, never failing the step nor the threshold.')
  if (compared) {
    lines.push(`Change: ${CHANGE_WORDS[compared.change]}.`)
    const before = compared.before
    lines.push(`Baseline flow: ${before.verdict}, ${runsLine(before)}.`)
  }
  if (result.judge) lines.push(`Judge: ${judgeText(result.judge)}`)
  lines.push(...result.runs.filter((run) => run.started).map(runLine))
  if (runsMade(result) > 0)
    lines.push(`Answer${repeated(result) ? ' shown' : ''}:`, answerText(result.answer))
  return lines.join('\n')
}

/** The failure's message: the change, the runs that passed, the first failed assertion. */
function problemMessage(result: CheckResult, compared?: ComparedCheck): string {
  const parts: string[] = []
  if (compared) parts.push(changeShort(compared.change))
  if (repeated(result)) parts.push(runsLine(result))
  const first = result.failed[0] ?? result.verdict
  const more = result.failed.length > 1 ? ` (and ${result.failed.length - 1} more)` : ''
  return oneLine(`${parts.length > 0 ? `${parts.join('; ')}: ` : ''}${first}${more}`)
}

/** Why no run of the check was sent (the step was cancelled, or stopped on a refused key). */
function notRunReason(result: CheckResult): string {
  const first = result.runs[0]?.failed[0] ?? 'not run'
  return first.replace(/^not run: /, 'Not run: ')
}

function testCase(result: CheckResult, classname: string, compared?: ComparedCheck): XmlElement {
  const output: XmlElement = { name: 'system-out', text: caseOutput(result, compared) }
  const attributes = { name: result.name, classname, time: seconds(checkSeconds(result)) }
  const details = result.failed.join('\n')
  let outcome: XmlElement | undefined
  if (runsMade(result) === 0) outcome = { name: 'skipped', text: notRunReason(result) }
  else if (result.verdict !== 'passed' && result.advisory)
    outcome = {
      name: 'skipped',
      text: `Advisory check ${result.verdict === 'error' ? 'errored' : 'failed'} (never fails the step): ${problemMessage(result, compared)}`,
    }
  else if (result.verdict === 'failed')
    outcome = {
      name: 'failure',
      attributes: { message: problemMessage(result, compared), type: compared?.change ?? 'assertion' },
      text: details,
    }
  else if (result.verdict === 'error')
    outcome = {
      name: 'error',
      attributes: { message: problemMessage(result, compared), type: 'error' },
      text: details,
    }
  return { name: 'testcase', attributes, children: outcome ? [outcome, output] : [output] }
}

const countOf = (cases: readonly XmlElement[], child: string) =>
  cases.filter((element) => element.children?.some((c) => c.name === child)).length

/** ISO 8601 to the second, as JUnit readers parse it. */
const timestampOf = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z')

function document(
  cases: XmlElement[],
  properties: readonly (readonly [string, string | undefined])[],
  flow: FlowTarget,
  startedAt: Date,
  time: number,
): string {
  const counts = {
    tests: cases.length,
    failures: countOf(cases, 'failure'),
    errors: countOf(cases, 'error'),
  }
  const listed = properties
    .filter((entry): entry is readonly [string, string] => entry[1] !== undefined)
    .map(([name, value]) => ({ name: 'property', attributes: { name, value } }))
  const suite: XmlElement = {
    name: 'testsuite',
    attributes: {
      name: `Flow checks on ${flowName(flow)}`,
      ...counts,
      skipped: countOf(cases, 'skipped'),
      time: seconds(time),
      timestamp: timestampOf(startedAt),
    },
    children: [...(listed.length > 0 ? [{ name: 'properties', children: listed }] : []), ...cases],
  }
  return renderXmlDocument({
    name: 'testsuites',
    attributes: { name: SUITES_NAME, ...counts, time: seconds(time) },
    children: [suite],
  })
}

const classnameOf = (checksFile: string | undefined) => checksFile ?? 'inline checks'

/**
 * The suite's JUnit XML. The suite's time is the sum of its cases' (runs in parallel overlap, so it can
 * exceed the time the step took); each case's is the sum of its runs' (judging apart).
 */
export function renderChecksJUnit(input: ChecksJUnitInput): string {
  const classname = classnameOf(input.checksFile)
  const cases = input.results.map((result, index) => testCase(result, classname, input.compared?.[index]))
  const time = input.results.reduce((sum, result) => sum + checkSeconds(result), 0)
  return document(
    cases,
    [
      ['flow', flowName(input.flow)],
      ['baseline-flow', input.baseline && flowName(input.baseline)],
      ['judge-flow', input.judge && flowName(input.judge)],
      ['checks', classname],
      ['verdict', input.verdictLine],
    ],
    input.flow,
    input.startedAt,
    time,
  )
}

/** The JUnit XML of a suite the skip rule did not run: every check skipped, with the reason. */
export function renderSkippedJUnit(input: SkippedJUnitInput): string {
  const classname = classnameOf(input.checksFile)
  const cases = input.names.map((name): XmlElement => ({
    name: 'testcase',
    attributes: { name, classname, time: seconds(0) },
    children: [{ name: 'skipped', text: input.reason }],
  }))
  return document(
    cases,
    [
      ['flow', flowName(input.flow)],
      ['checks', classname],
      ['verdict', input.reason],
    ],
    input.flow,
    input.startedAt,
    0,
  )
}
