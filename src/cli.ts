// kb-sync index | run | serve — the same pipeline as the actions, with flags instead of action inputs.
// Keys come from KB_SYNC_PRIVATE_KEY / KB_SYNC_PUBLIC_KEY (or flags); there is no runner masking here,
// so the logger redacts them in everything it prints.
import { Command, Option } from 'commander'
import { randomBytes } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { ConfigError, INDEX_DEFAULTS, readIndexConfig, readRunConfig, type InputReader } from './config.js'
import { startEmulator } from './emulator/server.js'
import { expectationProblem, retryPolicyOf, runFlow } from './jobs/flow-run.js'
import { runIndexJob } from './jobs/index-job.js'
import { consoleSink, Logger } from './log.js'
import { indexOutputs, logIndexResult, renderFlowSection, renderIndexSummary } from './report.js'
import { ServiceClient } from './service/client.js'

type Flags = Record<string, string | string[] | boolean | undefined>

const KEY_ENV: Record<string, string> = {
  'private-key': 'KB_SYNC_PRIVATE_KEY',
  'public-key': 'KB_SYNC_PUBLIC_KEY',
}

/** Flags and environment as the action's inputs: `--flow-id` is the input `flow-id`. */
function inputReader(flags: Flags): InputReader {
  return (name) => {
    const key = name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())
    const value = flags[key]
    if (Array.isArray(value)) return value.join('\n')
    if (typeof value === 'boolean') return String(value)
    if (value !== undefined) return value.trim()
    return (KEY_ENV[name] && process.env[KEY_ENV[name]]?.trim()) || ''
  }
}

function logger(flags: Flags): Logger {
  keepStdoutForResults(flags.verbose === true)
  const log = new Logger(consoleSink({ verbose: flags.verbose === true }))
  for (const [input, env] of Object.entries(KEY_ENV)) {
    const flag = flags[input === 'private-key' ? 'privateKey' : 'publicKey']
    log.addSecret(typeof flag === 'string' ? flag : process.env[env])
  }
  return log
}

// stdout carries only the results. Libraries that print through @actions/core (@actions/glob's
// `::debug::` lines) are sent to stderr, and their debug lines only with --verbose.
const writeStdout = process.stdout.write.bind(process.stdout)
function keepStdoutForResults(verbose: boolean): void {
  process.stdout.write = ((chunk: string | Uint8Array) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString()
    if (verbose || !text.startsWith('::debug::')) process.stderr.write(text)
    return true
  }) as typeof process.stdout.write
}

function printResult(log: Logger, text: string): void {
  writeStdout(`${log.secrets.redact(text)}\n`)
}

function exitOnError(log: Logger, error: unknown): never {
  const message = error instanceof Error ? error.message : String(error)
  log.error(message)
  process.exit(error instanceof ConfigError ? 2 : 1)
}

const collect = (value: string, previous: string[] = []) => [...previous, value]

async function indexCommand(flags: Flags): Promise<void> {
  const log = logger(flags)
  try {
    const config = readIndexConfig(inputReader(flags), { eventName: '' })
    const report = await runIndexJob(config, {
      workspace: typeof flags.workspace === 'string' ? flags.workspace : process.cwd(),
      eventName: '',
      payload: {},
      log,
    })
    logIndexResult(report, log)
    const summary = renderIndexSummary(report)
    if (typeof flags.summaryFile === 'string') writeFileSync(flags.summaryFile, log.secrets.redact(summary))
    printResult(
      log,
      flags.json ? JSON.stringify({ ...indexOutputs(report), result: report.flow?.result }) : summary,
    )
    if (indexOutputs(report).failed.length > 0 || report.flowError) {
      if (report.flowError) log.error(`The flow run after indexing failed: ${report.flowError}`)
      process.exitCode = 1
    }
  } catch (error) {
    exitOnError(log, error)
  }
}

async function runCommand(flags: Flags): Promise<void> {
  const log = logger(flags)
  try {
    const config = readRunConfig(inputReader(flags), { eventName: '' })
    const client = new ServiceClient({ baseUrl: config.baseUrl, publicKey: config.publicKey, connections: 1 })
    try {
      const report = await runFlow(
        client,
        { target: config.target, inputs: config.inputs, outputKey: config.outputKey },
        { log, retry: retryPolicyOf(config) },
      )
      if (typeof flags.summaryFile === 'string') {
        writeFileSync(flags.summaryFile, log.secrets.redact(renderFlowSection(report)))
      }
      printResult(log, flags.json ? JSON.stringify(report.response) : report.result)
      const problem = expectationProblem(report.result, config.expect)
      if (problem) {
        log.error(problem)
        process.exitCode = 1
      }
    } finally {
      await client.close()
    }
  } catch (error) {
    exitOnError(log, error)
  }
}

async function serveCommand(flags: Flags): Promise<void> {
  const log = new Logger(consoleSink())
  const generated = (env: string) => process.env[env] || randomBytes(18).toString('base64url')
  const privateKey =
    typeof flags.privateKey === 'string' ? flags.privateKey : generated('KB_SYNC_PRIVATE_KEY')
  const publicKey = typeof flags.publicKey === 'string' ? flags.publicKey : generated('KB_SYNC_PUBLIC_KEY')
  const number = (name: string) => (typeof flags[name] === 'string' ? Number(flags[name]) : undefined)
  const emulator = await startEmulator({
    port: number('port') ?? 0,
    host: typeof flags.host === 'string' ? flags.host : '127.0.0.1',
    dataDir: typeof flags.dataDir === 'string' ? flags.dataDir : undefined,
    privateKey,
    publicKey,
    latencyMs: number('latency'),
    faultRate: number('faultRate'),
    seed: number('seed'),
  })
  // The emulator's keys are local, made-up keys: printing them is how a person uses the emulator.
  if (!process.env.KB_SYNC_PRIVATE_KEY && typeof flags.privateKey !== 'string')
    log.info(`private key: ${privateKey}`)
  if (!process.env.KB_SYNC_PUBLIC_KEY && typeof flags.publicKey !== 'string')
    log.info(`public key: ${publicKey}`)
  log.info(`data directory: ${emulator.dataDir}`)
  process.stdout.write(`${emulator.url}\n`)
  const stop = () => void emulator.close().then(() => process.exit(0))
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}

export function buildProgram(): Command {
  const program = new Command('kb-sync')
    .description('Keep a flow node knowledge base in step with files and URLs, and run a flow.')
    .showHelpAfterError()

  const shared = (command: Command) =>
    command
      .option('--base-url <url>', 'service root', 'https://api.stack-ai.com')
      .option('--flow-id <id>', 'flow id')
      .option('--org-id <id>', 'organization id')
      .option('--retries <n>', 'attempts per request', '10')
      .option('--retry-deadline <seconds>', 'deadline per request', '120')
      .option('--summary-file <path>', 'also write the markdown summary to this file')
      .option('--json', 'print the outputs as JSON instead of the summary')
      .option('--verbose', 'print debug lines')

  shared(program.command('index').description('upload or update files and URLs in a node knowledge base'))
    .option('--node-id <id>', 'node id whose knowledge base is indexed')
    .option('--private-key <key>', 'indexing key (prefer KB_SYNC_PRIVATE_KEY)')
    .option('--files <pattern>', 'glob pattern relative to the workspace, `!` excludes (repeatable)', collect)
    .option('--urls <url>', 'website URL (repeatable)', collect)
    .addOption(
      new Option('--mode <mode>', 'how documents are sent')
        .choices(['auto', 'upload', 'update'])
        .default('auto'),
    )
    .option('--dry-run', 'print the plan, send nothing')
    .option('--include-hidden-files', 'include dotfiles and dot-folders')
    .option('--if-no-files-found <what>', 'warn, error or ignore', 'warn')
    .option('--max-file-size <size>', 'larger files are skipped (B, KB, MB, GB)', '50MB')
    .option('--batch-size <n>', 'files per request', INDEX_DEFAULTS['batch-size'])
    .option('--concurrency <n>', 'requests in flight', INDEX_DEFAULTS.concurrency)
    .option('--follow-symlinks <how>', 'inside or none', 'inside')
    .option('--public-key <key>', 'flow key (prefer KB_SYNC_PUBLIC_KEY)')
    .option('--flow-inputs <json>', 'JSON object of flow inputs: run the flow after indexing')
    .option('--workspace <dir>', 'folder the patterns and document names are relative to', process.cwd())
    .action((flags: Flags) => indexCommand(flags))

  shared(program.command('run').description('run a flow and print its answer'))
    .option('--public-key <key>', 'flow key (prefer KB_SYNC_PUBLIC_KEY)')
    .option('--inputs <json>', 'JSON object of flow inputs, e.g. {"in-0": "question"}')
    .option('--output-key <key>', 'output to print', 'out-0')
    .option('--expect <regex>', 'fail unless the answer matches')
    .action((flags: Flags) => runCommand(flags))

  program
    .command('serve')
    .description('start the local emulator of the service')
    .option('--port <port>', '0 = any free port', '0')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--data-dir <dir>', 'where documents are stored (default: a temporary folder)')
    .option('--private-key <key>', 'indexing key it accepts (default KB_SYNC_PRIVATE_KEY, else random)')
    .option('--public-key <key>', 'flow key it accepts (default KB_SYNC_PUBLIC_KEY, else random)')
    .option('--latency <ms>', 'delay before every answer')
    .option('--fault-rate <rate>', 'share of requests answered with a fault (0..1)')
    .option('--seed <n>', 'seed of the fault choice')
    .action((flags: Flags) => serveCommand(flags))

  return program
}

await buildProgram().parseAsync(process.argv)
