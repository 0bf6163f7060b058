// The `junit-file` input (#36 §3): where the checks suite's JUnit XML report goes. `true` makes a new file
// in RUNNER_TEMP; a path names the file (relative to the workspace), its folders made when missing. A test
// reporter's pattern looks for `.xml`, so a path must end in it: a mistyped `yes` is refused, not written.
import { randomUUID } from 'node:crypto'
import { accessSync, constants, statSync, type Stats } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { reasonOf, tempFolder } from '../temp-folder.js'
import { quoted } from './errors.js'
import type { InputFields } from './fields.js'

const INPUT = 'junit-file'

function statOf(path: string): Stats | { problem: string } | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false })
  } catch (error) {
    // A path through a file: Node 20 throws ENOTDIR where Node 24 answers "no entry"; the walk up then
    // names the file in the way, on both.
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined
    return { problem: reasonOf(error) }
  }
}

/** Why the file cannot be written there, or undefined: checked before any run is paid for. */
function pathProblem(path: string): string | undefined {
  const stats = statOf(path)
  if (stats && 'problem' in stats) return stats.problem
  if (stats?.isDirectory()) return 'it is a folder'
  // The folders that do not exist yet are made: the nearest one that does must be a folder.
  let folder = dirname(path)
  for (;;) {
    const found = statOf(folder)
    if (found && 'problem' in found) return found.problem
    if (found) {
      if (!found.isDirectory()) return `${folder} is not a folder`
      break
    }
    if (dirname(folder) === folder) break
    folder = dirname(folder)
  }
  try {
    accessSync(stats ? path : folder, constants.W_OK)
  } catch (error) {
    return reasonOf(error)
  }
  return undefined
}

/** The report's absolute path, or undefined when none is asked (empty or `false`). */
export function readJUnitFile(
  fields: InputFields,
  workspace: string,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const value = fields.raw(INPUT)
  if (value === '' || /^false$/i.test(value)) return undefined
  const names = fields.names
  if (fields.raw('checks') === '') {
    fields.problem(
      INPUT,
      `${names.subject(INPUT)} applies to ${names.ref('checks')} only: it reports a suite of checks.`,
    )
    return undefined
  }
  if (/^true$/i.test(value)) return join(tempFolder(env).path, `kb-sync-junit-${randomUUID()}.xml`)
  if (!/\.xml$/i.test(value) || value.includes('\0')) {
    fields.problem(
      INPUT,
      `${names.subject(INPUT)} must be true (a new file in RUNNER_TEMP), false, or the path of a .xml file ` +
        `to write, such as reports/kb-checks.xml (got ${quoted(value)}).`,
    )
    return undefined
  }
  const path = resolve(workspace, value)
  const problem = pathProblem(path)
  if (problem) fields.problem(INPUT, `${names.subject(INPUT)}: cannot write ${path} (${problem}).`)
  return path
}
