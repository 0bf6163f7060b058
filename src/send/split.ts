// A unit that failed sent again in parts: the search for its odd items (a probe part first, its answer
// says where to look), or each of its items alone.
import type { Logger } from '../log.js'
import type { Operation } from '../model.js'
import { afterProbe, probeSize } from './bisection.js'
import { otherOf } from './next-step.js'
import { describe, kindWord, type Item, type Unit } from './unit.js'

export class UnitSplit {
  /** @param runUnit sends one part until every item of it has an outcome */
  constructor(
    private readonly runUnit: (unit: Unit) => Promise<void>,
    private readonly log: Logger,
  ) {}

  /**
   * Lands `items`, which failed together as `operation` because of at least one odd item: a probe part
   * first, and its answer says where to look (bisection.ts).
   */
  async search(
    kind: Unit['kind'],
    items: Item[],
    operation: Operation,
    upsert: boolean,
    oddNeedsOther: boolean,
    placeholders?: boolean,
  ): Promise<void> {
    const probe = items.slice(0, probeSize(items.length))
    const rest = items.slice(probe.length)
    const part = { kind, operation, upsert, searching: true, placeholders }
    let tellLanded!: (landed: boolean) => void
    const landed = new Promise<boolean>((resolve) => (tellLanded = resolve))
    const probing = this.runUnit({ ...part, items: probe, onFirstAnswer: tellLanded })
    const resting = landed.then((probeLanded) => {
      switch (afterProbe(probeLanded, rest.length, oddNeedsOther)) {
        case 'whole':
          return this.runUnit({ ...part, items: rest })
        case 'search':
          return this.search(kind, rest, operation, upsert, oddNeedsOther, placeholders)
        case 'other-operation':
          return this.runUnit({ ...part, items: rest, operation: otherOf(operation), switches: 1 })
      }
    })
    await Promise.all([probing, resting])
  }

  async sendEachAlone(
    kind: Unit['kind'],
    items: Item[],
    operation: Operation,
    upsert: boolean,
    why: string | undefined,
    placeholders?: boolean,
  ): Promise<void> {
    this.log.info(`${describe(kind, items)}: ${why}; sending each ${kindWord(kind)} alone.`)
    await Promise.all(
      items.map((item) =>
        this.runUnit({ kind, items: [item], operation, upsert, placeholders, resend: true }),
      ),
    )
  }
}
