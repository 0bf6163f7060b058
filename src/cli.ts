// kb-sync index | run | serve — the same pipeline as the actions, with flags instead of action inputs.
// Keys come from KB_SYNC_PRIVATE_KEY / KB_SYNC_PUBLIC_KEY (or flags); there is no runner masking here,
// so the logger redacts them in everything it prints. Ctrl-C is claimed first (cancellation.ts).
import './claim-signals.js'
import { indexCommand, runCommand, serveCommand, statusCommand } from './cli/commands.js'
import { runCommandLine } from './cli/program.js'

const status = await runCommandLine(process.argv.slice(2), {
  index: indexCommand,
  status: statusCommand,
  run: runCommand,
  serve: serveCommand,
})
if (status !== undefined) process.exitCode = status
