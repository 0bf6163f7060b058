// Buffers for the bodies of batches of small documents, used again once a request no longer needs them.
// A fresh buffer per batch lives outside V8's heap; it outlives a minor collection or two while its batch
// waits for a slot and is in flight, is promoted, and is freed only by a full collection, which V8 starts
// after ~64 MiB of such buffers: 100,000 documents sent as 4,000 fresh bodies peaked at 245 MiB against
// the 69 MiB of a one-file run (bench/README.md, issue 24). Used again, the bodies of the batches open at
// once are all there is, whatever the number of documents.

/** A buffer larger than this is not kept (a batch of small documents is 25 × 16 KiB by default). */
const KEPT_BYTES_MAX = 1024 * 1024
/** Buffers kept for use again: (concurrency + batches opened ahead) × 2 at the default concurrency. */
const KEPT_MAX = 64
/** Sizes are rounded up to this, so a buffer fits the next batch of about the same size. */
const GRAIN = 16 * 1024

const kept: Buffer[] = []
/** The memory of the buffers handed out and not given back: only those can be given back, and once. */
const lent = new WeakSet<ArrayBufferLike>()

/** `length` bytes (uninitialised), from a buffer kept for use again when one is large enough. */
export function takeBuffer(length: number): Buffer {
  let best = -1
  for (let i = 0; i < kept.length; i++)
    if (kept[i].length >= length && (best === -1 || kept[i].length < kept[best].length)) best = i
  // A new one has its own memory (not Node's shared 8 KiB pool), so giving it back hands back all of it.
  const buffer =
    best !== -1
      ? kept.splice(best, 1)[0]
      : Buffer.allocUnsafeSlow(Math.max(GRAIN, Math.ceil(length / GRAIN) * GRAIN))
  lent.add(buffer.buffer)
  return buffer.subarray(0, length)
}

/**
 * Gives back a buffer from takeBuffer that nothing reads or writes any more (its request was answered
 * with its whole body read). Anything else is left to the collector.
 */
export function reuseBuffer(buffer: Buffer): void {
  const whole = buffer.buffer
  if (!lent.has(whole)) return
  lent.delete(whole)
  if (whole.byteLength > KEPT_BYTES_MAX || kept.length >= KEPT_MAX) return
  kept.push(Buffer.from(whole, 0, whole.byteLength))
}
