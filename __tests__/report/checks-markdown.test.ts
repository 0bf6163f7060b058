// The checks as people read them, rendered as GitHub renders them (GFM): the same table (with each
// check's question) and the same verdict wording in the job summary and the pull-request comment: the
// verdict first and bold, rows failed first, questions and answers as quotes that wrap and render nothing.
import { describe, expect, it } from '@jest/globals'
import { suiteVerdict, type CheckResult } from '../../src/checks/verdict.js'
import { renderChecksSummary, verdictLine } from '../../src/report/checks-markdown.js'
import { COMMENT_LIMIT, renderChecksComment, renderNotRunComment } from '../../src/report/comment-body.js'
import { checkResult } from '../helpers/check-results.js'
import { balanced, OUR_TAGS, structureOf, tagsOf } from './gfm.js'

const HEADER = ['Check', 'Question', 'Verdict', 'Runs', 'Seconds', 'First failed assertion']
const footer = { commit: 'a'.repeat(40), runUrl: 'https://github.com/octo-org/docs/actions/runs/42' }

const results: CheckResult[] = [
  checkResult({
    name: 'refunds',
    question: 'How long do refunds take?\nAnswer in one line.',
    answer: 'Within 14 days.',
    seconds: 1.25,
  }),
  checkResult({
    name: 'pipes | and <b>tags</b>',
    question: 'What does the enterprise plan cost?',
    runs: ['passed', 'failed', 'failed'],
    minPass: 2,
    failed: ['contains "$999": not found', 'max-length 5: the answer has 15 characters'],
    answer: '\u001b[31mAsk sales.',
    seconds: 0.5,
  }),
  checkResult({ name: 'broken', runs: ['error'], failed: ['HTTP 500: boom'] }),
]

// Both renderings of the same suite: what a reviewer reads in the summary and in the comment.
const renderings = (checks: CheckResult[], threshold: number) => {
  const verdict = suiteVerdict(checks, threshold)
  return [
    ['summary', renderChecksSummary(checks, verdict)],
    ['comment', renderChecksComment('### Flow checks', checks, verdict, footer)],
  ] as const
}

describe.each(renderings(results, 100))('the %s', (_, markdown) => {
  const s = structureOf(markdown)

  it('one row per check, failed, then errors, then passed: its question on one line, verdict, runs passed of made, seconds, first failed assertion', () => {
    expect(s.headings).toEqual(['Flow checks'])
    expect(s.tables).toHaveLength(1)
    expect(s.tables[0].header).toEqual(HEADER)
    expect(s.tables[0].rows).toEqual([
      [
        'pipes &#124; and &lt;b&gt;tags&lt;/b&gt;',
        'What does the enterprise plan cost?',
        '❌ failed',
        '1/3 (runs 2, 3 failed)',
        '0.5',
        'run 2: contains "$999": not found',
      ],
      ['broken', 'question of broken', '💥 error', '0/1', '1.0', 'HTTP 500: boom'],
      ['refunds', 'How long do refunds take? Answer in one line.', '✅ passed', '1/1', '1.3', ''],
    ])
  })

  it('opens with one bold line, the verdict and the counts (no names: the table has them), then the runs', () => {
    const [first, second] = s.html.split('\n').filter((line) => line.startsWith('<p>'))
    expect(first).toBe(
      '<p><strong>❌ 1 of 3 checks passed (33.3%), below the threshold 100%: 1 failed, 1 error.</strong></p>',
    )
    expect(second).toBe('<p>5 runs made; median 0.5 s, slowest 1.3 s.</p>')
    expect(s.html.indexOf(first)).toBeLessThan(s.html.indexOf('<table>'))
  })

  it("then each check's question, answer and failed assertions, collapsed, in the table's order", () => {
    expect(s.summaries).toEqual([
      'pipes | and &lt;b&gt;tags&lt;/b&gt; — ❌ failed · 1/3 (runs 2, 3 failed)',
      'broken — 💥 error · 0/1',
      'refunds — ✅ passed · 1/1',
    ])
    expect(balanced(s.html, 'details')).toBe(true)
    const first = s.html.split('<details>')[1]
    expect(first).toContain('<blockquote>\n<p>What does the enterprise plan cost?</p>\n</blockquote>')
    expect(first).toContain('<strong>Answer</strong> (run 2)')
    expect(first).toContain('<blockquote>\n<p>Ask sales.</p>\n</blockquote>')
    expect(first).toContain('<strong>Failed assertions</strong>')
    expect(first).toContain('run 3: max-length 5: the answer has 15 characters')
    expect(markdown).not.toContain('\u001b')
    // The question's line break is kept inside its quote.
    expect(s.html).toContain(
      '<blockquote>\n<p>How long do refunds take?<br>Answer in one line.</p>\n</blockquote>',
    )
  })
})

describe('the threshold met with failures', () => {
  const mixed = [
    checkResult({ name: 'a' }),
    checkResult({ name: 'b' }),
    checkResult({ name: 'late', verdict: 'failed' }),
  ]

  it.each(renderings(mixed, 60))('the %s shows ⚠️ counting the failed checks, not ✅', (_, markdown) => {
    expect(structureOf(markdown).html).toContain(
      '<strong>⚠️ 2 of 3 checks passed (66.7%); threshold 60% met, 1 failed.</strong>',
    )
    expect(markdown).not.toContain('✅ 2 of 3')
  })

  it('all passed is ✅, below the threshold ❌', () => {
    expect(verdictLine(suiteVerdict(mixed.slice(0, 2), 100))).toBe(
      '✅ 2 of 2 checks passed (100.0%); threshold 100%.',
    )
    expect(verdictLine(suiteVerdict(mixed, 100))).toMatch(
      /^❌ 2 of 3 checks passed \(66\.7%\), below the threshold 100%\. Failed checks: "late"\.$/,
    )
  })
})

describe('within the size limits', () => {
  it('the summary stays under 1 MiB with many large answers', () => {
    const many = Array.from({ length: 200 }, (_, i) =>
      checkResult({ name: `c${i}`, answer: 'x'.repeat(900 * 1024) }),
    )
    const markdown = renderChecksSummary(many, suiteVerdict(many, 100))
    expect(Buffer.byteLength(markdown)).toBeLessThan(1024 * 1024)
    expect(markdown.match(/<details>/g)).toHaveLength(200)
    expect(structureOf(markdown).html.match(/\[cut by kb-sync/g)).toHaveLength(200)
  })

  it('the comment cuts answers first, staying under 65,536 characters', () => {
    const five = Array.from({ length: 5 }, (_, i) =>
      checkResult({ name: `c${i}`, answer: `é${'x'.repeat(40_000)}😀` }),
    )
    const md = renderChecksComment('### Flow checks', five, suiteVerdict(five, 100), footer)
    expect(md.length).toBeLessThanOrEqual(COMMENT_LIMIT)
    const s = structureOf(md)
    expect(s.tables[0].rows).toHaveLength(5)
    expect(s.summaries).toHaveLength(5)
    expect(balanced(s.html, 'details')).toBe(true)
    expect(s.html.match(/\[cut by kb-sync: the last [\d,]+ of 40,006 bytes were removed\]/g)).toHaveLength(5)
    expect(s.html).toContain('<code>aaaaaaaaaaaa</code>')
    expect(s.html).toContain('href="https://github.com/octo-org/docs/actions/runs/42"')
  })

  it('a block lists 20 failed assertions and counts the rest', () => {
    const failures = Array.from({ length: 5 }, (_, i) => `contains "word ${i}": not found`)
    const flaky = [checkResult({ name: 'flaky', runs: Array(10).fill('failed'), failed: failures })]
    const html = structureOf(renderChecksSummary(flaky, suiteVerdict(flaky, 100))).html
    expect(html.match(/<li>run \d+: contains/g)).toHaveLength(20)
    expect(html).toContain('and 30 more; the results file lists all')
  })

  it('a huge suite keeps the table within the comment limit, saying how many rows are left out', () => {
    const huge = Array.from({ length: 5_000 }, (_, i) =>
      checkResult({
        name: `check number ${i} ${'n'.repeat(60)}`,
        verdict: 'failed',
        failed: ['x'.repeat(200)],
      }),
    )
    const md = renderChecksComment('### Flow checks', huge, suiteVerdict(huge, 100), footer)
    expect(md.length).toBeLessThanOrEqual(COMMENT_LIMIT)
    expect(md).toMatch(/\d+ more checks not shown/)
    // The verdict line counts the failed checks; the table names them.
    expect(md).toContain('**❌ 0 of 5000 checks passed (0.0%), below the threshold 100%: 5000 failed.**')
    expect(md).not.toContain('check number 0"')
  })
})

it('mentions and HTML from names, questions, assertions and answers stay inert', () => {
  const hostile = [
    checkResult({
      name: '@octocat <img src=x>',
      question: '@org/team <script>',
      verdict: 'failed',
      failed: ['@org/team </details><script>'],
      answer: 'ask @octocat ``` <script>alert(1)</script>',
    }),
  ]
  for (const [, md] of renderings(hostile, 100)) {
    const s = structureOf(md)
    expect([...tagsOf(s.html)].filter((t) => !OUR_TAGS.has(t))).toEqual([])
    expect(balanced(s.html, 'details')).toBe(true)
    expect(md).not.toMatch(/@(octocat|org)/)
  }
})

it('a run that could not start replaces the verdict with why', () => {
  const md = renderNotRunComment(
    '### Flow checks',
    'Input "checks" names the file "ci/checks.yml", which does not exist',
    footer,
  )
  const s = structureOf(md)
  expect(s.headings).toEqual(['Flow checks'])
  expect(s.tables).toHaveLength(0)
  expect(s.html).toContain('❌ Could not run: no check was judged, so no verdict.')
  expect(s.html).toContain('names the file &quot;ci/checks.yml&quot;, which does not exist')
})
