// The fingerprint of the settings that shape the selection, kept in the record so that a run can say which
// of them changed since the record was written, without the record holding their values. Each value is
// put in a canonical form first, so that a change that cannot change the selection (the order of `urls`)
// is not reported as one.
import { createHash } from 'node:crypto'
import type { IndexConfig } from '../config/index-config.js'
import { isNegatedPattern } from '../select/patterns.js'

/** The settings that shape the selection, by their action input names, in action.yml order. */
export const SELECTION_SETTINGS = [
  'files',
  'urls',
  'sitemaps',
  'url-include',
  'url-exclude',
  'removed',
  'skip-drafts',
  'include-hidden-files',
  'max-file-size',
  'follow-symlinks',
  'shard',
] as const

export type SelectionSetting = (typeof SELECTION_SETTINGS)[number]

/** A set: order and repeats do not change what it selects. */
const asSet = (values: readonly string[]): string[] => [...new Set(values)].sort()

/**
 * `files` patterns apply in order, the last that matches a name deciding (`!` excludes): only the order
 * within a run of includes (or of excludes) is free, so each run is sorted and the runs kept in order.
 */
function canonicalPatterns(patterns: readonly string[]): string[][] {
  const runs: { negated: boolean; patterns: string[] }[] = []
  for (const pattern of patterns) {
    const negated = isNegatedPattern(pattern)
    const last = runs.at(-1)
    if (last && last.negated === negated) last.patterns.push(pattern)
    else runs.push({ negated, patterns: [pattern] })
  }
  return runs.map((run) => asSet(run.patterns))
}

function canonicalValues(config: IndexConfig): Record<SelectionSetting, unknown> {
  const shard = config.shard && config.shard.count > 1 ? `${config.shard.index}/${config.shard.count}` : ''
  return {
    files: canonicalPatterns(config.files),
    urls: asSet(config.urls),
    // A page listed by two sitemaps is one page: the sitemaps are a set too.
    sitemaps: asSet(config.sitemaps),
    'url-include': asSet(config.urlInclude),
    'url-exclude': asSet(config.urlExclude),
    removed: config.removed,
    'skip-drafts': config.skipDrafts,
    'include-hidden-files': config.includeHiddenFiles,
    'max-file-size': config.maxFileSize,
    'follow-symlinks': config.followSymlinks,
    // `1/1` selects what no shard selects: everything.
    shard,
  }
}

/** 12 hex digits of SHA-256: enough to tell two values apart; the record keeps no value itself. */
const shortHash = (value: unknown): string =>
  createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 12)

/** Each selection setting (by input name) → a short hash of its canonical value. */
export function settingsOf(config: IndexConfig): Record<string, string> {
  const values = canonicalValues(config)
  const settings: Record<string, string> = {}
  for (const name of SELECTION_SETTINGS) settings[name] = shortHash(values[name])
  return settings
}

/** The input names whose hash differs between two records' settings (absent on one side: changed), sorted. */
export function changedSettings(before: Record<string, string>, after: Record<string, string>): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)])
  return [...names]
    .filter(
      (name) => !Object.hasOwn(before, name) || !Object.hasOwn(after, name) || before[name] !== after[name],
    )
    .sort()
}
