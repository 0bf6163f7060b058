import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { selectFiles, type FileSelectionOptions } from '../../src/select/files.js'

/** A temporary folder holding a workspace `ws` (and room beside it for things outside the workspace). */
export interface Fixture {
  /** The parent of the workspace (real path). */
  base: string
  /** The workspace (real path). */
  ws: string
  file(name: string, content?: string | Buffer): void
  link(name: string, target: string): void
  select(patterns: string[], options?: Partial<FileSelectionOptions>): ReturnType<typeof selectFiles>
  remove(): void
}

export function makeFixture(): Fixture {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'kb-sync-select-')))
  const ws = join(base, 'ws')
  mkdirSync(ws)
  return {
    base,
    ws,
    file(name, content = `content of ${name}`) {
      mkdirSync(dirname(join(ws, name)), { recursive: true })
      writeFileSync(join(ws, name), content)
    },
    link(name, target) {
      mkdirSync(dirname(join(ws, name)), { recursive: true })
      symlinkSync(target, join(ws, name))
    },
    select(patterns, options = {}) {
      return selectFiles({
        patterns,
        workspace: ws,
        includeHidden: false,
        maxFileSize: 1024 * 1024,
        followSymlinks: 'inside',
        ...options,
      })
    },
    remove: () => rmSync(base, { recursive: true, force: true }),
  }
}
