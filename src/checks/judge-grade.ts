// The grade in a judge flow's answer, parsed strictly: anything out of shape is a problem naming the field,
// never a pass. Apart from judge-flow.ts so that what only formats a grade (the reports, in every bundle)
// does not load zod at every start (bench/README.md).
import { z } from 'zod'
import { JUDGE_OUTPUT, type JudgeGrade } from './judge-flow.js'

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
