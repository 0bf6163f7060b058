import { afterEach, describe, expect, it } from '@jest/globals'
import { readFileSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { CHECK_FIELDS, ChecksError, parseChecks } from '../../src/checks/schema.js'
import { makeWorkspace } from '../helpers/workspace.js'

let workspace: ReturnType<typeof makeWorkspace> | undefined
afterEach(() => {
  workspace?.remove()
  workspace = undefined
})

// Each level holds nine of the one before: 9^6 values from a few lines (yaml refuses past 100 aliases).
const ALIAS_BOMB = [
  'a: &a ["x","x","x","x","x","x","x","x","x"]',
  ...['b', 'c', 'd', 'e', 'f'].map(
    (name, i) => `${name}: &${name} [${Array(9).fill(`*${'abcde'[i]}`).join(',')}]`,
  ),
  '',
].join('\n')

function problems(text: string, dir = process.cwd()): string[] {
  try {
    parseChecks(text, { workspace: dir })
  } catch (error) {
    expect(error).toBeInstanceOf(ChecksError)
    return (error as ChecksError).problems
  }
  throw new Error('expected the checks to be refused')
}

describe('parseChecks: fields', () => {
  it('reads every field of a check', () => {
    const [check] = parseChecks(`
checks:
  - name: refunds
    inputs: { in-0: "How long are refunds?", in-1: "EU" }
    output: out-1
    expect: '14\\s+days'
    contains: ["14 days", refund]
    not-contains: 30 days
    case-insensitive: true
    min-length: 10
    max-length: 2000
    repeat: 3
    min-pass: 2
`)
    expect(check).toMatchObject({
      name: 'refunds',
      inputs: { 'in-0': 'How long are refunds?', 'in-1': 'EU' },
      output: 'out-1',
      contains: ['14 days', 'refund'],
      notContains: ['30 days'],
      caseInsensitive: true,
      minLength: 10,
      maxLength: 2000,
      repeat: 3,
      minPass: 2,
    })
    expect(check.expect?.pattern()).toBe('14\\s+days')
  })

  it('reads every richer assertion', () => {
    const [check] = parseChecks(`
- name: price
  inputs: { in-0: "Price of the enterprise plan?" }
  output: out-1
  contains-any: [$999, 999 USD]
  equals: '{"price": 999}'
  starts-with: '{'
  is-json: true
  json-schema: { type: object, required: [price] }
  on: outputs
  similar: { reference: "The enterprise plan costs $999.", min-similarity: 0.75 }
  max-seconds: 12.5
  cites: docs/pricing.md
`)
    expect(check).toMatchObject({
      output: 'out-1',
      containsAny: ['$999', '999 USD'],
      equals: '{"price": 999}',
      startsWith: '{',
      isJson: true,
      on: 'outputs',
      similar: { reference: 'The enterprise plan costs $999.', minSimilarity: 0.75 },
      maxSeconds: 12.5,
      cites: ['docs/pricing.md'],
    })
    expect(check.jsonSchema?.file).toBeUndefined()
    expect(check.jsonSchema?.validate({ price: 1 })).toBe(true)
    expect(check.jsonSchema?.validate({})).toBe(false)
  })

  it('applies the defaults: output out-0, case-sensitive, no assertions', () => {
    const [check] = parseChecks('- name: smoke\n  inputs: {in-0: hello}\n')
    expect(check).toEqual({
      name: 'smoke',
      inputs: { 'in-0': 'hello' },
      output: 'out-0',
      expect: undefined,
      contains: [],
      containsAny: [],
      notContains: [],
      equals: undefined,
      startsWith: undefined,
      caseInsensitive: false,
      minLength: undefined,
      maxLength: undefined,
      isJson: false,
      jsonSchema: undefined,
      on: 'output',
      similar: undefined,
      maxSeconds: undefined,
      cites: [],
      advisory: false,
    })
  })

  it("reads the README's example of the assertions, and the README's table names every field", () => {
    const readme = readFileSync('README.md', 'utf8')
    const example = /A check using several of them:\n\n```yaml\n([\s\S]*?)```/.exec(readme)
    expect(example).not.toBeNull()
    const checks = parseChecks(example![1])
    expect(checks.map((c) => c.name)).toEqual(['enterprise price', 'refund window'])
    expect(checks[1].similar).toEqual({
      reference: 'Refunds are granted within 14 days of purchase.',
      minSimilarity: 0.6,
    })
    const table = readme.slice(
      readme.indexOf('| assertion | holds when |'),
      readme.indexOf('A check using several'),
    )
    const documented = table
      .split('\n')
      .slice(2)
      .flatMap((row) => [...(row.split('|')[1] ?? '').matchAll(/`([^`]+)`/g)].map((match) => match[1]))
    expect(documented.sort()).toEqual(
      // The fields that are not assertions: what the check asks, how often (see Repeats), whether it blocks.
      CHECK_FIELDS.filter(
        (f) => !['name', 'inputs', 'output', 'repeat', 'min-pass', 'advisory'].includes(f),
      ).sort(),
    )
  })

  it('reads JSON text as well as YAML, a bare list as well as a "checks" mapping', () => {
    const json = parseChecks('[{"name": "a", "inputs": {"in-0": "q"}}, {"name": "b", "inputs": {"x": "y"}}]')
    expect(json.map((c) => c.name)).toEqual(['a', 'b'])
    expect(parseChecks('{"checks": [{"name": "a", "inputs": {"in-0": "q"}}]}')).toHaveLength(1)
  })
})

describe('parseChecks: every validation error names the check and the field', () => {
  it.each([
    ['invalid YAML', 'checks: [\n  - name: a\n', /not valid YAML or JSON/],
    ['a scalar', 'just text', /must be a list of checks/],
    ['a mapping without checks', 'tests: []', /must be a list of checks/],
    ['an empty list', 'checks: []', /lists no checks/],
    ['a check that is not a mapping', '- 42', /^check #1: must be a mapping/],
    ['a missing name', '- inputs: {in-0: q}', /^check #1, field "name": /],
    [
      'an empty name',
      '- name: "  "\n  inputs: {in-0: q}',
      /^check #1, field "name": must be a non-empty string/,
    ],
    ['missing inputs', '- name: a', /^check "a" \(#1\), field "inputs": /],
    ['empty inputs', '- name: a\n  inputs: {}', /field "inputs": must name at least one input/],
    [
      'an input that is not a string',
      '- name: a\n  inputs: {in-0: 14}',
      /field "inputs.in-0": .*expected string/,
    ],
    [
      'an empty output',
      '- name: a\n  inputs: {in-0: q}\n  output: ""',
      /field "output": must be a non-empty string/,
    ],
    [
      'an expect RE2 refuses',
      '- name: a\n  inputs: {in-0: q}\n  expect: "(?=x)"',
      /field "expect": must be a regular expression in RE2 syntax/,
    ],
    ['contains as a number', '- name: a\n  inputs: {in-0: q}\n  contains: 3', /field "contains": /],
    [
      'not-contains with a number inside',
      '- name: a\n  inputs: {in-0: q}\n  not-contains: [ok, 3]',
      /field "not-contains/,
    ],
    [
      'case-insensitive as text',
      '- name: a\n  inputs: {in-0: q}\n  case-insensitive: "yes"',
      /field "case-insensitive": /,
    ],
    ['a negative min-length', '- name: a\n  inputs: {in-0: q}\n  min-length: -1', /field "min-length": /],
    ['a fractional max-length', '- name: a\n  inputs: {in-0: q}\n  max-length: 2.5', /field "max-length": /],
    [
      'max-length under min-length',
      '- name: a\n  inputs: {in-0: q}\n  min-length: 10\n  max-length: 5',
      /field "max-length": must not be less than min-length \(10\)/,
    ],
    [
      'repeat 0',
      '- name: a\n  inputs: {in-0: q}\n  repeat: 0',
      /^check "a" \(#1\), field "repeat": must be 1 to 10/,
    ],
    [
      'repeat 11',
      '- name: a\n  inputs: {in-0: q}\n  repeat: 11',
      /^check "a" \(#1\), field "repeat": must be 1 to 10/,
    ],
    [
      'a fractional repeat',
      '- name: a\n  inputs: {in-0: q}\n  repeat: 1.5',
      /field "repeat": must be a whole number/,
    ],
    [
      'min-pass 0',
      '- name: a\n  inputs: {in-0: q}\n  min-pass: 0',
      /^check "a" \(#1\), field "min-pass": must be 1 to 10/,
    ],
    [
      "min-pass above the check's repeat",
      '- name: a\n  inputs: {in-0: q}\n  repeat: 2\n  min-pass: 3',
      /^check "a" \(#1\), field "min-pass": must not be more than the check's repeat \(2\): 3 of 2 runs can never pass/,
    ],
    [
      'an unknown field',
      '- name: a\n  inputs: {in-0: q}\n  expects: x',
      /^check "a" \(#1\): unknown field\(s\) "expects" \(did you mean `expect`\?\) \(known: name, inputs, .*, cites, repeat, min-pass, rubric, advisory\)$/,
    ],
    [
      'contains-any empty',
      '- name: a\n  inputs: {in-0: q}\n  contains-any: []',
      /^check "a" \(#1\), field "contains-any": must list at least one string$/,
    ],
    [
      'contains-any as one string',
      '- name: a\n  inputs: {in-0: q}\n  contains-any: x',
      /^check "a" \(#1\), field "contains-any": must be a list of strings/,
    ],
    [
      'equals as a number',
      '- name: a\n  inputs: {in-0: q}\n  equals: 3',
      /^check "a" \(#1\), field "equals": /,
    ],
    [
      'starts-with empty',
      '- name: a\n  inputs: {in-0: q}\n  starts-with: ""',
      /field "starts-with": must be a non-empty string/,
    ],
    [
      'is-json as text',
      '- name: a\n  inputs: {in-0: q}\n  is-json: "yes"',
      /^check "a" \(#1\), field "is-json": /,
    ],
    [
      'json-schema as a number',
      '- name: a\n  inputs: {in-0: q}\n  json-schema: 3',
      /field "json-schema": must be a JSON Schema \(a mapping\) or the path of a schema file in the workspace/,
    ],
    [
      'a json-schema that does not compile',
      '- name: a\n  inputs: {in-0: q}\n  json-schema: {type: strng}',
      /^check "a" \(#1\), field "json-schema": the schema does not compile: schema is invalid: data\/type/,
    ],
    [
      'a json-schema with a misspelt keyword',
      '- name: a\n  inputs: {in-0: q}\n  json-schema: {type: object, requried: [x]}',
      /field "json-schema": the schema does not compile: strict mode: unknown keyword: "requried"/,
    ],
    [
      'a json-schema with a format no one checks',
      '- name: a\n  inputs: {in-0: q}\n  json-schema: {type: string, format: e-mail}',
      /field "json-schema": the schema does not compile: unknown format "e-mail"/,
    ],
    [
      'a json-schema of an unknown draft',
      '- name: a\n  inputs: {in-0: q}\n  json-schema: {$schema: "http://json-schema.org/draft-04/schema#"}',
      /field "json-schema": the schema's \$schema "http:\/\/json-schema.org\/draft-04\/schema#" is not a draft/,
    ],
    [
      'a json-schema file that does not exist',
      '- name: a\n  inputs: {in-0: q}\n  json-schema: schemas/missing.json',
      /^check "a" \(#1\), field "json-schema": names the file "schemas\/missing.json", which does not exist in the workspace/,
    ],
    [
      'a json-schema file outside the workspace',
      '- name: a\n  inputs: {in-0: q}\n  json-schema: ../outside.json',
      /field "json-schema": names (the file )?"..\/outside.json", which (does not exist|is outside the workspace)/,
    ],
    [
      'a json-schema file by an absolute path',
      '- name: a\n  inputs: {in-0: q}\n  json-schema: /etc/passwd',
      /field "json-schema": must be a path relative to the workspace \(got "\/etc\/passwd"\)/,
    ],
    [
      'on with an unknown value',
      '- name: a\n  inputs: {in-0: q}\n  on: answer\n  is-json: true',
      /field "on": must be "output" \(the named output, the default\) or "outputs"/,
    ],
    [
      'on: outputs without is-json or json-schema',
      '- name: a\n  inputs: {in-0: q}\n  on: outputs\n  contains: x',
      /^check "a" \(#1\), field "on": applies to is-json and json-schema only/,
    ],
    [
      'min-similarity above 1',
      '- name: a\n  inputs: {in-0: q}\n  similar: {reference: r, min-similarity: 1.5}',
      /^check "a" \(#1\), field "similar.min-similarity": must be a number from 0 to 1, e.g. 0.8$/,
    ],
    [
      'min-similarity below 0',
      '- name: a\n  inputs: {in-0: q}\n  similar: {reference: r, min-similarity: -0.1}',
      /field "similar.min-similarity": must be a number from 0 to 1/,
    ],
    [
      'min-similarity missing',
      '- name: a\n  inputs: {in-0: q}\n  similar: {reference: r}',
      /field "similar.min-similarity": must be a number from 0 to 1/,
    ],
    [
      'a reference that is empty',
      '- name: a\n  inputs: {in-0: q}\n  similar: {reference: " ", min-similarity: 0.5}',
      /field "similar.reference": must be a non-empty string/,
    ],
    [
      'a reference too long to compare',
      `- name: a\n  inputs: {in-0: q}\n  similar: {reference: ${'x'.repeat(10_001)}, min-similarity: 0.5}`,
      /field "similar.reference": must be at most 10,000 characters/,
    ],
    [
      'similar as a string',
      '- name: a\n  inputs: {in-0: q}\n  similar: "the reference"',
      /^check "a" \(#1\), field "similar": must be a mapping with reference and min-similarity/,
    ],
    [
      'an unknown field of similar',
      '- name: a\n  inputs: {in-0: q}\n  similar: {reference: r, min-similarity: 0.5, measure: rouge}',
      /^check "a" \(#1\), field "similar": unknown field\(s\) "measure" \(known: reference, min-similarity\)$/,
    ],
    [
      'max-seconds zero',
      '- name: a\n  inputs: {in-0: q}\n  max-seconds: 0',
      /field "max-seconds": must be a positive number of seconds/,
    ],
    [
      'cites empty',
      '- name: a\n  inputs: {in-0: q}\n  cites: []',
      /^check "a" \(#1\), field "cites": must be a non-empty string or a list of them$/,
    ],
    ['cites with an empty name', '- name: a\n  inputs: {in-0: q}\n  cites: [a.md, ""]', /field "cites": /],
    [
      'a duplicate name',
      '- name: a\n  inputs: {in-0: q}\n- name: a\n  inputs: {in-0: r}',
      /^check "a" \(#2\), field "name": the name is already used by check #1/,
    ],
  ])('%s', (_, text, pattern) => {
    const found = problems(text)
    expect(found.some((problem) => pattern.test(problem))).toBe(true)
  })

  it('refuses a YAML alias bomb in the checks or in a json-schema file, naming what expands', () => {
    workspace = makeWorkspace({ 'bomb.yml': ALIAS_BOMB })
    expect(problems(`${ALIAS_BOMB}checks: [{name: a, inputs: {in-0: q}}]\n`)).toEqual([
      expect.stringMatching(/^not valid YAML or JSON: its aliases \(\*name\) expand too much to be read \(/),
    ])
    expect(problems('- name: a\n  inputs: {in-0: q}\n  json-schema: bomb.yml', workspace.dir)).toEqual([
      expect.stringMatching(
        /^check "a" \(#1\), field "json-schema": "bomb.yml" is not valid JSON or YAML: its aliases \(\*name\) expand too much/,
      ),
    ])
  })

  it('refuses a json-schema pattern or patternProperties RE2 cannot run, naming the pattern', () => {
    const schema = (fields: string) => `- name: a\n  inputs: {in-0: q}\n  json-schema: ${fields}`
    for (const fields of [
      '{type: string, pattern: "^(?=refund)"}',
      '{type: object, patternProperties: {"(a)\\\\1": {type: string}}}',
      '{type: object, properties: {x: {type: string, pattern: "(?<!no)refund"}}}',
    ])
      expect(problems(schema(fields))).toEqual([
        expect.stringMatching(
          /^check "a" \(#1\), field "json-schema": the schema does not compile: pattern ".+" is not a regular expression in RE2 syntax \(no lookaround or backreferences\): /,
        ),
      ])
  })

  it('never runs a json-schema pattern with the backtracking engine, even on the schema’s own property names', () => {
    // Ajv's strict mode tests each patternProperties pattern against the property names with RegExp
    // (and refuses a name that matches); ^(a+)+$ against a long name of a's would backtrack for ever.
    const [check] = parseChecks(
      '- name: a\n  inputs: {in-0: q}\n  json-schema:\n    type: object\n' +
        '    properties: {aaa: {type: number}}\n' +
        '    patternProperties: {"^(a+)+$": {type: number}}\n',
    )
    expect(check.jsonSchema?.validate({ aaa: 1, aa: 2, b: 'x' })).toBe(true)
    expect(check.jsonSchema?.validate({ aa: 'two' })).toBe(false)
  })

  it('refuses a json-schema file that a link leads out of the workspace', () => {
    workspace = makeWorkspace({ 'a.md': 'x' })
    const outside = makeWorkspace({ 'schema.json': '{"type": "object"}' })
    try {
      symlinkSync(join(outside.dir, 'schema.json'), join(workspace.dir, 'schema.json'))
      expect(problems('- name: a\n  inputs: {in-0: q}\n  json-schema: schema.json', workspace.dir)).toEqual([
        'check "a" (#1), field "json-schema": names "schema.json", which is outside the workspace',
      ])
    } finally {
      outside.remove()
    }
  })

  it('refuses a json-schema file that is not JSON or YAML, or not a schema that compiles', () => {
    workspace = makeWorkspace({
      'bad.json': '{"type": ',
      'list.json': '[1, 2]',
      'typo.json': '{"type": "objekt"}',
    })
    const found = problems(
      ['bad', 'list', 'typo']
        .map((name) => `- name: ${name}\n  inputs: {in-0: q}\n  json-schema: ${name}.json`)
        .join('\n'),
      workspace.dir,
    )
    expect(found).toEqual([
      expect.stringMatching(
        /^check "bad" \(#1\), field "json-schema": "bad.json" is not valid JSON or YAML: /,
      ),
      'check "list" (#2), field "json-schema": "list.json": must be a JSON Schema (a mapping) or the path of a schema file in the workspace',
      expect.stringMatching(
        /^check "typo" \(#3\), field "json-schema": "typo.json": the schema does not compile: /,
      ),
    ])
  })

  it('resolves a json-schema file from GITHUB_WORKSPACE when no workspace is given', () => {
    workspace = makeWorkspace({ 'schemas/a.json': '{"type": "object"}' })
    const saved = process.env.GITHUB_WORKSPACE
    process.env.GITHUB_WORKSPACE = workspace.dir
    try {
      const [check] = parseChecks('- name: a\n  inputs: {in-0: q}\n  json-schema: schemas/a.json')
      expect(check.jsonSchema?.file).toBe('schemas/a.json')
    } finally {
      if (saved === undefined) delete process.env.GITHUB_WORKSPACE
      else process.env.GITHUB_WORKSPACE = saved
    }
  })

  it('names every field of a check in its unknown-field message', () => {
    const [problem] = problems('- name: a\n  inputs: {in-0: q}\n  nope: 1')
    for (const field of CHECK_FIELDS) expect(problem).toContain(field)
  })

  it('a misspelt field is told the field it most likely means; a name like none gets no guess', () => {
    expect(problems('- name: a\n  inputs: {in-0: q}\n  contans: refund\n  nope: 1')).toEqual([
      expect.stringMatching(
        /^check "a" \(#1\): unknown field\(s\) "contans" \(did you mean `contains`\?\), "nope" \(known: name, /,
      ),
    ])
    expect(
      problems('- name: a\n  inputs: {in-0: q}\n  similar: {reference: x, min_similarity: 0.5}'),
    ).toContain(
      'check "a" (#1), field "similar": unknown field(s) "min_similarity" (did you mean `min-similarity`?) (known: reference, min-similarity)',
    )
  })

  it('guesses from the list of fields, so a field added to it is guessed too', () => {
    for (const field of CHECK_FIELDS) {
      const [problem] = problems(`- name: a\n  inputs: {in-0: q}\n  ${field}x: 1`)
      expect(problem).toContain(`"${field}x" (did you mean \`${field}\`?)`)
    }
  })

  it('reports every problem of every check at once', () => {
    const found = problems(
      '- name: a\n  inputs: {in-0: 1}\n- name: b\n  inputs: {in-0: q}\n  min-length: -2\n- 7',
    )
    expect(found).toHaveLength(3)
    expect(found[0]).toMatch(/^check "a" \(#1\)/)
    expect(found[1]).toMatch(/^check "b" \(#2\)/)
    expect(found[2]).toMatch(/^check #3/)
  })
})
