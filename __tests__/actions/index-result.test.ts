// The index action's end of run in process: outputs, report file and summary of a long run, written the
// way the runner reads them (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, RUNNER_TEMP).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { reportIndexResult } from '../../src/actions/index-action.js'
import type { ItemOutcome } from '../../src/model.js'
import { CUT_KEY } from '../../src/report/output-budget.js'
import { DEFAULT_OUTPUTS_BUDGET } from '../../src/config/outputs-budget.js'
import { SUMMARY_LIMIT_BYTES } from '../../src/report/summary-limit.js'
import type { IndexReport } from '../../src/report/types.js'
import { parseOutputFile } from '../helpers/run-action.js'
import { recordingLog } from '../helpers/log.js'
import { GITHUB_TOKEN, PRIVATE_KEY } from '../helpers/keys.js'

const saved = { ...process.env }
let temp: string

beforeAll(() => {
  temp = mkdtempSync(join(tmpdir(), 'index-result-'))
  process.env.RUNNER_TEMP = temp
  process.env.GITHUB_OUTPUT = join(temp, 'output')
  process.env.GITHUB_STEP_SUMMARY = join(temp, 'summary.md')
  writeFileSync(process.env.GITHUB_OUTPUT, '')
  writeFileSync(process.env.GITHUB_STEP_SUMMARY, '')
})

afterAll(() => {
  process.env = saved
  rmSync(temp, { recursive: true, force: true })
})

describe('the index action writes the result of a long run', () => {
  it('cuts the summary and the outputs with exact counts, the report file whole, keys masked everywhere', async () => {
    // The token holds `_`, which markdown escapes: only masking before rendering keeps it out.
    const uploaded = 60_000
    const items: ItemOutcome[] = Array.from({ length: uploaded }, (_, i) => ({
      kind: 'document',
      name: `docs/${i % 1000 === 0 ? GITHUB_TOKEN : 'page'}-${String(i).padStart(6, '0')}.md`,
      outcome: 'uploaded',
      operation: 'upload',
      attempts: 1,
    }))
    items.push({
      kind: 'document',
      name: `docs/${PRIVATE_KEY}.md`,
      outcome: 'failed',
      operation: 'upload',
      attempts: 2,
      error: `HTTP 401: token ${GITHUB_TOKEN} refused`,
    })
    const report: IndexReport = {
      dryRun: false,
      changeSource: 'full sync',
      planned: [],
      items,
      skipped: [
        { kind: 'document', name: `.env-${GITHUB_TOKEN}`, reason: 'secret', detail: 'a secret file' },
      ],
      left: [],
      requests: 2400,
      durationMs: 5000,
      notices: [],
    }
    const { log } = recordingLog()
    log.addSecret(GITHUB_TOKEN)

    const outputs = await reportIndexResult(report, log, DEFAULT_OUTPUTS_BUDGET)
    expect(outputs.failed).toEqual([`docs/${PRIVATE_KEY}.md`])

    const summary = readFileSync(process.env.GITHUB_STEP_SUMMARY!, 'utf8')
    expect(Buffer.byteLength(summary)).toBeLessThanOrEqual(SUMMARY_LIMIT_BYTES)
    const uploadedBlock = summary.slice(summary.indexOf(`Uploaded (${uploaded})`))
    const shown = uploadedBlock
      .slice(0, uploadedBlock.indexOf('</details>'))
      .split('\n')
      .filter((line) => line.startsWith('- ')).length
    expect(shown).toBeGreaterThan(10_000)
    expect(uploadedBlock).toContain(`_${uploaded - shown} more not shown`)

    const written = parseOutputFile(readFileSync(process.env.GITHUB_OUTPUT!, 'utf8'))
    expect(written['uploaded-count']).toBe(String(uploaded))
    const list = JSON.parse(written.uploaded) as unknown[]
    const note = list.at(-1) as Record<string, number>
    expect(note[CUT_KEY]).toBe(uploaded - (list.length - 1))

    const file = JSON.parse(readFileSync(written['report-file'], 'utf8')) as Record<string, string[]>
    expect(file.uploaded).toHaveLength(uploaded)
    expect(file.uploaded[0]).not.toContain(GITHUB_TOKEN)

    const unescaped = summary.replace(/\\(.)/g, '$1')
    for (const text of [unescaped, readFileSync(process.env.GITHUB_OUTPUT!, 'utf8'), JSON.stringify(file)]) {
      expect(text).not.toContain(GITHUB_TOKEN)
      expect(text).not.toContain(PRIVATE_KEY)
      expect(text).not.toContain('testToken')
    }
  })
})
