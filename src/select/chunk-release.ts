// Streaming a large file allocates a fresh buffer per read. That memory lives outside V8's heap and is
// returned only when a garbage collection finds the buffers' small wrappers dead, and V8 starts one for it
// only after tens of MiB have piled up: most of the action's peak RSS growth when it streams big files
// (bench/README.md). A minor collection, well under a millisecond on this process's small heap, every few
// MiB streamed keeps the pile small. Batches of small documents, read whole and laid out as one buffer
// per request body, pile up the same way and are counted too. The action cannot pass V8 flags (the
// runner starts `node index.js`), so the collector is taken the documented way at run time; without it,
// streaming works as before.
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

const COLLECT_EVERY_BYTES = 2 * 1024 * 1024

type Collector = (options: { type: 'minor' }) => void

let streamedSinceCollection = 0
let collector: Collector | null | undefined

/**
 * Counts file bytes handed on (by a file stream, or in a batch's one-buffer body); collects the young
 * generation every few MiB.
 */
export function chunkStreamed(bytes: number): void {
  streamedSinceCollection += bytes
  if (streamedSinceCollection < COLLECT_EVERY_BYTES) return
  streamedSinceCollection = 0
  minorCollector()?.({ type: 'minor' })
}

function minorCollector(): Collector | null {
  if (collector === undefined) {
    try {
      setFlagsFromString('--expose-gc')
      collector = runInNewContext('gc') as Collector
    } catch {
      collector = null
    } finally {
      // Only the context made above gets the function; later contexts (vm, workers) stay as they were.
      setFlagsFromString('--no-expose-gc')
    }
  }
  return collector
}
