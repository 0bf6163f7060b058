// The emulator's deterministic judge flow: a grade by the rubric's key terms found in the answer, in the
// shape the README's "Judge flow" section defines (so kb-sync's own parser reads it).
import { describe, expect, it } from '@jest/globals'
import { parseGrade } from '../../src/checks/judge-grade.js'
import { judgeRunAnswer } from '../../src/emulator/flow.js'

const grade = (answer: string, rubric: string) => {
  const parsed = parseGrade(
    judgeRunAnswer({ 'in-0': 'q', 'in-1': answer, 'in-2': rubric, 'in-3': '' }, 'id').outputs['out-0'],
  )
  if ('problem' in parsed) throw new Error(parsed.problem)
  return parsed.grade
}

describe('judgeRunAnswer', () => {
  it('scores the share of quoted key terms found as whole words, case ignored', () => {
    expect(grade('Refunds: 14 Days, money back.', 'Says "14 days" and "money back".')).toEqual({
      verdict: 'pass',
      score: 1,
      reason: 'The answer has every key term of the rubric (2).',
    })
    expect(grade('Refunds within 114 days.', 'Says "14 days".')).toMatchObject({ verdict: 'fail', score: 0 })
    expect(grade('14 days', '"14 days" "receipt" "store credit"')).toMatchObject({
      verdict: 'fail',
      score: 0.33,
    })
  })

  it('without quotes every word of three letters or more but stop words is a key term; pass from one half', () => {
    expect(grade('Shipping is free.', 'shipping takes three days')).toMatchObject({
      verdict: 'fail',
      score: 0.25,
    })
    expect(grade('Shipping takes days.', 'shipping takes three days')).toMatchObject({
      verdict: 'pass',
      score: 0.75,
    })
    expect(grade('anything', 'a an the')).toMatchObject({ verdict: 'fail', score: 0 })
  })
})
