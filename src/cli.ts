// kb-sync index | run | serve — the same pipeline as the actions, with flags instead of action inputs.
// Keys come from KB_SYNC_PRIVATE_KEY / KB_SYNC_PUBLIC_KEY (or flags); there is no runner masking here,
// so the logger redacts them in everything it prints. Ctrl-C is claimed first (cancellation.ts).
import './claim-signals.js'
import { indexCommand, runCommand, serveCommand } from './cli/commands.js'
import { describeError } from './cli/errors.js'
import { buildProgram } from './cli/program.js'

try {
  await buildProgram({ index: indexCommand, run: runCommand, serve: serveCommand }).parseAsync(process.argv)
} catch (error) {
  // Commander's own errors (already printed) and anything unexpected: one line, never a stack trace.
  const { lines, status } = describeError(error)
  for (const line of lines) process.stderr.write(`error: ${line}\n`)
  process.exitCode = status
}
