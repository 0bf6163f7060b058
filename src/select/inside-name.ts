// Whether a path lies inside the workspace, and its document name there. Every candidate file passes
// through here, so the usual case (a clean path below the root) is answered without path.relative.
import path from 'node:path'

/** A `.`, `..` or empty segment, or a leading or trailing separator: what path.normalize would change. */
const UNNORMALISED = /(?:^|[\\/])\.{1,2}(?:[\\/]|$)|[\\/]{2}|^[\\/]|[\\/]$/

/** The workspace-relative name with `/`, or undefined when the path is not inside the workspace. */
export function insideName(root: string, target: string): string | undefined {
  // Fast path for the usual candidate, a clean path below the root (path.relative resolves both paths
  // again: ~4 µs a file); anything else takes the general answer below.
  const prefix = root.endsWith(path.sep) ? root : root + path.sep
  if (target.startsWith(prefix)) {
    const rest = target.slice(prefix.length)
    if (rest !== '' && !UNNORMALISED.test(rest))
      return path.sep === '/' ? rest : rest.split(path.sep).join('/')
  }
  const relative = path.relative(root, target)
  if (path.isAbsolute(relative) || relative.split(path.sep)[0] === '..') return undefined
  return relative.split(path.sep).join('/')
}
