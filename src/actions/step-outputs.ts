// The outputs of an action step: the full result to a report file in RUNNER_TEMP, then every output
// within the step's budget through GITHUB_OUTPUT. Outputs are the contract with later steps: when either
// cannot be written, the step fails with an error naming the file and saying what the step did.
import * as core from '@actions/core'
import type { Logger } from '../log.js'
import {
  describeCuts,
  fileFields,
  fitOutputs,
  redactSpecs,
  type OutputSpec,
} from '../report/output-budget.js'
import { ReportFileError, reportFilePath, writeReportFile } from '../report/report-file.js'
import { reasonOf } from '../temp-folder.js'
import { tempFolder, unusableFolder } from '../temp-folder.js'

export interface StepOutputsOptions {
  /** UTF-16 code units for all outputs (the `outputs-budget` input). */
  budget: number
  /** The output that names the report file: `report-file` (index) or `results-file` (run-flow). */
  fileOutput: 'report-file' | 'results-file'
  /** What the step did, in words with counts, for an error ("uploaded 3, updated 0, …"). */
  done: string
}

/** GITHUB_OUTPUT could not be written; the message names the file and what the step did. */
export class StepOutputsError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'StepOutputsError'
  }
}

/**
 * Writes the report file and the outputs; returns the report file's path ('' when it could not be
 * written). Throws a StepOutputsError after writing all it could.
 */
export async function writeStepOutputs(
  specs: readonly OutputSpec[],
  log: Logger,
  options: StepOutputsOptions,
): Promise<string> {
  const redacted = redactSpecs(specs, log.secrets)
  let file = reportFilePath(options.fileOutput === 'report-file' ? 'report' : 'results')
  let fileProblem: string | undefined
  try {
    await writeReportFile(file, fileFields(redacted))
  } catch (error) {
    if (!(error instanceof ReportFileError)) throw error
    // The file's name is new and its own: what fails is the folder it is made in.
    fileProblem = `${error.message} ${unusableFolder(tempFolder())}.`
    file = ''
  }
  const fitted = fitOutputs(
    [...redacted, { name: options.fileOutput, exact: file }],
    options.budget,
    options.fileOutput,
  )
  const cuts = describeCuts(
    fitted,
    options.budget,
    file ? `the report file ${file}` : 'no file (see the error)',
  )
  if (cuts) log.warning(cuts)
  const outputFile = process.env.GITHUB_OUTPUT
  try {
    for (const output of fitted) core.setOutput(output.name, output.value)
  } catch (error) {
    throw new StepOutputsError(
      `The step outputs could not be written to ${outputFile || '(no GITHUB_OUTPUT)'} (GITHUB_OUTPUT: ${reasonOf(error)}), ` +
        `so later steps cannot read them. This step: ${options.done}.` +
        (file ? ` The report file ${file} holds every output.` : fileProblem ? ` ${fileProblem}` : ''),
    )
  }
  if (fileProblem)
    throw new StepOutputsError(
      `${fileProblem} This step: ${options.done}. The outputs were written` +
        (cuts ? ', but cut: what they left out is nowhere else.' : ' whole.'),
    )
  return file
}
