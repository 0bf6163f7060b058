// `planned`: what a run that sends nothing (a dry run, a pull-request preview) would send, each with its
// operation. A run that sends reports the same items as uploaded, updated or failed, so its list is empty.
import type { PlannedOperation } from '../model.js'
import { plannedOperation } from '../plan.js'
import type { OutputSpec } from './output-budget.js'
import type { IndexReport } from './types.js'

export interface PlannedEntry {
  name: string
  /** `upsert`: whether the item is in the node is unknown (the node's answers decide); `remove`: a
   * placeholder would replace the removed document (PATCH). */
  operation: PlannedOperation
}

export function plannedEntries(report: IndexReport): PlannedEntry[] {
  if (!report.dryRun && !report.preview) return []
  return Array.from(report.planned, (item) => ({ name: item.name, operation: plannedOperation(item) }))
}

export function plannedOutputSpecs(report: IndexReport): OutputSpec[] {
  const planned = plannedEntries(report)
  return [
    { name: 'planned', list: planned },
    { name: 'planned-count', count: planned.length },
  ]
}
