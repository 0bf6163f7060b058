// The step's full result as a JSON file: every output uncut, under the same names, for a later step or
// actions/upload-artifact. Written piece by piece: 100,000 names never become one string in memory.
import { randomUUID } from 'node:crypto'
import { open } from 'node:fs/promises'
import { join } from 'node:path'
import { reasonOf, tempFolder } from '../temp-folder.js'

/** A field of the file: a list is written item by item, anything else as one JSON value. */
export type ReportField = readonly [name: string, value: unknown]

// Pieces are gathered up to this size before each write.
const CHUNK_CHARS = 64 * 1024

/** A new file name in RUNNER_TEMP (the OS's temporary folder off a runner), unique per step. */
export function reportFilePath(kind: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(tempFolder(env).path, `kb-sync-${kind}-${randomUUID()}.json`)
}

/** A file that could not be written, named, with the system's reason (ENOSPC, EACCES, …). */
export class ReportFileError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`The report file ${path} could not be written (${reason}).`)
    this.name = 'ReportFileError'
  }
}

/**
 * Writes `fields` as one JSON object to `path`; `redact` is applied to every piece of JSON text before it
 * is written (keys never reach the file). Throws a ReportFileError naming the file.
 */
export async function writeReportFile(
  path: string,
  fields: readonly ReportField[],
  redact: (text: string) => string = (text) => text,
): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>> | undefined
  try {
    handle = await open(path, 'w')
    const file = handle
    // Pieces gather in memory and are written a chunk at a time: one await per chunk, not per name.
    let pending = '{'
    const flushIfFull = async () => {
      if (pending.length < CHUNK_CHARS) return
      await file.write(pending)
      pending = ''
    }
    for (const [index, [name, value]] of fields.entries()) {
      pending += `${index > 0 ? ',' : ''}\n  ${JSON.stringify(name)}: `
      if (!Array.isArray(value)) {
        pending += redact(JSON.stringify(value) ?? 'null')
        await flushIfFull()
        continue
      }
      pending += '['
      for (let at = 0; at < value.length; at++) {
        pending += `${at > 0 ? ',' : ''}\n    ${redact(JSON.stringify(value[at]) ?? 'null')}`
        if (pending.length >= CHUNK_CHARS) await flushIfFull()
      }
      pending += value.length > 0 ? '\n  ]' : ']'
    }
    pending += '\n}\n'
    await file.write(pending)
    await file.close()
    handle = undefined
  } catch (error) {
    await handle?.close().catch(() => undefined)
    throw new ReportFileError(path, reasonOf(error))
  }
}
