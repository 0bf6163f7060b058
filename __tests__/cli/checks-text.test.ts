// `kb-sync run --checks` on stdout: each check that did not pass shows what failed and its answer's
// beginning (made safe for a terminal); passed checks show only their row.
import { describe, expect, it } from '@jest/globals'
import { checksText } from '../../src/cli/checks-text.js'
import type { CheckResult } from '../../src/checks/verdict.js'
import { suiteVerdict } from '../../src/checks/verdict.js'

const result = (over: Partial<CheckResult>): CheckResult => ({
  name: 'a',
  verdict: 'passed',
  failed: [],
  answer: '',
  seconds: 1,
  ...over,
})

describe('checksText', () => {
  it("prints a failed check's assertions and an excerpt of its answer, not a passed one's answer", () => {
    const results = [
      result({ name: 'window', answer: 'PASSED-ANSWER within 14 days' }),
      result({
        name: 'refunds',
        verdict: 'failed',
        failed: ['contains "90 days": not in the answer'],
        answer: `Refunds take 14 days.\nAsk support.${'x'.repeat(2000)}`,
      }),
    ]
    const text = checksText(results, suiteVerdict(results, 50))
    expect(text).not.toContain('PASSED-ANSWER')
    expect(text).toContain(
      'Check "refunds" failed:\n  - contains "90 days": not in the answer\n  Answer (excerpt):\n    Refunds take 14 days.\n    Ask support.x',
    )
    // An excerpt: the answer's beginning, marked as cut.
    expect(text).toMatch(/x…\n\n1 of 2 checks passed \(50\.0%\); threshold 50%\.$/)
    expect(text.length).toBeLessThan(1500)
  })

  it('a check whose run failed says there was no answer; escape sequences never reach the terminal', () => {
    const results = [
      result({ name: 'down\x1b[2J', verdict: 'error', failed: ['HTTP 503'], answer: '' }),
      result({ name: 'odd', verdict: 'failed', failed: ['min-length 5'], answer: 'ok\x1b]0;title\x07' }),
    ]
    const text = checksText(results, suiteVerdict(results, 100))
    expect(text).toContain('Check "down\\x1b[2J" error:\n  - HTTP 503\n  No answer.')
    expect(text).toContain('Answer (excerpt):\n    ok')
    expect(text).not.toContain('\x1b')
    expect(text).not.toContain('\x07')
  })
})
