import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { appendFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import FormData from 'form-data'
import { FileChangedError, openSelectedFile, readSelectedFile } from '../../src/documents/read-guard.js'
import { makeFixture, type Fixture } from './files-fixture.js'

let fx: Fixture
beforeEach(() => {
  fx = makeFixture()
})
afterEach(() => fx.remove())

async function selectOne(name: string, content: string | Buffer) {
  fx.file(name, content)
  const { files } = await fx.select([name])
  expect(files).toHaveLength(1)
  return files[0]
}

describe('reading a selected file', () => {
  it('yields exactly the selected bytes, also across chunks', async () => {
    const content = Buffer.alloc(200_000, 'abc')
    const file = await selectOne('big.bin', content)
    expect((await readSelectedFile(file)).equals(content)).toBe(true)
    expect(await readSelectedFile(await selectOne('empty.md', ''))).toEqual(Buffer.alloc(0))
  })

  it('streams as a form-data part of known length', async () => {
    const file = await selectOne('docs/a.md', 'hello world')
    const form = new FormData()
    form.append('files', await openSelectedFile(file), { filepath: file.name, knownLength: file.size })
    const length = form.getLengthSync()
    const chunks: Buffer[] = []
    await new Promise<void>((resolve, reject) => {
      form.on('data', (chunk) => chunks.push(Buffer.from(chunk)))
      form.on('end', resolve)
      form.on('error', reject)
      form.resume()
    })
    const body = Buffer.concat(chunks)
    expect(body.length).toBe(length)
    expect(body.toString()).toContain(
      'filename="docs/a.md"\r\nContent-Type: text/markdown\r\n\r\nhello world\r\n',
    )
  })

  it('refuses a file whose size changed since selection', async () => {
    const file = await selectOne('a.md', 'hello')
    appendFileSync(join(fx.ws, 'a.md'), ' world')
    await expect(readSelectedFile(file)).rejects.toThrow(FileChangedError)
    await expect(readSelectedFile(file)).rejects.toThrow(
      /a\.md changed since it was selected \(5 bytes, now 11/,
    )
  })

  it('stops with an error when the file grows or shrinks after opening', async () => {
    const file = await selectOne('a.md', 'hello')
    const grown = await openSelectedFile(file)
    appendFileSync(join(fx.ws, 'a.md'), '!')
    await expect(readAll(grown)).rejects.toThrow(/grew/)

    writeFileSync(join(fx.ws, 'a.md'), 'hello')
    const shrunk = await openSelectedFile(file)
    truncateSync(join(fx.ws, 'a.md'), 2)
    await expect(readAll(shrunk)).rejects.toThrow(/shrank/)
  })

  it('refuses a file replaced by a FIFO or a link, without hanging', async () => {
    const file = await selectOne('a.md', 'hello')
    rmSync(join(fx.ws, 'a.md'))
    execFileSync('mkfifo', [join(fx.ws, 'a.md')])
    await expect(readSelectedFile(file)).rejects.toThrow(/not a regular file/)

    rmSync(join(fx.ws, 'a.md'))
    writeFileSync(join(fx.base, 'other.md'), 'HELLO')
    symlinkSync(join(fx.base, 'other.md'), join(fx.ws, 'a.md'))
    await expect(readSelectedFile(file)).rejects.toThrow(/could not be opened.*ELOOP/)
  })
})

async function readAll(stream: AsyncIterable<unknown>): Promise<void> {
  for await (const chunk of stream) void chunk
}
