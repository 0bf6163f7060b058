// Removed documents and drafts end to end: a real origin and depth-1 checkouts, the built index action
// run as the next run of a workflow (a local server lists the runs with their conclusions, so each run
// measures from the last successful one), the emulator as the service, and its flow asked before and
// after the push that deletes a page.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path, { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/server.js'
import { placeholderFor } from '../../src/placeholders.js'
import { GitFixture, type WorkingCopy } from '../helpers/git-fixture.js'
import { pushAndSync as nextRun, ZERO_SHA } from '../helpers/next-run-on-push.js'
import { WorkflowRunsServer } from '../helpers/workflow-runs-server.js'
import { PRIVATE_KEY, PUBLIC_KEY } from '../helpers/keys.js'

const ids = { 'flow-id': 'flow-removed', 'org-id': 'org-removed', 'node-id': 'knowledgebase-1' }
const ZERO = ZERO_SHA
const JEST_QUESTION = JSON.stringify({ 'in-0': 'How do I configure jest snapshot tests?' })

let fixture: GitFixture
let author: WorkingCopy
let emulator: Emulator
let runs: WorkflowRunsServer

async function startService(options: Partial<EmulatorOptions> = {}): Promise<void> {
  emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY, ...options })
}

beforeEach(async () => {
  fixture = GitFixture.create()
  author = fixture.author()
  runs = new WorkflowRunsServer()
  await runs.start()
})
afterEach(async () => {
  await Promise.all([emulator.close(), runs.close()])
  fixture.cleanup()
})

/** Pushes what the author committed and runs the action on that push as the workflow's next run. */
const pushAndSync = (before: string, inputs: Record<string, string> = {}, env: Record<string, string> = {}) =>
  nextRun({ fixture, author, runs, baseUrl: emulator.url, ids, runIdBase: 9_000_000 }, before, inputs, env)

const stored = () => emulator.documents(ids['flow-id'], ids['org-id'], ids['node-id'])
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')
const storedSha = (name: string) => stored().find((document) => document.name === name)?.sha256

/** The documents the flow's answer cites, best first (from the run's `response` output). */
function cited(run: { outputs: Record<string, string> }): string[] {
  const response = JSON.parse(run.outputs.response) as { citations: { document: string }[] }
  return response.citations.map((citation) => citation.document)
}

/** Document names of the answered requests since `from`, by method and status. */
function requestsSince(from: number): string[] {
  return emulator
    .requests()
    .slice(from)
    .flatMap((request) =>
      (request.documents ?? []).map((d) => `${request.method} ${request.status} ${d.filename}`),
    )
    .sort()
}

const warnings = (stdout: string) => stdout.split('\n').filter((line) => line.startsWith('::warning::'))

describe('removed documents stop answering (removed: tombstone)', () => {
  beforeEach(() => startService())

  it('deleted, renamed and moved-out documents are replaced by placeholders; the flow stops citing them', async () => {
    author
      .write(
        'docs/guides/jest.md',
        '# Jest\n\nConfigure jest snapshot tests in jest.config.js: set snapshotFormat and run npx jest --ci.\n',
      )
      .write('docs/guides/yaml.md', '# YAML\n\nIndent YAML with spaces, never tabs.\n')
      .write('docs/intro.md', '# Introduction\n\nThis site documents the project.\n')
      .write('docs/data/limits.json', '{"jest": {"timeout": 5000}}\n')
      .write('docs/manual.pdf', '%PDF-1.4 a manual about jest\n')
    author.commit('seed')
    const seed = await pushAndSync(ZERO, { 'flow-inputs': JEST_QUESTION, 'public-key': PUBLIC_KEY })
    expect(seed.status).toBe(0)
    expect(cited(seed)[0]).toBe('docs/guides/jest.md')

    author.remove('docs/guides/jest.md').remove('docs/data/limits.json').remove('docs/manual.pdf')
    author.git('mv', 'docs/guides/yaml.md', 'docs/guides/yaml-basics.md')
    // Moved out of the selection (files: docs/**).
    author
      .write('archive/intro.md', '# Introduction\n\nThis site documents the project.\n')
      .remove('docs/intro.md')
    author.commit('delete jest, rename yaml, move intro out of docs')
    const mark = emulator.requests().length
    // The old topic, the words of the placeholders' former sentence ("This document was removed from the
    // repository by commit …; its earlier content no longer applies.") and a document still there.
    const question = JSON.stringify({
      'in-0': 'How do I configure jest snapshot tests?',
      'in-1': 'Was this document removed from the repository by a commit? Does its earlier content apply?',
      'in-2': 'Introduction to the jest limits and timeout. How do I indent YAML?',
    })
    const run = await pushAndSync(seed.after, { 'flow-inputs': question, 'public-key': PUBLIC_KEY })

    expect(run.status).toBe(0)
    const removed = ['docs/data/limits.json', 'docs/guides/jest.md', 'docs/guides/yaml.md', 'docs/intro.md']
    expect(JSON.parse(run.outputs.removed)).toEqual(removed)
    expect(run.outputs['removed-count']).toBe('4')
    expect(JSON.parse(run.outputs.left)).toEqual(['docs/manual.pdf'])
    expect(run.outputs['left-count']).toBe('1')
    // Placeholders by PATCH (parts file1…), the new name by upsert; nothing for the PDF.
    expect(requestsSince(mark)).toEqual([
      'PATCH 200 docs/data/limits.json',
      'PATCH 200 docs/guides/jest.md',
      'PATCH 200 docs/guides/yaml.md',
      'PATCH 200 docs/intro.md',
      'POST 200 docs/guides/yaml-basics.md',
    ])
    const parts = emulator
      .requests()
      .slice(mark)
      .filter((request) => request.method === 'PATCH')
      .flatMap((request) => request.documents ?? [])
    expect(parts.map((part) => part.field).sort()).toEqual(['file1', 'file2', 'file3', 'file4'])
    // Each document now holds the placeholder of its format, naming the commit that removed it.
    for (const name of removed) expect(storedSha(name)).toBe(sha256(placeholderFor(name, run.after)!))
    expect(placeholderFor('docs/guides/jest.md', run.after)).toContain(run.after)
    // The same question no longer finds the deleted page, and no question finds a placeholder: the answer
    // cites the page still there, and no removed one.
    expect(cited(run)).toEqual(['docs/guides/yaml-basics.md'])
    expect(run.outputs.result).not.toContain('snapshotFormat')

    const firstLine = run.summary.split('\n').find((line) => line.startsWith('✅'))!
    expect(firstLine).toContain('removed from answers 4')
    expect(firstLine).toContain('⚠️ left in the knowledge base 1')
    expect(firstLine).not.toMatch(/\bremoved \d/)
    expect(run.summary).toContain(
      `## Knowledge base sync — org ${ids['org-id']} · flow ${ids['flow-id']} · node ${ids['node-id']}`,
    )
    // One warning names the file that stays and says it must be removed by hand.
    const left = warnings(run.stdout).filter((line) => line.includes('stay in the knowledge base'))
    expect(left).toHaveLength(1)
    expect(left[0]).toContain('docs/manual.pdf')
    expect(left[0]).toContain('Remove them in the service by hand')
  })

  it('a placeholder answered 404 (the document is not in the knowledge base) is success', async () => {
    author.write('docs/a.md').write('docs/b.md').commit('seed')
    const seed = await pushAndSync(ZERO)
    expect(seed.status).toBe(0)
    author.remove('docs/a.md').commit('delete a')
    const mark = emulator.requests().length
    // Another node, which never received docs/a.md.
    const run = await pushAndSync(seed.after, { 'node-id': 'knowledgebase-2' })
    expect(run.status).toBe(0)
    expect(requestsSince(mark)).toEqual(['PATCH 404 docs/a.md'])
    expect(JSON.parse(run.outputs.removed)).toEqual(['docs/a.md'])
    expect(JSON.parse(run.outputs.failed)).toEqual([])
    expect(run.summary).toContain('docs/a.md: was not in the knowledge base, so there was nothing to remove')
  })

  it('removed: keep sends nothing for removed documents and lists them as left', async () => {
    author.write('docs/a.md').write('docs/b.md').commit('seed')
    const seed = await pushAndSync(ZERO)
    author.remove('docs/a.md').commit('delete a')
    const mark = emulator.requests().length
    const run = await pushAndSync(seed.after, { removed: 'keep' })
    expect(run.status).toBe(0)
    expect(requestsSince(mark)).toEqual([])
    expect(JSON.parse(run.outputs.removed)).toEqual([])
    expect(JSON.parse(run.outputs.left)).toEqual(['docs/a.md'])
    expect(run.stdout).toMatch(
      /^::notice::1 removed document\(s\) stay in the knowledge base \(removed: keep\)/m,
    )
    expect(storedSha('docs/a.md')).toBe(sha256('content of docs/a.md\n'))
  })
})

describe('a failed placeholder', () => {
  it('fails the run, and the next run sends it again', async () => {
    let failPatches = false
    await startService({
      inject: ({ method }) => (failPatches && method === 'PATCH' ? 'server-error' : undefined),
    })
    author.write('docs/a.md').write('docs/b.md').commit('seed')
    const seed = await pushAndSync(ZERO)
    expect(seed.status).toBe(0)

    author.remove('docs/a.md').commit('delete a')
    failPatches = true
    const failed = await pushAndSync(seed.after, { retries: '1' })
    expect(failed.status).not.toBe(0)
    expect(JSON.parse(failed.outputs.failed)).toEqual(['docs/a.md'])
    expect(JSON.parse(failed.outputs.removed)).toEqual([])
    expect(storedSha('docs/a.md')).toBe(sha256('content of docs/a.md\n'))

    // The next push changes something else; measured from the last success, a's removal is in it again.
    author.write('docs/b.md', 'b, second\n').commit('edit b')
    failPatches = false
    const healed = await pushAndSync(failed.after)
    expect(healed.status).toBe(0)
    expect(JSON.parse(healed.outputs.removed)).toEqual(['docs/a.md'])
    expect(JSON.parse(healed.outputs.updated)).toEqual(['docs/b.md'])
    expect(storedSha('docs/a.md')).toBe(sha256(placeholderFor('docs/a.md', healed.after)!))
  })
})

describe('an unusable RUNNER_TEMP', () => {
  it('fails the removals only, naming RUNNER_TEMP; the other documents are sent, the outputs and summary written', async () => {
    await startService()
    author.write('docs/a.md').write('docs/b.md').commit('seed')
    const seed = await pushAndSync(ZERO)
    expect(seed.status).toBe(0)

    author.write('docs/a.md', 'a, second\n').remove('docs/b.md').commit('edit a, delete b')
    // A regular file: not a folder for anyone, root included.
    const notAFolder = join(fixture.root, 'runner-temp-is-a-file')
    writeFileSync(notAFolder, 'not a folder\n')
    const run = await pushAndSync(seed.after, {}, { RUNNER_TEMP: notAFolder })
    expect(run.status).toBe(1)
    expect(JSON.parse(run.outputs.updated)).toEqual(['docs/a.md'])
    expect(JSON.parse(run.outputs.failed)).toEqual(['docs/b.md'])
    expect(JSON.parse(run.outputs.removed)).toEqual([])
    expect(storedSha('docs/a.md')).toBe(sha256('a, second\n'))
    expect(storedSha('docs/b.md')).toBe(sha256('content of docs/b.md\n'))
    const placeholderCause = `its placeholder could not be written (ENOTDIR): RUNNER_TEMP (${notAFolder}) must name a folder this step can write to`
    expect(run.stdout).toContain(`document docs/b.md failed after 0 attempt(s): ${placeholderCause}`)
    // The summary's table cuts a long cause; its first words name RUNNER_TEMP.
    expect(run.summary).toContain('| its placeholder could not be written (ENOTDIR): RUNNER\\_TEMP (')
    expect(run.summary).toContain('<summary>Updated (1)</summary>')
    // The report file cannot be made there either: the step says why, naming RUNNER_TEMP, and the outputs
    // and the summary are still written.
    expect(run.outputs['report-file']).toBe('')
    const reportError = run.stdout.split('\n').find((line) => line.startsWith('::error::The report file'))
    expect(reportError).toContain(`::error::The report file ${notAFolder}/kb-sync-report-`)
    expect(reportError).toContain(
      `could not be written (ENOTDIR). RUNNER_TEMP (${notAFolder}) must name a folder this step can write to.`,
    )
  })
})

describe('drafts stay out (skip-drafts)', () => {
  beforeEach(() => startService())

  it('drafts added, published and turned into drafts; front matter that does not parse is warned', async () => {
    const draft = (title: string) => `---\ntitle: ${title}\ndraft: true\n---\n# ${title}\n`
    const published = (title: string) => `---\ntitle: ${title}\ndraft: false\n---\n# ${title}\n`
    author
      .write('docs/soon.md', draft('Soon'))
      .write('docs/live.mdx', published('Live'))
      .write('docs/broken.md', '---\ndraft: true\ntitle: [unclosed\n---\n# Broken\n')
    author.commit('seed')
    const seed = await pushAndSync(ZERO)
    expect(seed.status).toBe(0)
    expect(JSON.parse(seed.outputs.skipped)).toEqual(['docs/soon.md'])
    expect(JSON.parse(seed.outputs.uploaded).sort()).toEqual(['docs/broken.md', 'docs/live.mdx'])
    expect(seed.summary).toContain('docs/soon.md: its front matter says draft: true')
    const bad = warnings(seed.stdout).filter((line) => line.includes('front matter'))
    expect(bad).toHaveLength(1)
    expect(bad[0]).toContain('docs/broken.md')

    author.write('docs/soon.md', published('Soon')) // published
    author.write('docs/live.mdx', draft('Live')) // back to a draft: its old content must stop answering
    author.write('docs/later.md', draft('Later')) // a new draft
    author.commit('publish soon, unpublish live, draft later')
    const mark = emulator.requests().length
    const run = await pushAndSync(seed.after)
    expect(run.status).toBe(0)
    expect(requestsSince(mark)).toEqual([
      'PATCH 200 docs/live.mdx',
      'PATCH 404 docs/soon.md',
      'POST 200 docs/soon.md',
    ])
    expect(JSON.parse(run.outputs.uploaded)).toEqual(['docs/soon.md'])
    expect(JSON.parse(run.outputs.removed)).toEqual(['docs/live.mdx'])
    expect(JSON.parse(run.outputs.skipped)).toEqual(['docs/later.md'])
    expect(storedSha('docs/live.mdx')).toBe(sha256(placeholderFor('docs/live.mdx', run.after)!))
  })

  it('a draft edited while still a draft is left alone: no request, no batch searched in parts; one published now is uploaded, one unpublished now blanked', async () => {
    const draft = (title: string) => `---\ntitle: ${title}\ndraft: true\n---\n# ${title}\n`
    const published = (title: string) => `---\ntitle: ${title}\n---\n# ${title}\n`
    author
      .write('docs/soon.md', draft('Soon'))
      .write('docs/later.md', draft('Later'))
      .write('docs/live.md', published('Live'))
      .write('docs/old.md', published('Old'))
    author.commit('seed')
    const seed = await pushAndSync(ZERO)
    expect(seed.status).toBe(0)
    expect(JSON.parse(seed.outputs.skipped)).toEqual(['docs/later.md', 'docs/soon.md'])

    author.write('docs/soon.md', draft('Soon, second draft')) // a draft before and after
    author.write('docs/later.md', published('Later')) // published now
    author.write('docs/live.md', draft('Live')) // unpublished now
    author.remove('docs/old.md')
    author.commit('edit drafts, delete old')
    const mark = emulator.requests().length
    const run = await pushAndSync(seed.after)
    expect(run.status).toBe(0)
    // Nothing is sent for the draft; the two placeholders go in one request, answered 200.
    expect(requestsSince(mark)).toEqual([
      'PATCH 200 docs/live.md',
      'PATCH 200 docs/old.md',
      'PATCH 404 docs/later.md',
      'POST 200 docs/later.md',
    ])
    expect(JSON.parse(run.outputs.skipped)).toEqual(['docs/soon.md'])
    expect(JSON.parse(run.outputs.removed)).toEqual(['docs/live.md', 'docs/old.md'])
    expect(JSON.parse(run.outputs.uploaded)).toEqual(['docs/later.md'])
    expect(storedSha('docs/soon.md')).toBeUndefined()
    expect(storedSha('docs/live.md')).toBe(sha256(placeholderFor('docs/live.md', run.after)!))
    expect(run.summary).toContain('docs/soon.md: its front matter says draft: true')
    expect(run.summary).not.toMatch(/\d attempts\)/)
    expect(run.stdout).toContain(
      `1 changed draft(s) were drafts at ${seed.after} too, so never published: left alone, not blanked: docs/soon.md.`,
    )
  })

  it('skip-drafts: false sends drafts like any file', async () => {
    author.write('docs/soon.md', '---\ndraft: true\n---\n# Soon\n').commit('seed')
    const run = await pushAndSync(ZERO, { 'skip-drafts': 'false' })
    expect(run.status).toBe(0)
    expect(JSON.parse(run.outputs.uploaded)).toEqual(['docs/soon.md'])
  })
})

describe('pages a Hugo or Jekyll site does not publish (skip-drafts)', () => {
  beforeEach(() => startService())

  const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url))

  /** Every file under a fixture folder, by name relative to it. */
  function filesOf(folder: string, under = ''): string[] {
    return readdirSync(path.join(folder, under), { withFileTypes: true }).flatMap((entry) => {
      const name = under ? `${under}/${entry.name}` : entry.name
      return entry.isDirectory() ? filesOf(folder, name) : [name]
    })
  }

  /** The fixture sites as docs/hugo (its content) and docs/jekyll (without its README). */
  function writeSites(): void {
    for (const name of filesOf(path.join(FIXTURES, 'hugo-site'), 'content'))
      author.write(`docs/hugo/${name}`, readFileSync(path.join(FIXTURES, 'hugo-site', name), 'utf8'))
    for (const name of filesOf(path.join(FIXTURES, 'jekyll-site')).filter((n) => n !== 'README.md'))
      author.write(`docs/jekyll/${name}`, readFileSync(path.join(FIXTURES, 'jekyll-site', name), 'utf8'))
  }

  it('a full sync leaves out what Hugo and Jekyll do not publish; a push blanks each page that stops being published and sends each that starts', async () => {
    writeSites()
    author.commit('seed the sites')
    const seed = await pushAndSync(ZERO)
    expect(seed.status).toBe(0)
    const hugo = JSON.parse(readFileSync(path.join(FIXTURES, 'hugo-site/unpublished.json'), 'utf8'))
    const unpublished = [
      ...[...hugo.drafts, ...hugo.future, ...hugo.expired].map((name: string) => `docs/hugo/${name}`),
      ...['_drafts/idea.md', '_drafts/notes.md', '_posts/2020-01-02-hidden.md', 'about.md'].map(
        (name) => `docs/jekyll/${name}`,
      ),
      'docs/jekyll/docs/_drafts/nested.md',
    ].sort()
    expect(JSON.parse(seed.outputs.skipped).sort()).toEqual(unpublished)
    expect(
      stored()
        .map((document) => document.name)
        .filter((name) => unpublished.includes(name)),
    ).toEqual([])
    expect(stored().length).toBeGreaterThanOrEqual(25)

    // Published before, each stops being published in its own way.
    const posts = 'docs/hugo/content/posts'
    author
      .write(`${posts}/plain.md`, '+++\ntitle = "Plain"\ndraft = true\n+++\n# Plain\n')
      .write(`${posts}/y-false.md`, '---\ntitle: a\ndraft: "true"\n---\nx\n')
      .write(`${posts}/j-1.md`, '{\n  "title": "a",\n  "draft": "t"\n}\nx\n')
      .write(`${posts}/t-false.md`, '+++\ntitle = "a"\npublishDate = 2999-01-01\n+++\nx\n')
      .write(`${posts}/y-unexpired.md`, '---\ntitle: a\nexpiryDate: 2000-01-01\n---\nx\n')
      .write('docs/jekyll/_posts/2020-01-01-hello.md', '---\ntitle: Hello\npublished: false\n---\nx\n')
      // A section's cascade turns draft: its changed pages are judged by it.
      .write('docs/hugo/content/sec5/nested/_index.md', '---\ntitle: s\n---\n')
      .write('docs/hugo/content/sec5/nested/i.md', '---\ntitle: i\n---\nchanged\n')
    author.git('mv', 'docs/jekyll/_docs/guide.md', 'docs/jekyll/_drafts/guide.md')
    // Unpublished before, each starts being published.
    author
      .write(`${posts}/y-true.md`, '---\ntitle: a\ndraft: false\n---\nx\n')
      .write(`${posts}/t-future.md`, '+++\ntitle = "a"\npublishDate = 2000-01-01T00:00:00Z\n+++\nx\n')
      // Front matter that no longer parses: sent, with a warning naming the file.
      .write(`${posts}/y-yes.md`, '+++\ntitle = \ndraft = true\n+++\nx\n')
    author.git('mv', 'docs/jekyll/_drafts/idea.md', 'docs/jekyll/_posts/2020-02-01-idea.md')
    author.commit('unpublish some pages, publish others')
    const run = await pushAndSync(seed.after)
    expect(run.status).toBe(0)
    const blanked = [
      'docs/hugo/content/posts/j-1.md',
      'docs/hugo/content/posts/plain.md',
      'docs/hugo/content/posts/t-false.md',
      'docs/hugo/content/posts/y-false.md',
      'docs/hugo/content/posts/y-unexpired.md',
      'docs/hugo/content/sec5/nested/i.md',
      'docs/hugo/content/sec5/nested/_index.md',
      'docs/jekyll/_docs/guide.md',
      'docs/jekyll/_posts/2020-01-01-hello.md',
    ].sort()
    // The draft moved out of _drafts was never sent: its placeholder is answered 404, which is success.
    expect(JSON.parse(run.outputs.removed).sort()).toEqual([...blanked, 'docs/jekyll/_drafts/idea.md'].sort())
    expect(storedSha('docs/jekyll/_drafts/idea.md')).toBeUndefined()
    for (const name of blanked) expect(storedSha(name)).toBe(sha256(placeholderFor(name, run.after)!))
    expect(JSON.parse(run.outputs.skipped)).toEqual(['docs/jekyll/_drafts/guide.md'])
    expect(JSON.parse(run.outputs.uploaded).sort()).toEqual([
      'docs/hugo/content/posts/t-future.md',
      'docs/hugo/content/posts/y-true.md',
      'docs/hugo/content/posts/y-yes.md',
      'docs/jekyll/_posts/2020-02-01-idea.md',
    ])
    expect(storedSha(`${posts}/y-true.md`)).toBe(sha256('---\ntitle: a\ndraft: false\n---\nx\n'))
    const bad = warnings(run.stdout).filter((line) => line.includes('front matter'))
    expect(bad).toHaveLength(1)
    expect(bad[0]).toContain(`${posts}/y-yes.md`)
  })

  it('a push that changes only a section’s _index.md judges the unchanged pages below it again', async () => {
    writeSites()
    author.commit('seed the sites')
    const seed = await pushAndSync(ZERO)
    expect(seed.status).toBe(0)
    const content = 'docs/hugo/content'
    expect(storedSha(`${content}/sec5/nested/i.md`)).toBeDefined()
    expect(storedSha(`${content}/sec3/f.md`)).toBeUndefined()

    // sec3 loses its cascade of a future publishDate: f.md is published now. sec5/nested loses the
    // cascade that undid sec5's draft: i.md inherits the draft. Neither page changes itself.
    author
      .write(`${content}/sec3/_index.md`, '+++\ntitle = "s"\n+++\n')
      .write(`${content}/sec5/nested/_index.md`, '---\ntitle: s\n---\n')
    author.commit('change two sections only')
    const run = await pushAndSync(seed.after)
    expect(run.status).toBe(0)
    expect(run.stdout).toContain(
      "A section's _index.md changed (its cascade applies to the pages below it): 2 page(s) below " +
        `${content}/sec3, ${content}/sec5/nested are judged again`,
    )
    const blanked = [`${content}/sec5/nested/_index.md`, `${content}/sec5/nested/i.md`]
    expect(JSON.parse(run.outputs.removed)).toEqual(blanked)
    for (const name of blanked) expect(storedSha(name)).toBe(sha256(placeholderFor(name, run.after)!))
    expect(JSON.parse(run.outputs.uploaded)).toEqual([`${content}/sec3/_index.md`, `${content}/sec3/f.md`])
    expect(JSON.parse(run.outputs.skipped)).toEqual([])
  })
})
