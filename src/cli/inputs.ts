// Flags and environment as the action's inputs: `--flow-id` is the input `flow-id`.
import type { InputReader } from '../config/fields.js'
import type { SettingNames } from '../setting-names.js'

export type Flags = Record<string, string | string[] | boolean | undefined>

/** Keys are read from the environment when no flag gives them (a flag shows in the process list). */
export const KEY_ENV: Readonly<Record<string, string>> = {
  'private-key': 'KB_SYNC_PRIVATE_KEY',
  'public-key': 'KB_SYNC_PUBLIC_KEY',
}

/** Commander's property name of a flag: `flow-id` → `flowId`. */
export const flagProperty = (input: string) => input.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())

/** The short form of `--inputs`: `--question TEXT` is `--inputs '{"in-0": TEXT}'`. */
export const QUESTION_INPUT = 'in-0'

export function inputReader(flags: Flags): InputReader {
  return (name) => {
    if (name === 'inputs' && typeof flags.question === 'string')
      return JSON.stringify({ [QUESTION_INPUT]: flags.question })
    const value = flags[flagProperty(name)]
    if (Array.isArray(value)) return value.join('\n')
    if (typeof value === 'boolean') return String(value)
    if (value !== undefined) return value.trim()
    return (KEY_ENV[name] && process.env[KEY_ENV[name]]?.trim()) || ''
  }
}

/** Both keys as given, to redact them from everything printed. */
export function keysOf(flags: Flags): string[] {
  return Object.entries(KEY_ENV).flatMap(([input, env]) => {
    const flag = flags[flagProperty(input)]
    const key = typeof flag === 'string' ? flag : process.env[env]
    return key ? [key] : []
  })
}

/** The workflow token of `--since last-success` comes from the environment, as in a workflow step. */
const TOKEN_ENV: Readonly<Record<string, string>> = { 'github-token': 'GITHUB_TOKEN' }

/**
 * Settings named as the person typed them: a flag, or the variable a key came from. `inputs` is
 * `--question` when that was given, and both ways when neither was.
 */
export function cliSettingNames(flags: Flags): SettingNames {
  const ref = (input: string): string => {
    const env = KEY_ENV[input] ?? TOKEN_ENV[input]
    if (env && typeof flags[flagProperty(input)] !== 'string')
      return KEY_ENV[input] ? `${env} (or --${input})` : env
    if (input === 'inputs' && typeof flags.inputs !== 'string')
      return typeof flags.question === 'string' ? '--question' : '--question (or --inputs)'
    return `--${input}`
  }
  return {
    subject: ref,
    ref,
    the: ref,
    pair: (first, second) => `${ref(first)} and ${ref(second)}`,
    on: (input) => `--${input} is given`,
  }
}
