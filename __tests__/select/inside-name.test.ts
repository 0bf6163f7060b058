// insideName answers the usual case without path.relative; whatever the path, its answer must be the
// one path.relative gives (the workspace boundary of every selected file depends on it).
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import path from 'node:path'
import { insideName } from '../../src/select/inside-name.js'

function byRelative(root: string, target: string): string | undefined {
  const relative = path.relative(root, target)
  if (path.isAbsolute(relative) || relative.split(path.sep)[0] === '..') return undefined
  return relative.split(path.sep).join('/')
}

const segment = fc.constantFrom(
  'a',
  'docs',
  '.',
  '..',
  '',
  '.hidden',
  '..x',
  'x..',
  '...',
  'a\\b',
  'ws',
  'ws2',
)
const root = fc.array(fc.constantFrom('ws', 'home', 'a', 'w s'), { minLength: 1, maxLength: 3 })

describe('insideName', () => {
  it('gives the name path.relative gives, for any path below, beside or above the root', () => {
    fc.assert(
      fc.property(
        root,
        fc.array(segment, { maxLength: 6 }),
        fc.constantFrom('', '/'),
        fc.constantFrom('', 'x', '2'),
        (rootSegments, rest, trailing, glued) => {
          const rootPath = `/${rootSegments.join('/')}`
          // `glued` makes siblings such as /ws2/... that share the root's characters but not its folder.
          const target = `${rootPath}${glued}/${rest.join('/')}${trailing}`
          expect(insideName(rootPath, target)).toBe(byRelative(rootPath, target))
        },
      ),
      { numRuns: 5000 },
    )
  })

  it('names clean paths below the root, and refuses the ones that climb out of it', () => {
    expect(insideName('/ws', '/ws/docs/a.md')).toBe('docs/a.md')
    expect(insideName('/ws', '/ws/docs/../a.md')).toBe('a.md')
    expect(insideName('/ws', '/ws/../etc/passwd')).toBeUndefined()
    expect(insideName('/ws', '/ws/docs/../../etc/passwd')).toBeUndefined()
    expect(insideName('/ws', '/ws2/a.md')).toBeUndefined()
    expect(insideName('/', '/etc/hosts')).toBe('etc/hosts')
  })
})
