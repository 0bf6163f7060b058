// GitHub's size limits, with the built dist/ run as the runner runs it: all outputs of a step within the
// outputs budget (UTF-16 code units), exact counts, cut lists that say so, a report file with everything,
// summaries within 1,000 KiB, and an unwritable GITHUB_OUTPUT that fails the step naming the file.
// The heaviest file of the e2e suite (8,000 documents): kept lean, it can move to a heavy run as is.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runAction, type ActionRun } from '../helpers/run-action.js'
import { unprivileged } from '../helpers/unprivileged.js'
import { ok, startRecordingServer, type RecordingServer } from '../helpers/recording-server.js'

const BUDGET = 256_000
const SUMMARY_LIMIT = 1000 * 1024
// Enough for both cuts with room to spare: the outputs hold ~1,500 of these names, the summary ~5,800.
const DOCUMENTS = 8_000
const ids = { 'flow-id': '65f0c0ffee0000000000beef', 'org-id': 'b2a1c3d4-0000-4000-8000-000000000001' }

/** The sum GitHub checks against the job's limit: every output's name and value, in UTF-16 code units. */
const outputsSize = (outputs: Record<string, string>) =>
  Object.entries(outputs).reduce((n, [name, value]) => n + name.length + value.length, 0)

let temp: string
let server: RecordingServer

beforeAll(async () => {
  temp = mkdtempSync(join(tmpdir(), 'kb-sync-limits-'))
  server = await startRecordingServer(ok)
})
afterAll(async () => {
  await server.close()
  rmSync(temp, { recursive: true, force: true })
})

/** A folder of its own for one run's RUNNER_TEMP (the report file lands there and is read after). */
function runnerTemp(name: string): string {
  const dir = join(temp, `runner-temp-${name}`)
  mkdirSync(dir)
  return dir
}

describe('index action', () => {
  const folder = `docs/${'a-rather-long-folder-name-'.repeat(3)}`
  const names = Array.from(
    { length: DOCUMENTS },
    (_, i) =>
      `${folder}/${'chapter-with-a-long-descriptive-title-'.repeat(2)}${String(i).padStart(5, '0')}.md`,
  )
  let run: ActionRun
  let runnerDir: string

  beforeAll(async () => {
    const workspace = join(temp, 'workspace')
    mkdirSync(join(workspace, folder), { recursive: true })
    for (const name of names) writeFileSync(join(workspace, name), 'x')
    runnerDir = runnerTemp('index')
    run = await runAction({
      action: 'action.yml',
      workspace,
      inputs: {
        'base-url': server.url,
        ...ids,
        'node-id': 'knowledgebase-1',
        'private-key': 'sk-limits-0123456789',
        files: 'docs/**',
        mode: 'upload',
        'batch-size': '100',
        concurrency: '16',
      },
      env: { RUNNER_TEMP: runnerDir },
    })
  }, 120_000)

  it('sends every document and keeps all outputs of the step within the budget', () => {
    expect(run.status).toBe(0)
    expect(server.requests.flatMap((r) => r.parts ?? [])).toHaveLength(DOCUMENTS)
    expect(outputsSize(run.outputs)).toBeLessThanOrEqual(BUDGET)
    expect(JSON.stringify(run.outputs).length).toBeGreaterThan(BUDGET * 0.9)
  })

  it('gives exact counts and cuts the list with a closing note naming how many are left out', () => {
    expect(run.outputs['uploaded-count']).toBe(String(DOCUMENTS))
    for (const name of ['updated', 'skipped', 'failed', 'removed']) {
      expect(run.outputs[`${name}-count`]).toBe('0')
      expect(run.outputs[name]).toBe('[]')
    }
    const uploaded = JSON.parse(run.outputs.uploaded) as unknown[]
    const shown = uploaded.slice(0, -1)
    expect(shown.every((name) => typeof name === 'string')).toBe(true)
    const left = DOCUMENTS - shown.length
    expect(left).toBeGreaterThan(0)
    expect(uploaded.at(-1)).toEqual({
      'kb-sync-cut': left,
      note: `… and ${left.toLocaleString('en-US')} more, left out to stay within GitHub's outputs limit; the file named by the "report-file" output lists all.`,
    })
    expect(run.stdout).toContain(
      `::warning::Outputs cut to stay within the outputs budget (256,000 characters for all outputs of this step`,
    )
  })

  it('writes every name to the report file in RUNNER_TEMP', () => {
    const file = run.outputs['report-file']
    expect(file.startsWith(join(runnerDir, 'kb-sync-report-'))).toBe(true)
    const report = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
    expect(new Set(report.uploaded as string[])).toEqual(new Set(names))
    expect(report['uploaded-count']).toBe(DOCUMENTS)
    const shown = (JSON.parse(run.outputs.uploaded) as string[]).slice(0, -1)
    expect((report.uploaded as string[]).slice(0, shown.length)).toEqual(shown)
  })

  it('keeps the summary within 1,000 KiB, cut with a note pointing to the report file', () => {
    const bytes = Buffer.byteLength(run.summary)
    expect(bytes).toBeLessThanOrEqual(SUMMARY_LIMIT)
    expect(bytes).toBeGreaterThan(SUMMARY_LIMIT * 0.9)
    expect(run.summary).toMatch(
      /_\d+ more not shown \(to stay within GitHub's size limit\); the file named by the `report-file` output lists all \(key `uploaded`\)\._/,
    )
  })
})

describe('run-flow action with a suite of checks', () => {
  // The summary shows ~870 of these checks before its cut.
  const CHECKS = 1100
  let run: ActionRun
  let runnerDir: string
  let flow: RecordingServer

  beforeAll(async () => {
    flow = await startRecordingServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ outputs: { 'out-0': 'x'.repeat(200) }, run_id: 'r' }))
    })
    const workspace = join(temp, 'checks')
    mkdirSync(workspace)
    // Long names and questions in a script of three bytes a character make the table alone larger than
    // a summary can hold (its cells keep 80 and 100 characters).
    const checks = Array.from({ length: CHECKS }, (_, i) => ({
      name: `check ${i} ${'丁寧に書かれた長い質問について'.repeat(6)}`,
      inputs: { 'in-0': `question ${i} ${'丁寧に書かれた長い質問'.repeat(10)}` },
      contains: 'x',
    }))
    writeFileSync(join(workspace, 'checks.json'), JSON.stringify(checks))
    runnerDir = runnerTemp('checks')
    run = await runAction({
      action: 'run-flow/action.yml',
      workspace,
      inputs: {
        'base-url': flow.url,
        ...ids,
        'public-key': 'pk-limits-0123456789',
        checks: 'checks.json',
        concurrency: '8',
        'max-runs': String(CHECKS),
      },
      env: { RUNNER_TEMP: runnerDir },
    })
  }, 120_000)
  afterAll(() => flow.close())

  it('keeps results within the budget, counts exact, and the results file holds every check', () => {
    expect(run.status).toBe(0)
    expect(outputsSize(run.outputs)).toBeLessThanOrEqual(BUDGET)
    expect([run.outputs.passed, run.outputs.failed]).toEqual([String(CHECKS), '0'])
    const results = JSON.parse(run.outputs.results) as Record<string, unknown>[]
    const left = CHECKS - (results.length - 1)
    expect(results.at(-1)?.['kb-sync-cut']).toBe(left)
    const file = JSON.parse(readFileSync(run.outputs['results-file'], 'utf8')) as Record<string, unknown>
    expect((file.results as unknown[]).length).toBe(CHECKS)
    expect(file.passed).toBe(CHECKS)
  })

  it('keeps the summary within 1,000 KiB, cut with a note pointing to the results file', () => {
    expect(Buffer.byteLength(run.summary)).toBeLessThanOrEqual(SUMMARY_LIMIT)
    expect(run.summary).toMatch(
      /_\d+ more checks not shown \(to stay within GitHub's size limit\); the file named by the `results-file` output lists all\._/,
    )
  })
})

describe('files the runner gives that cannot be written', () => {
  const workspace = () => join(temp, 'small')
  beforeAll(() => {
    mkdirSync(join(workspace(), 'docs'), { recursive: true })
    writeFileSync(join(workspace(), 'docs', 'a.md'), 'a')
  })

  it('an unwritable GITHUB_OUTPUT fails the index step with an error naming the file and what was done', async () => {
    const outputDir = runnerTemp('output-is-a-folder')
    const run = await runAction({
      action: 'action.yml',
      workspace: workspace(),
      inputs: { ...ids, 'node-id': 'knowledgebase-1', files: 'docs/**', 'dry-run': 'true' },
      env: { GITHUB_OUTPUT: outputDir, RUNNER_TEMP: runnerTemp('small') },
    })
    expect(run.status).toBe(1)
    expect(run.stdout).toContain(
      `::error::The step outputs could not be written to ${outputDir} (GITHUB_OUTPUT: EISDIR), so later steps ` +
        'cannot read them. This step: dry run, nothing sent: uploaded 0, updated 0, skipped 0, failed 0, removed from answers 0, left in the knowledge base 0. ' +
        'The report file ',
    )
    // The summary is still written.
    expect(run.summary).toContain('Dry run: nothing sent.')
  })

  it('an unwritable job summary is a warning naming the file; the step and its outputs stand', async () => {
    const summaryDir = runnerTemp('summary-is-a-folder')
    const run = await runAction({
      action: 'action.yml',
      workspace: workspace(),
      inputs: { ...ids, 'node-id': 'knowledgebase-1', files: 'docs/**', 'dry-run': 'true' },
      env: { GITHUB_STEP_SUMMARY: summaryDir, RUNNER_TEMP: runnerTemp('small-2') },
    })
    expect(run.status).toBe(0)
    expect(run.stdout).toContain(
      `::warning::The job summary could not be written to ${summaryDir} (GITHUB_STEP_SUMMARY): `,
    )
    expect(run.stdout).toContain(
      'This step: dry run, nothing sent: uploaded 0, updated 0, skipped 0, failed 0, removed from answers 0, ' +
        'left in the knowledge base 0. The outputs and the report file are not affected.',
    )
    expect(run.outputs['uploaded-count']).toBe('0')
  })

  it('an unwritable GITHUB_OUTPUT fails the run-flow step too (a folder it cannot write in)', async () => {
    const readOnly = runnerTemp('read-only')
    const flowTemp = runnerTemp('flow')
    // The other user reaches its RUNNER_TEMP; only the folder of GITHUB_OUTPUT is read-only.
    chmodSync(temp, 0o755)
    chmodSync(flowTemp, 0o777)
    chmodSync(readOnly, 0o555)
    const outputFile = join(readOnly, 'output')
    const flow = await startRecordingServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end('{"outputs": {"out-0": "fine"}}')
    })
    try {
      const run = await runAction({
        action: 'run-flow/action.yml',
        inputs: {
          'base-url': flow.url,
          ...ids,
          'public-key': 'pk-limits-0123456789',
          inputs: '{"in-0": "q"}',
        },
        env: { GITHUB_OUTPUT: outputFile, RUNNER_TEMP: flowTemp },
        // Root writes into a read-only folder: run as nobody when the tests run as root.
        ...unprivileged(),
      })
      expect(run.status).toBe(1)
      expect(run.stdout).toMatch(
        new RegExp(
          `::error::The step outputs could not be written to ${outputFile} \\(GITHUB_OUTPUT: [^)]+\\), so later steps ` +
            'cannot read them\\. This step: the flow run completed \\(an answer of 4 characters\\)\\.',
        ),
      )
      // The summary is the run's, not a failure's.
      expect(run.summary).toContain('### Flow run\n')
      expect(run.summary).not.toContain('Flow run failed')
    } finally {
      await flow.close()
      chmodSync(readOnly, 0o755)
    }
  })
})
