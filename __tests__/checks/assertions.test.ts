// The richer assertions of a check, each passing and failing with its failure text, judged on the run
// a check gets: the named output's text, the whole outputs map, the latency and the service's answer.
import { afterEach, describe, expect, it } from '@jest/globals'
import { isCited, citedDocuments } from '../../src/checks/citations.js'
import { failedAssertions, type JudgedRun } from '../../src/checks/judge.js'
import { parseChecks } from '../../src/checks/schema.js'
import { formatRatio, MAX_COMPARED_PAIRS, similarity, similarityJudged } from '../../src/checks/similarity.js'
import { makeWorkspace } from '../helpers/workspace.js'

let workspace: ReturnType<typeof makeWorkspace> | undefined
afterEach(() => {
  workspace?.remove()
  workspace = undefined
})

const check = (fields: string, dir?: string) =>
  parseChecks(`- name: c\n  inputs: {in-0: q}\n${fields}`, { workspace: dir ?? process.cwd() })[0]

/** A run whose named output `out-0` is `answer` (a string, or a value whose JSON text is the answer). */
function run(answer: unknown, more: Partial<JudgedRun> = {}): JudgedRun {
  return {
    answer: typeof answer === 'string' ? answer : JSON.stringify(answer),
    outputs: { 'out-0': answer },
    seconds: 1.5,
    response: { outputs: { 'out-0': answer } },
    ...more,
  }
}

const judge = (fields: string, judged: JudgedRun, dir?: string) =>
  failedAssertions(check(fields, dir), judged)

const ANSWER = '  Refunds are granted within 14 days of purchase.\n'

describe('text assertions', () => {
  it.each([
    ['contains-any: one of them appears', '  contains-any: [never, "14 days"]'],
    ['contains-any, case-insensitive', '  contains-any: [NEVER, REFUNDS]\n  case-insensitive: true'],
    ['equals after trimming both', '  equals: "Refunds are granted within 14 days of purchase.  "'],
    [
      'equals, case-insensitive',
      '  equals: "refunds ARE granted within 14 days of purchase."\n  case-insensitive: true',
    ],
    ['starts-with, leading space of the answer ignored', '  starts-with: "Refunds are"'],
    ['starts-with, case-insensitive', '  starts-with: "REFUNDS"\n  case-insensitive: true'],
  ])('%s passes', (_, fields) => {
    expect(judge(fields, run(ANSWER))).toEqual([])
  })

  it.each([
    ['contains-any', '  contains-any: [never, "30 days"]', 'contains-any ["never", "30 days"]: none found'],
    [
      'contains-any is case-sensitive by default',
      '  contains-any: [REFUNDS]',
      'contains-any ["REFUNDS"]: none found',
    ],
    [
      'equals',
      '  equals: Refunds are granted.',
      'equals "Refunds are granted.": the answer is "Refunds are granted within 14 days of purchase."',
    ],
    [
      'equals is case-sensitive by default',
      '  equals: "refunds are granted within 14 days of purchase."',
      'equals "refunds are granted within 14 days of purchase.": the answer is ' +
        '"Refunds are granted within 14 days of purchase."',
    ],
    [
      'starts-with',
      '  starts-with: "Returns"',
      'starts-with "Returns": the answer starts with "Refunds are granted within "…',
    ],
  ])('%s fails with its text', (_, fields, failure) => {
    expect(judge(fields, run(ANSWER))).toEqual([failure])
  })

  it('equals quotes a long answer by its beginning only', () => {
    const long = 'x'.repeat(500)
    const [failure] = judge('  equals: y', run(long))
    expect(failure).toBe(`equals "y": the answer is "${'x'.repeat(100)}"…`)
  })

  it('judges an object output by its JSON text', () => {
    const value = { price: 999, currency: 'USD' }
    expect(judge('  contains: \'"price":999\'', run(value))).toEqual([])
    expect(judge('  equals: \'{"price":999,"currency":"USD"}\'', run(value))).toEqual([])
    expect(judge('  contains: "price: 999"', run(value))).toEqual(['contains "price: 999": not found'])
  })
})

describe('similar', () => {
  it('is the normalised Levenshtein ratio of the trimmed texts', () => {
    expect(similarity('kitten', 'sitting')).toBeCloseTo(1 - 3 / 7, 10)
    expect(similarity('  same text\n', 'same text')).toBe(1)
    expect(similarity('', '')).toBe(1)
    expect(similarity('abc', '')).toBe(0)
    expect(similarity('abcd', 'wxyz')).toBe(0)
  })

  it('shows a score with two decimals, rounded down so it never looks equal to a minimum it missed', () => {
    expect(formatRatio(0.62)).toBe('0.62')
    expect(formatRatio(0.7999)).toBe('0.79')
    expect(formatRatio(1)).toBe('1.00')
    expect(formatRatio(0)).toBe('0.00')
  })

  it('passes an answer close enough to the reference', () => {
    expect(
      judge(
        '  similar: {reference: "Refunds are granted within 14 days of the purchase.", min-similarity: 0.9}',
        run(ANSWER),
      ),
    ).toEqual([])
  })

  it('fails an answer too far from the reference, showing the score', () => {
    // kitten → sitting: 3 edits over 7 characters, 0.571…
    expect(judge('  similar: {reference: sitting, min-similarity: 0.8}', run('kitten'))).toEqual([
      'similar 0.80: similarity 0.57',
    ])
    expect(judge('  similar: {reference: sitting, min-similarity: 0.575}', run('kitten'))).toEqual([
      'similar 0.575: similarity 0.57',
    ])
  })

  it('fails on the lengths alone an answer too long to reach the minimum, comparing nothing', () => {
    // The distance is at least 600,000 - 10,000: the ratio is at most 10,000 / 600,000 = 0.0166….
    const reference = 'Refunds are granted within 14 days. '.repeat(300).slice(0, 10_000)
    const answer = `${reference}${'x'.repeat(590_000)}`
    expect(similarityJudged(answer, reference, 0.5)).toEqual({
      kind: 'at-most',
      score: 10_000 / 600_000,
      length: 600_000,
    })
    expect(judge(`  similar: {reference: "${reference}", min-similarity: 0.5}`, run(answer))).toEqual([
      'similar 0.50: similarity at most 0.02 (the answer has 600,000 characters, the reference 10,000)',
    ])
  })

  it('compares in full up to MAX_COMPARED_PAIRS, and past it the beginning with the rest counted as changed', () => {
    const reference = 'x'.repeat(10_000)
    expect(similarityJudged('x'.repeat(20_000), reference, 0.2)).toEqual({ kind: 'exact', score: 0.5 })
    expect(20_000 * 10_000).toBe(MAX_COMPARED_PAIRS)
    // 30,000 × 10,000 pairs: the first 20,000 characters are compared, the last 10,000 count as changed.
    expect(similarityJudged(`${reference}${'z'.repeat(20_000)}`, reference, 0.2)).toEqual({
      kind: 'at-least',
      score: expect.closeTo(1 / 3, 10),
      compared: 20_000,
      length: 30_000,
    })
    expect(
      judge(
        `  similar: {reference: ${reference}, min-similarity: 0.2}`,
        run(`${reference}${'z'.repeat(20_000)}`),
      ),
    ).toEqual([])
    expect(
      judge(`  similar: {reference: ${reference}, min-similarity: 0.2}`, run('q'.repeat(30_000))),
    ).toEqual([
      "similar 0.20: similarity at least 0.00 (only the answer's first 20,000 of 30,000 characters were compared, the rest counted as changed)",
    ])
  })

  it('folds case when case-insensitive', () => {
    const fields = '  similar: {reference: "REFUND POLICY", min-similarity: 1}'
    expect(judge(fields, run('refund policy'))).toEqual(['similar 1.00: similarity 0.07'])
    expect(judge(`${fields}\n  case-insensitive: true`, run('refund policy'))).toEqual([])
  })
})

describe('is-json and json-schema', () => {
  const SCHEMA =
    '  json-schema:\n    type: object\n    required: [price, currency]\n' +
    '    properties: {price: {type: number}, currency: {enum: [USD, EUR]}}'

  it('is-json passes JSON text and a structured output, and fails other text', () => {
    expect(judge('  is-json: true', run('{"a": [1, 2]}'))).toEqual([])
    expect(judge('  is-json: true', run({ a: 1 }))).toEqual([])
    expect(judge('  is-json: false', run('plain text'))).toEqual([])
    const [failure] = judge('  is-json: true', run('The price is $999.'))
    expect(failure).toMatch(/^is-json: output "out-0" is not JSON \(.*\)$/)
  })

  it('is-json takes no code fence around the JSON', () => {
    expect(judge('  is-json: true', run('```json\n{"a": 1}\n```'))).toHaveLength(1)
  })

  it('json-schema passes a matching output, as JSON text or as a structured value', () => {
    expect(judge(SCHEMA, run('{"price": 999, "currency": "USD"}'))).toEqual([])
    expect(judge(SCHEMA, run({ price: 5, currency: 'EUR' }))).toEqual([])
  })

  it('json-schema fails naming each mismatch by its JSON pointer', () => {
    expect(judge(SCHEMA, run('{"price": "999", "currency": "GBP"}'))).toEqual([
      'json-schema: output "out-0" does not match: /price must be number; ' +
        '/currency must be equal to one of the allowed values',
    ])
    expect(judge(SCHEMA, run('{}'))).toEqual([
      'json-schema: output "out-0" does not match: (root) must have required property \'price\'; ' +
        "(root) must have required property 'currency'",
    ])
  })

  it('json-schema checks the specification’s formats in every draft', () => {
    const schema = (draft: string) =>
      `  json-schema:\n    $schema: "${draft}"\n    type: object\n` +
      '    properties: {email: {format: email}, at: {format: date-time}, id: {format: uuid}}'
    const good = {
      email: 'ada@example.com',
      at: '2026-11-25T22:07:00Z',
      id: '0f8fad5b-d9cb-469f-a165-70867728950e',
    }
    for (const draft of [
      'http://json-schema.org/draft-07/schema#',
      'https://json-schema.org/draft/2019-09/schema',
      'https://json-schema.org/draft/2020-12/schema',
    ]) {
      expect(judge(schema(draft), run(good))).toEqual([])
      expect(judge(schema(draft), run({ email: 'ada', at: 'yesterday', id: 'x' }))).toEqual([
        'json-schema: output "out-0" does not match: /email must match format "email"; ' +
          '/at must match format "date-time"; /id must match format "uuid"',
      ])
    }
  })

  it('json-schema lists five mismatches and counts the rest', () => {
    const properties = Array.from({ length: 7 }, (_, i) => `p${i}`)
    const [failure] = judge(`  json-schema: {type: object, required: [${properties.join(', ')}]}`, run({}))
    expect(failure.split('; ')).toHaveLength(6)
    expect(failure).toMatch(/; and 2 more$/)
  })

  it('json-schema fails an output that is not JSON (once, under is-json when both are given)', () => {
    expect(judge(SCHEMA, run('nope'))).toEqual([
      expect.stringMatching(/^json-schema: output "out-0" is not JSON/),
    ])
    expect(judge(`${SCHEMA}\n  is-json: true`, run('nope'))).toEqual([
      expect.stringMatching(/^is-json: output "out-0" is not JSON/),
    ])
  })

  it('json-schema reads a schema file (JSON or YAML) from the workspace and names it when it fails', () => {
    workspace = makeWorkspace({
      'schemas/price.json': JSON.stringify({ type: 'object', required: ['price'] }),
      'schemas/price.yml': 'type: object\nproperties: {price: {type: number}}\n',
    })
    expect(judge('  json-schema: schemas/price.json', run({ price: 1 }), workspace.dir)).toEqual([])
    expect(judge('  json-schema: schemas/price.json', run({ cost: 1 }), workspace.dir)).toEqual([
      `json-schema "schemas/price.json": output "out-0" does not match: (root) must have required property 'price'`,
    ])
    expect(judge('  json-schema: schemas/price.yml', run({ price: 'one' }), workspace.dir)).toEqual([
      'json-schema "schemas/price.yml": output "out-0" does not match: /price must be number',
    ])
  })

  it('follows the schema draft its $schema names', () => {
    // prefixItems exists from 2020-12 on; draft-07 strict mode would refuse the keyword.
    const fields =
      '  json-schema:\n    $schema: https://json-schema.org/draft/2020-12/schema\n' +
      '    type: array\n    prefixItems: [{type: string}]'
    expect(judge(fields, run(['a', 1]))).toEqual([])
    expect(judge(fields, run([1]))).toEqual(['json-schema: output "out-0" does not match: /0 must be string'])
  })

  it('on: outputs judges the whole outputs map', () => {
    const fields = '  on: outputs\n  json-schema: {type: object, required: [out-0, out-1]}'
    const both = run('a', { outputs: { 'out-0': 'a', 'out-1': { b: 1 } } })
    expect(judge(fields, both)).toEqual([])
    expect(judge(`${fields}\n  is-json: true`, both)).toEqual([])
    expect(judge(fields, run('a'))).toEqual([
      "json-schema: the outputs map does not match: (root) must have required property 'out-1'",
    ])
  })
})

describe('the named output', () => {
  const outputs = { 'out-0': 'first answer', 'out-1': '{"ok": true}' }

  it('every assertion applies to the output the check names', () => {
    const judged: JudgedRun = { answer: '{"ok": true}', outputs, seconds: 1, response: { outputs } }
    expect(
      judge('  output: out-1\n  is-json: true\n  contains: ok\n  equals: \'{"ok": true}\'', judged),
    ).toEqual([])
    expect(judge('  output: out-1\n  contains: first', judged)).toEqual(['contains "first": not found'])
  })

  it('a missing named output is a failure naming the outputs there are', () => {
    const judged: JudgedRun = { answer: '', outputs, seconds: 1, response: { outputs } }
    expect(judge('  output: out-2\n  contains: x\n  is-json: true', judged)).toEqual([
      'output "out-2": the answer has no such output (outputs: "out-0", "out-1")',
    ])
    expect(judge('  output: out-2', { ...judged, outputs: {} })).toEqual([
      'output "out-2": the answer has no such output (outputs: none)',
    ])
  })
})

describe('max-seconds', () => {
  it('passes a run within the bound and fails a slower one with its time', () => {
    expect(judge('  max-seconds: 2', run('a', { seconds: 2 }))).toEqual([])
    expect(judge('  max-seconds: 2', run('a', { seconds: 2.1 }))).toEqual([
      'max-seconds 2: the run took 2.1 s',
    ])
    expect(judge('  max-seconds: 0.5', run('a', { seconds: 0.6 }))).toEqual([
      'max-seconds 0.5: the run took 0.6 s',
    ])
  })
})

describe('cites', () => {
  const cited = (documents: string[]) => ({
    citations: documents.map((document) => ({ document, heading: '' })),
  })

  it('reads the citations of an answer: objects with a document, or names', () => {
    expect(citedDocuments(cited(['a.md', 'b.md', 'a.md']))).toEqual(['a.md', 'b.md'])
    expect(citedDocuments({ citations: ['a.md', { title: 'x' }, 3] })).toEqual(['a.md'])
    expect(citedDocuments({ outputs: {} })).toBeUndefined()
    expect(citedDocuments('text')).toBeUndefined()
  })

  it('matches a name exactly or as the end of a path', () => {
    expect(isCited('billing.md', ['docs/billing.md'])).toBe(true)
    expect(isCited('docs/billing.md', ['docs/billing.md'])).toBe(true)
    expect(isCited('ing.md', ['docs/billing.md'])).toBe(false)
    expect(isCited('docs/billing.md', ['billing.md'])).toBe(false)
  })

  it('passes when every named document is cited', () => {
    const response = cited(['docs/billing.md', 'docs/install.md'])
    expect(judge('  cites: [billing.md, docs/install.md]', run('a', { response }))).toEqual([])
  })

  it('fails each document not cited, listing what was', () => {
    const response = cited(['docs/install.md'])
    expect(judge('  cites: [billing.md, install.md, faq.md]', run('a', { response }))).toEqual([
      'cites "billing.md": not cited (cited: "docs/install.md")',
      'cites "faq.md": not cited (cited: "docs/install.md")',
    ])
  })

  it('fails an answer without citations saying so', () => {
    expect(judge('  cites: billing.md', run('a', { response: { outputs: {} } }))).toEqual([
      'cites "billing.md": the answer carries no citations',
    ])
    expect(judge('  cites: [a.md, b.md]', run('a', { response: { citations: [] } }))).toEqual([
      'cites "a.md", "b.md": the answer cites no documents',
    ])
  })
})
