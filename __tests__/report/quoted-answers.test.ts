// Questions and answers as people read them on GitHub: quotes that wrap (a fenced block does not, and a
// long answer scrolled sideways), rendered as GitHub renders them (GFM), in every place they are shown:
// the checks summary and comment, the before/after summary and comment, the single question's summary.
// Whatever markdown an answer holds renders as its own text: no link, image, mention, heading, HTML,
// table, list or code.
import { describe, expect, it } from '@jest/globals'
import { compareResults } from '../../src/checks/baseline.js'
import { suiteVerdict } from '../../src/checks/verdict.js'
import { renderComparedSummary } from '../../src/report/baseline-markdown.js'
import { renderChecksSummary } from '../../src/report/checks-markdown.js'
import { renderChecksComment } from '../../src/report/comment-body.js'
import { renderComparedComment } from '../../src/report/compared-comment.js'
import { flowSection } from '../../src/report/flow-section.js'
import { neutraliseReferences, quoted } from '../../src/report/markdown.js'
import { checkResult } from '../helpers/check-results.js'
import { structureOf, tagsOf } from './gfm.js'

const HOSTILE = [
  'See [the docs](https://evil.example/x), ![pixel](https://evil.example/p.png) and <https://evil.example/z>.',
  'Ping @octocat and @org/team about #12, https://evil.example/y, www.evil.example and a@evil.example.',
  'Fixed by a5c3785ed8d6a35868bc169f07e40e889087fd2e (jlord@a5c3785, jlord/sheetsee.js@DEADBEEF) in jlord/sheetsee.js#26, GH-26 and gh-27.',
  '# Not a heading',
  '',
  '    not code',
  '```js',
  'not a fence',
  '```',
  '~~~',
  '| a | b |',
  '|---|---|',
  '| 1 | 2 |',
  '<img src=x onerror=alert(1)> <script>alert(1)</script> &lt;b&gt; </details> <!-- hidden -->',
  '- not a list',
  '1. not a list',
  '> not a nested quote',
  '**not bold** _not em_ ~~not struck~~ `not code` $x^2$ [^1] \\',
  'Not a setext heading',
  '===',
  '[ref]: https://evil.example/ref',
].join('\n')

// 700 characters on one line: a fenced block showed a reviewer its first ~110.
const LONG =
  `Refunds are granted within 14 days of a payment. ${'Ask support for an exception. '.repeat(22)}`.trim()

const QUESTION = 'What is #7 about? Ask @octocat: [x](https://evil.example/q)'

/** Every rendering of one check whose answer is `answer`, as markdown. */
function renderings(answer: string): [string, string][] {
  const after = [checkResult({ name: 'c', question: QUESTION, answer })]
  const before = [
    checkResult({ name: 'c', question: QUESTION, verdict: 'failed', answer: 'An older answer.' }),
  ]
  const verdict = suiteVerdict(after, 100)
  const compared = compareResults(before, after)
  return [
    ['checks summary', renderChecksSummary(after, verdict)],
    ['checks comment', renderChecksComment('### Flow checks', after, verdict, {})],
    ['before/after summary', renderComparedSummary(compared, verdict, 'regression')],
    ['before/after comment', renderComparedComment('### Flow checks', compared, verdict, 'regression', {})],
    ['single question summary', flowSection({ question: QUESTION, result: answer, response: {} }, verdict)],
  ]
}

/** The rendered quotes (what lies inside each `<blockquote>`). */
const quotesOf = (html: string) =>
  [...html.matchAll(/<blockquote>\n([\s\S]*?)<\/blockquote>/g)].map((match) => match[1])

describe.each(renderings(LONG))('the %s', (_, markdown) => {
  const html = structureOf(markdown).html

  it('shows the question and a long answer as quotes, which wrap: no code block around prose', () => {
    const quotes = quotesOf(html)
    expect(quotes).toContainEqual(`<p>${LONG}</p>\n`)
    expect(quotes.some((quote) => quote.includes('What is #\u200b7 about?'))).toBe(true)
    expect(html).not.toMatch(/<pre|<code/)
  })
})

describe.each(renderings(HOSTILE))('the %s of a hostile answer', (_, markdown) => {
  const html = structureOf(markdown).html
  const quotes = quotesOf(html)
  const answer = quotes.find((quote) => quote.includes('Not a heading'))!

  it('renders the answer as its own text: paragraphs and line breaks only', () => {
    expect(answer).toBeDefined()
    expect([...tagsOf(answer)].sort()).toEqual(['br', 'p'])
    for (const text of [
      '[the docs](https:\u200b//evil.example/x), ![pixel](https:\u200b//evil.example/p.png) and &lt;https:\u200b//evil.example/z&gt;.',
      '# Not a heading',
      '\u00a0\u00a0\u00a0\u00a0not code',
      '```js',
      '| a | b |<br>|---|---|',
      '&lt;img src=x onerror=alert(1)&gt; &lt;script&gt;alert(1)&lt;/script&gt; &amp;lt;b&amp;gt; &lt;/details&gt; &lt;!-- hidden --&gt;',
      '- not a list<br>1. not a list<br>&gt; not a nested quote',
      '**not bold** _not em_ ~~not struck~~ `not code` $x^2$ [^1] \\',
      'Not a setext heading<br>===',
      // Commit ids in pieces of at most 6 characters; a number after GH- or owner/repo# stands apart.
      'Fixed by a5c378\u200b5ed8d6\u200ba35868\u200bbc169f\u200b07e40e\u200b889087\u200bfd2e (jlord@\u200ba5c378\u200b5, ' +
        'jlord/sheetsee.js@\u200bDEADBE\u200bEF) in jlord/sheetsee.js#\u200b26, GH-\u200b26 and gh-\u200b27.',
    ])
      expect(answer).toContain(text)
  })

  it('nothing in the question or the answer links, mentions or references an issue', () => {
    const shown = quotes.join('\n')
    expect(shown).not.toMatch(/<a |<img|<h\d|<table|<pre|<code|<ul|<ol|<em|<del|<script|<details/)
    // GitHub links these in the rendered text, where no escape is left: a zero-width space breaks each.
    expect(shown).not.toMatch(/@(octocat|org|evil)/)
    expect(shown).not.toMatch(/#\d|GH-\d/i)
    expect(shown).not.toMatch(/(?<![0-9a-z])[0-9a-f]{7,40}(?![0-9a-z])/i)
    expect(shown).not.toMatch(/https?:\/\/|www\./)
  })
})

describe('quoted', () => {
  it('keeps line breaks and parts paragraphs at blank lines, without a trailing break', () => {
    expect(quoted('one\ntwo\n\n\nthree  \n')).toBe('> one\\\n> two\n>\n> three')
    expect(structureOf(quoted('one\ntwo\n\nthree')).html).toBe(
      '<blockquote>\n<p>one<br>two</p>\n<p>three</p>\n</blockquote>\n',
    )
  })

  it('removes escape sequences and control characters', () => {
    expect(quoted('\u001b[31mred\u0007')).toBe('> red')
  })
})

describe('what a flow wrote outside the quotes (a failure quoting the answer, the judge reason)', () => {
  const failure =
    'does not match: fixed in a5c3785ed8d6 (GH-26, jlord/sheetsee.js#26, https://evil.example/f)'
  const reason = 'cites deadbeef1 and @octocat'
  const graded = (check: ReturnType<typeof checkResult>) => ({
    ...check,
    judge: { verdict: 'fail' as const, score: 0.2, reason },
    runs: check.runs.map((run) => ({ ...run, judgeSent: true })),
  })
  const after = [graded(checkResult({ name: 'c', verdict: 'failed', failed: [failure] }))]
  const before = [graded(checkResult({ name: 'c' }))]
  const verdict = suiteVerdict(after, 100)
  const compared = compareResults(before, after)

  it.each([
    ['checks summary', renderChecksSummary(after, verdict), 'cites deadbe\u200bef1 and @\u200boctocat'],
    [
      'checks comment',
      renderChecksComment('### Flow checks', after, verdict, {}),
      'cites deadbe\u200bef1 and @\u200boctocat',
    ],
    [
      'before/after summary',
      renderComparedSummary(compared, verdict, 'regression'),
      'cites deadbe\u200bef1 and @\u200boctocat',
    ],
    [
      'before/after comment',
      renderComparedComment('### Flow checks', compared, verdict, 'regression', {}),
      'cites deadbe\u200bef1 and @\u200boctocat',
    ],
    [
      'single question summary',
      flowSection({ question: 'q', result: 'a', response: {} }, verdict, [failure]),
      'does not match', // no judge here
    ],
  ])('links nothing in the %s', (_, markdown, judged) => {
    const { html } = structureOf(markdown)
    expect(html).toContain(judged)
    expect(html).toContain(
      'fixed in a5c378\u200b5ed8d6 (GH-\u200b26, jlord/sheetsee.js#\u200b26, https:\u200b//evil.example/f)',
    )
    expect(html).not.toMatch(/<a /)
    expect(html).not.toMatch(/a5c3785|GH-26|js#26|https:\/\/|deadbeef1|@octocat/)
  })
})

describe('what may be a commit id, and what is left whole', () => {
  it('breaks hex runs that mix digits and letters, and any run after @; leaves numbers and words whole', () => {
    expect(neutraliseReferences('fixed in a5c3785 and 0123456789abcdef')).toBe(
      'fixed in a5c378\u200b5 and 012345\u200b6789ab\u200bcdef',
    )
    expect(neutraliseReferences('jlord/sheetsee.js@DEADBEEF')).toBe('jlord/sheetsee.js@\u200bDEADBE\u200bEF')
    // A phone number, an order id and words made of hex letters are copied from the comment as they are.
    const plain = 'Call 5551234567 about order 20261128 (the defaced page, accede, 1234567).'
    expect(neutraliseReferences(plain)).toBe(plain)
  })
})
