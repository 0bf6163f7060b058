// Issue 10: two files, one name on the wire. Names that reach the service as one are detected, one is
// sent, the other skipped naming both; names with control characters are never sent.
import { afterEach, describe, expect, it } from '@jest/globals'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  distinctDocumentNames,
  selectableNameProblem,
  wireFilename,
} from '../../src/documents/document-names.js'
import { ServiceClient } from '../../src/service/client.js'
import { startRecordingServer } from '../helpers/recording-server.js'
import { makeFixture } from '../select/files-fixture.js'

const TARGET = { flowId: '0123456789abcdef01234567', orgId: 'org-1', nodeId: 'knowledgebase-1' }
const cleanup: (() => unknown)[] = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

describe('wireFilename', () => {
  it('is exactly the filename the client puts on the wire', async () => {
    const names = ['docs/a"b.md', 'docs/a%22b.md', 'docs/%0d%0a.md', 'docs/plain.md', 'docs/a"\r\nX: 1.md']
    const dir = mkdtempSync(join(tmpdir(), 'kb-sync-wire-'))
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }))
    const server = await startRecordingServer()
    cleanup.push(() => server.close())
    const client = new ServiceClient({ baseUrl: server.url, privateKey: 'sk-wire-test' })
    cleanup.push(() => client.close())
    const documents = names.map((name, i) => {
      const path = join(dir, `f${i}`)
      writeFileSync(path, name)
      return { name, path }
    })
    await client.uploadDocuments(TARGET, documents)
    const received = server.requests[0].parts!.map((part) => part.filename)
    expect(received).toEqual(names.map(wireFilename))
    // … which is why these two are one document to the service.
    expect(received[0]).toBe(received[1])
  })
})

describe('distinctDocumentNames', () => {
  it('keeps the first of names that arrive as one, skips the other naming both', () => {
    const { kept, skipped } = distinctDocumentNames([
      { name: 'docs/a%22b.md' },
      { name: 'docs/a"b.md' },
      { name: 'docs/x%0Dy.md' },
      { name: 'docs/x%0dy.md' },
      { name: 'docs/ok.md' },
    ])
    expect(kept.map((f) => f.name)).toEqual(['docs/a"b.md', 'docs/ok.md', 'docs/x%0Dy.md'])
    expect(skipped.map((s) => [s.name, s.reason])).toEqual([
      ['docs/a%22b.md', 'name-conflict'],
      ['docs/x%0dy.md', 'name-conflict'],
    ])
    expect(skipped[0].detail).toContain('same name as docs/a"b.md')
  })

  it('never sends a name with a control character', () => {
    const { kept, skipped } = distinctDocumentNames([
      { name: 'new\nline.md' },
      { name: 'tab\there.md' },
      { name: 'del\u007f.md' },
      { name: 'fine.md' },
    ])
    expect(kept.map((f) => f.name)).toEqual(['fine.md'])
    expect(skipped.map((s) => s.reason)).toEqual(['bad-name', 'bad-name', 'bad-name'])
  })

  it('never sends a name with a backslash, which the multipart filename would turn into "/"', () => {
    const { kept, skipped } = distinctDocumentNames([{ name: 'docs/back\\slash.md' }, { name: 'docs/b.md' }])
    expect(kept.map((f) => f.name)).toEqual(['docs/b.md'])
    expect(skipped).toEqual([
      expect.objectContaining({
        name: 'docs/back\\slash.md',
        reason: 'bad-name',
        detail: expect.stringContaining('backslash'),
      }),
    ])
  })
})

describe('selectFiles with colliding names', () => {
  it('selects one of two files that would be one document and skips the other with the reason', async () => {
    const fx = makeFixture()
    cleanup.push(() => fx.remove())
    fx.file('docs/a"b.md', 'quote')
    fx.file('docs/a%22b.md', 'percent')
    fx.file('docs/c.md')
    const { files, skipped } = await fx.select(['docs/**'])
    expect(files.map((f) => f.name)).toEqual(['docs/a"b.md', 'docs/c.md'])
    expect(skipped).toEqual([
      {
        kind: 'document',
        name: 'docs/a%22b.md',
        reason: 'name-conflict',
        detail: expect.stringContaining('same name as docs/a"b.md'),
      },
    ])
  })
})

describe('selectableNameProblem', () => {
  it('refuses every name a selection skips as a bad name, and none it keeps', () => {
    const names = [
      'docs/a.md',
      'docs/a"b.md',
      '__proto__',
      'docs/a\nb.md',
      'docs\\a.md',
      'docs/\u0000.md',
      'a\u007fb',
    ]
    const { kept, skipped } = distinctDocumentNames(names.map((name) => ({ name })))
    for (const { name } of kept) expect(selectableNameProblem(name)).toBeUndefined()
    const bad = skipped.filter((item) => item.reason === 'bad-name').map((item) => item.name)
    expect(bad).toHaveLength(4)
    for (const name of bad) expect(selectableNameProblem(name)).toBeDefined()
  })

  it.each(['/abs.md', '../up.md', '..', '.', 'docs/', 'docs/\ud800.md'])(
    'refuses %j, which no selection (a path inside the workspace, UTF-8) can name',
    (name) => expect(selectableNameProblem(name)).toBeDefined(),
  )
})
