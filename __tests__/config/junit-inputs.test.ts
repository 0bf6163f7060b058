// The `junit-file` input: true (a new file in RUNNER_TEMP), false or empty (none), or the path of a .xml
// file relative to the workspace; anything else refused by name before any run.
import { afterAll, describe, expect, it } from '@jest/globals'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { InputReader } from '../../src/config/fields.js'
import { readRunConfig } from '../../src/config/run.js'
import { cliSettingNames } from '../../src/cli/inputs.js'
import { configProblems } from '../helpers/config-problems.js'

const SUITE = '- {name: refunds, inputs: {in-0: refunds?}, contains: 14 days}'
const BASE = { 'org-id': 'org-1', 'flow-id': 'flow-1', 'public-key': 'pk-public-Canary0123456789' }
const workspace = mkdtempSync(join(tmpdir(), 'kb-sync-junit-inputs-'))
writeFileSync(join(workspace, 'a-file'), 'not a folder')
mkdirSync(join(workspace, 'reports.xml'))
afterAll(() => rmSync(workspace, { recursive: true, force: true }))

const reader =
  (inputs: Record<string, string>): InputReader =>
  (name) =>
    (inputs[name] ?? '').trim()

const read = (inputs: Record<string, string>, names?: ReturnType<typeof cliSettingNames>) =>
  readRunConfig(reader({ ...BASE, checks: SUITE, ...inputs }), { eventName: 'push', workspace, names })

function problems(inputs: Record<string, string>, names?: ReturnType<typeof cliSettingNames>) {
  return configProblems(() => read(inputs, names))
}

describe('junit-file', () => {
  it('empty or false: no report', () => {
    expect(read({}).junitFile).toBeUndefined()
    expect(read({ 'junit-file': 'false' }).junitFile).toBeUndefined()
    expect(read({ 'junit-file': 'false', checks: '', inputs: '{"in-0": "q"}' }).junitFile).toBeUndefined()
  })

  it('true: a new file in RUNNER_TEMP each time', () => {
    const before = process.env.RUNNER_TEMP
    process.env.RUNNER_TEMP = join(workspace, 'runner-temp')
    try {
      const first = read({ 'junit-file': 'true' }).junitFile!
      const second = read({ 'junit-file': 'TRUE' }).junitFile!
      expect(dirname(first)).toBe(join(workspace, 'runner-temp'))
      expect(first).toMatch(/kb-sync-junit-[0-9a-f-]{36}\.xml$/)
      expect(second).not.toBe(first)
    } finally {
      if (before === undefined) delete process.env.RUNNER_TEMP
      else process.env.RUNNER_TEMP = before
    }
  })

  it('a .xml path, relative to the workspace, in folders yet to be made', () => {
    expect(read({ 'junit-file': 'reports/kb/checks.xml' }).junitFile).toBe(
      join(workspace, 'reports/kb/checks.xml'),
    )
    expect(read({ 'junit-file': join(workspace, 'abs.XML') }).junitFile).toBe(join(workspace, 'abs.XML'))
  })

  it('refused by name before any run: a word, a folder, a path through a file, without checks', () => {
    expect(problems({ 'junit-file': 'yes' })).toEqual([
      {
        input: 'junit-file',
        message:
          'Input "junit-file" must be true (a new file in RUNNER_TEMP), false, or the path of a .xml file to write, such as reports/kb-checks.xml (got "yes").',
      },
    ])
    expect(problems({ 'junit-file': 'reports.xml' })).toEqual([
      {
        input: 'junit-file',
        message: `Input "junit-file": cannot write ${join(workspace, 'reports.xml')} (it is a folder).`,
      },
    ])
    expect(problems({ 'junit-file': 'a-file/checks.xml' })).toEqual([
      {
        input: 'junit-file',
        message: `Input "junit-file": cannot write ${join(workspace, 'a-file/checks.xml')} (${join(workspace, 'a-file')} is not a folder).`,
      },
    ])
    expect(problems({ 'junit-file': 'true', checks: '', inputs: '{"in-0": "q"}' })).toEqual([
      {
        input: 'junit-file',
        message: 'Input "junit-file" applies to "checks" only: it reports a suite of checks.',
      },
    ])
  })

  it('the CLI names its flag', () => {
    const names = cliSettingNames({ junitFile: 'report.txt' })
    expect(problems({ 'junit-file': 'report.txt' }, names)[0].message).toMatch(/^--junit-file must be true/)
  })
})
