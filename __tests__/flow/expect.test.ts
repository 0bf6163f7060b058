// `expect` of a single question: matched by RE2, and a match that would hold the thread for seconds is
// refused before it starts, with why, instead of blocking the step.
import { describe, expect, it } from '@jest/globals'
import { RE2JS } from 're2js'
import { compileExpectation, expectationProblem, findBounded, MAX_MATCH_WORK } from '../../src/flow/expect.js'

const compiled = (source: string) => {
  const result = compileExpectation(source)
  if ('problem' in result) throw new Error(result.problem)
  return result.pattern
}

describe('expectationProblem', () => {
  it('passes a match, quotes a miss', () => {
    expect(expectationProblem('30 days', compiled(String.raw`\d+ days`))).toBeUndefined()
    expect(expectationProblem('never', compiled(String.raw`\d+ days`))).toBe(
      `The flow's answer does not match "expect" (\\d+ days). The answer begins:\nnever`,
    )
  })

  it('refuses a match whose work passes the bound, naming the input and the sizes', () => {
    const pattern = compiled(String.raw`(\w|\s){1000}\d`)
    const answer = 'x'.repeat(Math.ceil(MAX_MATCH_WORK / pattern.programSize()) + 1)
    expect(expectationProblem(answer, pattern)).toMatch(
      /^The flow's answer could not be matched against "expect": the pattern .* \(an RE2 program of 3,003\) against 13,322 characters is more work than one match may take/,
    )
  })

  it('matches up to the bound exactly', () => {
    const pattern = RE2JS.compile('x$')
    const longest = 'x'.repeat(Math.floor(MAX_MATCH_WORK / pattern.programSize()))
    expect(findBounded(pattern, longest)).toBe(true)
    expect(() => findBounded(pattern, `${longest}x`)).toThrow('more work than one match may take')
  })
})
