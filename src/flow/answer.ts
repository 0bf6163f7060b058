// What a run's answer says about the run itself. The real service answers HTTP 200 with `state`,
// `error` and `pause` next to the outputs: a run that did not complete is a failure whatever the status.
import { excerpt } from '../service/errors.js'
import type { FlowAnswer } from '../service/client.js'

function described(value: unknown): string {
  if (typeof value === 'string') return value
  if (value !== null && typeof value === 'object') {
    const { message, detail } = value as Record<string, unknown>
    if (typeof message === 'string') return message
    if (typeof detail === 'string') return detail
  }
  return JSON.stringify(value) ?? String(value)
}

const present = (value: unknown) => value !== undefined && value !== null

/** Why the answer is a failed run (the service's own words, shortened), or undefined when it completed. */
export function runFailure(answer: FlowAnswer): string | undefined {
  const problems: string[] = []
  if (present(answer.state) && answer.state !== 'COMPLETED')
    problems.push(`it ended in state ${excerpt(described(answer.state))}`)
  if (present(answer.error))
    problems.push(`the service reported an error: ${excerpt(described(answer.error))}`)
  if (present(answer.pause))
    problems.push(`it paused instead of completing (pause: ${excerpt(described(answer.pause))})`)
  if (problems.length === 0) return undefined
  const run = typeof answer.run_id === 'string' ? ` (run ${excerpt(answer.run_id)})` : ''
  return `The flow run did not complete${run}: ${problems.join('; ')}.`
}

/** The answer's `outputs` map, or an empty one when it has none. */
export function outputsOf(answer: unknown): Record<string, unknown> {
  if (answer === null || typeof answer !== 'object') return {}
  const outputs = (answer as Record<string, unknown>).outputs
  return outputs !== null && typeof outputs === 'object' && !Array.isArray(outputs)
    ? (outputs as Record<string, unknown>)
    : {}
}
