// The peak memory of a child process (a bundle the test runs), measured in that process: the test runner's
// own heap, grown by the whole suite, neither adds to the figure nor slows the work being measured.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ROOT } from './run-action.js'

const HOOK = pathToFileURL(join(ROOT, '__tests__/helpers/peak-rss-hook.mjs')).href

export interface PeakRss {
  /** Environment for the child: NODE_OPTIONS preloads the hook (replacing the runner's own options). */
  env: Record<string, string>
  /** The child's peak resident set in kB, once it has exited. */
  kilobytes(): number
  remove(): void
}

export function peakRss(): PeakRss {
  const dir = mkdtempSync(join(tmpdir(), 'kb-sync-peak-rss-'))
  const file = join(dir, 'peak-kb')
  return {
    env: { NODE_OPTIONS: `--import=${HOOK}`, KB_SYNC_PEAK_RSS_FILE: file },
    kilobytes: () => {
      const kb = Number(readFileSync(file, 'utf8'))
      if (!(kb > 0)) throw new Error(`no peak RSS recorded in ${file}`)
      return kb
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
}
