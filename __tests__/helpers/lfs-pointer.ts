import { createHash } from 'node:crypto'

/** The pointer `git lfs` checks in for `content` (spec v1: version, oid, size, each line ending in LF). */
export function lfsPointerOf(content: Buffer | string): string {
  const bytes = Buffer.from(content)
  const oid = createHash('sha256').update(bytes).digest('hex')
  return `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize ${bytes.length}\n`
}
