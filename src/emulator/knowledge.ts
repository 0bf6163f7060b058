// What a flow reads from a knowledge base of the emulator: its text documents with their text, and its URLs.
import { open } from 'node:fs/promises'
import { isTextDocument, type FlowDocument, type FlowKnowledge } from './flow.js'
import type { EmulatorStore, KnowledgeBaseId } from './store.js'

/** Bytes of each text document the flow reads: enough for docs, bounded for memory. */
const FLOW_TEXT_LIMIT = 2 * 1024 * 1024

async function readTextPrefix(file: string, limit: number): Promise<string> {
  const handle = await open(file, 'r')
  try {
    const buffer = Buffer.alloc(limit)
    const { bytesRead } = await handle.read(buffer, 0, limit, 0)
    return buffer.subarray(0, bytesRead).toString('utf8')
  } finally {
    await handle.close()
  }
}

/** A knowledge base's documents (text documents with their text) and URLs, as a flow reads them now. */
export async function knowledgeOf(store: EmulatorStore, kb: KnowledgeBaseId): Promise<FlowKnowledge> {
  const documents: FlowDocument[] = []
  for (const document of store.documents(kb)) {
    const text = isTextDocument(document.name, document.contentType)
      ? await readTextPrefix(store.contentPath(kb, document.name), FLOW_TEXT_LIMIT)
      : undefined
    documents.push({ nodeId: kb.nodeId, name: document.name, contentType: document.contentType, text })
  }
  return { documents, urls: store.urls(kb) }
}
