import { describe, expect, it } from '@jest/globals'
import { nameMatcher } from '../../src/select/match.js'

describe('nameMatcher', () => {
  it('applies includes and excludes in order, like @actions/glob', () => {
    const match = nameMatcher(['docs/**/*.md', '!docs/drafts/**', 'docs/drafts/keep.md'])
    expect(match('docs/a.md')).toBe(true)
    expect(match('docs/deep/b.md')).toBe(true)
    expect(match('docs/drafts/x.md')).toBe(false)
    expect(match('docs/drafts/keep.md')).toBe(true)
    expect(match('src/a.md')).toBe(false)
    expect(match('docs/a.txt')).toBe(false)
  })

  it('matches everything below a folder pattern and dotfiles with *', () => {
    const match = nameMatcher(['./guides/'])
    expect(match('guides/x/y.md')).toBe(true)
    expect(match('guides/.hidden.md')).toBe(true)
    expect(match('guidesx/y.md')).toBe(false)
  })

  it('matches names with spaces, quotes, newlines and non-ASCII', () => {
    const match = nameMatcher(['**/*.md'])
    for (const name of ['a b.md', 'q"uote.md', 'new\nline.md', 'résumé/日本.md'])
      expect(match(name)).toBe(true)
  })
})
