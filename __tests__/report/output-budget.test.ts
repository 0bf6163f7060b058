import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  CUT_KEY,
  fileFields,
  fitOutputs,
  totalSize,
  type FittedOutput,
  type OutputSpec,
} from '../../src/report/output-budget.js'
import {
  DEFAULT_OUTPUTS_BUDGET,
  OUTPUTS_BUDGET_MAX,
  OUTPUTS_BUDGET_MIN,
} from '../../src/config/outputs-budget.js'
import { ReportFileError, reportFilePath, writeReportFile } from '../../src/report/report-file.js'
import { fitSummary, SUMMARY_LIMIT_BYTES } from '../../src/report/summary-limit.js'
import { binaryUnit } from '../helpers/string-units.js'

const longNames = (n: number, prefix = 'docs') =>
  Array.from({ length: n }, (_, i) => `${prefix}/${'section-'.repeat(12)}${String(i).padStart(6, '0')}.md`)

const byName = (outputs: { name: string; value: string }[]) =>
  Object.fromEntries(outputs.map((o) => [o.name, o.value]))

describe('fitOutputs', () => {
  it('writes every output whole when all fit', () => {
    const specs: OutputSpec[] = [
      { name: 'uploaded', list: ['a.md', 'b "q".md'] },
      { name: 'uploaded-count', count: 2 },
      { name: 'result', text: 'answer' },
      { name: 'response', json: { outputs: { 'out-0': 'answer' } } },
      { name: 'base', exact: 'abc' },
    ]
    const fitted = fitOutputs(specs, DEFAULT_OUTPUTS_BUDGET, 'report-file')
    expect(fitted.map((o) => o.name)).toEqual(specs.map((s) => s.name))
    expect(fitted.every((o) => o.cut === undefined)).toBe(true)
    expect(byName(fitted)).toEqual({
      uploaded: '["a.md","b \\"q\\".md"]',
      'uploaded-count': '2',
      result: 'answer',
      response: '{"outputs":{"out-0":"answer"}}',
      base: 'abc',
    })
  })

  it('cuts a long list to the budget, ending with one note object that counts the names left out', () => {
    const names = longNames(20_000)
    const fitted = fitOutputs(
      [
        { name: 'uploaded', list: names },
        { name: 'uploaded-count', count: names.length },
      ],
      DEFAULT_OUTPUTS_BUDGET,
      'report-file',
    )
    expect(totalSize(fitted)).toBeLessThanOrEqual(DEFAULT_OUTPUTS_BUDGET)
    const list = JSON.parse(byName(fitted).uploaded) as unknown[]
    const note = list.at(-1) as Record<string, unknown>
    const shown = list.slice(0, -1)
    expect(shown).toEqual(names.slice(0, shown.length))
    expect(shown.length).toBeGreaterThan(1000)
    expect(note[CUT_KEY]).toBe(names.length - shown.length)
    expect(note.note).toContain(`${(names.length - shown.length).toLocaleString('en-US')} more`)
    expect(note.note).toContain('"report-file" output')
    // Close to the budget: a cut list is not cut more than it must be.
    expect(totalSize(fitted)).toBeGreaterThan(DEFAULT_OUTPUTS_BUDGET - 200)
    expect(byName(fitted)['uploaded-count']).toBe('20000')
    expect(fitted[0].cut).toBe(`${(names.length - shown.length).toLocaleString('en-US')} of 20,000 items`)
  })

  it('keeps short outputs whole and lets the long ones share the rest', () => {
    const fitted = fitOutputs(
      [
        { name: 'uploaded', list: longNames(10_000, 'a') },
        { name: 'failed', list: ['broken.md'] },
        { name: 'skipped', list: longNames(10_000, 'b') },
      ],
      100_000,
      'report-file',
    )
    const out = byName(fitted)
    expect(out.failed).toBe('["broken.md"]')
    const uploaded = out.uploaded.length
    const skipped = out.skipped.length
    expect(Math.abs(uploaded - skipped)).toBeLessThan(200)
    expect(totalSize(fitted)).toBeLessThanOrEqual(100_000)
  })

  it('measures a list far over the budget only as far as it can be shown', () => {
    let measured = 0
    // JSON.stringify calls toJSON each time it writes an item: a count of the items measured or written.
    const names = Array.from({ length: 100_000 }, (_, i) => ({
      toJSON: () => {
        measured++
        return `docs/page-${String(i).padStart(6, '0')}.md`
      },
    }))
    const fitted = fitOutputs([{ name: 'uploaded', list: names }], 20_000, 'report-file')
    const kept = (JSON.parse(fitted[0].value) as unknown[]).length - 1
    expect(kept).toBeGreaterThan(500)
    expect(fitted[0].cut).toBe(`${(100_000 - kept).toLocaleString('en-US')} of 100,000 items`)
    // Each kept item measured once and written once, and the items measured past them to find the cut.
    expect(measured).toBeLessThan(3 * kept)
  })

  it('orders two lists over the budget by their whole size, whatever their order', () => {
    // Sorted smallest first, the shorter list takes its share and the longer one what it leaves.
    let longerKeptMore = 0
    for (let budget = 12_000; budget < 12_400; budget += 7) {
      const longer = { name: 'aaaa', list: longNames(400, 'x') }
      const shorter = { name: 'bbbb', list: longNames(300, 'x') }
      const kept = (outputs: FittedOutput[], name: string) =>
        (JSON.parse(byName(outputs)[name]) as unknown[]).length - 1
      const first = fitOutputs([longer, shorter], budget, 'report-file')
      const second = fitOutputs([shorter, longer], budget, 'report-file')
      expect(byName(second)).toEqual(byName(first))
      expect(kept(first, 'aaaa')).toBeGreaterThanOrEqual(kept(first, 'bbbb'))
      if (kept(first, 'aaaa') > kept(first, 'bbbb')) longerKeptMore++
      expect(totalSize(first)).toBeLessThanOrEqual(budget)
    }
    expect(longerKeptMore).toBeGreaterThan(0)
  })

  it('cuts text without splitting a surrogate pair, with a note naming the file output', () => {
    const text = '😀'.repeat(300_000)
    const [result] = fitOutputs([{ name: 'result', text }], 50_001, 'results-file')
    expect(result.name.length + result.value.length).toBeLessThanOrEqual(50_001)
    expect(result.value).toMatch(
      /^(😀)+\n…\[cut by kb-sync: the last [\d,]+ of 600,000 characters were removed; the file named by the "results-file" output holds all\]$/,
    )
  })

  it('names the whole output, not the text it was given, when the text was already cut on arrival', () => {
    const text = 'a'.repeat(900 * 1024)
    const [result] = fitOutputs([{ name: 'result', text, wholeBytes: 104_857_600 }], 20_000, 'results-file')
    expect(result.name.length + result.value.length).toBeLessThanOrEqual(20_000)
    expect(result.value).toMatch(
      /^a+\n…\[cut by kb-sync: the first [\d,]+ characters of an output of 104,857,600 bytes are kept; the file named by the "results-file" output holds its first 921,600 bytes\]$/,
    )
  })

  it('cuts JSON inside its strings so it stays JSON', () => {
    const answer = { outputs: { 'out-0': 'é'.repeat(400_000) }, run_id: 'r1' }
    const fitted = fitOutputs(
      [
        { name: 'response', json: answer },
        { name: 'outputs', json: answer.outputs },
      ],
      DEFAULT_OUTPUTS_BUDGET,
      'results-file',
    )
    expect(totalSize(fitted)).toBeLessThanOrEqual(DEFAULT_OUTPUTS_BUDGET)
    const response = JSON.parse(byName(fitted).response) as {
      run_id: string
      outputs: Record<string, string>
    }
    expect(response.run_id).toBe('r1')
    expect(response.outputs['out-0']).toMatch(/cut by kb-sync/)
    expect(fitted.map((o) => o.cut)).toEqual(['long strings shortened', 'long strings shortened'])
  })

  it('keeps every budget in the input range, whatever the outputs', () => {
    const name = fc.string({ maxLength: 300, unit: binaryUnit })
    const spec: fc.Arbitrary<OutputSpec> = fc.oneof(
      fc.record({ name: fc.constantFrom('uploaded', 'skipped'), list: fc.array(name, { maxLength: 3000 }) }),
      fc.record({ name: fc.constant('result'), text: fc.string({ maxLength: 200_000, unit: binaryUnit }) }),
      fc.record({ name: fc.constant('response'), json: fc.dictionary(fc.string(), name) }),
      fc.record({ name: fc.constant('failed-count'), count: fc.nat() }),
    )
    fc.assert(
      fc.property(
        fc.array(spec, { maxLength: 8 }),
        fc.integer({ min: OUTPUTS_BUDGET_MIN, max: OUTPUTS_BUDGET_MAX }),
        (specs, budget) => {
          const fitted = fitOutputs(specs, budget, 'report-file')
          expect(totalSize(fitted)).toBeLessThanOrEqual(budget)
          fitted.forEach((output, i) => {
            const spec = specs[i]
            if (!('list' in spec)) return
            const list = JSON.parse(output.value) as unknown[]
            const cut = output.cut !== undefined
            const shown = cut ? list.slice(0, -1) : list
            expect(shown).toEqual(spec.list.slice(0, shown.length))
            if (cut)
              expect((list.at(-1) as Record<string, number>)[CUT_KEY]).toBe(spec.list.length - shown.length)
            else expect(shown).toHaveLength(spec.list.length)
          })
        },
      ),
      { numRuns: 40 },
    )
  })

  it('gives the report file every output uncut, counts as numbers', () => {
    const names = longNames(3)
    expect(
      fileFields([
        { name: 'uploaded', list: names },
        { name: 'uploaded-count', count: 3 },
        { name: 'result', text: 'x' },
        { name: 'response', json: undefined },
        { name: 'base', exact: '' },
      ]),
    ).toEqual([
      ['uploaded', names],
      ['uploaded-count', 3],
      ['result', 'x'],
      ['response', null],
      ['base', ''],
    ])
  })
})

describe('writeReportFile', () => {
  it('writes every item of long lists as one JSON object, keys masked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kb-report-'))
    try {
      const path = reportFilePath('report', { RUNNER_TEMP: dir })
      expect(path.startsWith(join(dir, 'kb-sync-report-'))).toBe(true)
      const names = longNames(30_000)
      names[7] = 'has-SECRET-inside.md'
      await writeReportFile(
        path,
        [
          ['uploaded', names],
          ['failed', []],
          ['uploaded-count', names.length],
          ['response', { text: 'SECRET' }],
        ],
        (text) => text.replaceAll('SECRET', '***'),
      )
      const parsed = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>
      expect(parsed.uploaded).toEqual(names.map((n) => n.replace('SECRET', '***')))
      expect(parsed.failed).toEqual([])
      expect(parsed['uploaded-count']).toBe(30_000)
      expect(parsed.response).toEqual({ text: '***' })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('names the file it could not write', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kb-report-'))
    try {
      const error = await writeReportFile(dir, [['uploaded', ['a']]]).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ReportFileError)
      expect((error as Error).message).toBe(`The report file ${dir} could not be written (EISDIR).`)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('fitSummary', () => {
  it('leaves a summary that fits as it is', () => {
    expect(fitSummary('## ok\n', 0, 'see x')).toBe('## ok\n')
  })

  it('cuts at a line end within 1,000 KiB, counting what the file already holds, with a note', () => {
    const line = `${'界'.repeat(99)}\n`
    const markdown = line.repeat(5000)
    for (const used of [0, 400_000]) {
      const fitted = fitSummary(markdown, used, 'the report file lists all')
      expect(Buffer.byteLength(fitted) + used).toBeLessThanOrEqual(SUMMARY_LIMIT_BYTES)
      expect(Buffer.byteLength(fitted) + used).toBeGreaterThan(SUMMARY_LIMIT_BYTES - 1000)
      const note =
        "界\n\n_The summary was cut here to stay within GitHub's 1,000 KiB limit for a job summary; the report file lists all._\n"
      expect(fitted.endsWith(note)).toBe(true)
      expect(markdown.startsWith(`${fitted.slice(0, -note.length + 1)}\n`)).toBe(true)
    }
    expect(SUMMARY_LIMIT_BYTES).toBe(1000 * 1024)
  })
})
