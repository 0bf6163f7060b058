// The note a skipped run puts on top of its sticky comment: on top, one at a time, the body kept.
import { describe, expect, it } from '@jest/globals'
import { notRerunNote, withNotRerunNote } from '../../src/report/not-rerun-note.js'
import { structureOf } from './gfm.js'

const BODY = '### Flow checks\n\n✅ 3 of 3 checks passed.\n\n_Ran on `0123456789ab`_\n'
const HEAD_1 = 'abcdef0123456789abcdef0123456789abcdef01'
const HEAD_2 = '1111111111112222222222223333333333334444'

describe('the not-run-again note', () => {
  it('names the head commit and the checks file, and says the result below still holds', () => {
    expect(notRerunNote(HEAD_1, 'ci/checks_suite.yml')).toBe(
      '> **Not run again for `abcdef012345`**: this push changes none of the selected documents nor the ' +
        'checks file ci/checks\\_suite.yml; the result below still holds for the documents it measured.',
    )
    expect(notRerunNote(HEAD_1, undefined)).toContain(
      'this push changes none of the selected documents; the result below',
    )
  })

  it('goes on top of the body, which stays whole, and renders as a quote above the heading', () => {
    const body = withNotRerunNote(BODY, notRerunNote(HEAD_1, 'ci/checks.yml'))
    expect(body.endsWith(BODY)).toBe(true)
    const s = structureOf(body)
    expect(s.html.indexOf('<blockquote>')).toBeLessThan(s.html.indexOf('<h3'))
    expect(s.headings).toEqual(['Flow checks'])
  })

  it('a second skip replaces the first note instead of stacking another', () => {
    const once = withNotRerunNote(BODY, notRerunNote(HEAD_1, 'ci/checks.yml'))
    const twice = withNotRerunNote(once, notRerunNote(HEAD_2, 'ci/checks.yml'))
    expect(twice).toBe(withNotRerunNote(BODY, notRerunNote(HEAD_2, 'ci/checks.yml')))
    expect(twice.match(/Not run again/g)).toHaveLength(1)
    expect(twice).toContain('`111111111111`')
    // GitHub may hand the body back with CRLF line ends.
    const crlf = once.replace(/\n/g, '\r\n')
    expect(withNotRerunNote(crlf, 'NOTE').match(/Not run again/g)).toBeNull()
  })
})
