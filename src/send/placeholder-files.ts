// Placeholders are sent like any document: written to a private temp folder first, so the sender's
// read guard, retries and resends work on them unchanged. The folder is removed after sending.
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { PlaceholderDocument, SelectedFile } from '../model.js'
import { reasonOf, tempFolder, unusableFolder, type TempFolder } from '../temp-folder.js'

export interface PlaceholderFiles {
  /** In the order given; each named by its document, read from the temp folder. */
  files: SelectedFile[]
  /** Removes the temp folder (idempotent). */
  remove(): Promise<void>
}

/** The placeholders could not be written: the cause of each removal, naming the folder to fix. */
export class PlaceholderFilesError extends Error {
  constructor(folder: TempFolder, error: unknown) {
    super(`its placeholder could not be written (${reasonOf(error)}): ${unusableFolder(folder)}`)
    this.name = 'PlaceholderFilesError'
  }
}

/**
 * Writes each placeholder to its own file below `parent` (RUNNER_TEMP on a runner, else the OS's). Throws
 * a PlaceholderFilesError when the folder cannot hold them.
 */
export async function writePlaceholderFiles(
  placeholders: readonly PlaceholderDocument[],
  parent: TempFolder = tempFolder(),
): Promise<PlaceholderFiles> {
  if (placeholders.length === 0) return { files: [], remove: () => Promise.resolve() }
  let dir: string
  try {
    dir = await mkdtemp(path.join(parent.path, 'kb-sync-placeholders-'))
  } catch (error) {
    throw new PlaceholderFilesError(parent, error)
  }
  const remove = () => rm(dir, { recursive: true, force: true })
  try {
    const files: SelectedFile[] = []
    // Numbered, not named: a document name may hold anything a path cannot.
    for (const [index, placeholder] of placeholders.entries()) {
      const file = path.join(dir, String(index))
      await writeFile(file, placeholder.content, { mode: 0o600 })
      const stats = await stat(file)
      files.push({ name: placeholder.name, path: file, size: stats.size })
    }
    return { files, remove }
  } catch (error) {
    await remove()
    throw new PlaceholderFilesError(parent, error)
  }
}
