// Flags and environment as the action's inputs: `--flow-id` is the input `flow-id`.
import type { InputReader } from '../config/fields.js'

export type Flags = Record<string, string | string[] | boolean | undefined>

/** Keys are read from the environment when no flag gives them (a flag shows in the process list). */
export const KEY_ENV: Readonly<Record<string, string>> = {
  'private-key': 'KB_SYNC_PRIVATE_KEY',
  'public-key': 'KB_SYNC_PUBLIC_KEY',
}

/** Commander's property name of a flag: `flow-id` → `flowId`. */
export const flagProperty = (input: string) => input.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())

export function inputReader(flags: Flags): InputReader {
  return (name) => {
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
