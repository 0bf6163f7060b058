// Each action entry exports `run()` (what @github/local-action imports and calls) and runs it itself
// only when it is the program the runner started, so importing the entry never runs the action twice.
import { realpathSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** True when the module at `moduleUrl` (its `import.meta.url`) is the script node was started with. */
export function isMainModule(moduleUrl: string, argv: readonly string[] = process.argv): boolean {
  const script = argv[1]
  if (!script) return false
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(moduleUrl))
  } catch {
    return false
  }
}

/**
 * Ends the process once what the run wrote is out: stdout and stderr are flushed (a pipe is asynchronous
 * on macOS), then the exit status the run set is kept. Not waiting for idle handles and Node's teardown
 * of the heap saves 10-60 ms per run (bench/README.md); everything the run does is awaited before this.
 */
export async function exitWhenFlushed(): Promise<never> {
  await Promise.all(
    [process.stdout, process.stderr].map(
      (stream) => new Promise<void>((resolve) => stream.write('', () => resolve())),
    ),
  )
  process.exit()
}
