// The runner does not check a local action's inputs against the code: this test does.
import { describe, expect, test } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'
import { INDEX_DEFAULTS, INDEX_INPUTS } from '../src/config/index-config.js'
import { RUN_DEFAULTS, RUN_INPUTS } from '../src/config/run-inputs.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')

interface Metadata {
  name: string
  description: string
  branding?: { icon: string; color: string }
  inputs: Record<string, { description?: string; default?: unknown; required?: boolean }>
  outputs: Record<string, { description?: string }>
  runs: { using: string; main: string }
}

function metadata(file: string): Metadata {
  return parse(readFileSync(join(ROOT, file), 'utf8')) as Metadata
}

const BRANDING_COLORS = ['white', 'black', 'yellow', 'blue', 'green', 'orange', 'red', 'purple', 'gray-dark']

const actions = [
  {
    file: 'action.yml',
    name: 'Knowledge Base Sync',
    inputs: INDEX_INPUTS,
    defaults: { ...INDEX_DEFAULTS, 'github-token': '${{ github.token }}' },
    required: ['flow-id', 'org-id', 'node-id'],
    outputs: [
      'uploaded',
      'updated',
      'skipped',
      'failed',
      'removed',
      'left',
      'uploaded-count',
      'updated-count',
      'skipped-count',
      'failed-count',
      'removed-count',
      'left-count',
      'report-file',
      'base',
      'base-source',
      'record',
      'shard',
      'pull-request-changed',
      'planned',
      'planned-count',
      'result',
      'response',
      'outputs',
    ],
    bundle: 'dist/index.js',
  },
  {
    file: 'run-flow/action.yml',
    name: 'Run Flow',
    inputs: RUN_INPUTS,
    defaults: { ...RUN_DEFAULTS, 'github-token': '${{ github.token }}' },
    required: ['org-id', 'flow-id'],
    outputs: [
      'result',
      'response',
      'outputs',
      'passed',
      'failed',
      'fixed',
      'regressed',
      'fixed-count',
      'regressed-count',
      'results',
      'results-file',
      'junit-file',
      'skipped',
    ],
    bundle: 'dist/run-flow/index.js',
  },
]

describe.each(actions)('$file', (action) => {
  const meta = metadata(action.file)

  test('is named and branded', () => {
    expect(meta.name).toBe(action.name)
    expect(meta.description).toEqual(expect.any(String))
    expect(meta.branding?.icon).toMatch(/^[a-z0-9-]+$/)
    expect(BRANDING_COLORS).toContain(meta.branding?.color)
  })

  test('declares exactly the inputs the code reads, in the same order', () => {
    expect(Object.keys(meta.inputs)).toEqual([...action.inputs])
  })

  test('every input and output has a one-line description', () => {
    for (const entry of [...Object.values(meta.inputs), ...Object.values(meta.outputs)]) {
      expect(entry.description).toEqual(expect.stringMatching(/^[^\n]+$/))
    }
  })

  test('defaults are the code defaults, as strings', () => {
    const declared = Object.fromEntries(
      Object.entries(meta.inputs)
        .filter(([, input]) => input.default !== undefined)
        .map(([name, input]) => [name, input.default]),
    )
    expect(declared).toEqual(action.defaults)
  })

  test('only the inputs without which nothing can run are required', () => {
    const required = Object.entries(meta.inputs)
      .filter(([, input]) => input.required === true)
      .map(([name]) => name)
    expect(required).toEqual(action.required)
  })

  test('declares its outputs', () => {
    expect(Object.keys(meta.outputs)).toEqual(action.outputs)
  })

  test('runs the bundle on node24', () => {
    expect(meta.runs.using).toBe('node24')
    // `main` is relative to the folder of action.yml (actions/cache uses ../dist/restore/index.js).
    expect(normalize(join(dirname(action.file), meta.runs.main))).toBe(normalize(action.bundle))
  })
})
