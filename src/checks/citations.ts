// `cites`: the documents an answer cites. The emulator (and, as far as is known, the service) puts them
// next to the outputs as `citations: [{document, heading}]`; a plain string is taken as a document name.
// What the service does not send cannot be judged, so an answer without the list fails `cites` saying so.

/** The names of the documents the answer cites, or undefined when it carries no `citations` list. */
export function citedDocuments(response: unknown): string[] | undefined {
  if (response === null || typeof response !== 'object') return undefined
  const citations = (response as Record<string, unknown>).citations
  if (!Array.isArray(citations)) return undefined
  const names = citations.flatMap((citation: unknown) => {
    if (typeof citation === 'string') return [citation]
    if (citation !== null && typeof citation === 'object') {
      const document = (citation as Record<string, unknown>).document
      if (typeof document === 'string') return [document]
    }
    return []
  })
  return [...new Set(names)]
}

/**
 * Whether `wanted` is among the cited names: the same name, or a name ending in `/` + `wanted`, so that
 * `billing.md` is cited by `docs/billing.md` (documents are named by their path in the workspace).
 */
export function isCited(wanted: string, cited: string[]): boolean {
  return cited.some((name) => name === wanted || name.endsWith(`/${wanted}`))
}
