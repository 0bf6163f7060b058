// A push that changes a Hugo section's _index.md: the selected pages below it join the change set as
// modified, so their publication is judged again; nothing else changes.
import { describe, expect, it } from '@jest/globals'
import type { ChangeDecision } from '../../../src/model.js'
import { changedSections, withSectionPages } from '../../../src/select/document/section-pages.js'
import { makeWorkspace } from '../../helpers/workspace.js'

type Changes = Extract<ChangeDecision, { kind: 'changes' }>
const changeSet = (fields: Partial<Changes>): Changes => ({
  kind: 'changes',
  source: 'git-diff',
  added: [],
  modified: [],
  removed: [],
  ...fields,
})

describe('section pages', () => {
  it('finds the folders of the section files a change set adds, modifies or removes', () => {
    expect(
      changedSections(
        changeSet({
          added: ['docs/a/_index.md'],
          modified: ['docs/b/_index.markdown', 'docs/b/page.md', 'docs/index.md'],
          removed: ['_index.md'],
        }),
      ),
    ).toEqual(['', 'docs/a', 'docs/b'])
  })

  it('adds the selected pages below a changed section as modified, once', async () => {
    const workspace = makeWorkspace({
      'docs/a/_index.md': '---\ncascade: {draft: true}\n---\n',
      'docs/a/one.md': 'x',
      'docs/a/deep/two.md': 'x',
      'docs/a/skip.txt': 'x',
      'docs/ab/other.md': 'x',
      'docs/b/three.md': 'x',
    })
    try {
      const options = {
        patterns: ['docs/**/*.md'],
        workspace: workspace.dir,
        includeHidden: false,
        maxFileSize: 1 << 20,
        followSymlinks: 'inside' as const,
      }
      const found = await withSectionPages(
        changeSet({ modified: ['docs/a/_index.md', 'docs/a/one.md'] }),
        options,
      )
      expect(found.sections).toEqual(['docs/a'])
      expect(found.pages).toBe(1)
      expect(found.changes.modified).toEqual(['docs/a/_index.md', 'docs/a/one.md', 'docs/a/deep/two.md'])
      const none = changeSet({ modified: ['docs/b/three.md'] })
      expect((await withSectionPages(none, options)).changes).toBe(none)
    } finally {
      workspace.remove()
    }
  })
})
