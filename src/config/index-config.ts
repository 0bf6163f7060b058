// The inputs of both actions and the CLI, parsed and validated into one typed config. Every problem is
// collected and reported at once, each naming its input; a key's value is never shown.
import { readCommentSettings, type CommentSettings } from './comment.js'
import { siteEventProblem } from './site-events.js'
import { quoted } from './errors.js'
import { InputFields, type InputReader } from './fields.js'
import type { SettingNames } from '../setting-names.js'
import {
  PULL_REQUEST_EVENTS,
  readFlowInputs,
  readOutputsBudget,
  readRetry,
  type EventContext,
  type RetrySettings,
} from './shared-inputs.js'
import { parseSitemapEntries, parseUrlPatterns } from './sitemaps.js'
import { parseUrlEntries } from './urls.js'
import type { IndexTarget, Mode, RemovedPolicy } from '../model.js'
import { DEFAULT_OUTPUTS_BUDGET } from './outputs-budget.js'
import { patternProblem } from '../select/patterns.js'
import { parseShard, type Shard } from '../select/shard.js'

export interface IndexConfig {
  /** Without a trailing slash. */
  baseUrl: string
  target: IndexTarget
  privateKey: string
  /** `files` patterns: one per line, trimmed, blank lines dropped. */
  files: string[]
  /** `urls` entries: validated, trimmed, blank lines dropped, each once (the first wins). */
  urls: string[]
  /** `sitemaps`: sitemap (or sitemap index) URLs whose pages are synced like `urls`; https unless loopback. */
  sitemaps: string[]
  /** `url-include` / `url-exclude`: glob patterns on the URLs of the sitemaps' pages. */
  urlInclude: string[]
  urlExclude: string[]
  mode: Mode
  /** `full-sync`: in mode auto, send every selected file instead of what changed since the base. */
  fullSync: boolean
  /** `removed`: in mode auto, blank each removed document with a placeholder (tombstone) or leave it (keep). */
  removed: RemovedPolicy
  /** `skip-drafts`: pages the site does not publish (select/document/drafts.ts) are not sent. */
  skipDrafts: boolean
  dryRun: boolean
  includeHiddenFiles: boolean
  ifNoFilesFound: 'warn' | 'error' | 'ignore'
  maxFileSize: number
  batchSize: number
  concurrency: number
  followSymlinks: 'inside' | 'none'
  retry: RetrySettings
  githubToken: string
  /** The sticky pull-request comment (the preview of a pull request). */
  comment: CommentSettings
  /** In a pull_request event: preview what merging would send (default) or index the pull request's files. */
  pullRequest: 'preview' | 'index'
  /** True in a pull request with `pull-request: preview`: the plan is shown, nothing is sent, no key needed. */
  preview: boolean
  /** Present when `flow-inputs` is set: the flow runs after indexing (not in a dry run). */
  flowRun?: { publicKey: string; inputs: Record<string, string>; timeoutMs: number }
  /** `outputs-budget`: UTF-16 code units for all outputs of the step (GitHub's job limit is shared). */
  outputsBudget: number
  /** Set, instead of an error, when a pull request has no private key: print it as a notice, exit 0. */
  skip?: string
  /** How messages of the run name a setting (the front end's words). */
  names: SettingNames
  /** `shard: I/N`: only the documents and URLs whose names hash to this part are sent (a matrix job). */
  shard?: Shard
  /** `state-retention-days`: how long the record's artifact is kept; undefined: the repository's setting. */
  stateRetentionDays?: number
  /** `state-file`: the record is kept in this file instead of an artifact (a lasting disk, GHES, npm start). */
  stateFile?: string
}

/** Defaults as action.yml spells them; the code applies them too. */
export const INDEX_DEFAULTS: Readonly<Record<string, string>> = Object.freeze({
  'base-url': 'https://api.stack-ai.com',
  mode: 'auto',
  'full-sync': 'false',
  removed: 'tombstone',
  'skip-drafts': 'true',
  'dry-run': 'false',
  'include-hidden-files': 'false',
  'if-no-files-found': 'warn',
  'max-file-size': '50MB',
  // Measured in bench/README.md (the curve): fewer, larger requests and more of them in flight.
  'batch-size': '25',
  concurrency: '16',
  'follow-symlinks': 'inside',
  retries: '10',
  'retry-deadline': '120',
  'pull-request': 'preview',
  'run-timeout': '600',
  'outputs-budget': String(DEFAULT_OUTPUTS_BUDGET),
})

/** Every input readIndexConfig reads, in action.yml order. */
export const INDEX_INPUTS: readonly string[] = Object.freeze([
  'base-url',
  'flow-id',
  'org-id',
  'node-id',
  'private-key',
  'files',
  'urls',
  'sitemaps',
  'url-include',
  'url-exclude',
  'mode',
  'full-sync',
  'removed',
  'skip-drafts',
  'dry-run',
  'include-hidden-files',
  'if-no-files-found',
  'max-file-size',
  'batch-size',
  'concurrency',
  'public-key',
  'flow-inputs',
  'run-timeout',
  'github-token',
  'follow-symlinks',
  'retries',
  'retry-deadline',
  'comment',
  'comment-key',
  'pull-request',
  'outputs-budget',
  'shard',
  'state-file',
  'state-retention-days',
])

/** GitHub keeps an artifact at most 90 days (400 on Enterprise Server, which has no artifacts of this kind). */
export const MAX_STATE_RETENTION_DAYS = 90

/** More jobs than a workflow matrix holds (256) cannot run at once. */
export const MAX_SHARDS = 256

// This event runs with the repository's secrets on behalf of code nobody has reviewed yet; workflow_run
// is allowed after a deploy of a branch, refused for a pull request's run (site-events.ts).
const UNREVIEWED_CODE_EVENTS = new Set(['pull_request_target'])

/** The `files` patterns; a pattern that could reach outside the workspace is a problem naming `files`. */
function readPatterns(fields: InputFields): string[] {
  const patterns: string[] = []
  fields
    .raw('files')
    .split(/\r?\n/)
    .forEach((line, index) => {
      const pattern = line.trim()
      if (pattern === '') return
      const problem = patternProblem(pattern)
      if (problem)
        fields.problem(
          'files',
          `${fields.names.subject('files')}, line ${index + 1}: pattern ${quoted(pattern)} ${problem}.`,
        )
      else patterns.push(pattern)
    })
  return patterns
}

/** `sitemaps`, `url-include` and `url-exclude`; the patterns only filter the sitemaps' pages. */
function readSitemapInputs(fields: InputFields, config: IndexConfig): void {
  const sitemaps = parseSitemapEntries(fields.raw('sitemaps'))
  config.sitemaps = sitemaps.values
  for (const problem of sitemaps.problems)
    fields.problem('sitemaps', `${fields.names.subject('sitemaps')}, ${problem}.`)
  for (const input of ['url-include', 'url-exclude'] as const) {
    const patterns = parseUrlPatterns(fields.raw(input))
    if (input === 'url-include') config.urlInclude = patterns.values
    else config.urlExclude = patterns.values
    for (const problem of patterns.problems)
      fields.problem(input, `${fields.names.subject(input)}, ${problem}.`)
    if (fields.raw(input) !== '' && fields.raw('sitemaps') === '')
      fields.problem(
        input,
        `${fields.names.subject(input)} filters the pages of sitemaps, but ${fields.names.ref('sitemaps')} is empty.`,
      )
  }
}

/** Reads the index action's inputs. Throws a ConfigError listing every problem. */
export function readIndexConfig(read: InputReader, event: EventContext): IndexConfig {
  const fields = new InputFields(read, INDEX_DEFAULTS, event.names)
  const githubToken = fields.token('github-token')
  if (UNREVIEWED_CODE_EVENTS.has(event.eventName))
    fields.problem(
      'event',
      `Indexing is refused under the "${event.eventName}" event: it runs with the repository's secrets for ` +
        'code that has not been reviewed, so indexing here would publish unreviewed content with the private ' +
        'key. Index on push (or workflow_dispatch) instead; the run-flow action may be used under this event.',
    )
  const siteProblem = siteEventProblem(event.eventName, event.payload ?? {})
  if (siteProblem) fields.problem('event', siteProblem)
  const config: IndexConfig = {
    baseUrl: fields.baseUrl('base-url'),
    target: { flowId: fields.id('flow-id'), orgId: fields.id('org-id'), nodeId: fields.id('node-id') },
    privateKey: fields.key('private-key'),
    files: readPatterns(fields),
    urls: [],
    sitemaps: [],
    urlInclude: [],
    urlExclude: [],
    mode: fields.oneOf('mode', ['auto', 'upload', 'update'] as const),
    fullSync: fields.boolean('full-sync'),
    removed: fields.oneOf('removed', ['tombstone', 'keep'] as const),
    skipDrafts: fields.boolean('skip-drafts'),
    dryRun: fields.boolean('dry-run'),
    includeHiddenFiles: fields.boolean('include-hidden-files'),
    ifNoFilesFound: fields.oneOf('if-no-files-found', ['warn', 'error', 'ignore'] as const),
    maxFileSize: fields.size('max-file-size'),
    batchSize: fields.integer('batch-size', 1, 100),
    concurrency: fields.integer('concurrency', 1, 32),
    followSymlinks: fields.oneOf('follow-symlinks', ['inside', 'none'] as const),
    retry: readRetry(fields),
    githubToken,
    comment: readCommentSettings(fields, event.eventName, githubToken),
    pullRequest: fields.oneOf('pull-request', ['preview', 'index'] as const),
    preview: false,
    outputsBudget: readOutputsBudget(fields),
    names: fields.names,
  }

  const shard = fields.raw('shard')
  if (shard !== '') {
    const parsed = parseShard(shard, MAX_SHARDS)
    if (typeof parsed === 'string')
      fields.problem('shard', `${fields.names.subject('shard')} ${parsed} (got ${quoted(shard)}).`)
    else {
      config.shard = parsed
      // Each shard of a pull request keeps its own sticky comment unless the workflow names one.
      if (config.comment.key === '') config.comment.key = `shard-${parsed.index}-of-${parsed.count}`
    }
  }

  if (fields.raw('state-file') !== '') config.stateFile = fields.raw('state-file')
  if (fields.raw('state-retention-days') !== '')
    config.stateRetentionDays = fields.integer('state-retention-days', 1, MAX_STATE_RETENTION_DAYS)

  const urls = parseUrlEntries(fields.raw('urls'))
  config.urls = urls.urls
  for (const problem of urls.problems) fields.problem('urls', `${fields.names.subject('urls')}, ${problem}.`)
  readSitemapInputs(fields, config)
  if (fields.raw('files') === '' && fields.raw('urls') === '' && fields.raw('sitemaps') === '')
    fields.problem(
      'files',
      `${fields.names.pair('files', 'urls')} are both empty and so is ${fields.names.ref('sitemaps')}: give ` +
        'at least one file pattern, URL or sitemap.',
    )

  const pullRequest = PULL_REQUEST_EVENTS.has(event.eventName)
  // A pull request's files are unreviewed: unless the workflow opts in, they are previewed, not sent.
  config.preview = pullRequest && config.pullRequest === 'preview'
  if (config.privateKey === '' && !config.dryRun && !config.preview) {
    if (pullRequest)
      config.skip =
        'No private key in this pull request: forks and Dependabot do not get secrets; indexing skipped.'
    else
      fields.problem(
        'private-key',
        `${fields.names.subject('private-key')} is required (unless ${fields.names.on('dry-run')}).`,
      )
  }

  const publicKey = fields.key('public-key')
  const flowInputs = fields.raw('flow-inputs')
  if (flowInputs !== '') {
    const inputs = readFlowInputs(fields, flowInputs, 'flow-inputs')
    if (publicKey === '' && !config.dryRun && !config.skip && !config.preview)
      fields.problem(
        'public-key',
        `${fields.names.subject('public-key')} is required when ${fields.names.ref('flow-inputs')} is set ` +
          '(the flow runs after indexing).',
      )
    config.flowRun = { publicKey, inputs, timeoutMs: fields.duration('run-timeout', 1000, 6 * 3_600_000) }
  }

  fields.throwIfAny()
  return config
}
