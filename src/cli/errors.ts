// User errors end in one line on stderr and exit 2, naming the flag; failures exit 1; no stack traces.
import { CommanderError } from 'commander'
import { ConfigError } from '../config/errors.js'

export const EXIT_FAILURE = 1
export const EXIT_USAGE = 2

/** A bad flag or value found by the CLI itself; the message names the flag. */
export class UsageError extends Error {}

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ')

/** The lines to print (without the `error: ` prefix) and the exit status for an error. */
export function describeError(error: unknown): { lines: string[]; status: number } {
  // Commander has printed its own one-line message already.
  if (error instanceof CommanderError) return { lines: [], status: error.exitCode === 0 ? 0 : EXIT_USAGE }
  // The config worded each problem with the CLI's names (cliSettingNames): one line each.
  if (error instanceof ConfigError)
    return { lines: error.problems.map(({ message }) => oneLine(message)), status: EXIT_USAGE }
  const message = oneLine(error instanceof Error ? error.message : String(error))
  return { lines: [message], status: error instanceof UsageError ? EXIT_USAGE : EXIT_FAILURE }
}
