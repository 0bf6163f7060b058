// The settle wait (#36 §4) in the checks' job summary: one quoted line per note, above the results.
import { inline } from './markdown.js'

export function renderSettleNotes(notes: readonly string[]): string {
  return notes.map((note) => `> **Settle:** ${inline(note)}\n`).join('')
}
