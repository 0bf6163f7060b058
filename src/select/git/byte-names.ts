// Names as the file system and git hold them: bytes, not necessarily UTF-8. A document is named by text,
// so a name that is not valid UTF-8 cannot be one: every path (the workspace search, git's change set)
// reports it the same way, as skipped with its bytes shown.
//
// Git's names are carried as "byte strings" (one code unit per byte, latin1) until they are decoded,
// so prefixes can be added and removed without losing a byte.
import type { SkippedItem, UndecodableName } from '../../model.js'

const strictUtf8 = new TextDecoder('utf-8', { fatal: true })

/** The name's text, or undefined when its bytes are not valid UTF-8. */
export function decodedName(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes)
  } catch {
    return undefined
  }
}

/** A name that is not valid UTF-8, shown with its undecodable bytes as `\xNN`. */
export function bytesShown(bytes: Uint8Array): string {
  let shown = ''
  for (const byte of bytes) {
    shown +=
      byte >= 0x20 && byte < 0x7f && byte !== 0x5c
        ? String.fromCharCode(byte)
        : `\\x${byte.toString(16).padStart(2, '0')}`
  }
  return shown
}

/** The skip of a file or folder whose name is not valid UTF-8; `shown` is its path with bytesShown. */
export function undecodableSkip(shown: string, isFolder: boolean): SkippedItem {
  return {
    kind: 'document',
    name: shown,
    reason: 'unreadable',
    detail: `${isFolder ? 'folder' : 'file'} name is not valid UTF-8, so it cannot be named as a document; rename it to index it.`,
  }
}

/** A byte string (one code unit per byte) of git's output. */
export type ByteName = string

export const byteName = (bytes: Buffer): ByteName => bytes.toString('latin1')

/** The byte string of a text (its UTF-8 bytes). */
export const byteNameOf = (text: string): ByteName => Buffer.from(text, 'utf8').toString('latin1')

/** The text of a byte string, invalid bytes replaced: for messages only. */
export const lossyText = (name: ByteName): string => Buffer.from(name, 'latin1').toString('utf8')

/**
 * A `/`-separated byte string as a document name, or, when a segment is not valid UTF-8, as the
 * search would report it: the path up to the first such segment, that segment's bytes shown.
 */
export function decodePath(name: ByteName): { name: string } | { undecodable: UndecodableName } {
  const whole = decodedName(Buffer.from(name, 'latin1'))
  if (whole !== undefined) return { name: whole }
  const segments = name.split('/')
  const decoded: string[] = []
  for (const [index, segment] of segments.entries()) {
    const bytes = Buffer.from(segment, 'latin1')
    const text = decodedName(bytes)
    if (text !== undefined) {
      decoded.push(text)
      continue
    }
    return {
      undecodable: {
        shown: [...decoded, bytesShown(bytes)].join('/'),
        lossy: lossyText(name),
        isFolder: index < segments.length - 1,
      },
    }
  }
  return { name: decoded.join('/') }
}
