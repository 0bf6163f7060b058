// Progress of a long index run on stderr (stdout is for results): a redrawn bar on a terminal, else a
// line at every tenth of the requests, so a log file gets at most ten lines however long the run.
import { formatBytes } from '../units.js'
import type { SendProgress as Progress } from '../model.js'

/** Runs with fewer requests end before progress would tell anything. */
const LONG_RUN_REQUESTS = 10
const BAR_WIDTH = 24
const REDRAW_MS = 100

interface ProgressStream {
  isTTY?: boolean
  write(text: string): unknown
}

export function progressReporter(stream: ProgressStream = process.stderr): (progress: Progress) => void {
  return stream.isTTY ? barReporter(stream) : lineReporter(stream)
}

function describe({ done, total, bytes }: Progress): string {
  return `${done}/${total} batches (${Math.floor((done * 100) / total)}%), ${formatBytes(bytes)} sent`
}

function lineReporter(stream: ProgressStream): (progress: Progress) => void {
  let printedTenths = 0
  return (progress) => {
    if (progress.total < LONG_RUN_REQUESTS) return
    const tenths = Math.floor((progress.done * 10) / progress.total)
    if (tenths <= printedTenths) return
    printedTenths = tenths
    stream.write(`progress: ${describe(progress)}\n`)
  }
}

function barReporter(stream: ProgressStream): (progress: Progress) => void {
  let drawnAt = 0
  return (progress) => {
    if (progress.total < LONG_RUN_REQUESTS) return
    const finished = progress.done >= progress.total
    const now = Date.now()
    if (!finished && now - drawnAt < REDRAW_MS) return
    drawnAt = now
    const filled = Math.round((progress.done * BAR_WIDTH) / progress.total)
    const bar = '#'.repeat(filled) + '-'.repeat(BAR_WIDTH - filled)
    stream.write(`\r[${bar}] ${describe(progress)}\x1b[K${finished ? '\n' : ''}`)
  }
}
