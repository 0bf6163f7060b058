// The paths a CLI command writes or reads, checked before any request (checkPaths, in process): each bad
// --summary-file, --report-file or --workspace is a usage error naming the flag, the path and why. The
// bundle's exit path (exit 2, one line) is in e2e/cli-usage.test.ts, one case per flag.
import { afterAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { checkPaths } from '../../src/cli/commands.js'
import { UsageError } from '../../src/cli/errors.js'
import type { Flags } from '../../src/cli/inputs.js'

const dir = mkdtempSync(join(tmpdir(), 'kb-sync-check-paths-'))
const aFile = join(dir, 'a-file')
writeFileSync(aFile, 'x\n')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function problem(flags: Record<string, string>): string | undefined {
  try {
    checkPaths(flags as Flags)
    return undefined
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError)
    return (error as Error).message
  }
}

describe('checkPaths', () => {
  it.each([
    [
      'workspace missing',
      { workspace: '/nonexistent/workspace' },
      '--workspace: /nonexistent/workspace is not a folder (ENOENT).',
    ],
    ['workspace is a file', { workspace: aFile }, `--workspace: ${aFile} is not a folder.`],
    [
      'summary file in a missing folder',
      { summaryFile: '/nonexistent/s.md' },
      '--summary-file: cannot write /nonexistent/s.md (ENOENT).',
    ],
    ['summary file is a folder', { summaryFile: dir }, `--summary-file: cannot write ${dir} (EISDIR).`],
    ['report file is a folder', { reportFile: dir }, `--report-file: cannot write ${dir} (EISDIR).`],
    [
      'report file in a missing folder',
      { reportFile: '/nonexistent/r.json' },
      '--report-file: cannot write /nonexistent/r.json (ENOENT).',
    ],
  ])('%s', (_, flags, message) => {
    // Jest's module realm has its own Error, so a file system error's code is found inside its text here.
    const [start, reason] = message.split(/ \((?=\w+\)\.$)/)
    const found = problem(flags)
    if (reason) {
      expect(found?.startsWith(`${start} (`)).toBe(true)
      expect(found).toContain(reason.slice(0, -2))
    } else expect(found).toBe(message)
  })

  it('paths that can be written, and a folder as the workspace, pass', () => {
    expect(problem({ workspace: dir, summaryFile: join(dir, 's.md'), reportFile: aFile })).toBeUndefined()
  })
})
