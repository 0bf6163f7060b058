// The name someone most likely meant: close typos are guessed, distant or ambiguous names are not.
import { describe, expect, it } from '@jest/globals'
import { didYouMean, likelyName } from '../src/likely-name.js'

const FIELDS = [
  'name',
  'inputs',
  'contains',
  'contains-any',
  'not-contains',
  'min-length',
  'max-length',
  'on',
]

describe('likelyName', () => {
  it('guesses a typo of one or two edits in a long enough name', () => {
    expect(likelyName('contans', FIELDS)).toBe('contains')
    expect(likelyName('inptus', FIELDS)).toBe('inputs')
    expect(likelyName('onn', FIELDS)).toBe('on')
  })

  it('reads case, `_` and camelCase as the same name', () => {
    expect(likelyName('containsAny', FIELDS)).toBe('contains-any')
    expect(likelyName('NOT_CONTAINS', FIELDS)).toBe('not-contains')
    expect(likelyName('minLength', FIELDS)).toBe('min-length')
  })

  it('guesses nothing for a name far from all, or as close to two', () => {
    expect(likelyName('nope', FIELDS)).toBeUndefined()
    expect(likelyName('rubric', FIELDS)).toBeUndefined()
    // One edit from min-length and from max-length.
    expect(likelyName('man-length', FIELDS)).toBeUndefined()
    expect(likelyName('anything', [])).toBeUndefined()
  })
})

describe('didYouMean', () => {
  it('is the guess in words, or nothing', () => {
    expect(didYouMean('contans', FIELDS)).toBe(' (did you mean `contains`?)')
    expect(didYouMean('nope', FIELDS)).toBe('')
  })
})
