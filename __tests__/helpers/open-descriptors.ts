// How many file descriptors this process holds open on paths under a prefix (Linux /proc).
import { readdirSync, readlinkSync } from 'node:fs'

/** Descriptors of this process open on `prefix` (a file or a directory). */
export function openDescriptors(prefix: string): number {
  let count = 0
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`).startsWith(prefix)) count++
    } catch {
      // Closed while listing.
    }
  }
  return count
}

/** The same once closing has settled: a stream closes its file asynchronously, within a few turns. */
export async function settledOpenDescriptors(prefix: string): Promise<number> {
  for (let i = 0; i < 50 && openDescriptors(prefix) > 0; i++)
    await new Promise((resolve) => setTimeout(resolve, 10))
  return openDescriptors(prefix)
}
