// The files of a batch of documents: opened ahead while the batch waits for its request slot, one batch
// at a time; closed when the batch is not sent; looked at again before a resend.
import { access, constants, lstat } from 'node:fs/promises'
import { displayName, type Logger } from '../log.js'
import type { Operation } from '../model.js'
import type { OpenedDocuments, ServiceClient } from '../service/client.js'
import { formatBytes } from '../units.js'
import { errorMessage } from './error-message.js'
import type { SendLedger } from './ledger.js'
import { documentsOf, type Item } from './unit.js'

export class BatchFiles {
  /** Settles when the batch queued last has started opening: the next one starts after it (openAhead). */
  private openTurn: Promise<void> = Promise.resolve()

  constructor(
    private readonly client: Partial<Pick<ServiceClient, 'openDocuments'>>,
    private readonly ledger: SendLedger,
    private readonly log: Logger,
    private readonly options: { maxFileSize?: number },
  ) {}

  /**
   * Starts opening the items' files, when the client can; a failure surfaces in the call. Batches are
   * opened one at a time, each in its own turn of the event loop: small files are read synchronously, and
   * batches opened back to back in one turn held every ready request off the wire until all were read
   * (at 2,000 documents, ~60 ms before the first request left).
   */
  openAhead(items: Item[]): Promise<OpenedDocuments> | undefined {
    const open = this.client.openDocuments?.bind(this.client)
    if (!open) return undefined
    // The next batch waits for this one's synchronous part only: a slow asynchronous open (a large file
    // on a network disk) does not hold the batches behind it.
    let started!: () => void
    const previous = this.openTurn
    this.openTurn = new Promise<void>((resolve) => (started = resolve))
    const opening = previous
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(() => {
        try {
          return open(documentsOf(items))
        } finally {
          started()
        }
      })
    opening.catch(() => undefined)
    return opening
  }

  /**
   * Before a resend, each file is looked at again: a changed one is sent whole as it is now (never a
   * stale size with new bytes); one that is gone, no longer a readable regular file, or now over
   * max-file-size fails alone.
   */
  async refresh(items: Item[], operation: Operation): Promise<Item[]> {
    const kept: Item[] = []
    await Promise.all(
      items.map(async (item) => {
        const file = item.file!
        try {
          const stats = await lstat(file.path)
          if (!stats.isFile()) throw new Error('it is no longer a regular file')
          // Unreadable now (permissions changed): it fails alone, not its batch after every retry.
          await access(file.path, constants.R_OK)
          const limit = this.options.maxFileSize
          if (limit !== undefined && stats.size > limit) {
            this.ledger.fail(
              [item],
              operation,
              `${displayName(item.name)} grew to ${formatBytes(stats.size)} since it was selected, over ` +
                `max-file-size ${formatBytes(limit)}; not sent.`,
            )
            return
          }
          if (stats.size !== file.size) {
            item.file = { name: file.name, path: file.path, size: stats.size }
            this.log.info(
              `${displayName(item.name)} changed since it was selected; sending its current content.`,
            )
          }
          kept.push(item)
        } catch (error) {
          const code =
            typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined
          const reason = typeof code === 'string' ? code : errorMessage(error)
          this.ledger.fail([item], operation, `${displayName(item.name)} can no longer be read (${reason}).`)
        }
      }),
    )
    // Keep the planned order (the await above finishes in any order).
    return items.filter((item) => kept.includes(item))
  }
}

/** Closes files opened ahead (idempotent: the request body closes them too once sent). */
export function disposeOpened(opened: Promise<OpenedDocuments> | undefined): void {
  opened?.then(
    (files) => files.dispose(),
    () => undefined,
  )
}
