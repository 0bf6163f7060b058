// The settle wait (#36 §4) in the checks' job summary and sticky comment: one quote per note, above the
// results (a blank line apart: quoted lines in a row would run into one paragraph).
import { inline } from './markdown.js'

export function renderSettleNotes(notes: readonly string[]): string {
  return notes.map((note) => `> **Settle:** ${inline(note)}\n`).join('\n')
}
