// Drafts: the front matter at a markdown/MDX file's top, read from disk, parsed as YAML.
import { afterEach, describe, expect, it } from '@jest/globals'
import { DraftScanner, FRONT_MATTER_MAX_BYTES, findDrafts, frontMatterOf } from '../../src/select/drafts.js'
import { makeFixture, type Fixture } from './files-fixture.js'

let fixture: Fixture | undefined
afterEach(() => fixture?.remove())

describe('frontMatterOf', () => {
  it('is the YAML between the opening and closing lines at the very top', () => {
    expect(frontMatterOf('---\ntitle: A\ndraft: true\n---\n# A\n')).toBe('title: A\ndraft: true\n')
    expect(frontMatterOf('\ufeff---\r\ndraft: true\r\n...\r\nbody')).toBe('draft: true\r\n')
    expect(frontMatterOf('---\ndraft: true\n---')).toBe('draft: true\n')
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
    expect([...scan.drafts].sort()).toEqual(['docs/bom.md', 'docs/draft.md', 'docs/draft.mdx'])
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
    expect([...(await findDrafts(selection.files)).drafts]).toEqual(['docs/big-body.md'])
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
    expect([...scan.drafts]).toEqual(['a/one.md', 'c/four.mdx'])
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
