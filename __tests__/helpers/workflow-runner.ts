// Runs the steps of one workflow job on this machine the way the runner does, for the steps this
// repository's own workflows use: `run:` steps in bash (`bash --noprofile --norc -eo pipefail`), local
// JavaScript actions (`uses: ./…`) as `node <runs.main>` with INPUT_* variables, GITHUB_OUTPUT and
// GITHUB_STEP_SUMMARY, `${{ steps.<id>.outputs.<name> }}` and `steps.<id>.outcome`-style expressions, and
// `continue-on-error: true` (the step's outcome is failure, its conclusion success). Remote actions
// (checkout, setup-node) are skipped: the repository is already here, and Node is this Node.
// Anything else a workflow uses is refused, so the local run never silently differs from GitHub's.
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parse } from 'yaml'
import { inheritedEnv } from './inherited-env.js'

export interface WorkflowStep {
  name?: string
  id?: string
  uses?: string
  with?: Record<string, string | number | boolean>
  run?: string
  env?: Record<string, string | number | boolean>
  'continue-on-error'?: boolean
}

export interface StepResult {
  label: string
  skipped: boolean
  exitCode: number
  log: string
  outputs: Record<string, string>
  summary: string
}

export interface JobResult {
  ok: boolean
  steps: StepResult[]
}

export interface RunOptions {
  /** The repository root: the workspace and the working directory of every step. */
  root: string
  eventName: string
  eventPayload?: object
  /** `${{ github.token }}` and GITHUB_API_URL: a local GitHub REST server's, or none (the default). */
  github?: { token: string; apiUrl: string }
}

const supportedStepKeys = new Set(['name', 'id', 'uses', 'with', 'run', 'env', 'continue-on-error'])

/** Reads `name=value` and `name<<DELIMITER … DELIMITER` records of a GITHUB_OUTPUT file. */
export function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {}
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line)
    if (heredoc) {
      const [, name, delimiter] = heredoc
      const value: string[] = []
      for (i++; i < lines.length && lines[i] !== delimiter; i++) value.push(lines[i])
      if (i >= lines.length) throw new Error(`GITHUB_OUTPUT: "${name}" has no closing ${delimiter}`)
      outputs[name] = value.join('\n')
    } else if (line.includes('=')) {
      const at = line.indexOf('=')
      outputs[line.slice(0, at)] = line.slice(at + 1)
    } else if (line !== '') throw new Error(`GITHUB_OUTPUT: cannot read line "${line}"`)
  }
  return outputs
}

interface StepContext {
  outputs: Record<string, string>
  outcome: 'success' | 'failure'
  conclusion: 'success' | 'failure'
}

interface ExpressionContext {
  steps: Map<string, StepContext>
  root: string
  temp: string
  token: string
}

/** Replaces `${{ … }}` by its value; only the contexts this runner knows, anything else throws. */
export function expand(text: string, context: ExpressionContext): string {
  return text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expression: string) => {
    const stepValue = /^steps\.([A-Za-z_][\w-]*)\.(?:outputs\.([\w-]+)|(outcome|conclusion))$/.exec(
      expression,
    )
    if (stepValue) {
      const step = context.steps.get(stepValue[1])
      if (!step) throw new Error(`\${{ ${expression} }}: no earlier step has id "${stepValue[1]}"`)
      return stepValue[2] !== undefined ? (step.outputs[stepValue[2]] ?? '') : step[stepValue[3] as 'outcome']
    }
    if (expression === 'runner.temp') return context.temp
    if (expression === 'github.workspace') return context.root
    // On a developer's machine there is no job token unless a test gives one: the actions treat an
    // empty token as none.
    if (expression === 'github.token') return context.token
    throw new Error(`\${{ ${expression} }} is not supported by the local workflow runner`)
  })
}

function runProcess(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
  groups: number[],
): Promise<{ exitCode: number; log: string }> {
  return new Promise((done, fail) => {
    // Its own process group, so whatever a step leaves running in the background is stopped afterwards.
    const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
    if (child.pid !== undefined) groups.push(child.pid)
    const chunks: Buffer[] = []
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk))
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk))
    child.on('error', fail)
    child.on('close', (code, signal) =>
      done({ exitCode: code ?? (signal ? 128 : 1), log: Buffer.concat(chunks).toString('utf8') }),
    )
  })
}

function toEnvValues(
  values: Record<string, string | number | boolean> | undefined,
  context: ExpressionContext,
) {
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(values ?? {})) env[name] = expand(String(value), context)
  return env
}

interface ActionMetadata {
  inputs?: Record<string, { default?: string; required?: boolean }>
  runs: { using: string; main: string }
}

/** The environment a JavaScript action gets: INPUT_<NAME> for every input, given or defaulted. */
function actionInputs(
  action: ActionMetadata,
  given: Record<string, string>,
  context: ExpressionContext,
): Record<string, string> {
  const env: Record<string, string> = {}
  for (const name of Object.keys(given))
    if (!action.inputs || !(name in action.inputs))
      throw new Error(`input "${name}" is not declared by the action`)
  for (const [name, input] of Object.entries(action.inputs ?? {})) {
    const value = name in given ? given[name] : expand(input.default ?? '', context)
    env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value
  }
  return env
}

/** Runs the steps of `job` in order; stops at the first failed step, as the runner does. */
export async function runWorkflowJob(
  workflowFile: string,
  job: string,
  options: RunOptions,
): Promise<JobResult> {
  const workflow = parse(readFileSync(workflowFile, 'utf8')) as {
    jobs: Record<string, Record<string, unknown>>
  }
  const definition = workflow.jobs[job]
  if (!definition) throw new Error(`${workflowFile} has no job "${job}"`)
  for (const key of ['env', 'defaults', 'container', 'services'])
    if (key in definition)
      throw new Error(`job "${job}": "${key}" is not supported by the local workflow runner`)
  const steps = definition.steps as WorkflowStep[]

  const temp = mkdtempSync(join(tmpdir(), 'kb-sync-workflow-'))
  const context: ExpressionContext = {
    steps: new Map(),
    root: options.root,
    temp: join(temp, 'runner-temp'),
    token: options.github?.token ?? '',
  }
  mkdirSync(context.temp)
  const eventPath = join(temp, 'event.json')
  writeFileSync(eventPath, JSON.stringify(options.eventPayload ?? {}))
  // As on GitHub, the repository the event happened in.
  const repository = (options.eventPayload as { repository?: { full_name?: unknown } } | undefined)
    ?.repository?.full_name
  const groups: number[] = []
  const results: StepResult[] = []
  try {
    for (const [index, step] of steps.entries()) {
      for (const key of Object.keys(step))
        if (!supportedStepKeys.has(key))
          throw new Error(`step ${index + 1}: "${key}" is not supported by the local workflow runner`)
      const label = step.name ?? step.uses ?? step.run?.split('\n')[0] ?? `step ${index + 1}`
      if (step.uses && !step.uses.startsWith('./')) {
        results.push({ label, skipped: true, exitCode: 0, log: '', outputs: {}, summary: '' })
        continue
      }
      const outputFile = join(temp, `output-${index}`)
      const summaryFile = join(temp, `summary-${index}`)
      writeFileSync(outputFile, '')
      writeFileSync(summaryFile, '')
      const env: NodeJS.ProcessEnv = {
        ...inheritedEnv(),
        CI: 'true',
        GITHUB_ACTIONS: 'true',
        GITHUB_WORKSPACE: options.root,
        GITHUB_EVENT_NAME: options.eventName,
        GITHUB_EVENT_PATH: eventPath,
        GITHUB_OUTPUT: outputFile,
        GITHUB_STEP_SUMMARY: summaryFile,
        RUNNER_TEMP: context.temp,
        ...(typeof repository === 'string' ? { GITHUB_REPOSITORY: repository } : {}),
        ...(options.github ? { GITHUB_API_URL: options.github.apiUrl } : {}),
        ...toEnvValues(step.env, context),
      }
      let run: { exitCode: number; log: string }
      if (step.uses) {
        const actionDir = resolve(options.root, step.uses)
        const action = parse(readFileSync(join(actionDir, 'action.yml'), 'utf8')) as ActionMetadata
        if (!/^node\d+$/.test(action.runs.using))
          throw new Error(`${step.uses}: runs.using ${action.runs.using}`)
        const inputs = actionInputs(action, toEnvValues(step.with, context), context)
        run = await runProcess(
          process.execPath,
          [join(actionDir, action.runs.main)],
          { ...env, ...inputs },
          options.root,
          groups,
        )
      } else if (step.run !== undefined) {
        const script = join(temp, `step-${index}.sh`)
        writeFileSync(script, expand(step.run, context))
        run = await runProcess(
          'bash',
          ['--noprofile', '--norc', '-eo', 'pipefail', script],
          env,
          options.root,
          groups,
        )
      } else throw new Error(`step ${index + 1} has neither uses nor run`)
      const outputs = parseOutputFile(readFileSync(outputFile, 'utf8'))
      const outcome = run.exitCode === 0 ? 'success' : 'failure'
      const continues = step['continue-on-error'] === true
      if (step.id)
        context.steps.set(step.id, { outputs, outcome, conclusion: continues ? 'success' : outcome })
      results.push({
        label,
        skipped: false,
        exitCode: run.exitCode,
        log: run.log,
        outputs,
        summary: readFileSync(summaryFile, 'utf8'),
      })
      if (run.exitCode !== 0 && !continues) return { ok: false, steps: results }
    }
    return { ok: true, steps: results }
  } finally {
    for (const group of groups) {
      try {
        process.kill(-group, 'SIGTERM')
      } catch {
        // the group has already ended
      }
    }
    rmSync(temp, { recursive: true, force: true })
  }
}
