// Where the CLI prints: results on stdout, diagnostics on stderr; keys redacted from both.
import { cancellationOf, cancelledExitStatus, runCancellation } from '../cancellation.js'
import { Logger, type LogSink } from '../log.js'
import { describeError } from './errors.js'
import { keysOf, type Flags } from './inputs.js'

const writeStdout = process.stdout.write.bind(process.stdout)

/** Warnings, notices and errors always; progress of each step and per-file lines with --verbose only. */
function cliSink(verbose: boolean): LogSink {
  const line = (text: string) => process.stderr.write(`${text}\n`)
  return {
    info: (m) => verbose && line(m),
    debug: (m) => verbose && line(`debug: ${m}`),
    notice: (m) => line(`notice: ${m}`),
    warning: (m) => line(`warning: ${m}`),
    error: (m) => line(`error: ${m}`),
    startGroup: (n) => verbose && line(`== ${n}`),
    endGroup: () => undefined,
    mask: () => undefined,
  }
}

/**
 * The logger of an index or run command. Libraries that print through @actions/core (@actions/glob's
 * `::debug::` lines) write to stdout: that is sent to stderr, and the debug lines only with --verbose.
 */
export function commandLogger(flags: Flags): Logger {
  const verbose = flags.verbose === true
  process.stdout.write = ((chunk: string | Uint8Array) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString()
    if (verbose || !text.startsWith('::debug::')) process.stderr.write(text)
    return true
  }) as typeof process.stdout.write
  const log = new Logger(cliSink(verbose))
  for (const key of keysOf(flags)) log.addSecret(key)
  return log
}

/** A result on stdout (the summary, the answer, JSON), keys redacted. */
export function printResult(log: Logger, text: string): void {
  writeStdout(`${log.secrets.redact(text)}\n`)
}

/** Prints an error as one line (one per bad input) and sets the exit status (130 after Ctrl-C). */
export function reportError(log: Logger, error: unknown): void {
  const { lines, status } = describeError(error)
  for (const line of lines) log.error(line)
  const cancelled = cancellationOf(runCancellation)
  process.exitCode = cancelled ? cancelledExitStatus(cancelled) : status
}
