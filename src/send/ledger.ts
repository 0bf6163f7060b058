// What a send has recorded: each item's outcome, the items withheld from it, and the progress it reports
// (batches done of the total, bytes landed).
import type { Logger } from '../log.js'
import type { ItemOutcome, Operation, SendProgress } from '../model.js'
import { outcomesOf, type Item } from './unit.js'

export class SendLedger {
  batchesDone = 0
  batchesTotal = 0
  private bytesLanded = 0
  /** Items of the plan taken out before they were sent (SendOptions.withhold): no outcome of theirs. */
  private readonly withheld = new Set<Item>()

  constructor(
    private readonly log: Logger,
    private readonly onProgress?: (progress: SendProgress) => void,
  ) {}

  withhold(item: Item, names: ReadonlySet<string>): boolean {
    if (!names.has(item.name)) return false
    this.withheld.add(item)
    return true
  }

  /** The outcomes of the plan's items, but for those withheld. */
  outcomes(items: Item[]): ItemOutcome[] {
    return outcomesOf(this.withheld.size > 0 ? items.filter((item) => !this.withheld.has(item)) : items)
  }

  /** Records the items as landed: uploaded or updated, or for placeholders removed (`absent`: 404). */
  succeed(items: Item[], operation: Operation, placeholders: boolean, absent: boolean): void {
    for (const item of items) {
      item.end(placeholders ? 'removed' : operation === 'upload' ? 'uploaded' : 'updated', operation, {
        absent,
      })
      if (!absent) this.bytesLanded += item.file?.size ?? 0
    }
    this.reportProgress()
  }

  fail(items: Item[], operation: Operation, error: string): void {
    const cleaned = this.log.clean(error)
    for (const item of items) {
      if (item.outcome) continue
      item.end('failed', operation, { error: cleaned })
    }
    this.reportProgress()
  }

  reportProgress(): void {
    this.onProgress?.({ done: this.batchesDone, total: this.batchesTotal, bytes: this.bytesLanded })
  }
}
