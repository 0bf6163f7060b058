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
