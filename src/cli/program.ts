// The commands and their flags. Flag values that the action inputs share are checked by config (the
// same messages); `serve`'s own values are checked here. Commander's errors are one line, exit 2.
import { Command, InvalidArgumentError, Option } from 'commander'
import packageJson from '../../package.json' with { type: 'json' }
import { INDEX_DEFAULTS } from '../config/index-config.js'
import { RUN_DEFAULTS } from '../config/run.js'
import type { KnowledgeBaseId } from '../emulator/store.js'
import { idProblem } from '../service/ids.js'
import type { Flags } from './inputs.js'
import type { ServeFlags } from './commands.js'

export interface CommandHandlers {
  index(flags: Flags): Promise<void>
  run(flags: Flags): Promise<void>
  serve(flags: ServeFlags): Promise<void>
}

const collect = (value: string, previous: string[] = []) => [...previous, value]

function wholeNumber(min: number, max: number) {
  return (value: string): number => {
    const number = /^\d+$/.test(value) ? Number(value) : NaN
    if (!(number >= min && number <= max))
      throw new InvalidArgumentError(`Expected a whole number from ${min} to ${max}.`)
    return number
  }
}

function fraction(value: string): number {
  const number = /^\d*\.?\d+$/.test(value) ? Number(value) : NaN
  if (!(number >= 0 && number <= 1))
    throw new InvalidArgumentError('Expected a number from 0 to 1, such as 0.3.')
  return number
}

function flowId(value: string, previous: KnowledgeBaseId[] = []): KnowledgeBaseId[] {
  const parts = value.split('/')
  const problem = parts.length === 3 ? parts.map(idProblem).find(Boolean) : 'Expected ORG/FLOW/NODE.'
  if (problem) throw new InvalidArgumentError(parts.length === 3 ? `An id ${problem}.` : problem)
  const [orgId, flowId, nodeId] = parts
  return [...previous, { orgId, flowId, nodeId }]
}

/** Options of both service commands; `defaults` are the action's (INDEX_DEFAULTS or RUN_DEFAULTS). */
function serviceOptions(command: Command, defaults: Readonly<Record<string, string>>): Command {
  return command
    .option('--base-url <url>', 'service root', defaults['base-url'])
    .option('--flow-id <id>', 'flow id')
    .option('--org-id <id>', 'organization id')
    .option('--retries <n>', 'attempts per request', defaults.retries)
    .option('--retry-deadline <seconds>', 'deadline per request', defaults['retry-deadline'])
    .option('--summary-file <path>', 'write the markdown summary (as the action’s job summary) to this file')
    .option(
      '--report-file <path>',
      'write every output, uncut, as one JSON file (as the action’s report-file)',
    )
    .option('--json', 'print the outputs as one JSON object instead of the summary')
    .option('--verbose', 'print each step, each file and debug lines on stderr')
}

function indexOptions(command: Command): Command {
  return command
    .option('--node-id <id>', 'node id whose knowledge base is indexed')
    .option('--private-key <key>', 'indexing key (prefer KB_SYNC_PRIVATE_KEY)')
    .option('--files <pattern>', 'glob pattern relative to the workspace, `!` excludes (repeatable)', collect)
    .option('--urls <url>', 'website URL (repeatable)', collect)
    .addOption(
      new Option('--mode <mode>', 'how documents are sent')
        .choices(['auto', 'upload', 'update'])
        .default(INDEX_DEFAULTS.mode),
    )
    .option('--dry-run', 'print the plan, send nothing')
    .option('--include-hidden-files', 'include dotfiles and dot-folders')
    .addOption(
      new Option('--if-no-files-found <what>', 'when the patterns select nothing')
        .choices(['warn', 'error', 'ignore'])
        .default(INDEX_DEFAULTS['if-no-files-found']),
    )
    .option(
      '--max-file-size <size>',
      'larger files are skipped (B, KB, MB, GB)',
      INDEX_DEFAULTS['max-file-size'],
    )
    .option('--batch-size <n>', 'files per request', INDEX_DEFAULTS['batch-size'])
    .option('--concurrency <n>', 'requests in flight', INDEX_DEFAULTS.concurrency)
    .addOption(
      new Option('--follow-symlinks <how>', 'links to files inside the workspace, or none')
        .choices(['inside', 'none'])
        .default(INDEX_DEFAULTS['follow-symlinks']),
    )
    .option('--public-key <key>', 'flow key (prefer KB_SYNC_PUBLIC_KEY)')
    .option('--flow-inputs <json>', 'JSON object of flow inputs: run the flow after indexing')
    .option(
      '--run-timeout <seconds>',
      'bound on the flow run after indexing, retries included',
      INDEX_DEFAULTS['run-timeout'],
    )
    .option('--workspace <dir>', 'folder the patterns and document names are relative to', process.cwd())
    .option(
      '--since <ref>',
      'mode auto: send what changed from this commit or ref to HEAD; last-success: since the last successful run of the workflow (GITHUB_* variables, GITHUB_TOKEN)',
    )
    .option('--full-sync', 'mode auto: send every selected file, whatever changed')
}

function runOptions(command: Command): Command {
  return command
    .option('--public-key <key>', 'flow key (prefer KB_SYNC_PUBLIC_KEY)')
    .option('--inputs <json>', 'JSON object of flow inputs, e.g. {"in-0": "question"}')
    .option('--output-key <key>', 'output to print', RUN_DEFAULTS['output-key'])
    .option('--expect <regex>', 'fail unless the answer matches (RE2 syntax)')
    .option('--retry-on-server-error', 'also retry a run answered 500, 502 or 504 (it may have started)')
    .option(
      '--run-timeout <seconds>',
      'bound on the whole run, retries included',
      RUN_DEFAULTS['run-timeout'],
    )
    .option(
      '--checks <file-or-yaml>',
      'a suite of named checks (YAML/JSON file, or inline) instead of --inputs',
    )
    .option('--concurrency <n>', 'check runs in flight (1-8)', RUN_DEFAULTS.concurrency)
    .option('--threshold <percent>', 'share of checks that must pass', RUN_DEFAULTS.threshold)
}

function serveOptions(command: Command): Command {
  return command
    .option('--port <port>', '0 = any free port', wholeNumber(0, 65535), 0)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--data-dir <dir>', 'where documents are stored (default: a temporary folder)')
    .option('--private-key <key>', 'indexing key it accepts (default KB_SYNC_PRIVATE_KEY, else random)')
    .option('--public-key <key>', 'flow key it accepts (default KB_SYNC_PUBLIC_KEY, else random)')
    .option('--latency <ms>', 'delay before every answer', wholeNumber(0, 600_000))
    .option('--fault-rate <rate>', 'share of requests answered with a fault (0..1)', fraction)
    .option('--seed <n>', 'seed of the fault choice', wholeNumber(0, 2 ** 32 - 1))
    .option(
      '--flow <org/flow/node>',
      'a flow and node that exist; others answer 404 (repeatable; default: any)',
      flowId,
    )
}

/** One line: commander adds a second one for suggestions ("(Did you mean --flow-id?)"). */
function oneLine(text: string): string {
  return `${text.trim().replace(/\s*\n\s*/g, ' ')}\n`
}

/**
 * Commander quotes an unknown option as it was given: a mistyped `--privat-key=<key>` would print the
 * key. The value is left out (the option's name is what the user needs to see).
 */
export function withoutOptionValues(text: string): string {
  return text.replace(/'(--?[^'=\s]+)=[^']*'/g, "'$1=<value not shown>'")
}

export function buildProgram(handlers: CommandHandlers): Command {
  const program = new Command('kb-sync')
    .description('Keep a flow node knowledge base in step with files and URLs, and run a flow.')
    .version(packageJson.version, '-V, --version')
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(oneLine(withoutOptionValues(text))) })

  indexOptions(serviceOptions(program.command('index'), INDEX_DEFAULTS))
    .description('upload or update files and URLs in a node knowledge base')
    .action((flags: Flags) => handlers.index(flags))
  runOptions(serviceOptions(program.command('run'), RUN_DEFAULTS))
    .description('run a flow and print its answer')
    .action((flags: Flags) => handlers.run(flags))
  serveOptions(program.command('serve'))
    .description('start the local emulator of the service')
    .action((flags: ServeFlags) => handlers.serve(flags))
  return program
}
