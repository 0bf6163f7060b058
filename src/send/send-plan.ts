// Runs a plan against the service: `concurrency` requests in flight, retries, the upsert switch, the search
// of rejected batches for their odd items, and exactly one outcome per document and URL.
import type { Logger } from '../log.js'
import type { Batch, IndexTarget, Plan, SendProgress, SendResult } from '../model.js'
import type { SettingNames } from '../setting-names.js'
import { systemClock, type Clock, type RetryPolicy } from '../service/retry.js'
import { collectIfGrown } from '../chunk-release.js'
import { errorMessage } from './error-message.js'
import { BatchFiles, disposeOpened } from './files.js'
import { SendLedger } from './ledger.js'
import { formatMs, METHOD, nextStep, type UnitState } from './next-step.js'
import { NodeEvidence } from './node-evidence.js'
import { UnitRequests, type IndexingClient } from './request.js'
import { RequestScheduler } from './scheduler.js'
import { ServiceWatch } from './service-watch.js'
import { UnitSplit } from './split.js'
import { SendStops } from './stops.js'
import { runInTurn } from './turns.js'
import { describe, Item, unitOf, type Unit } from './unit.js'

export interface SendOptions {
  concurrency: number
  retry: RetryPolicy
  log: Logger
  /** Runner cancellation: no new requests; in-flight ones get `graceMs`, then are aborted. */
  signal?: AbortSignal
  graceMs?: number
  /** The run's second signal (cancellation.ts `runCutOff`): what is left of the grace ends at once. */
  cutOff?: AbortSignal
  clock?: Clock
  /** Called after each completed request. */
  onProgress?: (progress: SendProgress) => void
  /**
   * How long every attempt (across workers) must have failed before nothing new starts; default the
   * retry deadline, so an outage shorter than it costs time, not documents.
   */
  breakerWindowMs?: number
  random?: () => number
  /** A file that grew past this since it was selected fails instead of being sent (max-file-size). */
  maxFileSize?: number
  /** How a refusal names the setting to check (default: the action's inputs). */
  names?: SettingNames
  /**
   * Documents of batch `index` (in plan order) not to send after all, once known: drafts found while the
   * first batches are already being sent. A batch waits for its answer before it opens its files; its
   * withheld documents get no outcome here (the plan reports them), and a batch left empty is not sent.
   */
  withhold?: (index: number) => Promise<ReadonlySet<string>>
}

export type { IndexingClient } from './request.js'

export async function sendPlan(
  plan: Plan,
  client: IndexingClient,
  target: IndexTarget,
  options: SendOptions,
): Promise<SendResult> {
  collectIfGrown()
  // No collection at the end: the report now makes only what it shows, and one forced there cost ~250 ms
  // at 100,000 documents for under 1 MiB of peak (bench/README.md).
  return new PlanSender(client, target, options).run(plan.batches)
}

class PlanSender {
  private readonly clock: Clock
  private readonly log: Logger
  private readonly stops = new SendStops()
  private readonly scheduler: RequestScheduler
  /** Batches whose files are opened while they wait for a request slot (bounds the open files). */
  private readonly readAhead: RequestScheduler
  private readonly watch: ServiceWatch
  private readonly files: BatchFiles
  private readonly requests: UnitRequests
  private readonly split: UnitSplit
  private readonly node: NodeEvidence
  private readonly ledger: SendLedger

  constructor(
    private readonly client: IndexingClient,
    private readonly target: IndexTarget,
    private readonly options: SendOptions,
  ) {
    this.clock = options.clock ?? systemClock
    this.log = options.log
    this.ledger = new SendLedger(options.log, options.onProgress)
    this.scheduler = new RequestScheduler(options.concurrency, this.clock, this.stops.stop.signal)
    this.readAhead = new RequestScheduler(options.concurrency, this.clock, this.stops.stop.signal)
    this.watch = new ServiceWatch(this.scheduler, this.stops, this.clock, this.log, options)
    this.files = new BatchFiles(client, this.ledger, this.log, options)
    this.requests = new UnitRequests(client, target, this.scheduler, this.watch, this.ledger, this.stops)
    this.split = new UnitSplit((unit) => this.runUnit(unit), this.log)
    this.node = new NodeEvidence(this.stops.stop.signal)
  }

  async run(batches: Batch[]): Promise<SendResult> {
    const units = batches.map((batch) => unitOf(batch))
    // Made at its size (flatMap grows a list of 100,000 through copies of ~2 MB).
    const items = new Array<Item>(units.reduce((count, unit) => count + unit.items.length, 0))
    let at = 0
    for (const unit of units) for (const item of unit.items) items[at++] = item
    this.ledger.batchesTotal = units.length

    const { signal } = this.options
    const unfollow = this.stops.follow(signal, this.options.cutOff, this.options.graceMs)
    try {
      await runInTurn(units, (unit, index) => this.runBatch(unit, index))
    } finally {
      unfollow()
    }
    return {
      items: this.ledger.outcomes(items),
      requests: this.requests.count,
      cancelled: signal?.aborted ?? false,
    }
  }

  private async runBatch(unit: Unit, index: number): Promise<void> {
    try {
      if (this.options.withhold && unit.kind === 'documents') {
        const names = await this.options.withhold(index)
        if (names.size > 0) unit.items = unit.items.filter((item) => !this.ledger.withhold(item, names))
        if (unit.items.length === 0) {
          this.ledger.batchesTotal--
          return this.ledger.reportProgress()
        }
      }
      await this.runUnit(unit)
    } catch (error) {
      // A bug must not lose items: whatever has no outcome yet fails with the error.
      this.ledger.fail(
        unit.items.filter((item) => !item.outcome),
        unit.operation,
        errorMessage(error),
      )
    }
    this.ledger.batchesDone++
    this.ledger.reportProgress()
  }

  /** Sends one unit until every item has an outcome: carries out what `nextStep` decides after a failure. */
  private async runUnit(start: Unit): Promise<void> {
    const role = { pioneer: false }
    let answered = false
    const answer = (landed: boolean) => {
      if (answered) return
      answered = true
      start.onFirstAnswer?.(landed)
    }
    try {
      await this.sendUnit(start, answer, role)
    } finally {
      answer(false)
      if (role.pioneer) this.node.pioneerEnded()
    }
  }

  private async sendUnit(
    start: Unit,
    answer: (landed: boolean) => void,
    role: { pioneer: boolean },
  ): Promise<void> {
    const { kind } = start
    let items = start.items
    let state: UnitState | undefined
    /** The next attempt is a retry after a failure (not an upsert switch, which is no retry). */
    let retrying = start.resend === true
    let lastError: string | undefined
    const operation = () => state?.operation ?? start.operation

    for (;;) {
      if (state !== undefined && kind === 'documents') items = await this.files.refresh(items, operation())
      if (items.length === 0) return
      if (state === undefined && start.stateUnknown) {
        const gate = this.node.turn(role)
        if (gate) await gate
      }
      const priority = state !== undefined
      const admitted = await this.readAhead.acquire(priority)
      start.onAdmitted?.()
      if (!admitted) return this.ledger.fail(items, operation(), this.watch.stoppedReason(lastError))
      // The files are opened while the request waits for its slot, not after it got one.
      const opened = kind === 'documents' ? this.files.openAhead(items) : undefined
      let turn: boolean
      try {
        turn = await this.scheduler.acquire(priority)
      } finally {
        this.readAhead.release()
      }
      if (!turn) {
        disposeOpened(opened)
        return this.ledger.fail(items, operation(), this.watch.stoppedReason(lastError))
      }
      if (
        retrying &&
        state !== undefined &&
        this.clock.now() >= state.firstAttemptAt + this.options.retry.deadlineMs
      ) {
        // Held back (a pause the service asked for, probing) until the deadline passed: not sent again.
        this.scheduler.release()
        disposeOpened(opened)
        return this.ledger.fail(
          items,
          operation(),
          `${lastError ?? 'not sent'} (gave up: retry-deadline passed while waiting to retry)`,
        )
      }
      if (state === undefined) {
        // Chosen as the request leaves: what earlier answers said about the node is as fresh as it can be.
        const first = start.stateUnknown ? (this.node.latest ?? start.operation) : start.operation
        state = {
          items: items.length,
          planned: first,
          operation: first,
          upsert: start.upsert,
          placeholders: start.placeholders,
          switches: start.switches ?? 0,
          searching: start.searching ?? false,
          failedAttempts: 0,
          tries: 0,
          fileChanges: 0,
          firstAttemptAt: this.clock.now(),
        }
      }
      const retry = retrying
      retrying = false

      const failure = await this.requests.attempt(
        kind,
        items,
        state.operation,
        opened,
        start.placeholders,
        retry,
      )
      if (failure === undefined) {
        if (state.upsert && (items.length > 1 || !state.searching)) {
          this.node.landed(state.operation)
        }
        return answer(state.operation === state.planned)
      }

      lastError = errorMessage(failure)
      const decided = nextStep(
        failure,
        lastError,
        { ...state, items: items.length },
        {
          policy: this.options.retry,
          now: this.clock.now(),
          random: this.options.random,
          hardStopped: this.stops.hardStop.signal.aborted,
          cutOffBy: this.stops.cutOffBy,
          names: this.options.names,
          evidence: this.node.latest,
        },
      )
      state = decided.state
      const next = decided.next
      if (next.step !== 'retry' && next.step !== 'resend') answer(false)
      switch (next.step) {
        case 'fail':
          return this.ledger.fail(items, state.operation, next.error)
        case 'refused':
          return this.ledger.fail(items, state.operation, this.watch.refused ?? next.cause)
        case 'each-alone':
          return this.split.sendEachAlone(
            kind,
            items,
            next.operation,
            state.upsert,
            next.why,
            start.placeholders,
          )
        case 'absent':
          this.log.info(
            `${describe(kind, items)}: not in the knowledge base (PATCH answered 404); nothing to remove.`,
          )
          return this.ledger.succeed(items, state.operation, true, true)
        case 'bisect':
          // A wrong-operation answer is no try of the document (see 'switch'); a refusal is.
          if (next.oddNeedsOther) for (const item of items) item.attempts--
          if (!state.searching)
            this.log.info(
              `${describe(kind, items)}: ${next.why}; sending it in parts as ${next.operation} to find which.`,
            )
          return this.split.search(
            kind,
            items,
            next.operation,
            state.upsert,
            next.oddNeedsOther,
            start.placeholders,
          )
        case 'switch':
          // `attempts` counts tries of one operation.
          for (const item of items) item.attempts--
          this.log.info(
            `${describe(kind, items)}: ${METHOD[next.from]} answered ${next.status}; sending again as ${state.operation} (${METHOD[state.operation]}).`,
          )
          continue
        case 'resend':
          this.log.info(`${describe(kind, items)}: ${lastError}; sending it again as the files are now.`)
          retrying = true
          continue
        case 'retry':
          this.log.info(
            `${describe(kind, items)}: attempt ${state.tries} failed (${lastError}); retrying as ${state.operation} in ${formatMs(next.delayMs)}.`,
          )
          await this.clock.sleep(next.delayMs, this.stops.stop.signal)
          retrying = true
          continue
      }
    }
  }

  /** What the node's latest answers say documents need (undefined before any landed). */
}
