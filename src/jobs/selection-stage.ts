// The selection stage of the index job: the files the patterns select (all, or a push's changed ones),
// this shard's part of them, and the pages of the sitemaps.
import type { IndexConfig } from '../config/index-config.js'
import type { ChangeBase, ChangeDecision, FileSelection, SkippedItem } from '../model.js'
import { sitemapCountsLine } from '../report/sitemap-line.js'
import { undecodableSkip } from '../select/git/byte-names.js'
import {
  hasSelectableFile,
  selectFiles,
  selectNamedFiles,
  type FileSelectionOptions,
} from '../select/files.js'
import { nameMatcher } from '../select/match.js'
import { inShard, shardLabel, shardSelection } from '../select/shard.js'
import type { SitemapSync } from '../sitemaps/sync.js'
import type { KnowledgeBaseRecord } from '../state/record.js'
import { JobError, type JobContext } from './job-context.js'

export function selectionOptions(config: IndexConfig, context: JobContext): FileSelectionOptions {
  return {
    patterns: config.files,
    workspace: context.workspace,
    includeHidden: config.includeHiddenFiles,
    maxFileSize: config.maxFileSize,
    followSymlinks: config.followSymlinks,
  }
}

export async function select(
  config: IndexConfig,
  context: JobContext,
  changes: ChangeDecision,
): Promise<FileSelection> {
  if (config.files.length === 0) return { files: [], skipped: [] }
  const options = selectionOptions(config, context)
  // A push sends only what it changed: only those paths are checked on disk, not the whole workspace.
  // Folders whose changes are unknown need the search (the plan keeps only what lies below them).
  const selection =
    changes.kind === 'changes' && !changes.everythingUnder
      ? await selectNamedFiles(options, [...changes.added, ...changes.modified])
      : await selectFiles(options)
  if (changes.kind === 'changes') selection.skipped.push(...undecodableSkips(config, changes, selection))
  const none =
    selection.files.length === 0 && (changes.kind !== 'changes' || !(await hasSelectableFile(options)))
  if (none) {
    const { names } = config
    const message = `No files were found with the ${names.ref('files')} patterns (${config.files.join(', ')}) in ${context.workspace}.`
    if (config.ifNoFilesFound === 'error')
      throw new JobError(`${message} Set ${names.ref('if-no-files-found')} to warn or ignore to allow this.`)
    if (config.ifNoFilesFound === 'warn') context.log.warning(message)
  }
  return selection
}

/**
 * Changed names that are not valid UTF-8 and that the patterns select: skipped as the workspace search
 * skips them (the search reports them itself when it ran).
 */
function undecodableSkips(
  config: IndexConfig,
  changes: Extract<ChangeDecision, { kind: 'changes' }>,
  selection: FileSelection,
): SkippedItem[] {
  const matches = nameMatcher(config.files)
  const reported = new Set(selection.skipped.map((item) => item.name))
  return (changes.undecodable ?? [])
    .filter((name) => !reported.has(name.shown) && matches(name.lossy))
    .map((name) => undecodableSkip(name.shown, name.isFolder))
}

/** The URLs (of the inputs, of sitemaps) that this job's shard sends (all without a shard). */
export function shardUrls(config: IndexConfig, urls = config.urls): string[] {
  return config.shard ? urls.filter((url) => inShard(url, config.shard)) : urls
}

/**
 * The pages of the `sitemaps` input; in mode auto only those changed since the base commit (lastmod), or
 * with the record (`sent`), those never sent or changed since they were sent.
 */
export async function sitemapPages(
  config: IndexConfig,
  context: JobContext,
  base: ChangeBase | undefined,
  sent: KnowledgeBaseRecord['urls'] | undefined,
): Promise<SitemapSync | undefined> {
  if (config.sitemaps.length === 0) return undefined
  // Loaded only when there are sitemaps, from its own chunks: the XML parser (~280 KB with the sitemap
  // code) is not compiled at every run's start-up (see decideChanges).
  const { syncSitemaps } = await import('../sitemaps/sync.js')
  return context.log.group('Sitemaps', async () => {
    const sync = await syncSitemaps({
      sitemaps: config.sitemaps,
      include: config.urlInclude,
      exclude: config.urlExclude,
      known: config.urls,
      operation: config.mode === 'upload' ? 'upload' : 'update',
      base: config.mode === 'auto' && !sent ? base : undefined,
      sent,
      workspace: context.workspace,
      log: context.log,
      signal: context.signal,
    })
    context.log.info(sitemapCountsLine(sync.counts))
    return sync
  })
}

/** This shard's part of the files a change set needs (all of them, or what a push changed), logged. */
export async function selectStage(
  config: IndexConfig,
  context: JobContext,
  changes: ChangeDecision,
): Promise<FileSelection> {
  return context.log.group('Selection', async () => {
    const all = await select(config, context, changes)
    const found = shardSelection(all, config.shard)
    const which = changes.kind === 'changes' ? 'changed file(s)' : 'file(s)'
    const part = config.shard
      ? ` in shard ${shardLabel(config.shard)} (${all.files.length} in all shards)`
      : ''
    context.log.info(`${found.files.length} ${which} selected${part}, ${found.skipped.length} skipped.`)
    return found
  })
}
