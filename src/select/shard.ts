// `shard: I/N`: the part of the selection one of N jobs (a workflow's matrix) sends. A document or URL
// belongs to the shard its name hashes to, so the parts are disjoint, their union is the whole selection,
// and a name stays in its shard across runs, machines and file orders (nothing depends on what else is
// selected). SHA-256 because it is in Node and spreads any names evenly; only 4 bytes of it are used.
import { createHash } from 'node:crypto'
import type { FileSelection } from '../model.js'

export interface Shard {
  /** 1-based: 1 ≤ index ≤ count. */
  index: number
  count: number
}

/** The 1-based shard of `count` a name belongs to. */
export function shardOf(name: string, count: number): number {
  const digest = createHash('sha256').update(name, 'utf8').digest()
  return (digest.readUInt32BE(0) % count) + 1
}

export function inShard(name: string, shard: Shard | undefined): boolean {
  return shard === undefined || shard.count === 1 || shardOf(name, shard.count) === shard.index
}

/** The shard's part of a selection: its files, and the skips of its names (each reported once, by its shard). */
export function shardSelection(selection: FileSelection, shard: Shard | undefined): FileSelection {
  if (shard === undefined) return selection
  return {
    files: selection.files.filter((file) => inShard(file.name, shard)),
    skipped: selection.skipped.filter((item) => inShard(item.name, shard)),
  }
}

/** `I/N` as the output and the summary show it. */
export function shardLabel(shard: Shard): string {
  return `${shard.index}/${shard.count}`
}

/** Parses `I/N`; a sentence saying what is wrong otherwise. */
export function parseShard(value: string, maxCount: number): Shard | string {
  const match = /^(\d+)\s*\/\s*(\d+)$/.exec(value)
  if (!match) return `must be I/N, the 1-based index of this job and the number of jobs, such as 2/4`
  const [index, count] = [Number(match[1]), Number(match[2])]
  if (count < 1 || count > maxCount) return `must be I/N with N from 1 to ${maxCount}`
  if (index < 1 || index > count) return `must be I/N with I from 1 to N (${count})`
  return { index, count }
}
