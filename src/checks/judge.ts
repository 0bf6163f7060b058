// The assertions of one check against one run of the flow. Each failed assertion is one sentence that
// starts with the assertion as the check wrote it.
import { formatCount } from '../units.js'
import { findBounded } from '../flow/expect.js'
import { citedDocuments, isCited } from './citations.js'
import { jsonOf, schemaMismatch } from './json-assertions.js'
import type { Check } from './schema.js'
import { formatRatio, similarityJudged, type SimilarityJudged } from './similarity.js'

/** What a run gives the assertions to judge. */
export interface JudgedRun {
  /** The named output as text (JSON text when it is not a string), as the run reported it. */
  answer: string
  /** The answer's whole `outputs` map. */
  outputs: Record<string, unknown>
  /** The run's latency. */
  seconds: number
  /** The service's whole answer (citations live next to the outputs). */
  response: unknown
}

// How much of the answer a failure of equals / starts-with quotes; the answer itself is shown apart.
const QUOTED_ANSWER_CHARS = 100

const quoted = (text: string) => JSON.stringify(text)

function quotedStart(text: string, chars = QUOTED_ANSWER_CHARS): string {
  return text.length <= chars ? quoted(text) : `${quoted(text.slice(0, chars))}…`
}

function similarityShown(judged: SimilarityJudged, reference: string): string {
  switch (judged.kind) {
    case 'exact':
      return `similarity ${formatRatio(judged.score)}`
    case 'at-most':
      // A bound from the lengths: shown rounded up, so it is never below the ratio it bounds.
      return (
        `similarity at most ${(Math.ceil(judged.score * 100 - 1e-9) / 100).toFixed(2)} (the answer has ` +
        `${formatCount(judged.length)} characters, the reference ${formatCount(reference.trim().length)})`
      )
    case 'at-least':
      return (
        `similarity at least ${formatRatio(judged.score)} (only the answer's first ${formatCount(judged.compared)} ` +
        `of ${formatCount(judged.length)} characters were compared, the rest counted as changed)`
      )
  }
}

function textFailures(check: Check, answer: string): string[] {
  const failed: string[] = []
  // A match too costly to run throws: the run's judging boundary makes it an error, not a failure.
  if (check.expect && !findBounded(check.expect, answer))
    failed.push(`expect ${quoted(check.expect.pattern())}: no match`)
  const fold = (text: string) => (check.caseInsensitive ? text.toLocaleLowerCase('en-US') : text)
  const haystack = fold(answer)
  for (const needle of check.contains)
    if (!haystack.includes(fold(needle))) failed.push(`contains ${quoted(needle)}: not found`)
  if (check.containsAny.length > 0 && !check.containsAny.some((needle) => haystack.includes(fold(needle))))
    failed.push(`contains-any [${check.containsAny.map(quoted).join(', ')}]: none found`)
  for (const needle of check.notContains)
    if (haystack.includes(fold(needle))) failed.push(`not-contains ${quoted(needle)}: found`)
  if (check.equals !== undefined && fold(answer.trim()) !== fold(check.equals.trim()))
    failed.push(`equals ${quoted(check.equals)}: the answer is ${quotedStart(answer.trim())}`)
  if (check.startsWith !== undefined) {
    const start = answer.trimStart()
    if (!fold(start).startsWith(fold(check.startsWith)))
      failed.push(
        `starts-with ${quoted(check.startsWith)}: the answer starts with ` +
          quotedStart(start, check.startsWith.length + 20),
      )
  }
  if (check.minLength !== undefined && answer.length < check.minLength)
    failed.push(`min-length ${check.minLength}: the answer has ${answer.length} characters`)
  if (check.maxLength !== undefined && answer.length > check.maxLength)
    failed.push(`max-length ${check.maxLength}: the answer has ${answer.length} characters`)
  if (check.similar) {
    const { reference, minSimilarity } = check.similar
    const judged = similarityJudged(fold(answer), fold(reference), minSimilarity)
    const shownMinimum =
      Number(minSimilarity.toFixed(2)) === minSimilarity ? minSimilarity.toFixed(2) : String(minSimilarity)
    if (judged.score < minSimilarity)
      failed.push(`similar ${shownMinimum}: ${similarityShown(judged, reference)}`)
  }
  return failed
}

function jsonFailures(check: Check, value: unknown, subject: string): string[] {
  if (!check.isJson && !check.jsonSchema) return []
  const parsed = jsonOf(value)
  if ('problem' in parsed)
    return [`${check.isJson ? 'is-json' : jsonSchemaLabel(check)}: ${subject} is ${parsed.problem}`]
  if (!check.jsonSchema) return []
  const mismatch = schemaMismatch(check.jsonSchema.validate, parsed.json)
  return mismatch === undefined ? [] : [`${jsonSchemaLabel(check)}: ${subject} does not match: ${mismatch}`]
}

function jsonSchemaLabel(check: Check): string {
  return check.jsonSchema?.file === undefined ? 'json-schema' : `json-schema ${quoted(check.jsonSchema.file)}`
}

function citationFailures(check: Check, response: unknown): string[] {
  if (check.cites.length === 0) return []
  const cited = citedDocuments(response)
  const wanted = check.cites.map(quoted).join(', ')
  if (cited === undefined) return [`cites ${wanted}: the answer carries no citations`]
  if (cited.length === 0) return [`cites ${wanted}: the answer cites no documents`]
  return check.cites
    .filter((name) => !isCited(name, cited))
    .map((name) => `cites ${quoted(name)}: not cited (cited: ${cited.map(quoted).join(', ')})`)
}

export function failedAssertions(check: Check, run: JudgedRun): string[] {
  const failed: string[] = []
  if (Object.hasOwn(run.outputs, check.output)) {
    failed.push(...textFailures(check, run.answer))
    if (check.on === 'output')
      failed.push(...jsonFailures(check, run.outputs[check.output], `output ${quoted(check.output)}`))
  } else {
    const available = Object.keys(run.outputs).map(quoted).join(', ') || 'none'
    failed.push(`output ${quoted(check.output)}: the answer has no such output (outputs: ${available})`)
  }
  if (check.on === 'outputs') failed.push(...jsonFailures(check, run.outputs, 'the outputs map'))
  if (check.maxSeconds !== undefined && run.seconds > check.maxSeconds)
    failed.push(`max-seconds ${check.maxSeconds}: the run took ${run.seconds} s`)
  failed.push(...citationFailures(check, run.response))
  return failed
}
