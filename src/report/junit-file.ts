// Writes the JUnit report (`junit-file`): the XML rendered from the results with the keys masked first
// (rendering escapes text, after which a key would no longer be found), then masked again whole.
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { RunConfig } from '../config/run.js'
import type { Secrets } from '../log.js'
import { reasonOf } from '../temp-folder.js'
import {
  renderChecksJUnit,
  renderSkippedJUnit,
  type ChecksJUnitInput,
  type SkippedJUnitInput,
} from './checks-junit.js'
import { redactDeep } from './redact.js'
import { ReportFileError } from './report-file.js'

export type JUnitReport =
  { kind: 'checks'; input: ChecksJUnitInput } | { kind: 'skipped'; input: SkippedJUnitInput }

/** Writes the report to `path` (its folders made); throws a ReportFileError naming the file. */
export async function writeJUnitFile(path: string, report: JUnitReport, secrets: Secrets): Promise<void> {
  const xml =
    report.kind === 'checks'
      ? renderChecksJUnit(redactDeep(report.input, secrets))
      : renderSkippedJUnit(redactDeep(report.input, secrets))
  try {
    await mkdir(dirname(path), { recursive: true })
    await writeFile(path, secrets.redact(xml))
  } catch (error) {
    throw new ReportFileError(path, reasonOf(error))
  }
}

/** What the report names of the run's settings: the flow, the baseline and judge flows, the checks file. */
export function junitTargetsOf(
  config: RunConfig,
): Pick<ChecksJUnitInput, 'flow' | 'baseline' | 'judge' | 'checksFile'> {
  return {
    flow: config.target,
    ...(config.baseline ? { baseline: config.baseline } : {}),
    ...(config.judge ? { judge: config.judge.target } : {}),
    ...(config.checksFile !== undefined ? { checksFile: config.checksFile } : {}),
  }
}
