// The order the plan's batches start in: each when the one before it got its turn to open its files.
import type { Unit } from './unit.js'

/**
 * Runs every batch, each started when the one before it got its turn to open its files (or ended):
 * batches still wait their turn in plan order, behind retries, as if all had started at once, but only
 * the batches that have a turn or are next hold an async call chain, not every batch of the plan
 * (~1 KB each: ~4 MB at 100,000 documents, bench/README.md).
 */
export function runInTurn(
  units: Unit[],
  runBatch: (unit: Unit, index: number) => Promise<void>,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let next = 0
    let running = 0
    const startNext = () => {
      if (next === units.length) {
        if (running === 0) resolve()
        return
      }
      const index = next++
      const unit = units[index]
      running++
      let admitted = false
      unit.onAdmitted = () => {
        if (admitted) return
        admitted = true
        startNext()
      }
      runBatch(unit, index).then(() => {
        running--
        unit.onAdmitted?.()
        delete unit.onAdmitted
        if (next === units.length && running === 0) resolve()
      }, reject)
    }
    startNext()
  })
}
