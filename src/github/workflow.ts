// Which workflow run this is, from the variables the runner sets for every step.

export interface WorkflowRun {
  owner: string
  repo: string
  /** The workflow's file name (e.g. docs.yml): the runs API takes it in place of the numeric id. */
  workflowFile: string
  /** The branch of GITHUB_REF; '' when the run is for a tag or a pull request's merge ref. */
  branch: string
  /** GITHUB_RUN_ID: this run, never its own base. */
  runId?: number
  /** GITHUB_RUN_NUMBER: runs created after this one are never its base. */
  runNumber?: number
}

export type WorkflowRunOutcome = { ok: true; run: WorkflowRun } | { ok: false; why: string }

// owner/repo/.github/workflows/FILE@ref (a reusable workflow still reports its caller's file).
const WORKFLOW_REF = /^([^/]+)\/([^/]+)\/\.github\/workflows\/([^/@]+)@(.+)$/

/** A runner variable's whole number above 0 (GITHUB_RUN_ID, GITHUB_RUN_ATTEMPT, …), else undefined. */
export function positiveInteger(text: string | undefined): number | undefined {
  return text && /^[1-9]\d{0,15}$/.test(text) ? Number(text) : undefined
}

/** Undefined when not on a runner (no GITHUB_WORKFLOW_REF); otherwise the run, or why it is unknown. */
export function readWorkflowRun(env: NodeJS.ProcessEnv = process.env): WorkflowRunOutcome | undefined {
  const workflowRef = env.GITHUB_WORKFLOW_REF
  if (!workflowRef) return undefined
  const match = WORKFLOW_REF.exec(workflowRef)
  if (!match)
    return {
      ok: false,
      why: `GITHUB_WORKFLOW_REF "${workflowRef}" is not owner/repo/.github/workflows/FILE@ref`,
    }
  const [owner, repo] = (env.GITHUB_REPOSITORY || `${match[1]}/${match[2]}`).split('/')
  if (!owner || !repo) return { ok: false, why: 'GITHUB_REPOSITORY is not owner/repo' }
  const ref = env.GITHUB_REF ?? ''
  return {
    ok: true,
    run: {
      owner,
      repo,
      workflowFile: match[3],
      branch: ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : '',
      runId: positiveInteger(env.GITHUB_RUN_ID),
      runNumber: positiveInteger(env.GITHUB_RUN_NUMBER),
    },
  }
}
