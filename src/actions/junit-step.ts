// The `junit-file` report of a run-flow step (#36 §3): written before the outputs, which name it. A file
// that cannot be written fails the step once the summary and the comment are out, like the outputs.
import type { RunConfig } from '../config/run.js'
import type { Logger } from '../log.js'
import { writeJUnitFile, type JUnitReport } from '../report/junit-file.js'
import type { OutputSpec } from '../report/output-budget.js'
import { ReportFileError } from '../report/report-file.js'
import { StepOutputsError } from './step-outputs.js'

export interface JUnitStep {
  /** The `junit-file` output: the file's path, '' when none was asked or it could not be written. */
  specs: OutputSpec[]
  /** Why the file asked for could not be written; thrown by the step at its end. */
  error?: StepOutputsError
}

export async function writeJUnitStep(
  config: RunConfig,
  log: Logger,
  report: JUnitReport,
): Promise<JUnitStep> {
  const path = config.junitFile
  if (path === undefined) return { specs: [{ name: 'junit-file', exact: '' }] }
  try {
    await writeJUnitFile(path, report, log.secrets)
  } catch (error) {
    if (!(error instanceof ReportFileError)) throw error
    return {
      specs: [{ name: 'junit-file', exact: '' }],
      error: new StepOutputsError(
        `Input "junit-file": ${error.message} The outputs and the summary were written.`,
      ),
    }
  }
  log.info(`JUnit report: ${path}`)
  return { specs: [{ name: 'junit-file', exact: path }] }
}
