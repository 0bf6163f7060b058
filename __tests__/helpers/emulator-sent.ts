// What the emulator accepted: document names per method, in requests it answered 200.
import type { Emulator } from '../../src/emulator/server.js'

/** Document names per method in requests answered 200 since request number `from`, each list sorted. */
export function sentByMethod(emulator: Emulator, from = 0): { POST: string[]; PATCH: string[] } {
  const result = { POST: [] as string[], PATCH: [] as string[] }
  for (const request of emulator.requests().slice(from)) {
    if (request.status !== 200 || !request.documents) continue
    result[request.method as 'POST' | 'PATCH'].push(...request.documents.map((d) => d.filename))
  }
  result.POST.sort()
  result.PATCH.sort()
  return result
}
