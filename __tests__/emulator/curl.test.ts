// curl, a client that shares no code with this project, sends the contract's own shapes to the
// emulator: proof that the emulator accepts any client, not only ours.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { PRIVATE_KEY, PUBLIC_KEY } from '../helpers/keys.js'

const run = promisify(execFile)

let emulator: Emulator
let dir: string
const files: Record<string, string> = {
  'a.md': '# Alpha\n\nThe alpha release ships the sync command.\n',
  'b.txt': 'Bravo notes: the bravo release adds webhooks.\n',
}
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

beforeAll(async () => {
  emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY })
  dir = await mkdtemp(path.join(os.tmpdir(), 'emulator-curl-'))
  for (const [name, content] of Object.entries(files)) await writeFile(path.join(dir, name), content)
})
afterAll(async () => {
  await emulator.close()
  await rm(dir, { recursive: true, force: true })
})

/** Runs curl and returns the status and the parsed JSON body. */
async function curl(args: string[]): Promise<{ status: number; body: unknown }> {
  const { stdout } = await run(
    'curl',
    ['--silent', '--show-error', '--write-out', '\n%{http_code}', ...args],
    {
      cwd: dir,
    },
  )
  const cut = stdout.lastIndexOf('\n')
  return { status: Number(stdout.slice(cut + 1)), body: JSON.parse(stdout.slice(0, cut)) as unknown }
}

const bearer = (key: string) => ['-H', `Authorization: Bearer ${key}`]

describe('curl against the emulator', () => {
  it('uploads documents: -F files=@a -F files=@b', async () => {
    const reply = await curl([
      ...bearer(PRIVATE_KEY),
      '-F',
      'files=@a.md',
      '-F',
      'files=@b.txt',
      `${emulator.url}/indexing/v0/documents/flow-c/org-c/kb-1`,
    ])
    expect(reply).toEqual({ status: 200, body: { uploaded: ['a.md', 'b.txt'] } })
    expect(emulator.documents('flow-c', 'org-c', 'kb-1')).toEqual([
      { name: 'a.md', size: files['a.md'].length, sha256: sha256(files['a.md']), created: 1, updated: 0 },
      { name: 'b.txt', size: files['b.txt'].length, sha256: sha256(files['b.txt']), created: 1, updated: 0 },
    ])
  })

  it('updates documents: -X PATCH -F file1=@a -F file2=@b', async () => {
    await writeFile(
      path.join(dir, 'a.md'),
      '# Alpha\n\nThe alpha release ships the sync and serve commands.\n',
    )
    const reply = await curl([
      ...bearer(PRIVATE_KEY),
      '-X',
      'PATCH',
      '-F',
      'file1=@a.md',
      '-F',
      'file2=@b.txt',
      `${emulator.url}/indexing/v0/documents/flow-c/org-c/kb-1`,
    ])
    expect(reply).toEqual({ status: 200, body: { updated: ['a.md', 'b.txt'] } })
    const [alpha, bravo] = emulator.documents('flow-c', 'org-c', 'kb-1')
    expect(alpha).toMatchObject({
      name: 'a.md',
      updated: 1,
      sha256: sha256('# Alpha\n\nThe alpha release ships the sync and serve commands.\n'),
    })
    expect(bravo).toMatchObject({ name: 'b.txt', updated: 1, sha256: sha256(files['b.txt']) })
  })

  it('uploads and updates URLs: a JSON array', async () => {
    const target = `${emulator.url}/indexing/v0/urls/flow-c/org-c/urlemb-0`
    const json = ['-H', 'Content-Type: application/json']
    const body = '["https://docs.example.com/", "https://docs.example.com/faq"]'
    expect(await curl([...bearer(PRIVATE_KEY), ...json, '--data', body, target])).toEqual({
      status: 200,
      body: { uploaded: ['https://docs.example.com/', 'https://docs.example.com/faq'] },
    })
    expect(
      await curl([...bearer(PRIVATE_KEY), ...json, '-X', 'PATCH', '--data', body, target]),
    ).toMatchObject({
      status: 200,
    })
    expect(emulator.urls('flow-c', 'org-c', 'urlemb-0')).toEqual([
      'https://docs.example.com/',
      'https://docs.example.com/faq',
    ])
  })

  it('runs the flow: a JSON object, with the public key', async () => {
    const reply = await curl([
      ...bearer(PUBLIC_KEY),
      '-H',
      'Content-Type: application/json',
      '--data',
      '{"in-0": "Which release adds webhooks?"}',
      `${emulator.url}/inference/v0/run/org-c/flow-c`,
    ])
    expect(reply.status).toBe(200)
    const output = (reply.body as { outputs: Record<string, string> }).outputs['out-0']
    expect(output.startsWith('[1] b.txt\nBravo notes: the bravo release adds webhooks.')).toBe(true)
    expect(output).toContain('https://docs.example.com/faq')
  })

  it('gets the documented errors: wrong key kind, wrong method', async () => {
    const documents = `${emulator.url}/indexing/v0/documents/flow-c/org-c/kb-1`
    expect((await curl([...bearer(PUBLIC_KEY), '-F', 'files=@a.md', documents])).status).toBe(403)
    expect((await curl([...bearer(PRIVATE_KEY), documents])).status).toBe(405)
    expect((await curl([...bearer(PRIVATE_KEY), '-F', 'files=@a.md', documents])).status).toBe(409)
  })
})
