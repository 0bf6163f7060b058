import { describe, expect, it } from '@jest/globals'
import { ChecksError, parseChecks } from '../../src/checks/schema.js'

function problems(text: string): string[] {
  try {
    parseChecks(text)
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

  it('applies the defaults: output out-0, case-sensitive, no assertions', () => {
    const [check] = parseChecks('- name: smoke\n  inputs: {in-0: hello}\n')
    expect(check).toEqual({
      name: 'smoke',
      inputs: { 'in-0': 'hello' },
      output: 'out-0',
      expect: undefined,
      contains: [],
      notContains: [],
      caseInsensitive: false,
      minLength: undefined,
      maxLength: undefined,
    })
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
      /^check "a" \(#1\): unknown field\(s\) "expects"/,
    ],
    [
      'a duplicate name',
      '- name: a\n  inputs: {in-0: q}\n- name: a\n  inputs: {in-0: r}',
      /^check "a" \(#2\), field "name": the name is already used by check #1/,
    ],
  ])('%s', (_, text, pattern) => {
    const found = problems(text)
    expect(found.some((problem) => pattern.test(problem))).toBe(true)
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
