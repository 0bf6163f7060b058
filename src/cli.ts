// kb-sync index | run | serve — the same pipeline as the actions, with flags instead of action inputs.
// Keys come from KB_SYNC_PRIVATE_KEY / KB_SYNC_PUBLIC_KEY (or flags); there is no runner masking here,
// so the logger redacts them in everything it prints. Ctrl-C is claimed first (cancellation.ts).
import './claim-signals.js'
import { runCommandLine } from './cli/program.js'

// Each command loads its own code when it runs: `--help`, a usage error or `serve` never load the pipelines.
const commands = () => import('./cli/commands.js')
const status = await runCommandLine(process.argv.slice(2), {
  index: async (flags) => (await commands()).indexCommand(flags),
  status: async (flags) => (await commands()).statusCommand(flags),
  run: async (flags) => (await import('./cli/run-command.js')).runCommand(flags),
  serve: async (flags) => (await import('./cli/serve.js')).serveCommand(flags),
})
if (status !== undefined) process.exitCode = status
