// The routes of the emulator: which operation a request path names, with its ids (the client's id rule).
import { idProblem } from '../service/ids.js'
import type { KnowledgeBaseId } from './store.js'

export type Route =
  | { operation: 'urls' | 'documents'; kb: KnowledgeBaseId; allow: string }
  | { operation: 'run'; flowId: string; orgId: string; allow: string }

function decodeId(segment: string): string | undefined {
  try {
    const id = decodeURIComponent(segment)
    return idProblem(id) === undefined ? id : undefined
  } catch {
    return undefined
  }
}

/** The route of a raw request path, or undefined (404). Ids follow the client's own id rule. */
export function matchRoute(rawPath: string): Route | undefined {
  const segments = rawPath.split('/')
  if (segments[0] !== '') return undefined
  const [, area, version, operation, ...ids] = segments
  const decoded = ids.map(decodeId)
  if (decoded.some((id) => id === undefined)) return undefined
  if (area === 'indexing' && version === 'v0' && (operation === 'urls' || operation === 'documents')) {
    if (decoded.length !== 3) return undefined
    const [flowId, orgId, nodeId] = decoded as string[]
    return { operation, kb: { flowId, orgId, nodeId }, allow: 'POST, PATCH' }
  }
  if (area === 'inference' && version === 'v0' && operation === 'run') {
    if (decoded.length !== 2) return undefined
    const [orgId, flowId] = decoded as string[]
    return { operation, orgId, flowId, allow: 'POST' }
  }
  return undefined
}
