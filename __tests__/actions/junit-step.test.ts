// The run-flow step's JUnit report: written and named by the `junit-file` output, or, when it cannot be
// written, an empty output and an error naming the input and the file for the step to fail with.
import { afterAll, describe, expect, it } from '@jest/globals'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { writeJUnitStep } from '../../src/actions/junit-step.js'
import { StepOutputsError } from '../../src/actions/step-outputs.js'
import type { RunConfig } from '../../src/config/run.js'
import { recordingLog } from '../helpers/log.js'

const dir = mkdtempSync(join(tmpdir(), 'kb-sync-junit-step-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const flow = { orgId: 'org-1', flowId: 'flow-1' }
const config = (junitFile?: string) => ({ target: flow, junitFile }) as unknown as RunConfig
const skipped = {
  kind: 'skipped' as const,
  input: { names: ['a'], reason: 'nothing changed', flow, startedAt: new Date(0) },
}

describe('writeJUnitStep', () => {
  it('none asked: the output is empty', async () => {
    const { log } = recordingLog()
    expect(await writeJUnitStep(config(), log, skipped)).toEqual({
      specs: [{ name: 'junit-file', exact: '' }],
    })
  })

  it('written: the output names the file, and the log says where', async () => {
    const { log, of } = recordingLog()
    const path = join(dir, 'report.xml')
    expect(await writeJUnitStep(config(path), log, skipped)).toEqual({
      specs: [{ name: 'junit-file', exact: path }],
    })
    expect(existsSync(path)).toBe(true)
    expect(of('info').map((line) => line.message)).toContain(`JUnit report: ${path}`)
  })

  it('not writable: an empty output, and an error naming the input and the file', async () => {
    writeFileSync(join(dir, 'a-file'), '')
    const path = join(dir, 'a-file', 'report.xml')
    const { log } = recordingLog()
    const step = await writeJUnitStep(config(path), log, skipped)
    expect(step.specs).toEqual([{ name: 'junit-file', exact: '' }])
    expect(step.error).toBeInstanceOf(StepOutputsError)
    expect(step.error?.message).toMatch(
      new RegExp(
        `^Input "junit-file": The report file ${path} could not be written \\((EEXIST|ENOTDIR)\\)\\.`,
      ),
    )
  })
})
