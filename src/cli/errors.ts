// User errors end in one line on stderr and exit 2, naming the flag; failures exit 1; no stack traces.
import { CommanderError } from 'commander'
import { ConfigError } from '../config/errors.js'
import { KEY_ENV } from './inputs.js'

export const EXIT_FAILURE = 1
export const EXIT_USAGE = 2

/** A bad flag or value found by the CLI itself; the message names the flag. */
export class UsageError extends Error {}

/** An input name in a config message as the CLI user knows it: `Input "node-id"` → `--node-id`. */
function asFlag(input: string): string {
  return KEY_ENV[input] ? `--${input} (or ${KEY_ENV[input]})` : `--${input}`
}

/** One line per problem, the action's input names spelled as flags. */
export function usageLines(error: ConfigError): string[] {
  return error.problems.map(({ message }) =>
    message
      .replace(
        /\bInputs "([a-z-]+)" and "([a-z-]+)"/g,
        (_, a: string, b: string) => `${asFlag(a)} and ${asFlag(b)}`,
      )
      .replace(/\bInput "([a-z-]+)"/g, (_, input: string) => asFlag(input))
      .replace(/\s*\n\s*/g, ' '),
  )
}

/** The lines to print (without the `error: ` prefix) and the exit status for an error. */
export function describeError(error: unknown): { lines: string[]; status: number } {
  // Commander has printed its own one-line message already.
  if (error instanceof CommanderError) return { lines: [], status: error.exitCode === 0 ? 0 : EXIT_USAGE }
  if (error instanceof ConfigError) return { lines: usageLines(error), status: EXIT_USAGE }
  const message = (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ')
  return { lines: [message], status: error instanceof UsageError ? EXIT_USAGE : EXIT_FAILURE }
}
