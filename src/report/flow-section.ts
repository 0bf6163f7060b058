import type { SuiteVerdict } from '../checks/verdict.js'
import { markdownVerdictLine } from './checks-markdown.js'
import { fenced, inlineFlowText, quoted, shortLine } from './markdown.js'
import type { FlowRunReport } from '../model.js'

export const ANSWER_LIMIT = 64 * 1024

function cut(text: string, limit: number): { text: string; note: string } {
  if (text.length <= limit) return { text, note: '' }
  return {
    text: `${text.slice(0, limit)}…`,
    note: `\n_Cut to ${Math.round(limit / 1024)} KiB of ${Math.ceil(text.length / 1024)} KiB._\n`,
  }
}

/** The verdict line of the single question, as a suite of one shows it (bold), and what failed. */
function verdictPart(verdict: SuiteVerdict | undefined, failed: readonly string[]): string {
  if (!verdict) return ''
  const list = failed.map((failure) => `- ${inlineFlowText(shortLine(failure, 500))}`).join('\n')
  return `**${markdownVerdictLine(verdict, 0)}**\n\n${failed.length > 0 ? `**Failed assertions**\n\n${list}\n\n` : ''}`
}

/**
 * The verdict (when the run was judged: not the flow run after indexing), then the question and the
 * answer as quotes (they wrap), each cut at `limit` characters.
 */
export function flowSection(
  flow: FlowRunReport,
  verdict?: SuiteVerdict,
  failed: readonly string[] = [],
  limit = ANSWER_LIMIT,
): string {
  const question = cut(flow.question, limit)
  const answer = cut(flow.result, limit)
  return (
    `### Flow run\n\n${verdictPart(verdict, failed)}Question:\n\n${quoted(question.text)}\n${question.note}\n` +
    `Answer:\n\n${quoted(answer.text)}\n${answer.note}`
  )
}

/** A run that failed: the verdict (an error), the question and the service's message. */
export function flowFailure(
  question: string,
  message: string,
  verdict: SuiteVerdict,
  limit = ANSWER_LIMIT,
): string {
  const shown = cut(question, limit)
  return (
    `### Flow run failed\n\n**${markdownVerdictLine(verdict, verdict.failed)}**\n\n` +
    `Question:\n\n${quoted(shown.text)}\n${shown.note}\n` +
    `${fenced(message)}\n`
  )
}
