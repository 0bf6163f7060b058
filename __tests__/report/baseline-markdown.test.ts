// The before/after report within GitHub's limits: huge answers and many checks still leave a comment
// under 65,536 characters that leads with the change and keeps the table before the answers.
import { describe, expect, it } from '@jest/globals'
import { compareResults } from '../../src/checks/baseline.js'
import { suiteVerdict, type CheckVerdict } from '../../src/checks/verdict.js'
import { renderComparedSummary } from '../../src/report/baseline-markdown.js'
import { SUMMARY_LIMIT } from '../../src/report/checks-markdown.js'
import { renderComparedComment } from '../../src/report/compared-comment.js'
import { COMMENT_LIMIT } from '../../src/report/comment-body.js'
import { sizeOf } from '../../src/report/markdown.js'
import { checkResult } from '../helpers/check-results.js'
import { balanced, OUR_TAGS, structureOf, tagsOf } from './gfm.js'

function sides(count: number, answerChars: number) {
  const before = Array.from({ length: count }, (_, i) =>
    checkResult({
      name: `c${i}`,
      verdict: i % 2 === 0 ? 'failed' : 'passed',
      answer: 'b'.repeat(answerChars),
    }),
  )
  const after = Array.from({ length: count }, (_, i) =>
    checkResult({ name: `c${i}`, verdict: 'passed', answer: 'a'.repeat(answerChars) }),
  )
  return { compared: compareResults(before, after), verdict: suiteVerdict(after, 100) }
}

describe('renderComparedComment', () => {
  it('shows both answers of each check whole when they fit', () => {
    const { compared, verdict } = sides(2, 50)
    const body = renderComparedComment(
      '### Flow checks: before and after',
      compared,
      verdict,
      'regression',
      {},
    )
    const s = structureOf(body)
    expect(s.html).toContain('<strong>🟢 This pull request fixes 1 check and breaks none.</strong>')
    expect(s.tables[0].rows.map((row) => [row[0], row[2], row[5]])).toEqual([
      ['c0', '🟢 fixed', '0.00'],
      ['c1', '✅ still passing', '0.00'],
    ])
    expect(s.html).toContain('b'.repeat(50))
    expect(s.html).toContain('a'.repeat(50))
  })

  it('answers of a megabyte: cut to fit, each side keeping its beginning', () => {
    const { compared, verdict } = sides(3, 1_000_000)
    const body = renderComparedComment(
      '### Flow checks: before and after',
      compared,
      verdict,
      'regression',
      {},
    )
    expect(sizeOf(body)).toBeLessThanOrEqual(COMMENT_LIMIT)
    const s = structureOf(body)
    expect(body).toContain('This pull request fixes 2 checks and breaks none.')
    expect(s.summaries).toHaveLength(3)
    expect(s.html).toMatch(/b{5000}/)
    expect(s.html).toMatch(/a{5000}/)
  })

  it('400 checks: the table first, what does not fit counted in a note', () => {
    const { compared, verdict } = sides(400, 2_000)
    const body = renderComparedComment(
      '### Flow checks: before and after',
      compared,
      verdict,
      'regression',
      {},
    )
    expect(sizeOf(body)).toBeLessThanOrEqual(COMMENT_LIMIT)
    expect(body).toContain('This pull request fixes 200 checks and breaks none.')
    const s = structureOf(body)
    expect(s.tables[0].rows[0][0]).toBe('c0')
    expect(body).toMatch(/_\d+ more checks not shown \(to stay within GitHub's size limit\); the job summary/)
    const hidden = Number(/_(\d+) more answers not shown/.exec(body)?.[1])
    expect(s.summaries.length + hidden).toBe(400)
  })
})

describe('the reading order', () => {
  it('rows and blocks: regressed, still failing, errors, fixed, then still passing; 💥 marks an error', () => {
    const sides: [string, CheckVerdict, CheckVerdict][] = [
      ['passing', 'passed', 'passed'],
      ['fixed', 'failed', 'passed'],
      ['errored', 'passed', 'error'],
      ['failing', 'failed', 'failed'],
      ['regressed', 'passed', 'failed'],
    ]
    const before = sides.map(([name, verdict]) => checkResult({ name, verdict }))
    const after = sides.map(([name, , verdict]) => checkResult({ name, verdict }))
    const compared = compareResults(before, after)
    for (const markdown of [
      renderComparedComment('### Flow checks', compared, suiteVerdict(after, 100), 'threshold', {}),
      renderComparedSummary(compared, suiteVerdict(after, 100), 'threshold'),
    ]) {
      const s = structureOf(markdown)
      expect(s.tables[0].rows.map((row) => [row[0], row[2]])).toEqual([
        ['regressed', '🔴 regressed'],
        ['failing', '❌ still failing'],
        ['errored', '💥 error'],
        ['fixed', '🟢 fixed'],
        ['passing', '✅ still passing'],
      ])
      expect(s.summaries.map((summary) => summary.split(' — ')[0])).toEqual([
        'regressed',
        'failing',
        'errored',
        'fixed',
        'passing',
      ])
      // The after side's verdict counts the failed checks and the errors; the table names them.
      expect(markdown).toContain(
        'After: ❌ 2 of 5 checks passed (40.0%), below the threshold 100%: 2 failed, 1 error.',
      )
    }
  })
})

/** The rendered word-level diffs, in order: what lies between `<p>` and `</p>` after each diff heading. */
function diffsOf(html: string): string[] {
  return [...html.matchAll(/<strong>Word-level diff<\/strong>[^\n]*\n<p>\n([\s\S]*?)\n<\/p>/g)].map(
    (m) => m[1],
  )
}

/** The marked words of a rendered diff: `[['del', '30'], ['ins', '14']]` (added words are bold as well). */
const marked = (diff: string) =>
  [...diff.matchAll(/<del>([\s\S]*?)<\/del>|<ins><b>([\s\S]*?)<\/b><\/ins>/g)].map((m) =>
    m[1] === undefined ? ['ins', m[2]] : ['del', m[1]],
  )

/** The diff as a reader sees it, its tags gone. */
const seen = (diff: string) => diff.replace(/<[^>]+>/g, '')

function comparedOf(pairs: { before: string; after: string }[]) {
  const before = pairs.map((pair, i) =>
    checkResult({ name: `c${i}`, verdict: 'failed', answer: pair.before }),
  )
  const after = pairs.map((pair, i) => checkResult({ name: `c${i}`, answer: pair.after }))
  return { compared: compareResults(before, after), verdict: suiteVerdict(after, 100) }
}

function commentOf(pairs: { before: string; after: string }[]) {
  const { compared, verdict } = comparedOf(pairs)
  return renderComparedComment('### Flow checks: before and after', compared, verdict, 'regression', {})
}

describe('word-level diff of the two answers', () => {
  it('marks exactly the words that changed, before the two answers', () => {
    const body = commentOf([
      {
        before: 'Refunds are granted within 30 days of a payment.\nAsk support.',
        after: 'Refunds are granted within 14 days of a payment.\nAsk support.',
      },
    ])
    const s = structureOf(body)
    const [diff] = diffsOf(s.html)
    expect(marked(diff)).toEqual([
      ['del', '30'],
      ['ins', '14'],
    ])
    // The answers' line break is kept; the full answers follow the diff.
    expect(diff).toBe(
      'Refunds are granted within <del>30</del> → <ins><b>14</b></ins> days of a payment.<br>\nAsk support.',
    )
    // The removed and the added words never run together ("3014").
    expect(seen(diff)).toContain('within 30 → 14 days')
    expect(s.html.indexOf('Word-level diff')).toBeLessThan(s.html.indexOf('<strong>Before</strong>'))
    expect(s.html).toContain('Refunds are granted within 30 days of a payment.<br>Ask support.')
    expect(s.html).toContain('Refunds are granted within 14 days of a payment.<br>Ask support.')
  })

  it('escapes markup in the answers: no tag, entity or blank line of theirs reaches the HTML', () => {
    const hostile = (n: string) =>
      `Hi @octocat <script>alert(${n})</script> &amp; <ins>fake</ins> </p></details>\n\n` +
      `    indented ${n}\n\n* a list item\n</pre>`
    const body = commentOf([{ before: hostile('1'), after: hostile('2') }])
    const s = structureOf(body)
    expect(s.summaries).toEqual(['c0 — 🟢 fixed'])
    expect(balanced(s.html, 'details')).toBe(true)
    const [diff] = diffsOf(s.html)
    expect(marked(diff)).toEqual([
      ['del', '1'],
      ['ins', '2'],
      ['del', '1'],
      ['ins', '2'],
    ])
    expect(diff).toBe(
      'Hi @\u200boctocat &lt;script&gt;alert(<del>1</del> → <ins><b>2</b></ins>)&lt;/script&gt; &amp;amp; ' +
        '&lt;ins&gt;fake&lt;/ins&gt; &lt;/p&gt;&lt;/details&gt;<br>\n<br>\n' +
        '    indented <del>1</del> → <ins><b>2</b></ins><br>\n<br>\n* a list item<br>\n&lt;/pre&gt;',
    )
    const tags = [...tagsOf(s.html)]
    expect(tags.filter((tag) => !OUR_TAGS.has(tag) && !['del', 'ins', 'b'].includes(tag))).toEqual([])
    expect(s.html).not.toContain('<script')
    for (const tag of ['del', 'ins', 'p', 'pre', 'ul']) expect(balanced(s.html, tag)).toBe(true)
    expect(s.html).not.toContain('<li>a list item')
  })

  it('a long changed answer: the comment stays within the limit and the diff is cut between tags and entities', () => {
    // Every word is escaped and changed words alternate with kept ones; a first word of 1 to 16 letters
    // moves each check's cut by a byte, so the cuts fall at every place in a tag and in an entity.
    const before = Array.from({ length: 3000 }, (_, i) => `<a&${i % 7 === 0 ? 'x' : i}>`).join(' ')
    const after = Array.from({ length: 3000 }, (_, i) => `<a&${i % 7 === 0 ? 'y' : i}>`).join(' ')
    const first = (i: number) => `${'z'.repeat(i + 1)} `
    const pairs = Array.from({ length: 16 }, (_, i) => ({
      before: first(i) + before,
      after: first(i) + after,
    }))
    // One comparison (16 Levenshtein ratios of 10,000 characters) for both the comment and the summary.
    const { compared, verdict } = comparedOf(pairs)
    const body = renderComparedComment(
      '### Flow checks: before and after',
      compared,
      verdict,
      'regression',
      {},
    )
    expect(sizeOf(body)).toBeLessThanOrEqual(COMMENT_LIMIT)
    expect(body).toContain("_The diff is cut here to stay within GitHub's size limit; the answers follow._")
    const s = structureOf(body)
    expect(s.summaries).toHaveLength(16)
    expect(balanced(s.html, 'details')).toBe(true)
    const diffs = diffsOf(s.html)
    expect(diffs).toHaveLength(16)
    for (const diff of diffs) {
      expect(diff.endsWith('…')).toBe(true)
      expect(marked(diff).length).toBeGreaterThan(2)
      // Only whole tags of ours; every & starts an entity.
      const text = diff.replace(/<\/?(del|ins|b)>|<br>/g, '')
      expect(text).not.toMatch(/[<>]/)
      expect(text).not.toMatch(/&(?!amp;|lt;|gt;)/)
      expect(balanced(diff, 'del') && balanced(diff, 'ins')).toBe(true)
      expect(diff).not.toMatch(/<(del|ins)>[^<]*<(del|ins)>/)
    }
    // The job summary has room for every diff whole (of the answers' beginnings).
    const summary = renderComparedSummary(compared, verdict, 'regression')
    expect(sizeOf(summary)).toBeLessThanOrEqual(SUMMARY_LIMIT)
    expect(summary).not.toContain('The diff is cut here')
    const whole = diffsOf(structureOf(summary).html)
    expect(whole).toHaveLength(16)
    for (const diff of whole) expect(diff.endsWith('…')).toBe(false)
    expect(summary).toContain('_The diff compares the first 3,000 characters of each answer._')
  })

  it('answers with too few words in common: no diff, one line saying why, both answers', () => {
    const body = commentOf([
      { before: 'Shipping takes 3 business days.', after: 'We deliver parcels overnight, free of charge.' },
    ])
    const s = structureOf(body)
    expect(diffsOf(s.html)).toEqual([])
    expect(s.html).toContain(
      '<em>No word-level diff: the two answers have less than 40% of their words in common, so they are shown one after the other.</em>',
    )
    expect(s.html).not.toMatch(/<(del|ins)>/)
    expect(s.html).toContain('Shipping takes 3 business days.')
    expect(s.html).toContain('We deliver parcels overnight, free of charge.')
  })

  it('answers that differ only in white space: one line saying so, no diff', () => {
    const s = structureOf(
      commentOf([{ before: 'Support is open\nfrom 9 to 5.', after: 'Support is open from 9 to 5.' }]),
    )
    expect(diffsOf(s.html)).toEqual([])
    expect(s.html).toContain('<em>The two answers have the same words; only white space differs.</em>')
  })

  it('an answer that did not change: one line and the answer once, no diff', () => {
    const body = commentOf([
      { before: 'Support is open from 9 to 5.', after: 'Support is open from 9 to 5.\n' },
    ])
    const s = structureOf(body)
    expect(s.html).toContain('<em>The answer did not change.</em>')
    expect(s.html).not.toContain('Word-level diff')
    expect(s.html.split('Support is open from 9 to 5.')).toHaveLength(2)
  })
})
