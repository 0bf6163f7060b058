// `kb-sync status`: what the node holds, by its record, against what the checkout would send — to upload,
// to update, to blank, left, unchanged — without a request to the service (a dry run of mode auto from
// the record). The drift report of a sync tool: nothing is sent and nothing is recorded.
import type { IndexConfig } from '../config/index-config.js'
import { runIndexJob } from '../jobs/index-job.js'
import type { JobContext } from '../jobs/job-context.js'
import type { RecordKeeping } from '../state/record.js'
import { displayName } from '../log.js'
import { plannedOperation } from '../plan.js'
import type { IndexReport } from '../report/types.js'
import { UsageError } from './errors.js'

/** The difference as `status` shows it: names of each kind, sorted as the plan lists them. */
export interface StatusLists {
  upload: string[]
  update: string[]
  blank: string[]
  left: string[]
  unchanged: number
}

export function statusLists(report: IndexReport): StatusLists {
  const lists: StatusLists = { upload: [], update: [], blank: [], left: [], unchanged: 0 }
  for (const item of report.planned) {
    const operation = plannedOperation(item)
    if (operation === 'remove') lists.blank.push(item.name)
    else if (operation === 'upload') lists.upload.push(item.name)
    else lists.update.push(item.name)
  }
  lists.left = report.left.map((document) => document.name)
  lists.unchanged = report.record?.unchanged ?? 0
  return lists
}

export function statusText(report: IndexReport, lists: StatusLists): string {
  const lines = [`Record: ${report.record?.from ?? 'none'}`]
  if (report.record?.settingsChanged?.length)
    lines.push(`Settings changed since the record: ${report.record.settingsChanged.join(', ')}`)
  const total = lists.upload.length + lists.update.length + lists.blank.length
  lines.push(
    total === 0 && lists.left.length === 0
      ? `In step: the node holds what the checkout selects (${lists.unchanged} unchanged).`
      : `To upload ${lists.upload.length} · to update ${lists.update.length} · to blank ${lists.blank.length} · ` +
          `left ${lists.left.length} · unchanged ${lists.unchanged}`,
  )
  for (const [label, names] of [
    ['upload', lists.upload],
    ['update', lists.update],
    ['blank', lists.blank],
    ['left', lists.left],
  ] as const)
    for (const name of names) lines.push(`  ${label.padEnd(6)} ${displayName(name)}`)
  return lines.join('\n')
}

/**
 * Runs the comparison. Throws a UsageError without a store to read, and an Error naming why when no record
 * can be read (there is nothing to compare with).
 */
export async function statusReport(
  config: IndexConfig,
  context: Omit<JobContext, 'record'>,
  keeping: RecordKeeping | undefined,
): Promise<IndexReport> {
  if (!keeping)
    throw new UsageError(
      'kb-sync status needs the record to compare with: --state-file PATH (the file kb-sync index --state-file writes), ' +
        "or, in a workflow step, the index action's artifact (GITHUB_REPOSITORY, GITHUB_RUN_ID and GITHUB_TOKEN).",
    )
  const report = await runIndexJob(
    { ...config, mode: 'auto', dryRun: true, fullSync: false },
    {
      ...context,
      record: keeping,
    },
  )
  if (report.record?.source !== 'state')
    throw new Error(
      `No record of this knowledge base to compare with: ${report.record?.why ?? 'none was read'}.`,
    )
  return report
}
