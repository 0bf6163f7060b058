// What the stored baseline's key says of the checks (#36 §5): one digest of the checks text and of every
// JSON Schema file a check names, so that a change to either is a new key and the baseline runs again.
import { createHash } from 'node:crypto'
import type { Check } from './schema.js'
import { checksFiles } from './skip-rule.js'
import { readWorkspaceFile } from './source.js'

/**
 * The checks' digest (sha256, hex): the checks text (a file's content, or the inline text), then each JSON
 * Schema file a check names with its content. A schema file that cannot be read (the checks were parsed
 * from it a moment ago, so only a race) is digested as unreadable: the key differs, the baseline runs live.
 */
export function checksDigest(
  text: string,
  checks: readonly Check[],
  workspace: string,
  options: { anywhere?: boolean } = {},
): string {
  const schemas = checksFiles(undefined, checks).map((file) => {
    const read = readWorkspaceFile(file, workspace, options)
    return [file, 'text' in read ? read.text : null]
  })
  return createHash('sha256')
    .update(JSON.stringify([text, schemas]))
    .digest('hex')
}
