// A check's `rubric` graded by a judge flow: what the judge flow is sent (four inputs, the README's
// "Judge flow" section), the shape its answer must have (parsed strictly: anything else is an error
// naming the judge flow, never a pass: judge-grade.ts), and the assertion the grade makes against
// `judge-min-score`.
import type { FlowTarget } from '../model.js'
import type { Check } from './schema.js'

/** The judge flow's input names: the README's table. */
export const JUDGE_INPUTS = {
  question: 'in-0',
  answer: 'in-1',
  rubric: 'in-2',
  reference: 'in-3',
} as const

/** The judge flow's output read (`out-0`), holding the grade as JSON text. */
export const JUDGE_OUTPUT = 'out-0'

export interface JudgeSettings {
  target: FlowTarget
  /** `judge-min-score`: the least score a passing grade needs, 0–1. */
  minScore: number
}

/** The judge flow's grade of one answer. */
export interface JudgeGrade {
  verdict: 'pass' | 'fail'
  /** 0–1. */
  score: number
  /** The judge's reason, one line. */
  reason: string
  runId?: string
}

/** The reference the judge is given: the check's `similar` reference, else its `equals`, else none. */
export function referenceOf(check: Check): string {
  return check.similar?.reference ?? check.equals ?? ''
}

/** The judge flow's inputs for one answer of a check with a rubric. */
export function judgeInputs(check: Check, question: string, answer: string): Record<string, string> {
  return {
    [JUDGE_INPUTS.question]: question,
    [JUDGE_INPUTS.answer]: answer,
    [JUDGE_INPUTS.rubric]: check.rubric ?? '',
    [JUDGE_INPUTS.reference]: referenceOf(check),
  }
}

/** What the answer a judge flow must give looks like, for messages. */
export const GRADE_SHAPE = '{"verdict": "pass" | "fail", "score": 0 to 1, "reason": "one line"}'

/** The judge flow named in messages. */
export const judgeFlowName = (target: FlowTarget) => `judge flow ${target.flowId}`

/** `0.75` */
export const scoreText = (score: number) => score.toFixed(2)

/**
 * The rubric's assertion: passed when the judge says pass with a score of at least `minScore`; else one
 * sentence starting with the assertion, the score and the judge's reason.
 */
export function rubricFailure(grade: JudgeGrade, minScore: number, minScoreName: string): string | undefined {
  if (grade.verdict === 'fail')
    return `rubric: the judge says fail (score ${scoreText(grade.score)}): ${grade.reason}`
  if (grade.score < minScore)
    return (
      `rubric: score ${scoreText(grade.score)} is below ${minScoreName} ${String(minScore)} ` +
      `(the judge says pass): ${grade.reason}`
    )
  return undefined
}
