// The judge flow's answer parsed strictly (anything out of shape is a problem, never a grade), its inputs,
// and the rubric's assertion against judge-min-score.
import { describe, expect, it } from '@jest/globals'
import { judgeInputs, rubricFailure } from '../../src/checks/judge-flow.js'
import { parseGrade } from '../../src/checks/judge-grade.js'
import { parseChecks } from '../../src/checks/schema.js'

describe('parseGrade', () => {
  it('reads a grade, its reason on one line; one enclosing code fence is tolerated', () => {
    expect(parseGrade('{"verdict": "pass", "score": 0.8, "reason": "Gives\\n the 14 days."}')).toEqual({
      grade: { verdict: 'pass', score: 0.8, reason: 'Gives the 14 days.' },
    })
    expect(parseGrade('```json\n{"verdict": "fail", "score": 0, "reason": "No."}\n```')).toEqual({
      grade: { verdict: 'fail', score: 0, reason: 'No.' },
    })
  })

  it.each([
    [
      'prose',
      'The answer is right.',
      /^its out-0 is not a JSON object \(it starts "The answer is right\."\)$/,
    ],
    ['a list', '[1, 2]', /not a JSON object/],
    [
      'a verdict of another word',
      '{"verdict": "yes", "score": 1, "reason": "r"}',
      /"verdict" must be "pass" or "fail"/,
    ],
    [
      'a score above 1',
      '{"verdict": "pass", "score": 1.5, "reason": "r"}',
      /"score" must be a number from 0 to 1/,
    ],
    [
      'a score as text',
      '{"verdict": "pass", "score": "0.9", "reason": "r"}',
      /"score" must be a number from 0 to 1/,
    ],
    ['no reason', '{"verdict": "pass", "score": 0.9}', /"reason" must be a string/],
    [
      'an empty reason',
      '{"verdict": "pass", "score": 0.9, "reason": " "}',
      /"reason" must be a non-empty string/,
    ],
    [
      'an extra field',
      '{"verdict": "pass", "score": 0.9, "reason": "r", "grade": "A"}',
      /unknown field\(s\) "grade"/,
    ],
    ['text around the object', 'Here: {"verdict": "pass", "score": 0.9, "reason": "r"}', /not a JSON object/],
  ])('%s is out of shape', (_, text, problem) => {
    const parsed = parseGrade(text)
    expect('problem' in parsed && parsed.problem).toMatch(problem)
  })
})

describe('rubricFailure', () => {
  const grade = (verdict: 'pass' | 'fail', score: number) => ({ verdict, score, reason: 'why' })
  it('passes a pass at or above the least score; fails a fail whatever its score, and a pass below it', () => {
    expect(rubricFailure(grade('pass', 0.7), 0.7, '"judge-min-score"')).toBeUndefined()
    expect(rubricFailure(grade('fail', 0.9), 0.5, '"judge-min-score"')).toBe(
      'rubric: the judge says fail (score 0.90): why',
    )
    expect(rubricFailure(grade('pass', 0.69), 0.7, '--judge-min-score')).toBe(
      'rubric: score 0.69 is below --judge-min-score 0.7 (the judge says pass): why',
    )
  })
})

describe('judgeInputs', () => {
  it('in-0 to in-3: question, answer, rubric, reference (similar, else equals, else empty)', () => {
    const [similar, equals, none] = parseChecks(
      [
        '- {name: a, inputs: {in-0: q}, rubric: r, similar: {reference: s, min-similarity: 0.5}, equals: e}',
        '- {name: b, inputs: {in-0: q}, rubric: r, equals: e}',
        '- {name: c, inputs: {in-0: q}, rubric: r}',
      ].join('\n'),
    )
    expect(judgeInputs(similar, 'Q', 'A')).toEqual({ 'in-0': 'Q', 'in-1': 'A', 'in-2': 'r', 'in-3': 's' })
    expect(judgeInputs(equals, 'Q', 'A')['in-3']).toBe('e')
    expect(judgeInputs(none, 'Q', 'A')['in-3']).toBe('')
  })

  it('a rubric must be a non-empty text; advisory true or false', () => {
    expect(() => parseChecks('- {name: a, inputs: {in-0: q}, rubric: " "}')).toThrow(
      /check "a" \(#1\), field "rubric": must be a non-empty text/,
    )
    expect(() => parseChecks('- {name: a, inputs: {in-0: q}, advisory: yes please}')).toThrow(
      /check "a" \(#1\), field "advisory": must be true or false/,
    )
  })
})
