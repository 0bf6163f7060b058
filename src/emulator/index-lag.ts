// How long the emulator's flow takes to answer from what was just sent: like the service, which indexes
// when it indexes, a flow keeps answering from a knowledge base's previous documents for `delayMs` after
// each accepted upload or update. Each change keeps the knowledge base as it was just before it, so two
// changes a second apart become answerable a second apart, in order.
import type { FlowKnowledge } from './flow.js'
import type { KnowledgeBaseId } from './store.js'

interface PendingChange {
  /** When the change becomes answerable (ms since the epoch). */
  answerableAt: number
  /** The knowledge base as it was answered before the change. */
  before: FlowKnowledge
}

const keyOf = (kb: KnowledgeBaseId) => JSON.stringify([kb.flowId, kb.orgId, kb.nodeId])

export class IndexLag {
  private readonly pending = new Map<string, PendingChange[]>()

  constructor(
    readonly delayMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Called with the knowledge base as it is, just before a change to it is applied. */
  async changing(kb: KnowledgeBaseId, current: () => Promise<FlowKnowledge>): Promise<void> {
    if (this.delayMs <= 0) return
    const changes = this.notAnswerable(kb)
    changes.push({ answerableAt: this.now() + this.delayMs, before: await current() })
    this.pending.set(keyOf(kb), changes)
  }

  /** What a flow answers from for this knowledge base now: undefined means its current documents. */
  answered(kb: KnowledgeBaseId): FlowKnowledge | undefined {
    return this.notAnswerable(kb)[0]?.before
  }

  /** The changes not answerable yet, oldest first (the answerable ones are forgotten). */
  private notAnswerable(kb: KnowledgeBaseId): PendingChange[] {
    const key = keyOf(kb)
    const now = this.now()
    const changes = (this.pending.get(key) ?? []).filter((change) => change.answerableAt > now)
    if (changes.length === 0) this.pending.delete(key)
    else this.pending.set(key, changes)
    return changes
  }
}
