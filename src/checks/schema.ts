// The checks file: YAML (JSON is YAML too) listing named checks of a flow. Parsed with `yaml`, validated
// with a zod schema; every problem names the check and the field, and all are reported at once.
import { parseDocument } from 'yaml'
import { z } from 'zod'
import { compileExpectation, type Expectation } from '../flow/expect.js'

export interface Check {
  name: string
  inputs: Record<string, string>
  /** The flow output judged (default `out-0`). */
  output: string
  expect?: Expectation
  contains: string[]
  notContains: string[]
  caseInsensitive: boolean
  minLength?: number
  maxLength?: number
  /** Runs of this check (1–10); unset: the suite's `repeat`. */
  repeat?: number
  /** Runs that must pass every assertion; unset: see `repeatsOf` in repeats.ts. */
  minPass?: number
}

const strings = z.union([z.string(), z.array(z.string())]).transform((v) => (Array.isArray(v) ? v : [v]))

const checkSchema = z
  .object({
    name: z.string().trim().min(1, 'must be a non-empty string'),
    inputs: z
      .record(z.string(), z.string())
      .refine((inputs) => Object.keys(inputs).length > 0, 'must name at least one input, e.g. in-0'),
    output: z.string().trim().min(1, 'must be a non-empty string').default('out-0'),
    expect: z.string().optional(),
    contains: strings.optional(),
    'not-contains': strings.optional(),
    'case-insensitive': z.boolean().default(false),
    'min-length': z.number().int().nonnegative().optional(),
    'max-length': z.number().int().nonnegative().optional(),
    repeat: z
      .number()
      .int('must be a whole number')
      .min(1, 'must be 1 to 10')
      .max(10, 'must be 1 to 10')
      .optional(),
    'min-pass': z
      .number()
      .int('must be a whole number')
      .min(1, 'must be 1 to 10')
      .max(10, 'must be 1 to 10')
      .optional(),
  })
  .strict()
  .superRefine((check, context) => {
    if (check.expect !== undefined) {
      const compiled = compileExpectation(check.expect)
      if ('problem' in compiled)
        context.addIssue({
          code: 'custom',
          path: ['expect'],
          message: `must be a regular expression in RE2 syntax (no lookaround or backreferences): ${compiled.problem}`,
        })
    }
    const min = check['min-length']
    const max = check['max-length']
    if (min !== undefined && max !== undefined && min > max)
      context.addIssue({
        code: 'custom',
        path: ['max-length'],
        message: `must not be less than min-length (${min})`,
      })
    if (check.repeat !== undefined && check['min-pass'] !== undefined && check['min-pass'] > check.repeat)
      context.addIssue({
        code: 'custom',
        path: ['min-pass'],
        message: `must not be more than the check's repeat (${check.repeat}): ${check['min-pass']} of ${check.repeat} runs can never pass`,
      })
  })

const suiteSchema = z.union([z.array(z.unknown()), z.object({ checks: z.array(z.unknown()) }).strict()])

/** What is wrong with the checks, each naming the check (by name when it has one) and the field. */
export class ChecksError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'))
    this.name = 'ChecksError'
  }
}

function whichCheck(raw: unknown, index: number): string {
  const name = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>).name : undefined
  return typeof name === 'string' && name.trim() !== ''
    ? `check "${name.trim()}" (#${index + 1})`
    : `check #${index + 1}`
}

function fieldOf(path: PropertyKey[]): string {
  return path
    .map((part) => (typeof part === 'number' ? `[${part}]` : String(part)))
    .join('.')
    .replace(/\.\[/g, '[')
}

/** Parses and validates the checks text. Throws a ChecksError listing every problem. */
export function parseChecks(text: string): Check[] {
  const document = parseDocument(text, { prettyErrors: true, uniqueKeys: true })
  if (document.errors.length > 0)
    throw new ChecksError(
      document.errors.map((error) => `not valid YAML or JSON: ${error.message.split('\n')[0]}`),
    )
  const suite = suiteSchema.safeParse(document.toJS())
  if (!suite.success)
    throw new ChecksError([
      'must be a list of checks, or a mapping with one key "checks" holding that list (each check has a name and inputs)',
    ])
  const raws = Array.isArray(suite.data) ? suite.data : suite.data.checks
  if (raws.length === 0) throw new ChecksError(['lists no checks'])

  const problems: string[] = []
  const checks: Check[] = []
  const seen = new Map<string, number>()
  raws.forEach((raw, index) => {
    const parsed = checkSchema.safeParse(raw)
    const where = whichCheck(raw, index)
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        if (issue.code === 'unrecognized_keys') {
          problems.push(
            `${where}: unknown field(s) ${issue.keys.map((k) => `"${k}"`).join(', ')} (known: name, inputs, output, ` +
              'expect, contains, not-contains, case-insensitive, min-length, max-length, repeat, min-pass)',
          )
        } else if (issue.path.length === 0)
          problems.push(`${where}: must be a mapping of fields (name, inputs, …)`)
        else problems.push(`${where}, field "${fieldOf(issue.path)}": ${issue.message}`)
      }
      return
    }
    const check = parsed.data
    const earlier = seen.get(check.name)
    if (earlier !== undefined)
      problems.push(
        `${where}, field "name": the name is already used by check #${earlier + 1}; names must be unique`,
      )
    seen.set(check.name, index)
    const compiled = check.expect === undefined ? undefined : compileExpectation(check.expect)
    checks.push({
      name: check.name,
      inputs: check.inputs,
      output: check.output,
      expect: compiled && 'pattern' in compiled ? compiled.pattern : undefined,
      contains: check.contains ?? [],
      notContains: check['not-contains'] ?? [],
      caseInsensitive: check['case-insensitive'],
      minLength: check['min-length'],
      maxLength: check['max-length'],
      repeat: check.repeat,
      minPass: check['min-pass'],
    })
  })
  if (problems.length > 0) throw new ChecksError(problems)
  return checks
}
