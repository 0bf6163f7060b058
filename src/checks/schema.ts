// The checks file: YAML (JSON is YAML too) listing named checks of a flow. Parsed with `yaml`, validated
// with a zod schema; every problem names the check and the field, and all are reported at once.
import { z } from 'zod'
import { compileExpectation, type Expectation } from '../flow/expect.js'
import { loadJsonSchema, readYaml, type JsonSchemaAssertion } from './json-assertions.js'
import { formatCount } from '../units.js'
import { didYouMean } from '../likely-name.js'

export interface Check {
  name: string
  inputs: Record<string, string>
  /** The flow output judged (default `out-0`). */
  output: string
  expect?: Expectation
  contains: string[]
  /** At least one must appear; empty: not checked. */
  containsAny: string[]
  notContains: string[]
  /** The whole answer, both trimmed. */
  equals?: string
  startsWith?: string
  /** For contains, contains-any, not-contains, equals, starts-with and similar. */
  caseInsensitive: boolean
  minLength?: number
  maxLength?: number
  isJson: boolean
  jsonSchema?: JsonSchemaAssertion
  /** What is-json and json-schema judge: the named output, or the whole `outputs` map. */
  on: 'output' | 'outputs'
  similar?: { reference: string; minSimilarity: number }
  /** The run's latency, in seconds. */
  maxSeconds?: number
  /** Document names the answer's citations must include. */
  cites: string[]
  /** Runs of this check (1–10); unset: the suite's `repeat`. */
  repeat?: number
  /** Runs that must pass every assertion; unset: see `repeatsOf` in repeats.ts. */
  minPass?: number
  /** What a good answer says: graded by the judge flow (`judge-flow-id`), one judge run per run. */
  rubric?: string
  /** Reported with its verdict, never counted toward the threshold nor failing the step. */
  advisory: boolean
}

/** The fields a check may have, as the unknown-field message lists them. */
export const CHECK_FIELDS = [
  'name',
  'inputs',
  'output',
  'expect',
  'contains',
  'contains-any',
  'not-contains',
  'equals',
  'starts-with',
  'case-insensitive',
  'min-length',
  'max-length',
  'is-json',
  'json-schema',
  'on',
  'similar',
  'max-seconds',
  'cites',
  'repeat',
  'min-pass',
  'rubric',
  'advisory',
] as const

const SIMILAR_FIELDS = ['reference', 'min-similarity']

// Bounds the Levenshtein work with MAX_COMPARED_PAIRS (similarity.ts): every answer of up to twice the
// longest reference is compared in full.
const MAX_REFERENCE_CHARS = 10_000

const strings = z.union([z.string(), z.array(z.string())]).transform((v) => (Array.isArray(v) ? v : [v]))

// A check runs at most 10 times: past it, a flaky flow is better fixed than averaged.
const runCount = z.number().int('must be a whole number').min(1, 'must be 1 to 10').max(10, 'must be 1 to 10')

const nonEmptyStrings = strings.refine(
  (list) => list.length > 0 && list.every((item) => item !== ''),
  'must be a non-empty string or a list of them',
)

const similarSchema = z
  .object(
    {
      reference: z
        .string()
        .refine((text) => text.trim() !== '', 'must be a non-empty string (the expected answer)')
        .refine(
          (text) => text.length <= MAX_REFERENCE_CHARS,
          `must be at most ${formatCount(MAX_REFERENCE_CHARS)} characters`,
        ),
      'min-similarity': z
        .number({ error: 'must be a number from 0 to 1, e.g. 0.8' })
        .min(0, 'must be a number from 0 to 1, e.g. 0.8')
        .max(1, 'must be a number from 0 to 1, e.g. 0.8'),
    },
    { error: 'must be a mapping with reference and min-similarity' },
  )
  .strict()

function checkSchemaFor(workspace: string) {
  return z
    .object({
      name: z.string().trim().min(1, 'must be a non-empty string'),
      inputs: z
        .record(z.string(), z.string())
        .refine((inputs) => Object.keys(inputs).length > 0, 'must name at least one input, e.g. in-0'),
      output: z.string().trim().min(1, 'must be a non-empty string').default('out-0'),
      expect: z.string().optional(),
      contains: strings.optional(),
      'contains-any': z
        .array(z.string(), { error: 'must be a list of strings, at least one of which must appear' })
        .min(1, 'must list at least one string')
        .optional(),
      'not-contains': strings.optional(),
      equals: z.string().optional(),
      'starts-with': z.string().min(1, 'must be a non-empty string').optional(),
      'case-insensitive': z.boolean().default(false),
      'min-length': z.number().int().nonnegative().optional(),
      'max-length': z.number().int().nonnegative().optional(),
      'is-json': z.boolean().default(false),
      'json-schema': z
        .union([z.string().trim().min(1), z.record(z.string(), z.unknown())], {
          error: 'must be a JSON Schema (a mapping) or the path of a schema file in the workspace',
        })
        .transform((value, context) => {
          const loaded = loadJsonSchema(value, workspace)
          if ('problem' in loaded) {
            context.addIssue({ code: 'custom', message: loaded.problem })
            return z.NEVER
          }
          return loaded
        })
        .optional(),
      on: z
        .enum(['output', 'outputs'], {
          error: 'must be "output" (the named output, the default) or "outputs" (the whole outputs map)',
        })
        .default('output'),
      similar: similarSchema.optional(),
      'max-seconds': z.number().positive('must be a positive number of seconds').optional(),
      cites: nonEmptyStrings.optional(),
      repeat: runCount.optional(),
      'min-pass': runCount.optional(),
      rubric: z
        .string({ error: 'must be a text saying what a good answer says' })
        .refine((text) => text.trim() !== '', 'must be a non-empty text saying what a good answer says')
        .refine(
          (text) => text.length <= MAX_REFERENCE_CHARS,
          `must be at most ${formatCount(MAX_REFERENCE_CHARS)} characters`,
        )
        .optional(),
      advisory: z.boolean({ error: 'must be true or false' }).default(false),
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
      if (check.on === 'outputs' && !check['is-json'] && check['json-schema'] === undefined)
        context.addIssue({
          code: 'custom',
          path: ['on'],
          message: 'applies to is-json and json-schema only: add one of them, or remove "on"',
        })
      const repeat = check.repeat
      const minPass = check['min-pass']
      if (repeat !== undefined && minPass !== undefined && minPass > repeat)
        context.addIssue({
          code: 'custom',
          path: ['min-pass'],
          message: `must not be more than the check's repeat (${repeat}): ${minPass} of ${repeat} runs can never pass`,
        })
    })
}

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

/** Each unknown field with the known one it most likely means, then every known field. */
function unknownFields(where: string, path: PropertyKey[], keys: string[]): string {
  const known: readonly string[] = path.length === 0 ? CHECK_FIELDS : SIMILAR_FIELDS
  const listed = keys.map((k) => `"${k}"${didYouMean(k, known)}`).join(', ')
  const field = path.length === 0 ? '' : `, field "${fieldOf(path)}"`
  return `${where}${field}: unknown field(s) ${listed} (known: ${known.join(', ')})`
}

export interface ParseChecksOptions {
  /** Where a `json-schema` file path is resolved, and which it may not leave (default: GITHUB_WORKSPACE or the current directory). */
  workspace?: string
}

/** Parses and validates the checks text. Throws a ChecksError listing every problem. */
export function parseChecks(text: string, options: ParseChecksOptions = {}): Check[] {
  const workspace = options.workspace ?? (process.env.GITHUB_WORKSPACE || process.cwd())
  const checkSchema = checkSchemaFor(workspace)
  const read = readYaml(text)
  if ('problems' in read)
    throw new ChecksError(read.problems.map((problem) => `not valid YAML or JSON: ${problem}`))
  const suite = suiteSchema.safeParse(read.value)
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
        if (issue.code === 'unrecognized_keys') problems.push(unknownFields(where, issue.path, issue.keys))
        else if (issue.path.length === 0)
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
      containsAny: check['contains-any'] ?? [],
      notContains: check['not-contains'] ?? [],
      equals: check.equals,
      startsWith: check['starts-with'],
      caseInsensitive: check['case-insensitive'],
      minLength: check['min-length'],
      maxLength: check['max-length'],
      isJson: check['is-json'],
      jsonSchema: check['json-schema'],
      on: check.on,
      similar: check.similar && {
        reference: check.similar.reference,
        minSimilarity: check.similar['min-similarity'],
      },
      maxSeconds: check['max-seconds'],
      cites: check.cites ?? [],
      repeat: check.repeat,
      minPass: check['min-pass'],
      ...(check.rubric !== undefined ? { rubric: check.rubric } : {}),
      advisory: check.advisory,
    })
  })
  if (problems.length > 0) throw new ChecksError(problems)
  return checks
}
