import { describe, expect, it } from '@jest/globals'
import { WorkspaceFile } from '../../src/select/workspace-file.js'

describe('WorkspaceFile: the name kept once, the path made from it', () => {
  it('reads, copies and writes as JSON like a file record that stores its path', () => {
    const file = new WorkspaceFile('/work/repo', 'docs/guides/getting-started.md', 12)
    const stored = {
      name: 'docs/guides/getting-started.md',
      path: '/work/repo/docs/guides/getting-started.md',
      size: 12,
    }
    expect(file.path).toBe(stored.path)
    expect(Object.keys(file)).toEqual(['name', 'path', 'size'])
    expect({ ...file }).toEqual(stored)
    expect(JSON.parse(JSON.stringify(file))).toEqual(stored)
  })

  it('keeps every code unit of a name, lone surrogates included', () => {
    const name = 'docs/\ud800-odd-\udfff-name.md'
    const file = new WorkspaceFile('/w', name, 1)
    expect(file.name).toBe(name)
    expect(file.path).toBe(`/w/${name}`)
  })

  it('files of different roots keep their own root', () => {
    const first = new WorkspaceFile('/one', 'a.md', 1)
    const second = new WorkspaceFile('/two', 'a.md', 1)
    const again = new WorkspaceFile('/one', 'b.md', 1)
    expect([first.path, second.path, again.path]).toEqual(['/one/a.md', '/two/a.md', '/one/b.md'])
  })

  it('stands only for a path that is the root and the name', () => {
    expect(WorkspaceFile.fits('/w', 'docs/a.md', '/w/docs/a.md')).toBe(true)
    expect(WorkspaceFile.fits('/w', 'docs/a.md', '/w/docs/b.md')).toBe(false)
    expect(WorkspaceFile.fits('/w', 'link.md', '/w/docs/real.md')).toBe(false)
    expect(WorkspaceFile.fits('/w', 'docs/a.md', '/wx/docs/a.md')).toBe(false)
    expect(WorkspaceFile.fits('/w', 'a.md', '/w/a.md')).toBe(true)
    expect(WorkspaceFile.fits('/', 'a.md', '/a.md')).toBe(false) // a stored path instead
  })
})
