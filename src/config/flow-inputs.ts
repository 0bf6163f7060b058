// The flow's inputs (`inputs` of run-flow, `flow-inputs` of the index action): a JSON object of strings.
import { ConfigError, quoted } from './errors.js'
import { ACTION_INPUT_NAMES, type SettingNames } from '../setting-names.js'

export const MAX_FLOW_INPUTS_BYTES = 256 * 1024

function fail(input: string, names: SettingNames, message: string): never {
  throw new ConfigError([{ input, message: `${names.subject(input)} ${message}` }])
}

function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'object') return 'an object'
  return `a ${typeof value}`
}

/**
 * Parses a JSON object whose values are all strings, e.g. `{"in-0": "What is new?"}`. The result has no
 * prototype, so a key such as `__proto__` or `constructor` is only a key. Throws a ConfigError naming
 * `inputName` in the words of `names`.
 */
export function parseFlowInputs(
  text: string,
  inputName: string,
  names: SettingNames = ACTION_INPUT_NAMES,
): Record<string, string> {
  const bytes = Buffer.byteLength(text, 'utf8')
  if (bytes > MAX_FLOW_INPUTS_BYTES)
    fail(inputName, names, `must be at most 256 KiB of JSON (got ${Math.ceil(bytes / 1024)} KiB).`)
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    fail(inputName, names, `must be a JSON object such as {"in-0": "..."}: ${quoted(reason).slice(1, -1)}.`)
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    fail(inputName, names, `must be a JSON object such as {"in-0": "..."} (got ${kindOf(parsed)}).`)
  const inputs = Object.create(null) as Record<string, string>
  const wrong: string[] = []
  for (const [key, value] of Object.entries(parsed)) {
    if (typeof value === 'string') inputs[key] = value
    else wrong.push(`${quoted(key)} is ${kindOf(value)}`)
  }
  if (wrong.length > 0) fail(inputName, names, `must map every key to a string: ${wrong.join(', ')}.`)
  if (Object.keys(inputs).length === 0)
    fail(inputName, names, 'must name at least one flow input, e.g. {"in-0": "..."}.')
  return inputs
}
