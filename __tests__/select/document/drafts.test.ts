// Drafts: the front matter at a markdown/MDX file's top, read from disk, parsed as YAML.
import { afterEach, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  DraftScanner,
  FRONT_MATTER_MAX_BYTES,
  IN_DRAFTS_FOLDER,
  findDrafts,
  frontMatterOf,
} from '../../../src/select/document/drafts.js'
import { selectFiles } from '../../../src/select/files.js'
import { makeFixture, type Fixture } from '../files-fixture.js'

let fixture: Fixture | undefined
afterEach(() => fixture?.remove())

describe('frontMatterOf', () => {
  it('is the YAML between the opening and closing lines at the very top', () => {
    const yaml = (text: string) => ({ format: 'yaml', text })
    expect(frontMatterOf('---\ntitle: A\ndraft: true\n---\n# A\n')).toEqual(yaml('title: A\ndraft: true\n'))
    expect(frontMatterOf('\ufeff---\r\ndraft: true\r\n...\r\nbody')).toEqual(yaml('draft: true\r\n'))
    expect(frontMatterOf('---\ndraft: true\n---')).toEqual(yaml('draft: true\n'))
  })

  it('is the TOML between `+++` lines, or the JSON object that opens the file', () => {
    expect(frontMatterOf('+++\ndraft = true\n+++\n# A\n')).toEqual({ format: 'toml', text: 'draft = true\n' })
    expect(frontMatterOf('+++\ndraft = true\n---\n')).toBeUndefined()
    const json = '{\n  "title": "a } { \\" b",\n  "params": {"x": 1},\n  "draft": true\n}'
    expect(frontMatterOf(`${json}\n# A {\n`)).toEqual({ format: 'json', text: json })
    expect(frontMatterOf('{ "draft": true \n# no end')).toBeUndefined()
    // What else opens a page with a brace is not front matter (and no warning that it does not parse).
    expect(frontMatterOf('{/* a comment */}\n# MDX {"draft": true}\n')).toBeUndefined()
    expect(frontMatterOf('{% raw %}\n{"draft": true}\n{% endraw %}\n')).toBeUndefined()
    expect(frontMatterOf('{{< note >}}\n')).toBeUndefined()
  })

  it('is none when the file does not start with it or it is never closed', () => {
    expect(frontMatterOf('# Title\n---\ndraft: true\n---\n')).toBeUndefined()
    expect(frontMatterOf('\n---\ndraft: true\n---\n')).toBeUndefined()
    expect(frontMatterOf('---\ndraft: true\nno end')).toBeUndefined()
    expect(frontMatterOf('----\ndraft: true\n----\n')).toBeUndefined()
  })
})

describe('findDrafts', () => {
  it('finds markdown and MDX whose front matter says draft: true, and only those', async () => {
    fixture = makeFixture()
    fixture.file('docs/draft.md', '---\ntitle: Soon\ndraft: true\n---\n# Soon\n')
    fixture.file('docs/draft.mdx', '---\ndraft: true\n---\n<Hello />\n')
    fixture.file('docs/bom.md', '\ufeff---\r\ndraft: true\r\n---\r\n# Soon\r\n')
    fixture.file('docs/published.md', '---\ndraft: false\n---\n# Out\n')
    fixture.file('docs/string.md', '---\ndraft: "yes"\n---\n')
    fixture.file('docs/no-front-matter.md', '# draft: true\n')
    fixture.file('docs/list.md', '---\n- draft\n---\n')
    fixture.file('docs/data.yaml', 'draft: true\n')
    fixture.file('docs/text.txt', '---\ndraft: true\n---\n')
    const selection = await fixture.select(['docs/**'])
    const scan = await findDrafts(selection.files)
    expect([...scan.drafts.keys()].sort()).toEqual(['docs/bom.md', 'docs/draft.md', 'docs/draft.mdx'])
    expect(scan.unparsable).toEqual([])
  })

  it('front matter that does not parse is no draft, and is reported with the parser’s reason', async () => {
    fixture = makeFixture()
    fixture.file('docs/broken.md', '---\ndraft: true\ntitle: [unclosed\n---\n# Broken\n')
    fixture.file('docs/tabs.md', '---\ndraft: true\n\tbad: indent\n---\n')
    const selection = await fixture.select(['docs/**'])
    const scan = await findDrafts(selection.files)
    expect(scan.drafts.size).toBe(0)
    expect(scan.unparsable.map((bad) => bad.name).sort()).toEqual(['docs/broken.md', 'docs/tabs.md'])
    for (const bad of scan.unparsable) expect(bad.why).toMatch(/\S/)
  })

  it('reads only the beginning: front matter closed past the limit is not looked for', async () => {
    fixture = makeFixture()
    fixture.file('docs/long.md', `---\ndraft: true\nx: "${'a'.repeat(FRONT_MATTER_MAX_BYTES)}"\n---\n`)
    fixture.file('docs/big-body.md', `---\ndraft: true\n---\n${'body\n'.repeat(FRONT_MATTER_MAX_BYTES)}`)
    const selection = await fixture.select(['docs/**'])
    expect([...(await findDrafts(selection.files)).drafts.keys()]).toEqual(['docs/big-body.md'])
  })
})

describe('DraftScanner', () => {
  it('tells each batch its drafts, and all drafts and unparsable files once done', async () => {
    fixture = makeFixture()
    fixture.file('a/one.md', '---\ndraft: true\n---\n')
    fixture.file('a/two.md', '# two\n')
    fixture.file('b/three.md', '---\ndraft: [unclosed\n---\n')
    fixture.file('c/four.mdx', '---\ndraft: true\n---\n')
    const { files } = await fixture.select(['**'])
    const byName = (name: string) => files.find((file) => file.name === name)!
    const scanner = new DraftScanner([
      [byName('a/one.md'), byName('a/two.md')],
      [byName('b/three.md')],
      [],
      [byName('c/four.mdx')],
    ])
    expect([...(await scanner.drafts(3))]).toEqual(['c/four.mdx'])
    expect([...(await scanner.drafts(0))]).toEqual(['a/one.md'])
    expect([...(await scanner.drafts(1))]).toEqual([])
    expect([...(await scanner.drafts(9))]).toEqual([])
    const scan = await scanner.done
    expect([...scan.drafts.keys()]).toEqual(['a/one.md', 'c/four.mdx'])
    expect(scan.unparsable.map((bad) => bad.name)).toEqual(['b/three.md'])
  })

  /** 300 files without front matter (no parser to load, whose import would give turns of its own). */
  async function threeHundredFiles() {
    fixture = makeFixture()
    for (let i = 0; i < 300; i++) fixture.file(`docs/${String(i).padStart(3, '0')}.md`, `# ${i}\n`)
    fixture.file('last.md', '# last\n')
    const { files } = await fixture.select(['**'])
    const last = files.find((file) => file.name === 'last.md')!
    return [files.filter((file) => file !== last), [last]]
  }

  /** Counts the turns of the event loop from now on. */
  function turnCounter() {
    const counter = { turns: 0 }
    const tick = () => {
      counter.turns++
      if (counter.turns < 1000) setImmediate(tick)
    }
    setImmediate(tick)
    return counter
  }

  it('gives the event loop turns while nothing waits for it: the requests in flight are not held', async () => {
    const scanner = new DraftScanner(await threeHundredFiles())
    const counter = turnCounter()
    await scanner.done
    // 300 files read in one go would give no turn at all.
    expect(counter.turns).toBeGreaterThanOrEqual(3)
  })

  it('gives no turn while a batch waits for its answer: that batch cannot be sent before', async () => {
    const scanner = new DraftScanner(await threeHundredFiles())
    const counter = turnCounter()
    expect([...(await scanner.drafts(0))]).toEqual([])
    expect(counter.turns).toBe(0)
    await scanner.done
  })
})

const FIXTURES = fileURLToPath(new URL('../../fixtures', import.meta.url))

/** Every file of a fixture site, selected as a sync would (names relative to the site). */
function selectSite(site: string, patterns = ['**']) {
  return selectFiles({
    patterns,
    workspace: path.join(FIXTURES, site),
    includeHidden: false,
    maxFileSize: 1024 * 1024,
    followSymlinks: 'inside',
  })
}

describe('what the generators do not publish', () => {
  it('a Hugo site: what `hugo list drafts|future|expired` printed (unpublished.json), and only that', async () => {
    const { files } = await selectSite('hugo-site', ['content/**'])
    const hugo = JSON.parse(
      readFileSync(path.join(FIXTURES, 'hugo-site/unpublished.json'), 'utf8'),
    ) as Record<'drafts' | 'future' | 'expired', string[]>
    const scan = await findDrafts(files)
    expect(scan.unparsable).toEqual([])
    expect([...scan.drafts.keys()].sort()).toEqual([...hugo.drafts, ...hugo.future, ...hugo.expired].sort())
    // Each for Hugo's reason.
    for (const name of hugo.drafts) expect(scan.drafts.get(name)).toMatch(/draft|published/)
    for (const name of hugo.future)
      expect(scan.drafts.get(name)).toMatch(/is in the future( \(by its section's cascade\))?$/)
    for (const name of hugo.expired)
      expect(scan.drafts.get(name)).toMatch(/has passed( \(by its section's cascade\))?$/)
    expect(files.length - scan.drafts.size).toBeGreaterThanOrEqual(20)
  })

  it('a Jekyll site: `published: false` and the _drafts folders', async () => {
    const { files } = await selectSite('jekyll-site')
    const scan = await findDrafts(files)
    expect(Object.fromEntries(scan.drafts)).toEqual({
      '_drafts/idea.md': IN_DRAFTS_FOLDER,
      '_drafts/notes.md': IN_DRAFTS_FOLDER,
      '_posts/2020-01-02-hidden.md': 'its front matter says published: false',
      'about.md': 'its front matter says published: false',
      'docs/_drafts/nested.md': IN_DRAFTS_FOLDER,
    })
  })

  it('Docusaurus, MkDocs Material and Astro: draft: true is not published, unlisted: true is', async () => {
    fixture = makeFixture()
    fixture.file('docs/draft.mdx', '---\nid: d\ndraft: true\n---\n# D\n')
    fixture.file('docs/unlisted.md', '---\nunlisted: true\n---\n# U\n')
    fixture.file('docs/material.md', '---\nstatus: new\ndraft: true\n---\n# M\n')
    fixture.file('src/content/blog/post.md', '---\ntitle: P\ndraft: false\nunlisted: true\n---\n')
    const { files } = await fixture.select(['**'])
    expect([...(await findDrafts(files)).drafts.keys()].sort()).toEqual([
      'docs/draft.mdx',
      'docs/material.md',
    ])
  })

  it('dates are judged against the run’s clock', async () => {
    fixture = makeFixture()
    fixture.file('a.md', '---\npublishDate: 2030-06-01T12:00:00+02:00\n---\n')
    fixture.file('b.md', '+++\nexpiryDate = 2030-06-01\n+++\n')
    fixture.file('c.md', '{"date": "2030-06-01"}\n')
    const { files } = await fixture.select(['**'])
    const before = await findDrafts(files, new Date('2030-05-31T00:00:00Z'))
    expect(Object.fromEntries(before.drafts)).toEqual({
      'a.md': 'its publishDate (2030-06-01T10:00:00.000Z) is in the future',
      'c.md': 'its date (2030-06-01T00:00:00.000Z) is in the future',
    })
    const after = await findDrafts(files, new Date('2030-06-02T00:00:00Z'))
    expect(Object.fromEntries(after.drafts)).toEqual({
      'b.md': 'its expiryDate (2030-06-01T00:00:00.000Z) has passed',
    })
  })

  it('a section’s cascade is read even when its _index.md is not selected; a page’s own value wins', async () => {
    fixture = makeFixture()
    fixture.file('content/docs/_index.md', '+++\ntitle = "Docs"\n[cascade]\ndraft = true\n+++\n')
    fixture.file('content/docs/a.md', '# no front matter\n')
    fixture.file('content/docs/deep/b.md', '---\ntitle: B\n---\n')
    fixture.file('content/docs/c.md', '---\ndraft: false\n---\n')
    fixture.file('content/other/d.md', '# d\n')
    const { files } = await fixture.select(['content/**', '!**/_index.md'])
    const scan = await findDrafts(files)
    expect(Object.fromEntries(scan.drafts)).toEqual({
      'content/docs/a.md': "its section's cascade says draft: true",
      'content/docs/deep/b.md': "its section's cascade says draft: true",
    })
  })

  it('front matter in TOML or JSON that does not parse is no draft, and is reported', async () => {
    fixture = makeFixture()
    fixture.file('a.md', '+++\ndraft = true\ntitle = \n+++\n')
    fixture.file('b.md', '{"draft": true, }\n')
    const { files } = await fixture.select(['**'])
    const scan = await findDrafts(files)
    expect(scan.drafts.size).toBe(0)
    expect(scan.unparsable.map((bad) => bad.name)).toEqual(['a.md', 'b.md'])
  })
})
