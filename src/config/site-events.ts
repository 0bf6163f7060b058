// The index action after a site deployed (#36 §6): `workflow_run` (the deploy workflow completed) and
// `deployment_status` (a deployment reported its state) runs sync like a push — from the last successful
// sync — so sitemaps are read once the site is live. Both are refused when they would index what nobody
// reviewed (a run for a pull request or a fork) or a site that is not live (a deploy that did not succeed):
// a refused run fails, so it is never taken as the base of the next one.

// Runs of these events index the head of a pull request, which nobody has reviewed yet.
const PULL_REQUEST_RUN_EVENTS = new Set([
  'pull_request',
  'pull_request_target',
  'pull_request_review',
  'pull_request_review_comment',
])

const record = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {}

/** Why the index action must not run under this site event, or undefined (it may, or it is another event). */
export function siteEventProblem(eventName: string, payload: Record<string, unknown>): string | undefined {
  if (eventName === 'workflow_run') {
    const run = record(payload.workflow_run)
    const event = typeof run.event === 'string' ? run.event : ''
    const headRepository = record(run.head_repository).id
    const repository = record(payload.repository).id
    if (PULL_REQUEST_RUN_EVENTS.has(event) || (headRepository !== undefined && headRepository !== repository))
      return (
        `Indexing is refused under this "workflow_run" event: the run that triggered it was for ` +
        `${PULL_REQUEST_RUN_EVENTS.has(event) ? `a ${event} event` : 'a fork'}, whose content nobody has ` +
        'reviewed, and this run has the private key. Trigger on the deploy workflow of your branch ' +
        "(`on: workflow_run: branches: [main]`) and check `github.event.workflow_run.event == 'push'`."
      )
    if (run.conclusion !== 'success')
      return (
        'Indexing is refused under this "workflow_run" event: the run that triggered it ended ' +
        `"${String(run.conclusion ?? 'unknown')}", not "success", so the site may not be live. Run the job only ` +
        "`if: github.event.workflow_run.conclusion == 'success'`."
      )
  }
  if (eventName === 'deployment_status') {
    const state = record(payload.deployment_status).state
    if (state !== 'success')
      return (
        `Indexing is refused under this "deployment_status" event: the deployment is "${String(state ?? 'unknown')}", ` +
        'not "success", so the site may not be live. Run the job only ' +
        "`if: github.event.deployment_status.state == 'success'`."
      )
  }
  return undefined
}
