// Reading one input at a time into a typed value, collecting every problem instead of stopping at the first.
import { baseUrlProblem, normalizeBaseUrl } from '../service/base-url.js'
import { idProblem } from '../service/ids.js'
import { ConfigError, quoted, withoutUserInfo, type InputProblem } from './errors.js'
import { ACTION_INPUT_NAMES, type SettingNames } from '../setting-names.js'
import { parseDuration, parseSize } from '../units.js'

/** The raw value of an input, '' when unset (the action passes `core.getInput`, the CLI its flags). */
export type InputReader = (name: string) => string

// Keys travel in an HTTP header: a line break there would add a header, and anything outside visible
// ASCII is either a copy-paste accident or something the service would not accept.
const KEY_PATTERN = /^[\x21-\x7e]+$/
const UNEXPANDED_EXPRESSION = /^\$\{\{[^}]*\}\}$/

export class InputFields {
  readonly problems: InputProblem[] = []

  constructor(
    private readonly read: InputReader,
    /** Applied by the code too: a bare `node dist/index.js` gets only the INPUT_* variables it is given. */
    private readonly defaults: Readonly<Record<string, string>>,
    /** How messages name a setting: the front end's own words (an input, a flag). */
    readonly names: SettingNames = ACTION_INPUT_NAMES,
  ) {}

  /** The trimmed value, or the input's default when empty. */
  raw(name: string): string {
    return this.read(name).trim() || this.defaults[name] || ''
  }

  problem(input: string, message: string): void {
    this.problems.push({ input, message })
  }

  /** Throws one ConfigError listing every problem found so far, if any. */
  throwIfAny(): void {
    if (this.problems.length > 0) throw new ConfigError(this.problems)
  }

  id(name: string): string {
    const value = this.raw(name)
    if (value === '') {
      this.problem(name, `${this.names.subject(name)} is required.`)
      return value
    }
    const problem = idProblem(value)
    if (problem) this.problem(name, `${this.names.subject(name)} ${problem} (got ${quoted(value)}).`)
    return value
  }

  baseUrl(name: string): string {
    const value = this.raw(name)
    const problem = baseUrlProblem(value)
    if (!problem) return normalizeBaseUrl(value)
    this.problem(name, `${this.names.subject(name)} ${problem} (got ${quoted(withoutUserInfo(value))}).`)
    return value
  }

  /** A key's format only (empty is returned as ''); the value is never part of a message. */
  key(name: string): string {
    const value = this.raw(name)
    if (value !== '' && !KEY_PATTERN.test(value))
      this.problem(
        name,
        `${this.names.subject(name)} must be one line of visible ASCII characters (no spaces, line breaks or other ` +
          'characters); its value is not shown.',
      )
    return value
  }

  /**
   * A token whose action.yml default is an expression (`${{ github.token }}`): only the runner expands
   * it; local tools (@github/local-action) pass the text through unchanged, and that means no token.
   */
  token(name: string): string {
    return UNEXPANDED_EXPRESSION.test(this.raw(name)) ? '' : this.key(name)
  }

  oneOf<T extends string>(name: string, values: readonly T[]): T {
    const value = this.raw(name)
    const lower = value.toLowerCase()
    const found = values.find((v) => v === lower)
    if (found) return found
    this.problem(
      name,
      `${this.names.subject(name)} must be one of ${values.join(', ')} (got ${quoted(value)}).`,
    )
    return values[0]
  }

  /** Read leniently, like YAML: true/True/TRUE, false/False/FALSE; empty means the default. */
  boolean(name: string): boolean {
    const value = this.raw(name)
    if (['true', 'True', 'TRUE'].includes(value)) return true
    if (['false', 'False', 'FALSE', ''].includes(value)) return false
    this.problem(name, `${this.names.subject(name)} must be true or false (got ${quoted(value)}).`)
    return false
  }

  integer(name: string, min: number, max: number): number {
    const value = this.raw(name)
    const number = /^\d+$/.test(value) ? Number(value) : NaN
    if (number >= min && number <= max) return number
    this.problem(
      name,
      `${this.names.subject(name)} must be a whole number from ${min} to ${max} (got ${quoted(value)}).`,
    )
    return min
  }

  size(name: string): number {
    const value = this.raw(name)
    const bytes = parseSize(value)
    if (bytes !== undefined && bytes > 0) return bytes
    this.problem(
      name,
      `${this.names.subject(name)} must be a size greater than 0 such as 50MB (units B, KB, MB, GB) (got ${quoted(value)}).`,
    )
    return 1
  }

  /** A duration in ms between `minMs` and `maxMs`. */
  duration(name: string, minMs: number, maxMs: number): number {
    const value = this.raw(name)
    const ms = parseDuration(value)
    if (ms !== undefined && ms >= minMs && ms <= maxMs) return ms
    this.problem(
      name,
      `${this.names.subject(name)} must be a duration from ${minMs / 1000} to ${maxMs / 1000} seconds, such as 120, 120s ` +
        `or 2m (got ${quoted(value)}).`,
    )
    return minMs
  }

  /** Non-empty lines, trimmed. */
  lines(name: string): string[] {
    return this.raw(name)
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== '')
  }
}
