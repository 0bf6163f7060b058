// Config problems worded at the source: the CLI's names (flags, the variable a key came from) where the
// CLI reads the config, the actions' input names where an action does; no text rewritten afterwards.
import { afterEach, describe, expect, it } from '@jest/globals'
import { ConfigError } from '../../src/config/errors.js'
import { readIndexConfig } from '../../src/config/index-config.js'
import { readRunConfig } from '../../src/config/run.js'
import { cliSettingNames, inputReader, type Flags } from '../../src/cli/inputs.js'
import { makeWorkspace } from '../helpers/workspace.js'

function problems(read: () => unknown): string[] {
  try {
    read()
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.map((problem) => problem.message)
    throw error
  }
  throw new Error('expected a ConfigError')
}

const savedKeys = { private: process.env.KB_SYNC_PRIVATE_KEY, public: process.env.KB_SYNC_PUBLIC_KEY }
afterEach(() => {
  for (const [name, value] of [
    ['KB_SYNC_PRIVATE_KEY', savedKeys.private],
    ['KB_SYNC_PUBLIC_KEY', savedKeys.public],
  ] as const)
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
})

const cliIndex = (flags: Flags) =>
  readIndexConfig(inputReader(flags), { eventName: '', names: cliSettingNames(flags) })
const cliRun = (flags: Flags, extra: { workspace?: string; checksAnywhere?: boolean } = {}) =>
  readRunConfig(inputReader(flags), { eventName: '', names: cliSettingNames(flags), ...extra })

describe('kb-sync index: problems name flags and variables', () => {
  it('names each flag, and the variable a missing key is read from', () => {
    delete process.env.KB_SYNC_PRIVATE_KEY
    const found = problems(() => cliIndex({ orgId: 'org-1', nodeId: '..', batchSize: '0' }))
    expect(found).toEqual([
      '--flow-id is required.',
      expect.stringMatching(/^--node-id /),
      '--batch-size must be a whole number from 1 to 100 (got "0").',
      '--files and --urls are both empty and so is --sitemaps: give at least one file pattern, URL or sitemap.',
      'KB_SYNC_PRIVATE_KEY (or --private-key) is required (unless --dry-run is given).',
    ])
    for (const message of found) expect(message).not.toMatch(/\bInputs? "/)
  })

  it('a bad key names where it came from: the variable, or the flag when one was given', () => {
    const base = { flowId: 'f', orgId: 'o', nodeId: 'n', files: 'x' }
    process.env.KB_SYNC_PRIVATE_KEY = 'two words'
    expect(problems(() => cliIndex(base))[0]).toMatch(
      /^KB_SYNC_PRIVATE_KEY \(or --private-key\) must be one line/,
    )
    expect(problems(() => cliIndex({ ...base, privateKey: 'two words' }))[0]).toMatch(
      /^--private-key must be one line/,
    )
  })

  it('--flow-inputs without a flow key', () => {
    delete process.env.KB_SYNC_PUBLIC_KEY
    const flags = { flowId: 'f', orgId: 'o', nodeId: 'n', files: 'x', privateKey: 'k', flowInputs: '[]' }
    expect(problems(() => cliIndex(flags))).toEqual([
      '--flow-inputs must be a JSON object such as {"in-0": "..."} (got an array).',
      'KB_SYNC_PUBLIC_KEY (or --public-key) is required when --flow-inputs is set (the flow runs after indexing).',
    ])
  })

  it("the action's words are unchanged where no names are given", () => {
    const read = (name: string) => ({ 'org-id': 'o', files: 'x' })[name] ?? ''
    expect(problems(() => readIndexConfig(read, { eventName: 'push' }))).toEqual([
      'Input "flow-id" is required.',
      'Input "node-id" is required.',
      'Input "private-key" is required (unless "dry-run" is true).',
    ])
  })
})

describe('kb-sync run: --question and --checks', () => {
  const ids = { flowId: 'f', orgId: 'o', publicKey: 'pk' }

  it('--question TEXT is the flow input in-0', () => {
    const config = cliRun({ ...ids, question: 'What is "new"?\nAnd why?' })
    expect({ ...config.inputs }).toEqual({ 'in-0': 'What is "new"?\nAnd why?' })
  })

  it('without a question: one line naming both ways to give it', () => {
    expect(problems(() => cliRun(ids))).toEqual([
      '--question (or --inputs) is required (a JSON object such as {"in-0": "..."}) unless --checks is set.',
    ])
  })

  it('--question or --inputs with --checks: named as given', () => {
    const checks = '- name: a\n  inputs: {in-0: q}\n'
    expect(problems(() => cliRun({ ...ids, question: 'q', checks }))).toEqual([
      '--question and --checks are exclusive: give one question or a suite of checks.',
    ])
    expect(problems(() => cliRun({ ...ids, inputs: '{"in-0": "q"}', checks }))).toEqual([
      '--inputs and --checks are exclusive: give one question or a suite of checks.',
    ])
  })

  it('--checks reads a file at any path on the CLI; the action keeps it inside the workspace', () => {
    const outside = makeWorkspace({ 'checks.yml': '- name: a\n  inputs: {in-0: q}\n' })
    const workspace = makeWorkspace({})
    try {
      const path = `${outside.dir}/checks.yml`
      const config = cliRun({ ...ids, checks: path }, { workspace: workspace.dir, checksAnywhere: true })
      expect(config.checks?.map((check) => check.name)).toEqual(['a'])
      expect(problems(() => cliRun({ ...ids, checks: path }, { workspace: workspace.dir }))).toEqual([
        expect.stringMatching(/^--checks must be a path relative to the workspace/),
      ])
      expect(
        problems(() =>
          cliRun(
            { ...ids, checks: '../nowhere/checks.yml' },
            { workspace: workspace.dir, checksAnywhere: true },
          ),
        ),
      ).toEqual(['--checks names the file "../nowhere/checks.yml", which does not exist.'])
    } finally {
      outside.remove()
      workspace.remove()
    }
  })
})
