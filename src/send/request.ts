// One request of a unit: counts it and its items' tries, calls the client, and records what the answer says
// (about the service, then the items) before the next request may start.
import type { IndexTarget, Operation } from '../model.js'
import type { OpenedDocuments, ServiceClient } from '../service/client.js'
import { disposeOpened } from './files.js'
import type { SendLedger } from './ledger.js'
import type { RequestScheduler } from './scheduler.js'
import type { ServiceWatch } from './service-watch.js'
import type { SendStops } from './stops.js'
import { documentsOf, type Item, type Unit } from './unit.js'

export type IndexingClient = Pick<
  ServiceClient,
  'uploadUrls' | 'updateUrls' | 'uploadDocuments' | 'updateDocuments'
> &
  Partial<Pick<ServiceClient, 'openDocuments'>>

export class UnitRequests {
  /** Requests sent (SendResult.requests). */
  count = 0

  constructor(
    private readonly client: IndexingClient,
    private readonly target: IndexTarget,
    private readonly scheduler: RequestScheduler,
    private readonly watch: ServiceWatch,
    private readonly ledger: SendLedger,
    private readonly stops: SendStops,
  ) {}

  /** One request. Undefined on success (outcomes recorded), else what it failed with. */
  async attempt(
    kind: Unit['kind'],
    items: Item[],
    operation: Operation,
    opened?: Promise<OpenedDocuments>,
    placeholders?: boolean,
    retry = false,
  ): Promise<unknown> {
    // A retry of an item is a request that sends it again after one that carried it failed; a try that
    // stopped at opening its files carried nothing.
    const retried = retry ? items.filter((item) => item.attempts > 0) : []
    for (const item of retried) item.retries = (item.retries ?? 0) + 1
    for (const item of items) item.attempts++
    this.count++
    let failure: unknown
    try {
      await this.call(kind, items, operation, opened)
    } catch (error) {
      failure = error ?? new Error('unknown failure')
    } finally {
      disposeOpened(opened)
    }
    if (
      opened &&
      (await opened.then(
        () => false,
        () => true,
      ))
    ) {
      // A file could not be opened as selected: no request left, so none is counted.
      for (const item of items) item.attempts--
      for (const item of retried) item.retries! -= 1
      this.count--
    }
    // What the answer says about the service is recorded before the slot is given back, so the next
    // request already sees the pause, the lowered limit or the open breaker.
    if (failure === undefined) this.scheduler.succeeded()
    this.watch.observe(failure)
    this.scheduler.release()
    if (failure === undefined) this.ledger.succeed(items, operation, placeholders === true, false)
    else this.ledger.reportProgress()
    return failure
  }

  private call(
    kind: Unit['kind'],
    items: Item[],
    operation: Operation,
    opened?: Promise<OpenedDocuments>,
  ): Promise<unknown> {
    const options = { signal: this.stops.hardStop.signal, opened }
    if (kind === 'urls') {
      const urls = items.map((item) => item.name)
      return operation === 'upload'
        ? this.client.uploadUrls(this.target, urls, options)
        : this.client.updateUrls(this.target, urls, options)
    }
    const documents = documentsOf(items)
    return operation === 'upload'
      ? this.client.uploadDocuments(this.target, documents, options)
      : this.client.updateDocuments(this.target, documents, options)
  }
}
