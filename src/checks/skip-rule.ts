// Skip when irrelevant: in a pull_request event whose pull request changes none of the selected documents
// (the index step's `pull-request-changed` output, given as `documents-changed`) and not the checks file,
// a new run would measure what the last one measured, so the flow is not run again. Pure: the caller
// finds the facts (the checks file's change from change detection) and acts on the decision.
import path from 'node:path'
import type { ChangeDecision } from '../model.js'

/** Whether this pull request changes the checks file, or why that cannot be told. */
export type ChecksFileChange = { known: true; changed: boolean } | { known: false; why: string }

export type SkipDecision =
  /** `reason`: the notice, the summary and the log say it as it is. */
  | { skip: true; reason: string }
  /** `why` the run goes ahead; `unknown`: because the rule could not be applied (a warning). */
  | { skip: false; why: string; unknown?: true }

/** Only a pull_request event whose pull request changes no selected document may skip. */
export function documentsAllowSkip(eventName: string, documentsChanged: number | undefined): boolean {
  return eventName === 'pull_request' && documentsChanged === 0
}

/** The checks file as change detection names it: relative to the workspace, `/`-separated, no `./`. */
export function workspaceName(file: string): string {
  return path.posix.normalize(file.replace(/\\/g, '/')).replace(/^(\.\/)+/, '')
}

/** Whether a change set holds the checks file (or a folder whose changes are unknown above it). */
export function checksFileChange(decision: ChangeDecision, file: string): ChecksFileChange {
  if (decision.kind === 'all') return { known: false, why: decision.reason }
  if (decision.kind === 'none') return { known: true, changed: false }
  const name = workspaceName(file)
  const named = [...decision.added, ...decision.modified, ...decision.removed].includes(name)
  const below = (decision.everythingUnder ?? []).some((folder) => name.startsWith(`${folder}/`))
  return { known: true, changed: named || below }
}

/**
 * The rule once the documents allow a skip (documentsAllowSkip): skip unless the checks file changed;
 * when whether it changed is unknown, run, with a warning. `what` names the step's work ("Flow checks").
 */
export function decideSkip(what: string, checksFile?: string, change?: ChecksFileChange): SkipDecision {
  const skip = (nor: string): SkipDecision => ({
    skip: true,
    reason:
      `${what} skipped: this pull request changes none of the selected documents${nor}; the last result ` +
      'still holds for the documents it measured.',
  })
  if (checksFile === undefined) return skip('')
  if (change === undefined || !change.known)
    return {
      skip: false,
      unknown: true,
      why:
        `${what} not skipped: this pull request changes none of the selected documents, but whether it ` +
        `changes ${checksFile} is unknown (${change?.why ?? 'not looked up'}).`,
    }
  if (!change.changed) return skip(` nor ${checksFile}`)
  return {
    skip: false,
    why: `${what} not skipped: this pull request changes none of the selected documents, but it changes ${checksFile}.`,
  }
}
