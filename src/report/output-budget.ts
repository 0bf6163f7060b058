// All outputs of one step within one budget. GitHub counts step outputs against the job's limit of
// 1 MiB, measured as UTF-16 (about 524,000 characters); a job over it fails at "Complete job" with
// every step green. One step keeps to a budget that leaves room for other steps, and says what it cut:
// the report file holds everything uncut.
import { cutJson } from '../service/cut.js'
import type { Secrets } from '../log.js'
import { redactDeep } from './redact.js'
import { formatCount } from '../units.js'
import { needsWithin } from './shared-room.js'

/** A step output's size as GitHub approximates it: UTF-16 code units (JavaScript's `length`) of name and value. */
export const outputSize = (name: string, value: string): number => name.length + value.length

/**
 * One output to fit. `exact` is written as it is (counts, paths: small and never cut); `list` is a JSON
 * array cut item by item with a closing note; `text` is cut at its end; `json` is cut inside its strings.
 */
export type OutputSpec =
  | { name: string; exact: string }
  | { name: string; count: number }
  /** `fileList`: what the report file holds under this name instead (the items whole, e.g. every answer). */
  | { name: string; list: readonly unknown[]; fileList?: readonly unknown[] }
  /** `wholeBytes`: the text is already the beginning of something larger (a flow answer cut on arrival). */
  | { name: string; text: string; wholeBytes?: number }
  | { name: string; json: unknown }

export interface FittedOutput {
  name: string
  value: string
  /** Set when the value was cut: what was left out, in words ("18,150 of 20,000 items"). */
  cut?: string
}

/** The key of the object that ends a cut list (and marks other cut values); no document name is an object. */
export const CUT_KEY = 'kb-sync-cut'

const count = formatCount

/**
 * The closing element of a cut list: an object, never a string, so a step reading the array as names
 * cannot take the note for a name (`jq '.[] | strings'` gives the names alone).
 */
export function cutListNote(missing: number, fileOutput: string): { [CUT_KEY]: number; note: string } {
  return {
    [CUT_KEY]: missing,
    note: `… and ${count(missing)} more, left out to stay within GitHub's outputs limit; the file named by the "${fileOutput}" output lists all.`,
  }
}

/** `items` as a JSON array of at most `room` code units: whole when it fits, else a prefix and a note. */
function fitList(
  items: readonly unknown[],
  room: number,
  fileOutput: string,
  sizes: ItemSizes,
): { value: string; kept: number } {
  // No text of the whole array is built before it is known to fit.
  sizes.lengthUpTo(room)
  if (sizes.whole !== undefined && sizes.whole <= room)
    return { value: JSON.stringify(items), kept: items.length }
  const note = JSON.stringify(cutListNote(items.length, fileOutput))
  let used = 2 + note.length
  let kept = 0
  while (kept < items.length && used + sizes.at(kept) + 1 <= room) used += sizes.at(kept++) + 1
  const shown = [...items.slice(0, kept), cutListNote(items.length - kept, fileOutput)]
  return { value: JSON.stringify(shown), kept }
}

const itemSize = (item: unknown): number => (JSON.stringify(item) ?? 'null').length

/**
 * The JSON sizes of a list's items, measured in order and once each, only as far as asked: a list far
 * over the budget is measured up to what can be shown.
 */
class ItemSizes {
  private readonly sizes: number[] = []
  /** The JSON array's length once every item is measured. */
  whole: number | undefined

  constructor(private readonly items: readonly unknown[]) {}

  at(index: number): number {
    while (this.sizes.length <= index) this.sizes.push(itemSize(this.items[this.sizes.length]))
    return this.sizes[index]
  }

  /**
   * 1 + the items' sizes + 1 per item (the array's JSON length; 1 for an empty one) when that is at most
   * `cap`, else a number over `cap` (the items measured so far).
   */
  lengthUpTo(cap: number): number {
    let length = 1 + this.sizes.reduce((n, size) => n + size + 1, 0)
    for (let index = this.sizes.length; index < this.items.length && length <= cap; index++)
      length += this.at(index) + 1
    if (this.sizes.length === this.items.length) this.whole = Math.max(2, length)
    return length
  }
}

/** `text` within `room` code units: its beginning and a note, never splitting a surrogate pair. */
function fitText(text: string, room: number, fileOutput: string, wholeBytes?: number): string {
  if (text.length <= room) return text
  // The file holds all of the text, which is itself all of the output only when nothing was cut before.
  const note = (removed: number) =>
    wholeBytes === undefined
      ? `\n…[cut by kb-sync: the last ${count(removed)} of ${count(text.length)} characters were removed; the file named by the "${fileOutput}" output holds all]`
      : `\n…[cut by kb-sync: the first ${count(text.length - removed)} characters of an output of ${count(wholeBytes)} bytes are kept; the file named by the "${fileOutput}" output holds its first ${count(Buffer.byteLength(text))} bytes]`
  // The note is longest when its number has the most digits: reserve that.
  let end = Math.max(0, room - Math.max(note(0).length, note(text.length).length))
  if (end > 0 && /[\ud800-\udbff]/.test(text[end - 1])) end -= 1
  return text.slice(0, end) + note(text.length - end)
}

/** JSON within `room` code units (cutJson measures UTF-8 bytes, never fewer than UTF-16 code units). */
function fitJson(value: unknown, room: number, fileOutput: string): string {
  const text = JSON.stringify(value) ?? 'null'
  if (text.length <= room) return text
  const cut = cutJson(value, room).text
  if (cut.length <= room) return cut
  return JSON.stringify({ [CUT_KEY]: `Too large for the outputs budget; see the "${fileOutput}" output.` })
}

type Sized = { spec: OutputSpec; index: number; size: number; items?: ItemSizes }

function wholeSize(spec: Exclude<OutputSpec, { list: readonly unknown[] }>): number {
  if ('count' in spec) return outputSize(spec.name, String(spec.count))
  if ('exact' in spec) return outputSize(spec.name, spec.exact)
  if ('text' in spec) return outputSize(spec.name, spec.text)
  return outputSize(spec.name, JSON.stringify(spec.json) ?? 'null')
}

/** The sizes the shared outputs are ordered by: a list measured item by item only as far as a share reaches. */
function sizeShared(shared: { spec: OutputSpec; index: number }[], room: number): Sized[] {
  const sized: Sized[] = shared.map(({ spec, index }) => ({
    spec,
    index,
    size: 0,
    items: 'list' in spec ? new ItemSizes(spec.list) : undefined,
  }))
  const sizes = needsWithin(sized, room, ({ spec, items }, cap) =>
    'list' in spec ? spec.name.length + items!.lengthUpTo(cap) : wholeSize(spec),
  )
  sized.forEach((s, at) => (s.size = sizes[at]))
  return sized
}

/**
 * Fits every output within `budget` code units (names included), in the order given. Exact outputs are
 * kept whole; the others share what is left fairly: smallest first, each takes at most an equal share of
 * what remains, so one huge list cannot crowd out the others and what a small one leaves goes to the
 * rest. `fileOutput` names the output whose file holds everything uncut (the notes point to it).
 */
export function fitOutputs(specs: readonly OutputSpec[], budget: number, fileOutput: string): FittedOutput[] {
  const fitted: FittedOutput[] = new Array(specs.length)
  let room = budget
  const shared: { spec: OutputSpec; index: number }[] = []
  specs.forEach((spec, index) => {
    if ('count' in spec) {
      fitted[index] = { name: spec.name, value: String(spec.count) }
      room -= outputSize(spec.name, String(spec.count))
    } else if ('exact' in spec) {
      fitted[index] = { name: spec.name, value: spec.exact }
      room -= outputSize(spec.name, spec.exact)
    } else shared.push({ spec, index })
  })
  const sized = sizeShared(shared, room)
  sized.sort((a, b) => a.size - b.size)
  sized.forEach(({ spec, index, items }, position) => {
    const share = Math.max(0, Math.floor(room / (sized.length - position))) - spec.name.length
    const output = fitOne(spec, share, fileOutput, items)
    fitted[index] = output
    room -= outputSize(output.name, output.value)
  })
  return fitted
}

function fitOne(spec: OutputSpec, room: number, fileOutput: string, items?: ItemSizes): FittedOutput {
  const { name } = spec
  if ('list' in spec) {
    const { value, kept } = fitList(spec.list, room, fileOutput, items ?? new ItemSizes(spec.list))
    const total = spec.list.length
    return kept === total
      ? { name, value }
      : { name, value, cut: `${count(total - kept)} of ${count(total)} items` }
  }
  if ('text' in spec) {
    const value = fitText(spec.text, room, fileOutput, spec.wholeBytes)
    return value === spec.text
      ? { name, value }
      : { name, value, cut: `${count(spec.text.length - value.length)} characters` }
  }
  if ('json' in spec) {
    const whole = JSON.stringify(spec.json) ?? 'null'
    const value = fitJson(spec.json, room, fileOutput)
    return value === whole ? { name, value } : { name, value, cut: 'long strings shortened' }
  }
  return 'count' in spec ? { name, value: String(spec.count) } : { name, value: spec.exact }
}

/**
 * The report file's fields: every output uncut under its own name (counts as numbers), so
 * `jq .uploaded` on the file gives what the `uploaded` output would hold without a budget.
 */
export function fileFields(specs: readonly OutputSpec[]): [string, unknown][] {
  return specs.map((spec) => {
    if ('count' in spec) return [spec.name, spec.count]
    if ('exact' in spec) return [spec.name, spec.exact]
    if ('list' in spec) return [spec.name, spec.fileList ?? spec.list]
    if ('text' in spec) return [spec.name, spec.text]
    return [spec.name, spec.json ?? null]
  })
}

/** Every string of every output with the keys masked (before fitting, so sizes are what is written). */
export function redactSpecs(specs: readonly OutputSpec[], secrets: Secrets): OutputSpec[] {
  return specs.map((spec) => redactDeep(spec, secrets))
}

/** Total size of fitted outputs, as GitHub counts it. */
export const totalSize = (outputs: readonly FittedOutput[]): number =>
  outputs.reduce((n, output) => n + outputSize(output.name, output.value), 0)

/** One line naming each cut output and what it lost, for a warning; undefined when nothing was cut. */
export function describeCuts(
  outputs: readonly FittedOutput[],
  budget: number,
  file: string,
): string | undefined {
  const cut = outputs.filter((output) => output.cut !== undefined)
  if (cut.length === 0) return undefined
  return (
    `Outputs cut to stay within the outputs budget (${count(budget)} characters for all outputs of this step; ` +
    `GitHub fails a job whose outputs pass 1 MiB): ${cut.map((o) => `${o.name} (${o.cut} left out)`).join(', ')}. ` +
    `The counts are exact, and ${file} holds everything uncut.`
  )
}
