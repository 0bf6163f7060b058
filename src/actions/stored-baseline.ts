// The run-flow action's baseline (#36 §5): the baseline flow's results stored as a GitHub Actions artifact
// per key (the pull request's base commit, the checks, the repeat and judge settings, the baseline flow and
// the service), reused while the key holds so that only the flow under test runs; run live and stored
// again when they are missing or stale. The artifact client is loaded only here, from its own chunk, and
// only when there is a key to read or write.
import type { Check } from '../checks/schema.js'
import type { CheckResult } from '../checks/verdict.js'
import type { RunConfig } from '../config/run.js'
import type { Logger } from '../log.js'
import type { BaselineUsed } from '../report/baseline-source-note.js'
import { redactDeep } from '../report/redact.js'
import { artifactHostProblem } from '../state/artifact-host.js'
import type { BaselineKey, BaselineMeasurement, StoredBaseline } from '../state/baseline-record.js'
import type { BytesStore } from '../state/record.js'
import { positiveInteger } from '../github/workflow.js'
import { messageOf, type RunnerEnvironment } from './runner.js'
import { OBJECT_ID } from '../model.js'

/** What the baseline side of a comparison is: stored results to use, or a live run (stored afterwards). */
export interface BaselinePlan {
  used: BaselineUsed
  /** The stored results, the `before` side: the baseline flow is not run. */
  stored?: CheckResult[]
  /** Stores the live results for the next run (a warning when that fails, never the step's failure). */
  save?: (results: readonly CheckResult[], signal?: AbortSignal) => Promise<void>
}

/** The commit the baseline flow stands for: the pull request's (or merge queue's) base commit. */
export function baseCommitOf(
  eventName: string,
  payload: Record<string, unknown>,
): { commit: string; ref?: string } | undefined {
  const sha = (value: unknown) => (typeof value === 'string' && OBJECT_ID.test(value) ? value : undefined)
  const name = (value: unknown) =>
    typeof value === 'string' && value !== '' ? value.replace(/^refs\/heads\//, '') : undefined
  if (eventName === 'pull_request' || eventName === 'pull_request_target') {
    const base = (payload.pull_request as { base?: { sha?: unknown; ref?: unknown } } | undefined)?.base
    const commit = sha(base?.sha)
    return commit ? { commit, ref: name(base?.ref) } : undefined
  }
  if (eventName === 'merge_group') {
    const group = payload.merge_group as { base_sha?: unknown; base_ref?: unknown } | undefined
    const commit = sha(group?.base_sha)
    return commit ? { commit, ref: name(group?.base_ref) } : undefined
  }
  return undefined
}

/** The key of the baseline flow's results in this run. */
export function baselineKeyOf(config: RunConfig, checks: readonly Check[], commit: string): BaselineKey {
  if (!config.baseline || config.checksDigest === undefined)
    throw new Error('a baseline key needs a baseline')
  // The judge grades the baseline's answers too, when a check has a rubric: its flow and min score matter.
  const judged = config.judge !== undefined && checks.some((check) => check.rubric !== undefined)
  return {
    host: new URL(config.baseUrl).host.toLowerCase(),
    baseline: { orgId: config.baseline.orgId, flowId: config.baseline.flowId },
    commit,
    checks: config.checksDigest,
    repeat: config.repeats.repeat,
    ...(config.repeats.minPass !== undefined ? { minPass: config.repeats.minPass } : {}),
    ...(judged && config.judge ? { judge: { ...config.judge.target, minScore: config.judge.minScore } } : {}),
  }
}

/** Only results with no error on any check are stored: a failed run would otherwise be reused as a verdict. */
export const storable = (results: readonly CheckResult[]): boolean =>
  results.length > 0 && results.every((result) => result.verdict !== 'error')

/** The artifact store of this run, or why there is none (not GitHub's runner, no artifact storage). */
async function artifactStore(
  config: RunConfig,
  runner: RunnerEnvironment,
  env: NodeJS.ProcessEnv,
): Promise<{ store: BytesStore } | { why: string }> {
  const runId = positiveInteger(env.GITHUB_RUN_ID)
  if (!runner.repository || runId === undefined)
    return { why: 'not in a workflow run (no GITHUB_REPOSITORY or GITHUB_RUN_ID)' }
  if (!env.ACTIONS_RUNTIME_TOKEN) return { why: "no ACTIONS_RUNTIME_TOKEN (not GitHub's runner)" }
  const noStorage = artifactHostProblem(env)
  if (noStorage) return { why: noStorage }
  try {
    // The artifact client reads settings of the environment as it loads, and throws on a bad one.
    const { ArtifactStore } = await import('../state/artifact-store.js')
    return {
      store: new ArtifactStore({
        budget: runner.github,
        token: config.comment.githubToken,
        repository: runner.repository,
        runId,
        apiUrl: runner.apiUrl,
        writeOnce: true,
      }),
    }
  } catch (error) {
    return { why: `the artifact client could not start (${messageOf(error)})` }
  }
}

const STORED_NEXT = 'the baseline flow runs live, and its results are stored for the next run'

/**
 * Which baseline this run compares with. `stored`: the results kept for this run's key when there are
 * some, else a notice saying why and a live run whose results are stored. `live`: a live run, stored too
 * when a key is known. Never throws but for the run's cancellation.
 */
export async function planBaseline(
  config: RunConfig,
  checks: readonly Check[],
  runner: RunnerEnvironment,
  log: Logger,
  signal?: AbortSignal,
  env: NodeJS.ProcessEnv = process.env,
  now: () => Date = () => new Date(),
): Promise<BaselinePlan | undefined> {
  if (!config.baseline) return undefined
  const stored = config.baselineSource === 'stored'
  const fromEvent =
    baseCommitOf(runner.eventName, runner.payload) ?? (await commentedPullRequestBase(config, runner, log))
  const liveAt = (at?: { commit: string; ref?: string }): BaselineUsed => ({
    kind: 'live',
    ...(at ? { commit: at.commit, ...(at.ref ? { baseRef: at.ref } : {}) } : {}),
  })
  if (!fromEvent) {
    if (stored)
      log.notice(
        `Baseline: no base commit in this ${runner.eventName || 'run'} event (pull_request, ` +
          'pull_request_target and merge_group events have one, a comment on a pull request has its pull ' +
          "request's), so no stored results can be looked up; the baseline flow runs live.",
      )
    return { used: liveAt() }
  }
  const opened = await artifactStore(config, runner, env)
  if ('why' in opened) {
    // Off GitHub's runner (a local runner of actions, a test) nothing could change it: said in the log only.
    log.info(`Baseline: the baseline flow's results are not stored here (${opened.why}); it runs live.`)
    return { used: liveAt(fromEvent) }
  }
  const { store } = opened
  const base = await baseBranchHead(config, runner, fromEvent, log)
  const live = liveAt(base)
  const { readStoredBaseline, writeStoredBaseline } = await import('../state/baseline-record.js')
  const key = baselineKeyOf(config, checks, base.commit)
  const where = `${base.ref ? `${base.ref} ` : ''}${base.commit.slice(0, 7)}`
  const save = async (results: readonly CheckResult[], saveSignal?: AbortSignal) => {
    if (!storable(results)) {
      log.info("Baseline: the baseline flow's results are not stored: a check had an error on it.")
      return
    }
    const record: StoredBaseline = {
      version: 1,
      key,
      measured: measurementOf(env, runner.payload, now(), base.ref),
      results: redactDeep([...results], log.secrets),
    }
    const written = await writeStoredBaseline(store, record, saveSignal)
    if (written.ok)
      log.info(`Baseline: the baseline flow's results at ${where} are stored (${written.where}).`)
    else log.warning(`Baseline: the baseline flow's results could not be stored: ${written.why}`)
  }
  if (!stored) return { used: live, save }
  const names = checks.map((check) => check.name)
  const read = await readStoredBaseline(store, key, names, now(), signal)
  if (read.kind === 'found') {
    const { measured } = read.stored
    log.info(
      `Baseline: stored results measured ${measured.at} at ${where} (${read.from}); the baseline flow is not run.`,
    )
    // Advisory marks are this run's setting (advisory-checks), not part of what was measured.
    const results = read.stored.results.map((result, index) => ({
      ...result,
      advisory: checks[index].advisory,
    }))
    return {
      used: {
        kind: 'stored',
        at: measured.at,
        commit: base.commit,
        ...((measured.baseRef ?? base.ref) ? { baseRef: measured.baseRef ?? base.ref } : {}),
        ...(measured.runNumber !== undefined ? { runNumber: measured.runNumber } : {}),
      },
      stored: results,
    }
  }
  log.notice(
    read.kind === 'missing'
      ? `Baseline: no stored results of the baseline flow for ${where} with these checks and repeat and judge ` +
          `settings (the first run at this base commit, the checks or settings changed, or they expired); ${STORED_NEXT}.`
      : `Baseline: the stored results of the baseline flow are not used (${read.why}); ${STORED_NEXT}.`,
  )
  if (read.kind === 'missing') log.debug(`Baseline: ${read.why}`)
  return { used: live, save }
}

/**
 * A comment on a pull request (`/kb-check`) names the pull request, not its base: asked of GitHub. Undefined
 * (the baseline runs live) when it is not such a comment or cannot be asked, with the reason in the log.
 */
async function commentedPullRequestBase(
  config: RunConfig,
  runner: RunnerEnvironment,
  log: Logger,
): Promise<{ commit: string; ref?: string } | undefined> {
  if (runner.eventName !== 'issue_comment') return undefined
  const issue = runner.payload.issue as { number?: unknown; pull_request?: unknown } | undefined
  const pullNumber = issue?.number
  const token = config.comment.githubToken
  if (
    issue?.pull_request === undefined ||
    typeof pullNumber !== 'number' ||
    !runner.repository ||
    token === ''
  )
    return undefined
  const [{ getOctokit }, { pullRequestBase }] = await Promise.all([
    import('../github/octokit.js'),
    import('../github/pull-request-base.js'),
  ])
  const base = await pullRequestBase(
    getOctokit(token, runner.apiUrl),
    { ...runner.repository, pullNumber },
    runner.github,
  )
  if (base.ok) return { commit: base.commit, ref: base.ref }
  log.info(`Baseline: the base branch of pull request #${pullNumber} could not be looked up (${base.why}).`)
  return undefined
}

/**
 * The base branch's head now (asked of GitHub), else the event's base commit: `pull_request.base.sha` is
 * set when the pull request is updated, so a pull request not pushed to since `main` moved still names the
 * old commit, and its stored baseline would not be refreshed.
 */
async function baseBranchHead(
  config: RunConfig,
  runner: RunnerEnvironment,
  fromEvent: { commit: string; ref?: string },
  log: Logger,
): Promise<{ commit: string; ref?: string }> {
  const token = config.comment.githubToken
  if (!fromEvent.ref || !runner.repository || token === '') return fromEvent
  const [{ getOctokit }, { branchHead }] = await Promise.all([
    import('../github/octokit.js'),
    import('../github/branch-head.js'),
  ])
  const head = await branchHead(
    getOctokit(token, runner.apiUrl),
    { ...runner.repository, branch: fromEvent.ref },
    runner.github,
  )
  if (!head.ok) {
    log.info(
      `Baseline: the head of ${fromEvent.ref} could not be looked up (${head.why}); the event's base commit ` +
        `${fromEvent.commit.slice(0, 7)} is used.`,
    )
    return fromEvent
  }
  if (head.sha !== fromEvent.commit)
    log.info(
      `Baseline: ${fromEvent.ref} is at ${head.sha.slice(0, 7)} now (the event's base commit is ` +
        `${fromEvent.commit.slice(0, 7)}): the baseline stands for ${head.sha.slice(0, 7)}.`,
    )
  return { commit: head.sha, ref: fromEvent.ref }
}

function measurementOf(
  env: NodeJS.ProcessEnv,
  payload: Record<string, unknown>,
  at: Date,
  baseRef: string | undefined,
): BaselineMeasurement {
  const issue = payload.issue as { number?: unknown; pull_request?: unknown } | undefined
  const pullRequest =
    (payload.pull_request as { number?: unknown } | undefined)?.number ??
    (issue?.pull_request !== undefined ? issue.number : undefined)
  return {
    at: at.toISOString(),
    ...(baseRef ? { baseRef } : {}),
    ...(env.GITHUB_REPOSITORY ? { repository: env.GITHUB_REPOSITORY } : {}),
    ...(positiveInteger(env.GITHUB_RUN_ID) ? { runId: positiveInteger(env.GITHUB_RUN_ID) } : {}),
    ...(positiveInteger(env.GITHUB_RUN_NUMBER) ? { runNumber: positiveInteger(env.GITHUB_RUN_NUMBER) } : {}),
    ...(typeof pullRequest === 'number' && Number.isSafeInteger(pullRequest) && pullRequest > 0
      ? { pullRequest }
      : {}),
  }
}
