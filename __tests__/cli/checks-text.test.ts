// `kb-sync run --checks` on stdout: the table the summary and the comment show, then each check that did
// not pass (or had failed runs) with its question, failed assertions and its answer's beginning (made
// safe for a terminal), then the verdict in the same words as the summary and the comment.
import { describe, expect, it } from '@jest/globals'
import { checksText, comparedText } from '../../src/cli/checks-text.js'
import { compareResults } from '../../src/checks/baseline.js'
import { suiteVerdict } from '../../src/checks/verdict.js'
import { checkResult } from '../helpers/check-results.js'

describe('checksText', () => {
  it("prints a failed check's question, assertions and an excerpt of its answer, not a passed one's answer", () => {
    const results = [
      checkResult({ name: 'window', answer: 'PASSED-ANSWER within 14 days' }),
      checkResult({
        name: 'refunds',
        question: 'How long are refunds?',
        verdict: 'failed',
        failed: ['contains "90 days": not in the answer'],
        answer: `Refunds take 14 days.\nAsk support.${'x'.repeat(2000)}`,
      }),
    ]
    const text = checksText(results, suiteVerdict(results, 50))
    expect(text).not.toContain('PASSED-ANSWER')
    expect(text.split('\n').slice(0, 2)).toEqual([
      '| Check | Question | Verdict | Runs | Seconds | First failed assertion |',
      '|---|---|---|---|---|---|',
    ])
    expect(text).toContain(
      'Check "refunds" failed (0 of 1 run passed):\n  Question: How long are refunds?\n  Failed assertions:\n' +
        '  - contains "90 days": not in the answer\n  Answer (excerpt):\n    Refunds take 14 days.\n    Ask support.x',
    )
    // An excerpt: the answer's beginning, marked as cut; then the verdict as the summary words it.
    expect(text).toMatch(
      /x…\n\n⚠️ 1 of 2 checks passed \(50\.0%\); threshold 50% met with failed checks: "refunds"\.\n\n2 runs made; median 1\.0 s, slowest 1\.0 s\.$/,
    )
    expect(text.length).toBeLessThan(1500)
  })

  it('a passed check with failed runs lists which runs failed', () => {
    const results = [checkResult({ name: 'flaky', runs: ['passed', 'failed', 'passed'], minPass: 2 })]
    const text = checksText(results, suiteVerdict(results, 100))
    expect(text).toContain(
      '| flaky | question of flaky | ✅ passed | 2/3 (run 2 failed) | 1.0 | run 2: contains "x": not found |',
    )
    expect(text).toContain('Check "flaky" passed (2 of 3 runs passed):')
    expect(text).toMatch(/✅ 1 of 1 checks passed \(100\.0%\); threshold 100%\.\n\n3 runs made/)
  })

  it('a check whose run failed says there was no answer; escape sequences never reach the terminal', () => {
    const results = [
      checkResult({ name: 'down\x1b[2J', verdict: 'error', failed: ['HTTP 503'] }),
      checkResult({ name: 'odd', verdict: 'failed', failed: ['min-length 5'], answer: 'ok\x1b]0;title\x07' }),
    ]
    const text = checksText(results, suiteVerdict(results, 100))
    expect(text).toContain('Check "down\\x1b[2J" error (0 of 1 run passed):')
    expect(text).toContain('  - HTTP 503\n  No answer.')
    expect(text).toContain('Answer (excerpt):\n    ok')
    expect(text).toContain('❌ 0 of 2 checks passed (0.0%), below the threshold 100%.')
    expect(text).not.toContain('\x1b')
    expect(text).not.toContain('\x07')
  })
})

describe('comparedText', () => {
  it('a changed answer: its word-level diff in wdiff marks before both excerpts; too different: why none', () => {
    const before = [
      checkResult({ name: 'refunds', verdict: 'failed', answer: 'Refunds take 30 days.\nAsk support.' }),
      checkResult({ name: 'shipping', answer: 'Shipping takes 3 business days.' }),
    ]
    const after = [
      checkResult({ name: 'refunds', answer: 'Refunds take 14 days.\nAsk support.' }),
      checkResult({ name: 'shipping', verdict: 'failed', answer: 'We deliver parcels overnight.' }),
    ]
    const text = comparedText(compareResults(before, after), suiteVerdict(after, 100), 'regression')
    expect(text).toContain(
      'Check "refunds": 🟢 fixed\n  Question: question of refunds\n' +
        '  Diff ([-before-]{+after+}, excerpt):\n    Refunds take [-30-]{+14+} days.\n    Ask support.\n' +
        '  Before (excerpt):\n    Refunds take 30 days.',
    )
    expect(text).toContain(
      '  No word-level diff: the answers have less than 40% of their words in common.\n' +
        '  Before (excerpt):\n    Shipping takes 3 business days.\n  After (excerpt):\n    We deliver parcels overnight.',
    )
  })

  it('a long diff: its beginning, the mark it was cut in closed', () => {
    const before = [checkResult({ name: 'long', answer: `${'old '.repeat(300)}${'keep '.repeat(400)}` })]
    const after = [
      checkResult({ name: 'long', verdict: 'failed', answer: `${'new '.repeat(300)}${'keep '.repeat(400)}` }),
    ]
    const text = comparedText(compareResults(before, after), suiteVerdict(after, 100), 'regression')
    const line = text.split('\n').find((l) => l.startsWith('    [-old old'))
    expect(line).toMatch(/^ {4}\[-(old )+o?l?d?…-\]$/)
    // The indent, 1,000 characters, the ellipsis and the two marks.
    expect(line!.length).toBeLessThanOrEqual(4 + 1_000 + 1 + 4)
  })
})
