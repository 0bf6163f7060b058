// Which baseline a before/after comparison used (#36 §5): the baseline flow run now, or its results
// stored by an earlier run, and when and at which base commit they were measured. One quoted line above
// the results, in the job summary and the sticky comment alike.
import { inline } from './markdown.js'

export type BaselineUsed =
  | {
      kind: 'stored'
      /** ISO time the stored results were measured. */
      at: string
      commit: string
      baseRef?: string
      runNumber?: number
    }
  | { kind: 'live'; commit?: string; baseRef?: string }

const shortSha = (commit: string) => commit.slice(0, 7).replace(/[^0-9a-f]/gi, '')

/** "2026-11-28 14:02 UTC" */
export function utcMinute(iso: string): string {
  const time = new Date(iso)
  return Number.isNaN(time.getTime())
    ? inline(iso)
    : `${time.toISOString().slice(0, 16).replace('T', ' ')} UTC`
}

function atCommit(commit: string | undefined, baseRef: string | undefined): string {
  if (commit === undefined) return ''
  return ` at ${baseRef ? `${inline(baseRef)} ` : ''}\`${shortSha(commit)}\``
}

/** "Baseline: stored, measured 2026-11-28 14:02 UTC at main `abc1234` (run #41)", or "Baseline: live …". */
export function baselineSourceLine(used: BaselineUsed): string {
  if (used.kind === 'live') return `Baseline: live, measured now${atCommit(used.commit, used.baseRef)}`
  const run = used.runNumber !== undefined ? ` (run #${used.runNumber})` : ''
  return (
    `Baseline: stored, measured ${utcMinute(used.at)}${atCommit(used.commit, used.baseRef)}${run}; ` +
    'the baseline flow was not run'
  )
}

export function renderBaselineSource(used: BaselineUsed | undefined): string {
  if (!used) return ''
  const [label, rest] = baselineSourceLine(used).split(/:(.*)/s, 2)
  return `> **${label}:**${rest}\n`
}
