// Git LFS pointers: recognised by their text (as git-lfs writes it, for real content), looked for only in
// files of a pointer's size, and never waited on (a FIFO under a selected name).
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { statSync } from 'node:fs'
import { join } from 'node:path'
import type { SelectedFile } from '../../../src/model.js'
import {
  findLfsPointers,
  isLfsPointer,
  LFS_POINTER_MAX_BYTES,
} from '../../../src/select/document/lfs-pointers.js'
import { lfsPointerOf } from '../../helpers/lfs-pointer.js'
import { makeWorkspace } from '../../helpers/workspace.js'

const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(300_000, 7)])
const POINTER = lfsPointerOf(PDF)

describe('isLfsPointer', () => {
  it('recognises the pointer git-lfs writes (about 130 bytes)', () => {
    expect(POINTER.length).toBeGreaterThan(120)
    expect(POINTER.length).toBeLessThan(140)
    expect(isLfsPointer(Buffer.from(POINTER))).toBe(true)
  })

  it.each([
    ['CRLF line ends', POINTER.replace(/\n/g, '\r\n')],
    ['no final line break', POINTER.trimEnd()],
    ['an extension line', POINTER.replace('\noid', `\next-0-foo sha256:${'a'.repeat(64)}\noid`)],
    ['the older version URL', POINTER.replace('git-lfs.github.com', 'hawser.github.com')],
  ])('accepts %s, as git-lfs does', (_, text) => {
    expect(isLfsPointer(Buffer.from(text))).toBe(true)
  })

  it.each([
    ['a document that quotes a pointer', `# LFS\n\n${POINTER}`],
    ['a pointer followed by prose', `${POINTER}\nThis is the manual.\n`],
    ['no size line', POINTER.replace(/size \d+\n/, '')],
    ['a sha1 oid', POINTER.replace(/oid sha256:[0-9a-f]{64}/, `oid sha1:${'a'.repeat(40)}`)],
    ['another spec version', POINTER.replace('/spec/v1', '/spec/v2')],
    ['a pointer padded to 1024 bytes', POINTER.replace('\nsize', `\nx-pad ${'p'.repeat(1024)}\nsize`)],
    ['an empty file', ''],
  ])('rejects %s', (_, text) => {
    expect(isLfsPointer(Buffer.from(text))).toBe(false)
  })
})

describe('findLfsPointers', () => {
  let workspace: ReturnType<typeof makeWorkspace>
  beforeEach(() => {
    workspace = makeWorkspace({
      'docs/manual.pdf': POINTER,
      'docs/slides.pptx': lfsPointerOf('slides'),
      'docs/guide.md': '# Guide\n\nA short page, the size of a pointer, that is no pointer at all.\n'.repeat(
        2,
      ),
      'docs/big.md': `${POINTER}${'more text\n'.repeat(200)}`,
    })
  })
  afterEach(() => workspace.remove())

  const selected = (name: string): SelectedFile => {
    const path = join(workspace.dir, name)
    return { name, path, size: statSync(path).size }
  }

  it('names the pointers among the selected files', () => {
    const files = ['docs/big.md', 'docs/guide.md', 'docs/manual.pdf', 'docs/slides.pptx'].map(selected)
    expect(findLfsPointers(files).map((file) => file.name)).toEqual(['docs/manual.pdf', 'docs/slides.pptx'])
  })

  it('judges a file by its selected size first: one too large for a pointer is not read', () => {
    // The path holds a pointer, but the selection measured more than a pointer can have.
    const file = { ...selected('docs/manual.pdf'), size: LFS_POINTER_MAX_BYTES + 1 }
    expect(findLfsPointers([file])).toEqual([])
  })

  it('leaves a file it cannot read to sending, and never blocks on a FIFO', () => {
    const fifo = join(workspace.dir, 'docs/fifo.md')
    execFileSync('mkfifo', [fifo])
    const files = [
      { name: 'docs/fifo.md', path: fifo, size: POINTER.length },
      { name: 'docs/gone.md', path: join(workspace.dir, 'docs/gone.md'), size: POINTER.length },
      selected('docs/manual.pdf'),
    ]
    expect(findLfsPointers(files).map((file) => file.name)).toEqual(['docs/manual.pdf'])
  })
})
