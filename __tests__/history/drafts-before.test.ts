// Which changed drafts were drafts at the base commit too: judged on the base's versions in a real git
// repository (the page's front matter, its section's cascade as it was, a _drafts folder).
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import path from 'node:path'
import { draftsBefore } from '../../src/history/drafts-before.js'
import { GitFixture, type WorkingCopy } from '../helpers/git-fixture.js'

const draft = (title: string) => `---\ntitle: ${title}\ndraft: true\n---\n# ${title}\n`
const published = (title: string) => `---\ntitle: ${title}\n---\n# ${title}\n`

let fixture: GitFixture
let author: WorkingCopy

beforeEach(() => {
  fixture = GitFixture.create()
  author = fixture.author()
})
afterEach(() => fixture.cleanup())

describe('draftsBefore', () => {
  it('names the pages that were drafts at the base too, by their front matter, section cascade or folder', async () => {
    author
      .write('docs/still.md', draft('Still'))
      .write('docs/was-live.md', published('Live'))
      .write('docs/blog/_index.md', '---\ntitle: Blog\ncascade:\n  draft: true\n---\n')
      .write('docs/blog/post.md', published('Post'))
      .write('docs/_drafts/idea.md', published('Idea'))
    const base = author.commit('seed')
    // Now each is a draft by its own front matter, and the blog section no longer cascades one.
    author
      .write('docs/still.md', draft('Still, edited'))
      .write('docs/was-live.md', draft('Live'))
      .write('docs/blog/_index.md', '---\ntitle: Blog\n---\n')
      .write('docs/blog/post.md', draft('Post'))
      .write('docs/_drafts/idea.md', draft('Idea'))
      .write('docs/new.md', draft('New'))
    author.commit('edit')
    const names = [
      'docs/still.md',
      'docs/was-live.md',
      'docs/blog/post.md',
      'docs/_drafts/idea.md',
      'docs/new.md',
    ]
    const found = await draftsBefore({ workspace: author.dir, base, names })
    expect([...found].sort()).toEqual(['docs/_drafts/idea.md', 'docs/blog/post.md', 'docs/still.md'])
  })

  it('reads the names relative to a workspace below the repository’s top', async () => {
    author.write('site/docs/still.md', draft('Still')).write('site/docs/live.md', published('Live'))
    const base = author.commit('seed')
    author.write('site/docs/still.md', draft('Still, edited')).write('site/docs/live.md', draft('Live'))
    author.commit('edit')
    const found = await draftsBefore({
      workspace: path.join(author.dir, 'site'),
      base,
      names: ['docs/still.md', 'docs/live.md'],
    })
    expect([...found]).toEqual(['docs/still.md'])
  })

  it('knows nothing when the base commit is missing or not a commit id (each draft is then blanked)', async () => {
    author.write('docs/still.md', draft('Still'))
    author.commit('seed')
    const names = ['docs/still.md']
    expect((await draftsBefore({ workspace: author.dir, base: 'f'.repeat(40), names })).size).toBe(0)
    expect((await draftsBefore({ workspace: author.dir, base: 'HEAD', names })).size).toBe(0)
    // A name that would leave the temporary folder is not judged.
    const base = author.commit('again')
    expect((await draftsBefore({ workspace: author.dir, base, names: ['../docs/still.md'] })).size).toBe(0)
  })
})
