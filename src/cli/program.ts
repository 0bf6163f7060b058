// The commands and their flags. Flag values that the action inputs share are checked by config (the
// same messages); `serve`'s own values are checked here. Commander's errors are one line, exit 2.
import { Command, InvalidArgumentError, Option } from 'commander'
import packageJson from '../../package.json' with { type: 'json' }
import { INDEX_DEFAULTS } from '../config/index-config.js'
import { RUN_DEFAULTS } from '../config/run-inputs.js'
import type { KnowledgeBaseId } from '../emulator/store.js'
import { idProblem } from '../service/ids.js'
import { QUESTION_INPUT, type Flags } from './inputs.js'
import type { ServeFlags } from './serve.js'
import { describeError } from './errors.js'

export interface CommandHandlers {
  index(flags: Flags): Promise<void>
  status(flags: Flags): Promise<void>
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

/** An option whose help shows its default as the action spells it (`default: 25`, not `"25"`). */
function withDefault(flags: string, description: string, value: string | undefined): Option {
  if (value === undefined) throw new Error(`No default for ${flags}`)
  return new Option(flags, description).default(value, value)
}

/** An option with a fixed set of values and its default. */
function oneOf(flags: string, description: string, choices: string[], value: string | undefined): Option {
  return withDefault(flags, description, value).choices(choices)
}

const REQUIRED = '(required)'

/** Options of both service commands; `defaults` is the action's table (INDEX_DEFAULTS, RUN_DEFAULTS). */
function serviceOptions(command: Command, defaults: Readonly<Record<string, string>>): Command {
  return command
    .addOption(withDefault('--base-url <url>', 'service root', defaults['base-url']))
    .option('--flow-id <id>', `flow id ${REQUIRED}`)
    .option('--org-id <id>', `organization id ${REQUIRED}`)
    .addOption(withDefault('--retries <n>', 'attempts per request', defaults.retries))
    .addOption(withDefault('--retry-deadline <seconds>', 'deadline per request', defaults['retry-deadline']))
    .option('--summary-file <path>', 'write the markdown summary (as the action’s job summary) to this file')
    .option(
      '--report-file <path>',
      'write every output, uncut, as one JSON file (as the action’s report-file)',
    )
    .option('--json', 'print the outputs as one JSON object instead of the summary')
    .option('--verbose', 'print each step, each file and debug lines on stderr')
}

function indexOptions(command: Command): Command {
  const d = INDEX_DEFAULTS
  return command
    .option('--node-id <id>', `node id whose knowledge base is indexed ${REQUIRED}`)
    .option('--private-key <key>', 'indexing key (required unless --dry-run; prefer KB_SYNC_PRIVATE_KEY)')
    .option('--files <pattern>', 'glob pattern relative to the workspace, `!` excludes (repeatable)', collect)
    .option('--urls <url>', 'website URL (repeatable)', collect)
    .option(
      '--sitemaps <url>',
      'sitemap or sitemap index URL whose pages are synced like --urls (repeatable)',
      collect,
    )
    .option(
      '--url-include <pattern>',
      "glob pattern on the sitemaps' page URLs to sync (repeatable)",
      collect,
    )
    .option(
      '--url-exclude <pattern>',
      "glob pattern on the sitemaps' page URLs to leave out (repeatable)",
      collect,
    )
    .addOption(oneOf('--mode <mode>', 'how documents are sent', ['auto', 'upload', 'update'], d.mode))
    .option('--dry-run', 'print the plan, send nothing')
    .option('--include-hidden-files', 'include dotfiles and dot-folders')
    .addOption(
      oneOf(
        '--if-no-files-found <what>',
        'when the patterns select nothing',
        ['warn', 'error', 'ignore'],
        d['if-no-files-found'],
      ),
    )
    .addOption(
      withDefault('--max-file-size <size>', 'larger files are skipped (B, KB, MB, GB)', d['max-file-size']),
    )
    .addOption(withDefault('--batch-size <n>', 'files per request', d['batch-size']))
    .addOption(withDefault('--concurrency <n>', 'requests in flight', d.concurrency))
    .addOption(
      oneOf(
        '--follow-symlinks <how>',
        'links to files inside the workspace, or none',
        ['inside', 'none'],
        d['follow-symlinks'],
      ),
    )
    .option('--public-key <key>', 'flow key, for --flow-inputs (prefer KB_SYNC_PUBLIC_KEY)')
    .option('--flow-inputs <json>', 'JSON object of flow inputs: run the flow after indexing')
    .addOption(
      withDefault(
        '--run-timeout <seconds>',
        'bound on the flow run after indexing, retries included',
        d['run-timeout'],
      ),
    )
    .addOption(
      new Option('--workspace <dir>', 'folder the patterns and document names are relative to').default(
        process.cwd(),
        'the current folder',
      ),
    )
    .option(
      '--since <ref>',
      'mode auto, in a git repository: send what changed from this commit or ref to HEAD; last-success: since the last successful run of the workflow (GITHUB_* variables, GITHUB_TOKEN)',
    )
    .option('--full-sync', 'mode auto: send every selected file, whatever changed')
    .option(
      '--shard <I/N>',
      'send only the documents and URLs whose names hash to part I of N (parallel jobs)',
    )
    .addOption(
      oneOf(
        '--removed <what>',
        'mode auto: tombstone (blank removed documents with a placeholder) or keep them',
        ['tombstone', 'keep'],
        d.removed,
      ),
    )
    .option(
      '--state-file <path>',
      "the knowledge base's record: what the node holds, read to send exactly what differs and written after the run",
    )
    .option(
      '--no-skip-drafts',
      'send pages the site does not publish (drafts, future or expired, _drafts; skipped by default)',
    )
}

function runOptions(command: Command): Command {
  const d = RUN_DEFAULTS
  return command
    .option('--public-key <key>', 'flow key (required; prefer KB_SYNC_PUBLIC_KEY)')
    .option(
      '--question <text>',
      `the question (required: this, --inputs or --checks); short for --inputs '{"${QUESTION_INPUT}": TEXT}'`,
    )
    .option('--inputs <json>', `JSON object of flow inputs, e.g. {"${QUESTION_INPUT}": "question"}`)
    .addOption(withDefault('--output-key <key>', 'output to print', d['output-key']))
    .option('--expect <regex>', 'fail unless the answer matches (RE2 syntax)')
    .option('--retry-on-server-error', 'also retry a run answered 500, 502 or 504 (it may have started)')
    .addOption(
      withDefault('--run-timeout <seconds>', 'bound on the whole run, retries included', d['run-timeout']),
    )
    .option(
      '--checks <file-or-yaml>',
      'a suite of named checks (a YAML/JSON file at any path, or inline) instead of --question',
    )
    .addOption(withDefault('--concurrency <n>', 'check runs in flight (1-8)', d.concurrency))
    .addOption(withDefault('--repeat <n>', 'runs of each check (1-10)', d.repeat))
    .option('--min-pass <n>', 'runs of a check that must pass (default: every run)')
    .addOption(withDefault('--max-runs <n>', 'refuse a suite that would start more runs', d['max-runs']))
    .addOption(withDefault('--threshold <percent>', 'share of checks that must pass', d.threshold))
    .option(
      '--baseline-flow-id <id>',
      'with --checks: also run every check on this flow and compare (before/after)',
    )
    .option('--baseline-org-id <id>', "the baseline flow's organization (default: --org-id)")
    .option('--fail-on <what>', 'regression (default with a baseline) or threshold')
    .option('--judge-flow-id <id>', "with --checks: the flow that grades each check's rubric")
    .option('--judge-org-id <id>', "the judge flow's organization (default: --org-id)")
    .addOption(
      withDefault(
        '--judge-min-score <score>',
        "the judge's least score for a pass (0-1)",
        d['judge-min-score'],
      ),
    )
    .option(
      '--advisory-checks <names>',
      'checks reported but never failing (names or patterns with *, comma-separated; repeatable)',
      collect,
    )
    .addOption(
      withDefault(
        '--settle <seconds>',
        'with --checks: the longest wait for a sync to be answerable',
        d.settle,
      ),
    )
    .option(
      '--settle-check <name>',
      'with --settle: a check run until it passes (each run counts in --max-runs)',
    )
    .option(
      '--junit-file <path>',
      'with --checks: write the suite as a JUnit XML report (a .xml file) for test reporters',
    )
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
    .option('--seed <n>', 'seed of the fault choice and of the missed answers', wholeNumber(0, 2 ** 32 - 1))
    .option(
      '--miss-rate <rate>',
      'share of flow runs answered as if nothing matched, to try repeats (0..1)',
      fraction,
    )
    .option(
      '--index-delay <seconds>',
      'after an upload or update, flows answer from the previous documents this long (0-3600)',
      wholeNumber(0, 3600),
    )
    .option(
      '--flow <org/flow/node>',
      'a flow and node that exist; others answer 404 (repeatable; default: any)',
      flowId,
    )
    .option(
      '--judge-flow <flow-id>',
      'a flow id that answers as a deterministic judge flow (repeatable)',
      collect,
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

/**
 * No command takes arguments, so extra ones are two values given to one flag (`--files a b`: the flag
 * takes one, and is repeated), or a pattern the shell expanded into file names (`--files docs/*.md` gives
 * `--files docs/a.md docs/b.md …`). Which one it was cannot be told from the arguments: both are said.
 */
export function withGlobHint(text: string): string {
  if (!/Expected 0 arguments but got \d+/.test(text)) return text
  return (
    `${text.trim()} A flag takes one value: repeat it for each (--files 'docs/**' --files 'guides/**'). ` +
    `An unquoted pattern is expanded by the shell into many file names: quote it, e.g. --files 'docs/**/*.md'.`
  )
}

const INDEX_HELP = `
Environment:
  KB_SYNC_PRIVATE_KEY  the indexing key (a flag's value shows in the process list)
  KB_SYNC_PUBLIC_KEY   the flow key, for --flow-inputs
  GITHUB_TOKEN         read by --since last-success (the workflow runs API)

Example:
  export KB_SYNC_PRIVATE_KEY=...
  kb-sync index --flow-id FLOW --org-id ORG --node-id NODE --files 'docs/**/*.md' --dry-run`

const STATUS_HELP = `
The record is the file of --state-file (as kb-sync index --state-file writes it), or in a workflow step
the artifact the index action writes (GITHUB_REPOSITORY, GITHUB_RUN_ID, GITHUB_TOKEN with actions: read).

Example:
  kb-sync status --flow-id FLOW --org-id ORG --node-id NODE --files 'docs/**/*.md' --state-file kb-state.json.gz`

const RUN_HELP = `
Environment:
  KB_SYNC_PUBLIC_KEY   the flow key (a flag's value shows in the process list)

Examples:
  export KB_SYNC_PUBLIC_KEY=...
  kb-sync run --flow-id FLOW --org-id ORG --question 'What changed in the last release?'
  kb-sync run --flow-id FLOW --org-id ORG --checks ci/checks.yml --threshold 90%`

/** Where the program prints: the process's streams, or a test's writers. */
export interface ProgramOutput {
  writeOut(text: string): void
  writeErr(text: string): void
}

const processOutput: ProgramOutput = {
  writeOut: (text) => process.stdout.write(text),
  writeErr: (text) => process.stderr.write(text),
}

export function buildProgram(handlers: CommandHandlers, output: ProgramOutput = processOutput): Command {
  const program = new Command('kb-sync')
    .description('Keep a flow node knowledge base in step with files and URLs, and run a flow.')
    .version(packageJson.version, '-V, --version')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => output.writeOut(text),
      writeErr: (text) => output.writeErr(text),
      outputError: (text, write) => write(oneLine(withGlobHint(withoutOptionValues(text)))),
    })

  indexOptions(serviceOptions(program.command('index'), INDEX_DEFAULTS))
    .description('upload or update files and URLs in a node knowledge base')
    .addHelpText('after', INDEX_HELP)
    .action((flags: Flags) => handlers.index(flags))
  indexOptions(serviceOptions(program.command('status'), INDEX_DEFAULTS))
    .description(
      "compare the node's record with what the checkout selects: to upload, update, blank, left, unchanged (nothing is sent)",
    )
    .addHelpText('after', STATUS_HELP)
    .action((flags: Flags) => handlers.status(flags))
  runOptions(serviceOptions(program.command('run'), RUN_DEFAULTS))
    .description('run a flow and print its answer, or a suite of checks')
    .addHelpText('after', RUN_HELP)
    .action((flags: Flags) => handlers.run(flags))
  serveOptions(program.command('serve'))
    .description('start the local emulator of the service')
    .action((flags: ServeFlags) => handlers.serve(flags))
  return program
}

/**
 * Parses `args` (without `node` and the script) and runs the command. A usage error or an unexpected
 * one is printed as `error:` lines and its exit status returned; a command that ran sets its own.
 */
export async function runCommandLine(
  args: string[],
  handlers: CommandHandlers,
  output: ProgramOutput = processOutput,
): Promise<number | undefined> {
  try {
    await buildProgram(handlers, output).parseAsync(args, { from: 'user' })
    return undefined
  } catch (error) {
    // Commander's own errors (already printed) and anything unexpected: one line, never a stack trace.
    const { lines, status } = describeError(error)
    for (const line of lines) output.writeErr(`error: ${line}\n`)
    return status
  }
}
