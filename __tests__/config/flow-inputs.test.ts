import { describe, expect, test } from '@jest/globals'
import fc from 'fast-check'
import { ConfigError } from '../../src/config/errors.js'
import { MAX_FLOW_INPUTS_BYTES, parseFlowInputs } from '../../src/config/flow-inputs.js'

function problemOf(text: string): ConfigError {
  try {
    parseFlowInputs(text, 'inputs')
  } catch (error) {
    if (error instanceof ConfigError) return error
    throw error
  }
  throw new Error('expected a ConfigError')
}

describe('parseFlowInputs', () => {
  test('reads an object of strings into an object without prototype', () => {
    const inputs = parseFlowInputs('{"in-0": "What is new?", "in-1": ""}', 'inputs')
    expect({ ...inputs }).toEqual({ 'in-0': 'What is new?', 'in-1': '' })
    expect(Object.getPrototypeOf(inputs)).toBeNull()
  })

  test('__proto__ and constructor are only keys', () => {
    const inputs = parseFlowInputs('{"__proto__": "a", "constructor": "b", "toString": "c"}', 'flow-inputs')
    expect(Object.keys(inputs)).toEqual(['__proto__', 'constructor', 'toString'])
    expect(inputs['__proto__']).toBe('a')
    expect(Object.getPrototypeOf(inputs)).toBeNull()
    expect(({} as Record<string, unknown>).a).toBeUndefined()
    expect(JSON.parse(JSON.stringify(inputs))).toEqual(
      JSON.parse('{"__proto__": "a", "constructor": "b", "toString": "c"}'),
    )
  })

  test.each([
    ['not JSON', '{in-0: "a"}', /must be a JSON object/],
    ['cut short', '{"in-0": "a"', /must be a JSON object/],
    ['an array', '["a"]', /got an array/],
    ['a string', '"a"', /got a string/],
    ['null', 'null', /got null/],
    ['a number value', '{"in-0": 1}', /"in-0" is a number/],
    ['a nested object', '{"in-0": {"x": "y"}}', /"in-0" is an object/],
    ['an array value', '{"in-0": ["a"]}', /"in-0" is an array/],
    ['a null value', '{"in-0": null}', /"in-0" is null/],
    ['a boolean value', '{"in-0": true}', /"in-0" is a boolean/],
    ['no keys', '{}', /at least one/],
  ])('%s is refused, naming the input', (_, text, reason) => {
    const error = problemOf(text)
    expect(error.problems).toHaveLength(1)
    expect(error.problems[0].input).toBe('inputs')
    expect(error.message).toMatch(/^Input "inputs" /)
    expect(error.message).toMatch(reason)
  })

  test('names the input it is given', () => {
    expect(() => parseFlowInputs('[]', 'flow-inputs')).toThrow(/^Input "flow-inputs" /)
  })

  test('at most 256 KiB', () => {
    const fits = `{"in-0": "${'a'.repeat(MAX_FLOW_INPUTS_BYTES - 12)}"}`
    expect(Buffer.byteLength(fits)).toBe(MAX_FLOW_INPUTS_BYTES)
    expect(parseFlowInputs(fits, 'inputs')['in-0']).toHaveLength(MAX_FLOW_INPUTS_BYTES - 12)
    // Counted in UTF-8 bytes, not characters.
    const tooBig = `{"in-0": "${'\u00e9'.repeat(MAX_FLOW_INPUTS_BYTES / 2)}"}`
    expect(problemOf(tooBig).message).toMatch(/at most 256 KiB/)
  })

  test('property: any object of strings round-trips, keys and values unchanged', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.string(), { minKeys: 1 }), (object) => {
        const text = JSON.stringify(object)
        const inputs = parseFlowInputs(text, 'inputs')
        expect(Object.getPrototypeOf(inputs)).toBeNull()
        expect(JSON.stringify(inputs)).toBe(text)
      }),
    )
  })

  test('property: any JSON value that is not an object of strings is refused with a ConfigError', () => {
    const notAllStrings = fc
      .jsonValue()
      .filter(
        (value) =>
          typeof value !== 'object' ||
          value === null ||
          Array.isArray(value) ||
          Object.keys(value).length === 0 ||
          Object.values(value).some((v) => typeof v !== 'string'),
      )
    fc.assert(
      fc.property(notAllStrings, (value) => {
        expect(problemOf(JSON.stringify(value)).problems[0].input).toBe('inputs')
      }),
    )
  })
})
