// `is-json` and `json-schema`: an output read as JSON, and a JSON Schema compiled with Ajv. Schemas are
// compiled once, when the checks are read, in Ajv's strict mode: a misspelt keyword (`requried`) or a
// `format` ajv-formats does not know is an error before any run, never a schema that silently accepts
// everything. The schema's `pattern` and `patternProperties` are matched by RE2, as `expect` is: in time
// linear in the answer, where the JavaScript engine's backtracking could hang the step on `^(a+)+$`.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import type { RegExpEngine, RegExpLike } from 'ajv/dist/types/index.js'
import { Ajv2019 } from 'ajv/dist/2019.js'
import { Ajv2020 } from 'ajv/dist/2020.js'
import ajvFormats from 'ajv-formats'
import { RE2JS, RE2JSException } from 're2js'
import { findBounded } from '../flow/expect.js'
import { parseDocument } from 'yaml'
import { readWorkspaceFile } from './source.js'

export interface JsonSchemaAssertion {
  validate: ValidateFunction
  /** The schema file's path as written in the check, or undefined for an inline schema. */
  file?: string
}

// How many schema errors one failure lists; the rest are counted.
const SHOWN_ERRORS = 5
// How much of a JSON.parse message (which quotes the text) a failure keeps.
const PARSE_MESSAGE_CHARS = 200
const CUT_MARK = '…[cut by kb-sync'
// `yaml`'s default: how many alias nodes a document may resolve, counted with what each expands to.
const MAX_ALIAS_COUNT = 100

// A pattern RE2 cannot compile (lookaround, backreferences) fails the schema's compilation, so the check
// is refused before any run, naming the pattern.
const re2Engine: RegExpEngine = Object.assign(
  (pattern: string): RegExpLike => {
    let compiled: RE2JS
    try {
      compiled = RE2JS.compile(pattern)
    } catch (error) {
      if (!(error instanceof RE2JSException)) throw error
      throw new Error(
        `pattern ${JSON.stringify(pattern)} is not a regular expression in RE2 syntax (no lookaround or backreferences): ${error.message}`,
        { cause: error },
      )
    }
    // Ajv keeps one compiled pattern per text, keyed by toString().
    // A match too costly to run throws out of the validation: that run's error, with the reason.
    const matcher: RegExpLike = { test: (text: string) => findBounded(compiled, text) }
    return Object.assign(matcher, { toString: () => pattern })
  },
  { code: 'RE2JS' },
)

// Every error, not the first only; Ajv's own warnings would go to the console, around the step's logger.
// allowMatchingProperties: strict mode would otherwise test each patternProperties pattern against the
// schema's own property names with JavaScript's backtracking RegExp, the one place RE2 does not reach.
const OPTIONS = {
  allErrors: true,
  logger: false,
  code: { regExp: re2Engine },
  allowMatchingProperties: true,
} as const

// The formats of the JSON Schema specification (email, date-time, uri, uuid, …), checked in full mode.
// The package is CommonJS: its plugin function carries itself as `.default`, which both Node's and the
// bundler's interop reach.
const withFormats = <T extends Ajv | Ajv2019 | Ajv2020>(ajv: T): T => {
  ajvFormats.default(ajv)
  return ajv
}

// A new Ajv per schema: two checks' schemas with the same $id must not collide in one instance's cache.
const DRAFTS: { marker: string; create: () => Ajv | Ajv2019 | Ajv2020 }[] = [
  { marker: '2020-12', create: () => withFormats(new Ajv2020(OPTIONS)) },
  { marker: '2019-09', create: () => withFormats(new Ajv2019(OPTIONS)) },
  { marker: 'draft-07', create: () => withFormats(new Ajv(OPTIONS)) },
]

/** The schema compiled by the Ajv of its `$schema` draft (draft-07 when it names none), or why not. */
export function compileJsonSchema(schema: unknown): { validate: ValidateFunction } | { problem: string } {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema))
    return { problem: 'must be a JSON Schema (a mapping) or the path of a schema file in the workspace' }
  const declared = (schema as Record<string, unknown>).$schema ?? 'draft-07'
  const draft = DRAFTS.find((known) => typeof declared === 'string' && declared.includes(known.marker))
  if (!draft)
    return {
      problem: `the schema's $schema ${JSON.stringify(declared)} is not a draft Ajv checks here (draft-07, 2019-09, 2020-12)`,
    }
  try {
    return { validate: draft.create().compile(schema) }
  } catch (error) {
    return {
      problem: `the schema does not compile: ${error instanceof Error ? error.message : String(error)}`,
    }
  }
}

/**
 * A YAML (or JSON) text as a value, or the first line of each problem. Aliases that would expand past
 * `yaml`'s own bound (an alias bomb: a few lines that would fill the memory) are one of the problems,
 * not an error thrown past the caller that names the input.
 */
export function readYaml(text: string): { value: unknown } | { problems: string[] } {
  const document = parseDocument(text, { prettyErrors: true, uniqueKeys: true })
  if (document.errors.length > 0)
    return { problems: document.errors.map((error) => error.message.split('\n')[0]) }
  try {
    return { value: document.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) as unknown }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return { problems: [`its aliases (*name) expand too much to be read (${message})`] }
  }
}

/** The schema of a check's `json-schema` field: inline (a mapping) or a file (YAML or JSON) in the workspace. */
export function loadJsonSchema(
  value: string | Record<string, unknown>,
  workspace: string,
): JsonSchemaAssertion | { problem: string } {
  if (typeof value !== 'string') {
    const compiled = compileJsonSchema(value)
    return 'problem' in compiled ? compiled : { validate: compiled.validate }
  }
  const file = readWorkspaceFile(value, workspace)
  if ('problem' in file) return file
  const read = readYaml(file.text)
  if ('problems' in read) return { problem: `"${value}" is not valid JSON or YAML: ${read.problems[0]}` }
  const compiled = compileJsonSchema(read.value)
  if ('problem' in compiled) return { problem: `"${value}": ${compiled.problem}` }
  return { validate: compiled.validate, file: value }
}

/**
 * The output as JSON: a string is parsed (strictly: no code fences, no text around it), any other
 * value already is JSON from the answer.
 */
export function jsonOf(value: unknown): { json: unknown } | { problem: string } {
  if (typeof value !== 'string') return { json: value }
  try {
    return { json: JSON.parse(value) as unknown }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    const shown =
      message.length <= PARSE_MESSAGE_CHARS ? message : `${message.slice(0, PARSE_MESSAGE_CHARS)}…`
    const cut = value.includes(CUT_MARK) ? '; the output was cut to fit a step output' : ''
    return { problem: `not JSON (${shown}${cut})` }
  }
}

function describeError(error: ErrorObject): string {
  return `${error.instancePath === '' ? '(root)' : error.instancePath} ${error.message ?? error.keyword}`
}

/** Why the value does not match the schema (its first errors, by JSON pointer), or undefined when it does. */
export function schemaMismatch(validate: ValidateFunction, value: unknown): string | undefined {
  if (validate(value)) return undefined
  const errors = validate.errors ?? []
  const shown = errors.slice(0, SHOWN_ERRORS).map(describeError)
  if (errors.length > SHOWN_ERRORS) shown.push(`and ${errors.length - SHOWN_ERRORS} more`)
  return shown.join('; ')
}
