// A selected file at its own name in the workspace: the record kept for every selected document from
// selection to outcome, so it holds the name once and makes the path when it is read.
import path from 'node:path'
import type { SelectedFile } from '../model.js'

/**
 * A file whose real path is the workspace's real path and its name (not reached through a link): the
 * path is not stored beside the name but made from the two when it is read (opening the file). It is an
 * own, enumerable property like a stored one, so a copy (`{...file}`) or JSON has it.
 */
export class WorkspaceFile implements SelectedFile {
  // Declared, not defined as fields: the constructor sets them in the order a stored record has them.
  declare readonly name: string
  declare readonly path: string
  declare size: number

  constructor(root: string, name: string, size: number) {
    this.name = ownString(name)
    Object.defineProperty(this, 'path', pathOf(root))
    this.size = size
  }

  /** Whether `real` is `root`/`name` on this system, so that a WorkspaceFile can stand for it. */
  static fits(root: string, name: string, real: string): boolean {
    return (
      path.sep === '/' &&
      real.length === root.length + 1 + name.length &&
      real.startsWith(root) &&
      real[root.length] === '/' &&
      real.endsWith(name)
    )
  }
}

/**
 * The `path` property of the files of one root: the root is held by the getter, one per root, not by every
 * file (8 bytes a document), and files of one root share one shape as they share the getter.
 */
let lastRoot: { root: string; descriptor: PropertyDescriptor } | undefined
function pathOf(root: string): PropertyDescriptor {
  if (lastRoot?.root !== root) {
    const descriptor = {
      get(this: WorkspaceFile): string {
        return `${root}/${this.name}`
      },
      enumerable: true,
    }
    lastRoot = { root, descriptor }
  }
  return lastRoot.descriptor
}

/**
 * The name as a string of its own. A name cut from its path (`slice`) is, in V8, a view that keeps the
 * whole path alive (~100 bytes a document with the view); a copy is ~40. A view is made only from 13
 * characters up, and a JSON round trip copies every code unit as it is (lone surrogates included).
 */
function ownString(text: string): string {
  return text.length < 13 ? text : (JSON.parse(JSON.stringify(text)) as string)
}
