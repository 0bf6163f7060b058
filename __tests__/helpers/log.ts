// Loggers for tests that call the pipeline in process: one that keeps what it was asked to print, one
// that prints nothing. Both redact the test keys as the real logger does once the config is read.
import { Logger, type LogSink } from '../../src/log.js'
import { PRIVATE_KEY, PUBLIC_KEY } from './keys.js'

export interface LoggedLine {
  level: 'info' | 'debug' | 'notice' | 'warning' | 'error'
  message: string
}

function withTestKeys(sink: LogSink): Logger {
  const log = new Logger(sink)
  log.addSecret(PRIVATE_KEY)
  log.addSecret(PUBLIC_KEY)
  return log
}

/** A Logger that keeps every line (group names aside), and tells `onLine` of each as it is printed. */
export function recordingLog(onLine?: (line: LoggedLine) => void): {
  log: Logger
  lines: LoggedLine[]
  /** The lines printed at `level`. */
  of(level: LoggedLine['level']): LoggedLine[]
} {
  const lines: LoggedLine[] = []
  const record = (level: LoggedLine['level']) => (message: string) => {
    const line = { level, message }
    lines.push(line)
    onLine?.(line)
  }
  const log = withTestKeys({
    info: record('info'),
    debug: record('debug'),
    notice: record('notice'),
    warning: record('warning'),
    error: record('error'),
    startGroup: () => undefined,
    endGroup: () => undefined,
    mask: () => undefined,
  })
  return { log, lines, of: (level) => lines.filter((line) => line.level === level) }
}

/** A Logger that prints nothing. */
export function quietLog(): Logger {
  const nothing = () => undefined
  return withTestKeys({
    info: nothing,
    debug: nothing,
    notice: nothing,
    warning: nothing,
    error: nothing,
    startGroup: nothing,
    endGroup: nothing,
    mask: nothing,
  })
}
