import { describe, expect, it } from '@jest/globals'
import type { ItemOutcome } from '../src/model.js'
import { heldProgress, indexOutputs, indexOutputSpecs } from '../src/report/index-outputs.js'
import { renderIndexSummary, SUMMARY_LIMIT } from '../src/report/index-summary.js'
import { marked } from 'marked'
import type { IndexReport } from '../src/report/types.js'
import { fitOutputs } from '../src/report/output-budget.js'
import { DEFAULT_OUTPUTS_BUDGET } from '../src/config/outputs-budget.js'

/** The outputs as the action writes them (within the default budget), by name. */
const outputsOf = (r: IndexReport): Record<string, string> =>
  Object.fromEntries(
    fitOutputs(indexOutputSpecs(r), DEFAULT_OUTPUTS_BUDGET, 'report-file').map((o) => [o.name, o.value]),
  )

function report(overrides: Partial<IndexReport> = {}): IndexReport {
  return {
    dryRun: false,
    changeSource: 'full sync: event workflow_dispatch',
    planned: [],
    items: [],
    skipped: [],
    left: [],
    requests: 0,
    durationMs: 0,
    notices: [],
    ...overrides,
  }
}

const item = (
  name: string,
  outcome: ItemOutcome['outcome'],
  kind: ItemOutcome['kind'] = 'document',
): ItemOutcome => ({
  kind,
  name,
  outcome,
  operation: outcome === 'uploaded' ? 'upload' : 'update',
  attempts: 1,
  size: 5,
})

describe('outputs', () => {
  it('puts every item in exactly the array of its outcome', () => {
    const r = report({
      items: [
        item('a.md', 'uploaded'),
        item('b.md', 'updated'),
        item('c.md', 'failed'),
        item('https://x.test/', 'updated', 'url'),
        item('gone.md', 'removed'),
      ],
      skipped: [{ kind: 'document', name: '.env', reason: 'secret', detail: 'secret file' }],
      left: [{ name: 'scan.pdf', reason: 'format' }],
    })
    const written = outputsOf(r)
    expect(JSON.parse(written.uploaded)).toEqual(['a.md'])
    expect(JSON.parse(written.updated)).toEqual(['b.md', 'https://x.test/'])
    expect(JSON.parse(written.failed)).toEqual(['c.md'])
    expect(JSON.parse(written.skipped)).toEqual(['.env'])
    expect(JSON.parse(written.removed)).toEqual(['gone.md'])
    expect(JSON.parse(written.left)).toEqual(['scan.pdf'])
    expect(written.result).toBeUndefined()
    expect(written).toMatchObject({
      'uploaded-count': '1',
      'updated-count': '2',
      'failed-count': '1',
      'skipped-count': '1',
      'removed-count': '1',
      'left-count': '1',
      base: '',
      'base-source': 'none',
    })
  })

  it('adds result and response when the flow ran', () => {
    const written = outputsOf(
      report({ flow: { question: 'q', result: 'answer', response: { outputs: { 'out-0': 'answer' } } } }),
    )
    expect(written.result).toBe('answer')
    expect(JSON.parse(written.response)).toEqual({ outputs: { 'out-0': 'answer' } })
  })
})

describe('summary', () => {
  it('lists every document under its outcome, escaping names', () => {
    const md = renderIndexSummary(
      report({ items: [item('a|b<script>.md', 'uploaded'), item('line\nbreak.md', 'failed')] }),
    )
    expect(md).toContain('- a&#124;b&lt;script&gt;.md')
    expect(md).toContain('line\\\\x0abreak.md')
    expect(md).toContain('failed 1')
  })

  it('stays under 1 MiB with a truncated note when there are too many rows', () => {
    const items = Array.from({ length: 40_000 }, (_, i) => item(`docs/${'x'.repeat(20)}/${i}.md`, 'uploaded'))
    const md = renderIndexSummary(report({ items }))
    expect(Buffer.byteLength(md)).toBeLessThan(SUMMARY_LIMIT)
    expect(md).toMatch(/\d+ more not shown/)
    expect(indexOutputs(report({ items })).uploaded).toHaveLength(40_000)
  })

  it('quotes the flow answer (it wraps) so that nothing in it renders: no fence, HTML or heading', () => {
    const answer = 'evil ``` <img src=x>\n````\n# heading'
    const md = renderIndexSummary(report({ flow: { question: 'why?', result: answer, response: {} } }))
    const html = marked.parse(md, { gfm: true, async: false })
    expect(html).toContain(
      '<blockquote>\n<p>evil ``` &lt;img src=x&gt;<br>````<br># heading</p>\n</blockquote>',
    )
    expect(html).not.toMatch(/<pre|<code|<img|<h1/)
  })

  it('truncates a 2 MiB answer', () => {
    const md = renderIndexSummary(
      report({ flow: { question: 'q', result: 'a'.repeat(2 * 1024 * 1024), response: {} } }),
    )
    expect(Buffer.byteLength(md)).toBeLessThan(SUMMARY_LIMIT)
    expect(md).toContain('Cut to 64 KiB of 2048 KiB')
  })
})

describe('heldProgress', () => {
  it('tells nothing until shown, then the latest at once and every later update', () => {
    const told: number[] = []
    const progress = heldProgress(({ done }) => told.push(done))
    progress.update({ done: 1, total: 9, bytes: 10 })
    progress.update({ done: 2, total: 9, bytes: 20 })
    expect(told).toEqual([])
    progress.show()
    expect(told).toEqual([2])
    progress.update({ done: 3, total: 8, bytes: 30 })
    expect(told).toEqual([2, 3])
  })

  it('tells nothing when shown before any progress', () => {
    const told: number[] = []
    const progress = heldProgress(({ done }) => told.push(done))
    progress.show()
    expect(told).toEqual([])
  })
})
