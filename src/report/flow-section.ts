import { fenced } from './markdown.js'
import type { FlowRunReport } from '../model.js'

export const ANSWER_LIMIT = 64 * 1024

function cut(text: string, limit: number): { text: string; note: string } {
  if (text.length <= limit) return { text, note: '' }
  return {
    text: `${text.slice(0, limit)}…`,
    note: `\n_Cut to ${Math.round(limit / 1024)} KiB of ${Math.ceil(text.length / 1024)} KiB._\n`,
  }
}

/** The question and the answer, fenced, each cut at `limit` characters. */
export function flowSection(flow: FlowRunReport, limit = ANSWER_LIMIT): string {
  const question = cut(flow.question, limit)
  const answer = cut(flow.result, limit)
  return (
    `### Flow run\n\nQuestion:\n\n${fenced(question.text)}\n${question.note}\n` +
    `Answer:\n\n${fenced(answer.text)}\n${answer.note}`
  )
}

/** A run that failed: the question and the service's message. */
export function flowFailure(question: string, message: string, limit = ANSWER_LIMIT): string {
  const shown = cut(question, limit)
  return `### Flow run failed\n\nQuestion:\n\n${fenced(shown.text)}\n${shown.note}\n${fenced(message)}\n`
}
