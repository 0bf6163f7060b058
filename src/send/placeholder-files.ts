// Placeholders are sent like any document: written to a private temp folder first, so the sender's
// read guard, retries and resends work on them unchanged. The folder is removed after sending.
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { PlaceholderDocument, SelectedFile } from '../model.js'

export interface PlaceholderFiles {
  /** In the order given; each named by its document, read from the temp folder. */
  files: SelectedFile[]
  /** Removes the temp folder (idempotent). */
  remove(): Promise<void>
}

/** Writes each placeholder to its own file below `parent` (RUNNER_TEMP on a runner, else the OS's). */
export async function writePlaceholderFiles(
  placeholders: readonly PlaceholderDocument[],
  parent = process.env.RUNNER_TEMP || os.tmpdir(),
): Promise<PlaceholderFiles> {
  if (placeholders.length === 0) return { files: [], remove: () => Promise.resolve() }
  const dir = await mkdtemp(path.join(parent, 'kb-sync-placeholders-'))
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
    throw error
  }
}
