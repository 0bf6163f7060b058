// Skip when irrelevant: in a pull_request event whose pull request changes none of the selected documents
// (the index step's `pull-request-changed` output, given as `documents-changed`) and none of the files the
// checks read (the checks file, the JSON Schema files its checks name), a new run would measure what the
// last one measured, so the flow is not run again. Pure: the caller finds the facts (the files' changes
// from change detection) and acts on the decision.
import path from 'node:path'
import type { Check } from './schema.js'
import type { ChangeDecision } from '../model.js'

/** Which of the checks' files this pull request changes, or why that cannot be told. */
export type ChecksFilesChange = { known: true; changed: string[] } | { known: false; why: string }

export type SkipDecision =
  /** `reason`: the notice, the summary and the log say it as it is. */
  | { skip: true; reason: string }
  /** `why` the run goes ahead; `unknown`: because the rule could not be applied (a warning). */
  | { skip: false; why: string; unknown?: true }

/** Only a pull_request event whose pull request changes no selected document may skip. */
export function documentsAllowSkip(eventName: string, documentsChanged: number | undefined): boolean {
  return eventName === 'pull_request' && documentsChanged === 0
}

/** A file as change detection names it: relative to the workspace, `/`-separated, no `./`. */
export function workspaceName(file: string): string {
  return path.posix.normalize(file.replace(/\\/g, '/')).replace(/^(\.\/)+/, '')
}

/**
 * The files the checks read, as the inputs name them: the checks file (absent for inline checks), then
 * each JSON Schema file a check names, once each.
 */
export function checksFiles(checksFile: string | undefined, checks: readonly Check[] = []): string[] {
  const files = new Map<string, string>()
  for (const file of [checksFile, ...checks.map((check) => check.jsonSchema?.file)])
    if (file !== undefined && !files.has(workspaceName(file))) files.set(workspaceName(file), file)
  return [...files.values()]
}

/** Which of `files` a change set holds (a folder whose changes are unknown above one counts as holding it). */
export function checksFilesChange(decision: ChangeDecision, files: readonly string[]): ChecksFilesChange {
  if (decision.kind === 'all') return { known: false, why: decision.reason }
  if (decision.kind === 'none') return { known: true, changed: [] }
  const named = new Set([...decision.added, ...decision.modified, ...decision.removed])
  const changed = files.filter((file) => {
    const name = workspaceName(file)
    return named.has(name) || (decision.everythingUnder ?? []).some((folder) => name.startsWith(`${folder}/`))
  })
  return { known: true, changed }
}

/** `a`, `a or b`, `a, b or c` (or the same with `and`). */
function listed(files: readonly string[], joiner: 'or' | 'and'): string {
  return files.length <= 1
    ? (files[0] ?? '')
    : `${files.slice(0, -1).join(', ')} ${joiner} ${files[files.length - 1]}`
}

/**
 * The rule once the documents allow a skip (documentsAllowSkip): skip unless one of the checks' files
 * changed; when whether they changed is unknown, run, with a warning. `what` names the step's work ("Flow
 * checks").
 */
export function decideSkip(
  what: string,
  files: readonly string[] = [],
  change?: ChecksFilesChange,
): SkipDecision {
  const skip = (nor: string): SkipDecision => ({
    skip: true,
    reason:
      `${what} skipped: this pull request changes none of the selected documents${nor}; the last result ` +
      'still holds for the documents it measured.',
  })
  if (files.length === 0) return skip('')
  if (change === undefined || !change.known)
    return {
      skip: false,
      unknown: true,
      why:
        `${what} not skipped: this pull request changes none of the selected documents, but whether it ` +
        `changes ${listed(files, 'or')} is unknown (${change?.why ?? 'not looked up'}).`,
    }
  if (change.changed.length === 0) return skip(` nor ${listed(files, 'or')}`)
  return {
    skip: false,
    why: `${what} not skipped: this pull request changes none of the selected documents, but it changes ${listed(change.changed, 'and')}.`,
  }
}
