// Where the checks come from: the `checks` input is either a file in the repository or the checks text
// itself. A single line that does not start like YAML/JSON content is taken as a path.
import { readFileSync, realpathSync, statSync } from 'node:fs'
import { isAbsolute, relative, resolve } from 'node:path'

// A checks file (or a JSON Schema it names) is a few kilobytes; anything near this is a mistake (a
// wrong path), not a suite.
const MAX_CHECKS_FILE_BYTES = 1024 * 1024

export type ChecksSource = { text: string; origin: string } | { problem: string }

function looksInline(value: string): boolean {
  return value.includes('\n') || /^[[{-]/.test(value)
}

/**
 * The text of the file `value` names, or why it cannot be read. The action keeps a path inside
 * `workspace` (it runs on a repository's files), links resolved; `anywhere` (the CLI, run by a person on
 * their own machine) reads any path, relative ones from `workspace`.
 */
export function readWorkspaceFile(
  value: string,
  workspace: string,
  options: { anywhere?: boolean } = {},
): { text: string } | { problem: string } {
  if (isAbsolute(value) && !options.anywhere)
    return { problem: `must be a path relative to the workspace (got "${value}")` }
  const path = resolve(workspace, value)
  let real: string
  try {
    real = realpathSync(path)
  } catch {
    return {
      problem: options.anywhere
        ? `names the file "${value}", which does not exist`
        : `names the file "${value}", which does not exist in the workspace ${workspace}: did the job run ` +
          'actions/checkout before this step? (The workspace is empty until it does.)',
    }
  }
  if (!options.anywhere) {
    const inside = relative(realpathSync(workspace), real)
    if (inside === '' || inside.startsWith('..') || isAbsolute(inside))
      return { problem: `names "${value}", which is outside the workspace` }
  }
  const stat = statSync(real)
  if (!stat.isFile()) return { problem: `names "${value}", which is not a regular file` }
  if (stat.size > MAX_CHECKS_FILE_BYTES) return { problem: `names "${value}", which is larger than 1 MiB` }
  return { text: readFileSync(real, 'utf8') }
}

/** The checks text and where it came from, or why it cannot be read (see readWorkspaceFile). */
export function readChecksSource(
  value: string,
  workspace: string,
  options: { anywhere?: boolean } = {},
): ChecksSource {
  if (looksInline(value)) return { text: value, origin: 'inline' }
  if (isAbsolute(value) && !options.anywhere)
    return { problem: `must be a path relative to the workspace or inline checks (got "${value}")` }
  const file = readWorkspaceFile(value, workspace, options)
  return 'problem' in file ? file : { text: file.text, origin: value }
}
