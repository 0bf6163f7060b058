// The assertions of one check against the flow's answer. Each failed assertion is one sentence.
import type { Check } from './schema.js'

const quoted = (text: string) => JSON.stringify(text)

export function failedAssertions(check: Check, answer: string): string[] {
  const failed: string[] = []
  if (check.expect && !check.expect.matcher(answer).find())
    failed.push(`expect ${quoted(check.expect.pattern())}: no match`)
  const fold = (text: string) => (check.caseInsensitive ? text.toLocaleLowerCase('en-US') : text)
  const haystack = fold(answer)
  for (const needle of check.contains)
    if (!haystack.includes(fold(needle))) failed.push(`contains ${quoted(needle)}: not found`)
  for (const needle of check.notContains)
    if (haystack.includes(fold(needle))) failed.push(`not-contains ${quoted(needle)}: found`)
  if (check.minLength !== undefined && answer.length < check.minLength)
    failed.push(`min-length ${check.minLength}: the answer has ${answer.length} characters`)
  if (check.maxLength !== undefined && answer.length > check.maxLength)
    failed.push(`max-length ${check.maxLength}: the answer has ${answer.length} characters`)
  return failed
}
