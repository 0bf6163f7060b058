// A check's `rubric` graded by a judge flow: what the judge flow is sent (four inputs, the README's
// "Judge flow" section), the shape its answer must have (parsed strictly: anything else is an error
// naming the judge flow, never a pass), and the assertion the grade makes against `judge-min-score`.
import { z } from 'zod'
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

const MAX_REASON_CHARS = 2_000

const gradeSchema = z
  .object({
    verdict: z.enum(['pass', 'fail'], { error: '"verdict" must be "pass" or "fail"' }),
    score: z
      .number({ error: '"score" must be a number from 0 to 1' })
      .min(0, '"score" must be a number from 0 to 1')
      .max(1, '"score" must be a number from 0 to 1'),
    reason: z
      .string({ error: '"reason" must be a string' })
      .refine((text) => text.trim() !== '', '"reason" must be a non-empty string')
      .refine(
        (text) => text.length <= MAX_REASON_CHARS,
        `"reason" must be at most ${MAX_REASON_CHARS} characters`,
      ),
  })
  .strict()

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

// One enclosing code fence is the only thing tolerated around the object: models add it unasked.
const FENCED = /^```[a-zA-Z]*\n([\s\S]*)\n```$/

/** The grade in the judge flow's answer, or why the answer is out of shape. */
export function parseGrade(text: string): { grade: JudgeGrade } | { problem: string } {
  const trimmed = text.trim()
  const body = FENCED.exec(trimmed)?.[1] ?? trimmed
  let value: unknown
  try {
    value = JSON.parse(body)
  } catch {
    const start = trimmed.length > 80 ? `${JSON.stringify(trimmed.slice(0, 80))}…` : JSON.stringify(trimmed)
    return { problem: `its ${JUDGE_OUTPUT} is not a JSON object (it starts ${start})` }
  }
  const parsed = gradeSchema.safeParse(value)
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown field(s) ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}`
        : issue.path.length === 0
          ? 'not a JSON object'
          : issue.message,
    )
    return { problem: `its ${JUDGE_OUTPUT} is out of shape: ${issues.join('; ')}` }
  }
  return { grade: { ...parsed.data, reason: oneLine(parsed.data.reason) } }
}

/** The reason on one line (the table's cell and the log line). */
const oneLine = (text: string) => text.trim().replace(/\s*[\r\n]+\s*/g, ' ')

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
