// The change set when no record of the node can be read (or in a preview): inferred from git history
// and the workflow's runs (history/), as before the record. With a record (recorded-state.ts) only the pull
// request's own count (`pull-request-changed`) comes from here.
import type { IndexConfig } from '../config/index-config.js'
import { displayName } from '../log.js'
import type { ChangeBase, ChangeDecision } from '../model.js'
import type { IndexReport } from '../report/types.js'
import type { ChangeBaseDecision } from '../history/change-base.js'
import type { PullRequestChanges } from '../history/pull-request-changes.js'
import type { StagingChanges } from '../history/staging-changes.js'
import { nameIsSelectable } from '../select/files.js'
import { nameMatcher } from '../select/match.js'
import { withSectionPages } from '../select/document/section-pages.js'
import type { JobContext } from './job-context.js'
import { selectionOptions } from './selection-stage.js'

const SOURCE_TEXT = {
  'git-diff': 'git diff of the push (before..after)',
  'fetched-before': 'git diff of the push, after fetching the before commit',
  'compare-api': 'GitHub compare API',
  payload: 'commit lists of the push payload',
  'last-success': 'git diff since the last successful sync',
  'since-ref': 'git diff since the --since commit',
  staging: 'the names that can differ from what earlier runs left in the staging node',
  state: "the knowledge base's record: what the checkout selects minus what the node holds",
} as const

export function describeChanges(changes: ChangeDecision): string {
  if (changes.kind === 'changes') return SOURCE_TEXT[changes.source]
  if (changes.kind === 'all')
    return `full sync (${changes.reason})${changes.removed ? ", and the push's own removals (before..after)" : ''}`
  return `nothing to index (${changes.reason})`
}

/** One line naming the base commit and, for the last successful sync, its run. */
export function describeBase(base: ChangeBase): string {
  if (base.source === 'none') return 'none (full sync)'
  if (base.source === 'push') return `the push's before commit ${base.sha}`
  if (base.source === 'ref') return `--since commit ${base.sha}`
  if (base.source === 'state') return `the knowledge base's record, ${base.recordedBy ?? 'of an earlier run'}`
  return `the last successful sync, run #${base.run?.number ?? '?'} at commit ${base.sha}`
}

async function decideChanges(config: IndexConfig, context: JobContext): Promise<ChangeBaseDecision> {
  // `--since` with another mode is refused when the CLI reads its config.
  if (config.mode !== 'auto') {
    return {
      decision: { kind: 'all', source: 'full-sync', reason: `mode ${config.mode}: every selected file` },
      base: { source: 'none', sha: '' },
      notices: [],
    }
  }
  // Loaded only when a change set is computed: change detection brings git and @actions/github
  // (octokit). As its own chunk file (dist/<id>.index.js), not "eager" in index.js: V8 compiles all of a
  // file it loads, evaluated or not. With this and the other seams (sitemaps, octokit, undici's fetch,
  // YAML, form-data) as chunks, index.js went 2.43 -> 1.20 MB, its compile at start ~50 -> ~32 ms, and a
  // small upload's start to its first log group 127 -> 84 ms (median of 9, shared 2-core machine).
  // scripts/bundle.mjs fails if index.js holds that code again (LAZY_IN_INDEX_ACTION).
  const { decideChangeBase } = await import('../history/change-base.js')
  return decideChangeBase({
    ...context,
    patterns: config.files,
    githubToken: config.githubToken,
    fullSync: config.fullSync,
  })
}

/**
 * The pull request's own change set (base..head): what a preview shows, and in a staging sync only what
 * `pull-request-changed` counts (`quiet`: its own warning says why the count is unknown).
 */
async function pullRequestChanges(
  config: IndexConfig,
  context: JobContext,
  options: { quiet?: boolean } = {},
): Promise<PullRequestChanges> {
  const { detectPullRequestChanges } = await import('../history/pull-request-changes.js')
  const changes = await detectPullRequestChanges(
    { ...context, patterns: config.files, githubToken: config.githubToken },
    options,
  )
  context.log.info(
    `${options.quiet ? "The pull request's own changes" : 'Change set'}: ${changes.description}`,
  )
  return changes
}

async function stagingChanges(config: IndexConfig, context: JobContext): Promise<StagingChanges> {
  const { detectStagingChanges } = await import('../history/staging-changes.js')
  const changes = await detectStagingChanges({
    ...context,
    patterns: config.files,
    githubToken: config.githubToken,
    fullSync: config.fullSync,
  })
  context.log.info(`Change set: ${changes.description}`)
  return changes
}

/** Pages below a Hugo section whose `_index.md` changed are judged again (select/document/section-pages.ts). */
async function withChangedSections(
  config: IndexConfig,
  context: JobContext,
  changes: Extract<ChangeDecision, { kind: 'changes' }>,
): Promise<ChangeDecision> {
  if (config.files.length === 0) return changes
  const found = await withSectionPages(changes, selectionOptions(config, context))
  if (found.pages > 0)
    context.log.info(
      `A section's _index.md changed (its cascade applies to the pages below it): ${found.pages} page(s) ` +
        `below ${found.sections.map((folder) => (folder === '' ? '.' : folder)).join(', ')} are judged again, ` +
        'sent if published and blanked if not.',
    )
  return found.changes
}

/**
 * The names the selection would send, by name (patterns, hidden files): removed names that were never
 * in the knowledge base drop out, and a pull request's changes are counted among these.
 */
export function selectedNames(config: IndexConfig, names: string[]): string[] {
  const matches = nameMatcher(config.files)
  const options = { patterns: config.files, includeHidden: config.includeHiddenFiles }
  return names.filter((name) => matches(name) && nameIsSelectable(name, options))
}

/**
 * The `pull-request-changed` output: how many selected documents the pull request's own change set
 * (base..head) adds, modifies or removes, or why that is unknown.
 */
function pullRequestChangedCount(
  config: IndexConfig,
  own: PullRequestChanges,
): { count: number } | { unknown: string } {
  const { decision } = own
  if (decision.kind === 'none') return { count: 0 }
  if (decision.kind === 'all') return { unknown: decision.reason }
  if (decision.everythingUnder)
    return {
      unknown: `the changes below ${decision.everythingUnder.map(displayName).join(', ')} are not known one by one`,
    }
  return {
    count: selectedNames(config, [...decision.added, ...decision.modified, ...decision.removed]).length,
  }
}

/** What the change-set stage decided: the change set, and the staging node's own detection when it ran. */
export interface DetectedChanges {
  changes: ChangeDecision
  staged?: StagingChanges
  /**
   * The commit a history-based change set is measured from (a pull request's base, the push's before,
   * the last successful sync's, --since), whose versions of the changed files are the ones they replace.
   */
  base?: string
}

/**
 * The change set: the record's difference when there is one (`fromRecord`), else the preview of a pull
 * request, a staging node's names, or mode auto's base (history/). Also counts the pull request's own
 * changes, and says when there is nothing to index.
 */
export async function detectChanges(
  config: IndexConfig,
  context: JobContext,
  report: IndexReport,
  fromRecord: ChangeDecision | undefined,
): Promise<DetectedChanges> {
  const { log } = context
  const notices = report.notices
  // In a pull request, what merging would change is previewed.
  const pullRequest = config.preview
    ? await log.group('Change detection', () => pullRequestChanges(config, context))
    : undefined
  // `pull-request: index` makes the node a staging node: it ends equal to this checkout. With mode
  // upload/update it sends every selected file: no change set is needed.
  const staged =
    !fromRecord &&
    !config.preview &&
    config.pullRequest === 'index' &&
    'pull_request' in context.payload &&
    config.mode === 'auto'
      ? await log.group('Change detection', () => stagingChanges(config, context))
      : undefined
  // What the pull request itself changes (not the staging node's wider change set) is counted for the
  // run-flow action's skip rule. The sync is never skipped: see the `pull-request-changed` output.
  const ownChanges =
    pullRequest ??
    (config.pullRequest === 'index' && 'pull_request' in context.payload
      ? await log.group('Pull request changes', () => pullRequestChanges(config, context, { quiet: true }))
      : undefined)
  if (ownChanges) {
    const changed = pullRequestChangedCount(config, ownChanges)
    if ('count' in changed) report.pullRequestChanged = changed.count
    else
      log.warning(
        `The output "pull-request-changed" is empty: the pull request's own change set is unknown (${changed.unknown}).`,
      )
  }
  // upload/update send every selected file whatever changed; only auto previews the pull request's changes.
  const previewed = config.mode === 'auto' ? pullRequest : undefined
  const detected =
    previewed?.decision ??
    fromRecord ??
    staged?.decision ??
    (await log.group('Change detection', async () => {
      const decided = await decideChanges(config, context)
      log.info(`Change set: ${describeChanges(decided.decision)}`)
      if (decided.base.sha) log.info(`Base: ${describeBase(decided.base)}`)
      notices.push(...decided.notices)
      report.base = decided.base
      return decided.decision
    }))
  const changes =
    config.skipDrafts && detected.kind === 'changes' && !fromRecord
      ? await withChangedSections(config, context, detected)
      : detected
  if (changes.kind === 'changes')
    for (const warning of changes.warnings ?? []) {
      log.warning(`Change detection: ${warning}.`)
      notices.push(`Change detection: ${warning}.`)
    }
  if (config.preview && pullRequest)
    report.preview = {
      number: pullRequest.number,
      base: pullRequest.base ?? '',
      head: pullRequest.head ?? '',
    }
  if (pullRequest?.base) report.changeBase = { sha: pullRequest.base, source: 'pull request base' }
  report.changeSource = previewed?.description ?? describeChanges(changes)
  if (staged) {
    const { orgId, flowId, nodeId } = config.target
    report.changeSource = `staging knowledge base ${orgId}/${flowId}/${nodeId}: ${staged.description}`
    if (changes.kind === 'all') notices.push(`Change detection: ${staged.description}.`)
  }
  if (changes.kind === 'none') {
    log.notice(`Nothing to index: ${changes.reason}.`)
    notices.push(`Nothing to index: ${changes.reason}.`)
  }
  const base = previewed ? pullRequest?.base : fromRecord || staged ? undefined : report.base?.sha
  return { changes, staged, ...(base ? { base } : {}) }
}
