// Git LFS pointers: a checkout made without LFS content (actions/checkout without `lfs: true`) holds a
// ~130-byte pointer text in place of each LFS file. Sent, it would overwrite the real document in the
// knowledge base, so such a file fails instead (the run is then no base, and the file is sent once the
// checkout has its content). Format: https://github.com/git-lfs/git-lfs/blob/main/docs/spec.md
import type { SelectedFile } from '../../model.js'
import { readHead } from './read-head.js'

/** The spec: "Pointer files must be less than 1024 bytes in size". */
export const LFS_POINTER_MAX_BYTES = 1023

// The current version URL, and the older one git-lfs still reads.
const VERSION_LINES = [
  'version https://git-lfs.github.com/spec/v1',
  'version https://hawser.github.com/spec/v1',
] as const
const OID_LINE = /^oid sha256:[0-9a-f]{64}$/
const SIZE_LINE = /^size \d+$/
// `{key} {value}`: keys of [a-z0-9.-], one space, a value without line breaks.
const KEY_VALUE_LINE = /^[a-z0-9.-]+ [^\r\n]*$/

/** No pointer is shorter: the shorter version line, an oid line and `size 0`. */
const LFS_POINTER_MIN_BYTES = `${VERSION_LINES[1]}\noid sha256:${'0'.repeat(64)}\nsize 0`.length

/** The one cause every pointer fails with (one group in the summary, one annotation). */
export const LFS_POINTER_CAUSE =
  'Git LFS pointer, not the file: the checkout has the pointer text in place of the LFS content. ' +
  'Set `lfs: true` on actions/checkout (or run `git lfs pull`), or exclude the pattern in `files`; not sent.'

/** Whether these bytes are a Git LFS pointer (lenient on CRLF and a missing last line break, as git-lfs). */
export function isLfsPointer(bytes: Buffer): boolean {
  if (bytes.length < LFS_POINTER_MIN_BYTES || bytes.length > LFS_POINTER_MAX_BYTES) return false
  const lines = bytes
    .toString('latin1')
    .replace(/\r?\n$/, '')
    .split(/\r?\n/)
  if (!(VERSION_LINES as readonly string[]).includes(lines[0])) return false
  const rest = lines.slice(1)
  return (
    rest.every((line) => KEY_VALUE_LINE.test(line)) &&
    rest.some((line) => OID_LINE.test(line)) &&
    rest.some((line) => SIZE_LINE.test(line))
  )
}

/**
 * The selected files whose content is an LFS pointer. Only files of a pointer's size are opened (a few
 * hundred bytes, read whole, synchronously: for such files the thread-pool round trips of asynchronous
 * calls cost more than the reads); every other file is judged by its selected size alone. A file that
 * cannot be read here is left to sending, which reports why.
 */
export function findLfsPointers(files: readonly SelectedFile[]): SelectedFile[] {
  return files.filter(
    (file) =>
      file.size >= LFS_POINTER_MIN_BYTES &&
      file.size <= LFS_POINTER_MAX_BYTES &&
      isLfsPointer(readHead(file.path, Buffer.allocUnsafe(LFS_POINTER_MAX_BYTES + 1), file.size)),
  )
}
