import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { createHash } from 'node:crypto'
import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { EmulatorStore, type ReceivedDocument } from '../../src/emulator/store.js'

const kb = { flowId: 'f', orgId: 'o', nodeId: 'n' }
let dataDir: string

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'emulator-store-'))
})
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true })
})

async function received(store: EmulatorStore, name: string, content: string): Promise<ReceivedDocument> {
  await mkdir(store.tempDir, { recursive: true })
  const tempPath = path.join(store.tempDir, `${createHash('sha256').update(name).digest('hex')}.part`)
  await writeFile(tempPath, content)
  const sha256 = createHash('sha256').update(content).digest('hex')
  return { name, size: Buffer.byteLength(content), sha256, contentType: 'text/markdown', tempPath }
}

describe('the store on disk', () => {
  it('a store reopened on the same directory replays every change: contents, counts, URLs', async () => {
    const first = new EmulatorStore(dataDir)
    await first.changeDocuments(kb, 'create', [
      await received(first, 'a.md', 'one'),
      await received(first, 'b.md', 'b'),
    ])
    await first.changeDocuments(kb, 'update', [await received(first, 'a.md', 'two')])
    await first.changeUrls(kb, 'create', ['https://a.example/'])
    expect(await first.changeDocuments(kb, 'create', [await received(first, 'b.md', 'again')])).toEqual({
      ok: false,
      reason: 'exists',
      names: ['b.md'],
    })

    const second = new EmulatorStore(dataDir)
    expect(
      second.documents(kb).map(({ name, size, created, updated }) => ({ name, size, created, updated })),
    ).toEqual([
      { name: 'a.md', size: 3, created: 1, updated: 1 },
      { name: 'b.md', size: 1, created: 1, updated: 0 },
    ])
    expect(await readFile(second.contentPath(kb, 'a.md'), 'utf8')).toBe('two')
    expect(second.urls(kb)).toEqual(['https://a.example/'])
    expect(second.nodeIds('f', 'o')).toEqual(['n'])
  })

  it('a journal line cut short (a crash mid-write, never answered) is ignored; the lines before it count', async () => {
    const first = new EmulatorStore(dataDir)
    await first.changeDocuments(kb, 'create', [await received(first, 'kept.md', 'kept')])
    const journal = path.join(dataDir, 'kb', 'f', 'o', 'n', 'index.jsonl')
    await appendFile(journal, '{"documents":[{"name":"torn.md","si')

    const second = new EmulatorStore(dataDir)
    expect(second.documents(kb).map((document) => document.name)).toEqual(['kept.md'])
    expect((await second.changeDocuments(kb, 'create', [await received(second, 'torn.md', 'x')])).ok).toBe(
      true,
    )
  })
})
