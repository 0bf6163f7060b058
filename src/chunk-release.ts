// Streaming a large file allocates a fresh buffer per read. That memory lives outside V8's heap and is
// returned only when a garbage collection finds the buffers' small wrappers dead, and V8 starts one for it
// only after tens of MiB have piled up: most of the action's peak RSS growth when it streams big files
// (bench/README.md). A minor collection, well under a millisecond on this process's small heap, every few
// MiB streamed keeps the pile small. (Batches of small documents are laid out in buffers used again,
// service/body-buffers.ts, and leave no such pile.) The action cannot pass V8 flags (the
// runner starts `node index.js`), so the collector is taken the documented way at run time; without it,
// streaming works as before.
import { getHeapStatistics, setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

const COLLECT_EVERY_BYTES = 2 * 1024 * 1024

// No argument: a full collection (Node 20's V8 reads `{ type: 'major' }` as a young-generation one).
type Collector = (options?: { type: 'minor' }) => void

let streamedSinceCollection = 0
let collector: Collector | null | undefined

/**
 * Counts file bytes handed on by a file stream; collects the young
 * generation every few MiB.
 */
export function chunkStreamed(bytes: number): void {
  streamedSinceCollection += bytes
  if (streamedSinceCollection < COLLECT_EVERY_BYTES) return
  streamedSinceCollection = 0
  collectorOf()?.({ type: 'minor' })
}

// The same holds for the heap itself on a long run. What a request allocates outlives a young-generation
// collection or two while the request is in flight, and moves to the old generation, which V8 collects
// only once it has grown to a multiple of what was live after the last full collection. With 100,000
// documents live (~50 MiB), that let the heap grow by ~100 MiB of dead requests during the send
// (bench/README.md, issue 24). A full collection whenever the heap has grown by HEAP_GROWTH_BYTES since
// the last one bounds it at what is live plus that; with fewer documents the heap never grows that far.
// 8 MiB: on Node 22 and later, whose V8 keeps the pages a collection frees for reuse, the heap's highest
// point is the process's, and 100,000 documents peak 3–4 MiB lower than at 16 MiB in the same time; 4 MiB
// lowered it no further (on Node 20, 16 MiB was already as low; bench/README.md).
const HEAP_GROWTH_BYTES = 8 * 1024 * 1024
/** Requests between two looks at the heap's size (each look costs a few µs). */
const REQUESTS_PER_LOOK = 16

let requestsSinceLook = 0
/**
 * The least heap seen since the last full collection it made: close to what is live, as V8 collects too.
 * Until the first, the heap at start-up: what selection and the plan leave behind counts as growth.
 */
let heapFloor = getHeapStatistics().used_heap_size

/** Counts a finished request; collects the whole heap when it has grown by HEAP_GROWTH_BYTES. */
export function requestFinished(): void {
  if (++requestsSinceLook < REQUESTS_PER_LOOK) return
  requestsSinceLook = 0
  collectIfGrown()
}

// A forced full collection marks the whole heap, which in a small run is mostly the bundle's own code and
// objects: 10-40 ms of CPU for a heap of 15-25 MB, two to four times a run, and it lowers nothing there,
// since below this much heap the run's peak is its fixed part, not its documents (bench/README.md).
const LARGE_HEAP_BYTES = 32 * 1024 * 1024

/**
 * Collects the whole heap when it has grown by `growth` bytes and holds more than `largerThan`. Called
 * after selection and at the send's start too: with 100,000 documents the garbage of selection and the
 * plan (~40 MiB) would otherwise stay until V8's own next full collection, and the send's allocations grow
 * the heap on top of it (the action's peak RSS, bench/README.md).
 */
export function collectIfGrown(growth = HEAP_GROWTH_BYTES, largerThan = LARGE_HEAP_BYTES): void {
  const used = getHeapStatistics().used_heap_size
  heapFloor = Math.min(heapFloor, used)
  if (used <= largerThan || used - heapFloor < growth) return
  collectorOf()?.()
  heapFloor = getHeapStatistics().used_heap_size
}

/**
 * V8 doubles the young generation, up to 2 × 16 MiB, whenever most of what it holds survives a collection,
 * as selection's 100,000 file records do, and that memory stays for the rest of the run. Kept at its
 * starting size, such records move to the old generation sooner, whose growth the collections above
 * bound: peak RSS at 100,000 documents ~171 → ~152 MiB, at 2,000 ~110 → ~106 MiB, time unchanged
 * (bench/README.md). A process-wide V8 setting, taken at run time as the collector is.
 */
export function holdYoungGeneration(): void {
  try {
    setFlagsFromString('--semi-space-growth-factor=1')
  } catch {
    // Without it the young generation grows as V8 decides: more memory, same results.
  }
}

// undici parses HTTP with llhttp compiled to WebAssembly. V8 compiles it with its baseline compiler,
// Liftoff, then, once its parse function has run a while (already with 3 requests in a run), again with
// its optimizing compiler on a background thread, whose working memory (~23 MB of zone for that one
// function, `--trace-wasm-compilation-times`) comes and goes within a second: wherever in the run that
// falls, it adds to the process's peak RSS (an incremental sync of 100,000 documents: Node 20 104 → 69
// MiB, Node 24 ~17 MiB; bench/README.md). The baseline code parses the service's small answers all the
// same. `--liftoff-only` set at run time stops it on Node 20 and 22 but not on 24 (its V8 applies what
// that flag implies only at start-up); `--wasm-tier-up-filter` (tier up only the function of that index)
// is read as each function is compiled, on 20, 22 and 24 alike: Liftoff emits no tier-up check for a
// function whose index is not the one named, and no module has a function at NO_WASM_FUNCTION (V8 allows
// a million). A process-wide V8 setting, taken at run time before the first request compiles the module.
const NO_WASM_FUNCTION = 2_147_483_647

/** Keeps WebAssembly on V8's baseline compiler, Liftoff: see above. */
export function holdWasmBaseline(): void {
  try {
    setFlagsFromString(`--wasm-tier-up-filter=${NO_WASM_FUNCTION}`)
  } catch {
    // Without it V8 tiers up as it decides: a transient ~20–30 MiB more, same results.
  }
}

function collectorOf(): Collector | null {
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
