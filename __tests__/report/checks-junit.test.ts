// The checks suite as a JUnit XML report: every document checked against the JUnit schema with libxml2's
// validator, and read back as a reporter reads it (parsed, not matched as text).
import { describe, expect, it } from '@jest/globals'
import { compareResults } from '../../src/checks/baseline.js'
import { checkResultOf, type CheckResult, type RunResult } from '../../src/checks/verdict.js'
import {
  renderChecksJUnit,
  renderSkippedJUnit,
  type ChecksJUnitInput,
} from '../../src/report/checks-junit.js'
import { checkResult } from '../helpers/check-results.js'
import { canonicalXml, junitSchemaErrors, parseJUnit } from '../helpers/junit-report.js'

const flow = { orgId: 'org-1', flowId: 'flow-after' }
const baseline = { orgId: 'org-1', flowId: 'flow-before' }
const startedAt = new Date('2026-11-28T15:00:00.250Z')

function input(results: CheckResult[], extra: Partial<ChecksJUnitInput> = {}): ChecksJUnitInput {
  return { results, flow, checksFile: 'ci/checks.yml', verdictLine: 'the verdict', startedAt, ...extra }
}

/** The report, after proving it valid against the schema. */
async function validReport(xml: string) {
  expect(await junitSchemaErrors(xml)).toEqual([])
  return parseJUnit(xml)
}

const run = (over: Partial<RunResult> & Pick<RunResult, 'run' | 'verdict'>): RunResult => ({
  failed: [],
  answer: 'an answer',
  seconds: 1,
  started: true,
  ...over,
})

describe('the schema', () => {
  it('rejects what reporters cannot read: a test case without a name, a failure before skipped, a count in words', async () => {
    const xml = renderChecksJUnit(input([checkResult({ name: 'a', verdict: 'failed' })]))
    expect(await junitSchemaErrors(xml)).toEqual([])
    const broken = [
      xml.replace('<testcase name="a"', '<testcase'),
      xml.replace('<testsuite name=', '<testsuite tests="one" name=').replace(/ tests="1"(?= failures)/, ''),
      xml.replace(/(<failure[\s\S]*?<\/failure>)/, '$1<skipped>late</skipped>'),
      xml.replace('<testsuites', '<testsuites unknown="x"'),
      xml.replace('</testsuites>', ''),
    ]
    for (const document of broken) expect((await junitSchemaErrors(document)).length).toBeGreaterThan(0)
  })
})

describe('renderChecksJUnit', () => {
  it('one test case per check: passed, failed with its assertion, errored; counts and times in seconds', async () => {
    const report = await validReport(
      renderChecksJUnit(
        input([
          checkResult({ name: 'refund window', verdict: 'passed', seconds: 1.2 }),
          checkResult({
            name: 'support hours',
            verdict: 'failed',
            failed: ['contains "24/7": not found', 'min-length 20: the answer has 9 characters'],
            seconds: 2.5,
          }),
          checkResult({ name: 'shipping', verdict: 'error', seconds: 0.4 }),
        ]),
      ),
    )
    expect(report.cases.map((c) => [c.name, c.classname, c.outcome, c.time])).toEqual([
      ['refund window', 'ci/checks.yml', 'passed', 1.2],
      ['support hours', 'ci/checks.yml', 'failure', 2.5],
      ['shipping', 'ci/checks.yml', 'error', 0.4],
    ])
    const failed = report.cases[1]
    expect(failed.message).toBe('contains "24/7": not found (and 1 more)')
    expect(failed.type).toBe('assertion')
    expect(failed.text).toBe('contains "24/7": not found\nmin-length 20: the answer has 9 characters')
    expect(report.cases[2].message).toBe('HTTP 500 from the service')
    expect(report.cases[0].output).toContain('Question: question of refund window')
    expect(report.cases[0].output).toContain('answer of refund window')
    expect(report.suite).toMatchObject({
      tests: '3',
      failures: '1',
      errors: '1',
      skipped: '0',
      time: '4.100',
      timestamp: '2026-11-28T15:00:00Z',
    })
    expect(report.suites).toMatchObject({ tests: '3', failures: '1', errors: '1' })
    expect(report.properties).toEqual({
      flow: 'org-1/flow-after',
      checks: 'ci/checks.yml',
      verdict: 'the verdict',
    })
  })

  it('repeats: "2 of 3 runs passed, 3 needed" leads the message; every run is in the output', async () => {
    const result = checkResult({ name: 'flaky', runs: ['passed', 'failed', 'passed'], minPass: 3 })
    const [flaky] = (await validReport(renderChecksJUnit(input([result])))).cases
    expect(flaky.outcome).toBe('failure')
    expect(flaky.message).toBe('2 of 3 runs passed, 3 needed: run 2: contains "x": not found')
    expect(flaky.time).toBe(3)
    expect(flaky.output.split('\n').filter((line) => line.startsWith('Run '))).toEqual([
      'Run 1: passed, 1 s',
      'Run 2: failed, 1 s: contains "x": not found',
      'Run 3: passed, 1 s',
    ])
    // 2 of 3 with min-pass 2 passes: no failure, the runs still told.
    const enough = checkResult({ name: 'flaky', runs: ['passed', 'failed', 'passed'], minPass: 2 })
    const [passed] = (await validReport(renderChecksJUnit(input([enough])))).cases
    expect(passed.outcome).toBe('passed')
    expect(passed.output).toContain('Runs: 2 of 3 runs passed, 2 needed.')
  })

  it("the judge's score and reason: in the failure message (a rubric failure) and in the output", async () => {
    const judge = {
      verdict: 'fail' as const,
      score: 0.2,
      reason: 'says 30 days, not 14',
      runId: 'judge-run-1',
    }
    const rubric = 'rubric: the judge says fail (score 0.20): says 30 days, not 14'
    const result = checkResultOf({ name: 'graded', question: 'How long?', minPass: 1 }, [
      run({ run: 1, verdict: 'failed', failed: [rubric], judge, runId: 'run-1' }),
    ])
    const [graded] = (await validReport(renderChecksJUnit(input([result])))).cases
    expect(graded.message).toBe(rubric)
    expect(graded.output).toContain('Judge: judge fail, score 0.20: says 30 days, not 14')
    expect(graded.output).toContain(
      'Run 1: failed, 1 s; run id run-1; judge fail, score 0.20: says 30 days, not 14',
    )
  })

  it('with a baseline: the change class leads the message and the output, the baseline flow named', async () => {
    const sketch = (name: string, verdict: 'passed' | 'failed') => checkResult({ name, verdict })
    const before = [
      sketch('a', 'passed'),
      sketch('b', 'failed'),
      sketch('c', 'failed'),
      sketch('d', 'passed'),
    ]
    const after = [sketch('a', 'failed'), sketch('b', 'passed'), sketch('c', 'failed'), sketch('d', 'passed')]
    const report = await validReport(
      renderChecksJUnit(input(after, { compared: compareResults(before, after), baseline })),
    )
    expect(report.cases.map((c) => [c.name, c.outcome, c.message])).toEqual([
      ['a', 'failure', 'regressed: contains "x": not found'],
      ['b', 'passed', undefined],
      ['c', 'failure', 'still failing: contains "x": not found'],
      ['d', 'passed', undefined],
    ])
    const changes = report.cases.map((c) => c.output.split('\n').find((line) => line.startsWith('Change: ')))
    expect(changes).toEqual([
      'Change: regressed (passed on the baseline flow, fails on this one).',
      'Change: fixed (failed on the baseline flow, passes on this one).',
      'Change: still failing (fails on both flows).',
      'Change: still passing (passes on both flows).',
    ])
    expect(report.cases[0].output).toContain('Baseline flow: passed, 1 of 1 runs passed, 1 needed.')
    expect(report.properties['baseline-flow']).toBe('org-1/flow-before')
  })

  it('advisory checks that did not pass are skipped, their verdict in the text; a passed one passes', async () => {
    const advisory = (name: string, verdict: 'passed' | 'failed' | 'error') => ({
      ...checkResult({ name, verdict }),
      advisory: true,
    })
    const report = await validReport(
      renderChecksJUnit(input([advisory('a', 'failed'), advisory('b', 'error'), advisory('c', 'passed')])),
    )
    expect(report.cases.map((c) => [c.outcome, c.text])).toEqual([
      ['skipped', 'Advisory check failed (never fails the step): contains "x": not found'],
      ['skipped', 'Advisory check errored (never fails the step): HTTP 500 from the service'],
      ['passed', undefined],
    ])
    expect(report.suite).toMatchObject({ failures: '0', errors: '0', skipped: '2' })
    expect(report.cases[2].output).toContain('Advisory: reported, never failing the step nor the threshold.')
  })

  it('a check none of whose runs was sent is skipped with the reason', async () => {
    const result = checkResultOf({ name: 'late', question: 'q', minPass: 1 }, [
      run({
        run: 1,
        verdict: 'error',
        failed: ['not run: the step was cancelled'],
        answer: '',
        seconds: 0,
        started: false,
      }),
    ])
    const report = await validReport(renderChecksJUnit(input([result])))
    expect(report.cases[0]).toMatchObject({
      outcome: 'skipped',
      text: 'Not run: the step was cancelled',
      time: 0,
    })
    expect(report.suite).toMatchObject({ skipped: '1', errors: '0' })
  })

  it('hostile characters: escaped or dropped, never breaking the document', async () => {
    const hostile = 'a <b> & "c" \'d\' ]]> \u0000\u0001\u0008\u000b\u001f\ud800 \uffff é 😀 \r\n\tline'
    const result = checkResultOf({ name: `name ${hostile}`, question: `q ${hostile}`, minPass: 1 }, [
      run({ run: 1, verdict: 'failed', failed: [`contains ${hostile}`], answer: `answer ${hostile}` }),
    ])
    const xml = renderChecksJUnit(
      input([result], { checksFile: `checks ${hostile}.yml`, verdictLine: hostile }),
    )
    const report = await validReport(xml)
    // The control characters, the lone surrogate and U+FFFF dropped; the rest kept, line breaks and tabs too.
    const kept = 'a <b> & "c" \'d\' ]]>   é 😀 \r\n\tline'
    expect(report.cases[0].name).toBe(`name ${kept}`)
    expect(report.cases[0].classname).toBe(`checks ${kept}.yml`)
    expect(report.cases[0].output).toContain(`answer ${kept}`)
    expect(report.cases[0].text).toBe(`contains ${kept}`)
    // The message is one line: its breaks and tabs are spaces.
    expect(report.cases[0].message).toMatch(/^contains a <b> & "c" 'd' \]\]> +é 😀 line$/)
    expect(report.properties.verdict).toBe(kept)
    // fast-xml-parser keeps raw line breaks in attributes; a conforming parser would make them spaces.
    expect(await canonicalXml(xml)).toContain(
      '<testcase classname="checks a &lt;b> &amp; &quot;c&quot; \'d\' ]]>   é 😀 &#xD;&#xA;&#x9;line.yml"',
    )
  })

  it('a long answer is cut in the output with a pointer to the results file', async () => {
    const result = checkResult({ name: 'long', verdict: 'passed', answer: 'x'.repeat(5000) })
    const [long] = (await validReport(renderChecksJUnit(input([result])))).cases
    expect(long.output).toContain(`${'x'.repeat(2000)}… (cut; the results file holds the whole answer)`)
    expect(long.output).not.toContain('x'.repeat(2001))
  })
})

describe('renderSkippedJUnit', () => {
  it('every check a skipped test case with the reason', async () => {
    const report = await validReport(
      renderSkippedJUnit({
        names: ['a', 'b'],
        reason: 'Flow checks skipped: nothing changed.',
        flow,
        startedAt,
      }),
    )
    expect(report.cases.map((c) => [c.name, c.classname, c.outcome, c.text])).toEqual([
      ['a', 'inline checks', 'skipped', 'Flow checks skipped: nothing changed.'],
      ['b', 'inline checks', 'skipped', 'Flow checks skipped: nothing changed.'],
    ])
    expect(report.suite).toMatchObject({ tests: '2', skipped: '2', failures: '0', errors: '0' })
  })
})
