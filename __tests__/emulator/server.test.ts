// The emulator over real HTTP: routes, auth, every validation rule, the store's all-or-nothing rules,
// persistence and the request log.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { createHash } from 'node:crypto'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { PRIVATE_KEY, PUBLIC_KEY } from '../helpers/keys.js'

const BASE = '/indexing/v0'

let emulator: Emulator
let kbCounter = 0
/** A fresh knowledge base per test, so tests do not see each other's documents. */
const freshKb = () => ({ flow: 'flow1', org: 'org-a', node: `node-${++kbCounter}` })
type Kb = ReturnType<typeof freshKb>
const docsPath = (kb: Kb) => `${BASE}/documents/${kb.flow}/${kb.org}/${kb.node}`
const urlsPath = (kb: Kb) => `${BASE}/urls/${kb.flow}/${kb.org}/${kb.node}`

beforeAll(async () => {
  emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY })
})
afterAll(async () => {
  await emulator.close()
})

interface Reply {
  status: number
  headers: Headers
  body: unknown
}

async function call(
  method: string,
  pathname: string,
  init: { key?: string | null; body?: string | FormData; contentType?: string; base?: string } = {},
): Promise<Reply> {
  const headers: Record<string, string> = {}
  const key = init.key === undefined ? PRIVATE_KEY : init.key
  if (key !== null) headers.authorization = `Bearer ${key}`
  if (init.contentType) headers['content-type'] = init.contentType
  const response = await fetch(`${init.base ?? emulator.url}${pathname}`, {
    method,
    headers,
    body: init.body,
  })
  const text = await response.text()
  return {
    status: response.status,
    headers: response.headers,
    body: text ? (JSON.parse(text) as unknown) : undefined,
  }
}

const json = (method: string, pathname: string, value: unknown, key?: string | null) =>
  call(method, pathname, { key, body: JSON.stringify(value), contentType: 'application/json' })

function form(field: string | ((index: number) => string), files: [string, string][]): FormData {
  const data = new FormData()
  files.forEach(([name, content], index) =>
    data.append(typeof field === 'string' ? field : field(index), new Blob([content]), name),
  )
  return data
}
const upload = (kb: Kb, files: [string, string][], key?: string) =>
  call('POST', docsPath(kb), { key, body: form('files', files) })
const update = (kb: Kb, files: [string, string][], key?: string) =>
  call('PATCH', docsPath(kb), { key, body: form((i) => `file${i + 1}`, files) })

interface RawPart {
  field: string
  filename?: string
  content: string
}
/** A hand-written multipart body, for shapes FormData cannot make (no filename, plain fields). */
function rawMultipart(parts: RawPart[]): { body: string; contentType: string } {
  const boundary = '----emulator-test-boundary'
  const body =
    parts
      .map((part) => {
        const filename = part.filename === undefined ? '' : `; filename="${part.filename}"`
        const type = part.filename === undefined ? '' : '\r\nContent-Type: text/plain'
        return `--${boundary}\r\nContent-Disposition: form-data; name="${part.field}"${filename}${type}\r\n\r\n${part.content}\r\n`
      })
      .join('') + `--${boundary}--\r\n`
  return { body, contentType: `multipart/form-data; boundary=${boundary}` }
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')
const details = (reply: Reply) =>
  (reply.body as { detail: { loc: unknown[]; msg: string; type: string }[] }).detail

describe('routes', () => {
  it.each([
    ['GET', '/'],
    ['POST', '/indexing/v0/urls/f/o'],
    ['POST', '/indexing/v0/urls/f/o/n/extra'],
    ['POST', '/indexing/v0/urls/f/o/n/'],
    ['POST', '/indexing/v1/urls/f/o/n'],
    ['POST', '/indexing/v0/files/f/o/n'],
    ['POST', '/inference/v0/run/o'],
    ['POST', '/inference/v0/run/o/f/n'],
    ['POST', '/indexing/v0/urls/%2E%2E/o/n'],
    ['POST', '/indexing/v0/urls/a%2Fb/o/n'],
    ['POST', '/indexing/v0/urls/f/o/%E0%A4%A'],
    ['POST', `/indexing/v0/urls/${'x'.repeat(129)}/o/n`],
  ])('%s %s is 404', async (method, pathname) => {
    const reply =
      method === 'GET' ? await call(method, pathname) : await json(method, pathname, ['https://example.com'])
    expect(reply.status).toBe(404)
    expect(reply.body).toEqual({ detail: 'Not Found' })
  })

  it.each([
    ['GET', `${BASE}/urls/f/o/n`, 'POST, PATCH'],
    ['PUT', `${BASE}/documents/f/o/n`, 'POST, PATCH'],
    ['DELETE', `${BASE}/urls/f/o/n`, 'POST, PATCH'],
    ['PATCH', '/inference/v0/run/o/f', 'POST'],
    ['GET', '/inference/v0/run/o/f', 'POST'],
  ])('%s %s is 405 with Allow', async (method, pathname, allow) => {
    const reply = await call(method, pathname)
    expect(reply.status).toBe(405)
    expect(reply.headers.get('allow')).toBe(allow)
  })

  it('decodes percent-encoded ids that are valid', async () => {
    const reply = await json('POST', `${BASE}/urls/fl%6Fw/o~rg/n.o_d-e`, ['https://example.com/a'])
    expect(reply.status).toBe(200)
    expect(emulator.urls('flow', 'o~rg', 'n.o_d-e')).toEqual(['https://example.com/a'])
  })
})

describe('auth', () => {
  const kb = { flow: 'f', org: 'o', node: 'auth' }

  it.each([
    ['POST', urlsPath(kb)],
    ['PATCH', docsPath(kb)],
    ['POST', '/inference/v0/run/o/f'],
  ])('%s %s without a bearer is 401', async (method, pathname) => {
    const reply = await call(method, pathname, { key: null, body: '[]', contentType: 'application/json' })
    expect(reply.status).toBe(401)
    expect(reply.headers.get('www-authenticate')).toBe('Bearer')
    expect(reply.body).toEqual({ detail: expect.stringContaining('Not authenticated') })
  })

  it('a non-Bearer scheme is 401 and logged as no key', async () => {
    const response = await fetch(`${emulator.url}${urlsPath(kb)}`, {
      method: 'POST',
      headers: { authorization: `Basic ${PRIVATE_KEY}`, 'content-type': 'application/json' },
      body: '["https://example.com"]',
    })
    expect(response.status).toBe(401)
    expect(emulator.requests().at(-1)).toMatchObject({ status: 401, key: 'none', applied: false })
  })

  it('an unknown key is 401 and the detail echoes it (so clients must scrub it)', async () => {
    const reply = await json('POST', urlsPath(kb), ['https://example.com'], 'sk-who-knows')
    expect(reply.status).toBe(401)
    expect(reply.body).toEqual({ detail: 'Invalid API key "sk-who-knows"' })
    expect(emulator.requests().at(-1)).toMatchObject({ key: 'unknown', status: 401 })
  })

  it('the public key on indexing is 403 naming the key', async () => {
    const reply = await json('POST', urlsPath(kb), ['https://example.com'], PUBLIC_KEY)
    expect(reply.status).toBe(403)
    expect((reply.body as { detail: string }).detail).toContain(PUBLIC_KEY)
    const documents = await upload(kb, [['a.md', 'x']], PUBLIC_KEY)
    expect(documents.status).toBe(403)
    expect(emulator.documents(kb.flow, kb.org, kb.node)).toEqual([])
  })

  it('the private key on a run is 403', async () => {
    const reply = await json('POST', '/inference/v0/run/o/f', { 'in-0': 'hi' }, PRIVATE_KEY)
    expect(reply.status).toBe(403)
    expect((reply.body as { detail: string }).detail).toContain(PRIVATE_KEY)
    expect(emulator.requests().at(-1)).toMatchObject({ key: 'private', status: 403 })
  })
})

describe('validation (422, FastAPI detail)', () => {
  it.each([
    ['no content type', undefined],
    ['text/plain', 'text/plain'],
    ['multipart', 'multipart/form-data; boundary=x'],
  ])('a URL body with %s is refused', async (_label, contentType) => {
    const reply = await call('POST', urlsPath(freshKb()), { body: '["https://example.com"]', contentType })
    expect(reply.status).toBe(422)
    expect(details(reply)).toEqual([
      {
        loc: ['header', 'content-type'],
        msg: expect.stringContaining('application/json'),
        type: 'content_type',
      },
    ])
  })

  it('application/json with a charset is accepted', async () => {
    const reply = await call('POST', urlsPath(freshKb()), {
      body: '["https://example.com"]',
      contentType: 'Application/JSON; charset=utf-8',
    })
    expect(reply.status).toBe(200)
  })

  it.each(['', '[', '{"in-0": }', 'nope'])('malformed JSON %j is refused', async (body) => {
    for (const pathname of [urlsPath(freshKb()), '/inference/v0/run/o/f']) {
      const key = pathname.startsWith('/inference') ? PUBLIC_KEY : PRIVATE_KEY
      const reply = await call('POST', pathname, { key, body, contentType: 'application/json' })
      expect(reply.status).toBe(422)
      expect(details(reply)).toEqual([
        { loc: ['body'], msg: expect.stringContaining('JSON decode error'), type: 'json_invalid' },
      ])
    }
  })

  it.each([
    [{ url: 'https://example.com' }, [{ loc: ['body'], type: 'list_type' }]],
    ['https://example.com', [{ loc: ['body'], type: 'list_type' }]],
    [[], [{ loc: ['body'], type: 'too_short' }]],
    [[42], [{ loc: ['body', 0], type: 'string_type' }]],
    [['https://ok.example', 'ftp://example.com'], [{ loc: ['body', 1], type: 'url_parsing' }]],
    [['not a url'], [{ loc: ['body', 0], type: 'url_parsing' }]],
    [
      ['javascript:alert(1)', null],
      [
        { loc: ['body', 0], type: 'url_parsing' },
        { loc: ['body', 1], type: 'string_type' },
      ],
    ],
    [['https://a.example', 'https://a.example'], [{ loc: ['body', 1], type: 'value_error' }]],
  ])('URL body %j is refused', async (body, expected) => {
    const kb = freshKb()
    for (const method of ['POST', 'PATCH']) {
      const reply = await json(method, urlsPath(kb), body)
      expect(reply.status).toBe(422)
      expect(details(reply)).toEqual(expected.map((issue) => ({ ...issue, msg: expect.any(String) })))
    }
    expect(emulator.urls(kb.flow, kb.org, kb.node)).toEqual([])
  })

  it.each([
    [['in-0'], [{ loc: ['body'], type: 'dict_type' }]],
    ['question', [{ loc: ['body'], type: 'dict_type' }]],
    [null, [{ loc: ['body'], type: 'dict_type' }]],
    [{ 'in-0': 1, 'in-1': 'ok', 'in-2': null }, [{ loc: ['body', 'in-0'] }, { loc: ['body', 'in-2'] }]],
  ])('run body %j is refused', async (body, expected) => {
    const reply = await json('POST', '/inference/v0/run/o/f', body, PUBLIC_KEY)
    expect(reply.status).toBe(422)
    expect(details(reply)).toEqual(
      expected.map((issue) => ({ type: 'string_type', ...issue, msg: expect.any(String) })),
    )
  })

  it.each([
    ['POST', 'application/json'],
    ['PATCH', 'text/plain'],
    ['POST', 'multipart/form-data'],
    ['POST', undefined],
  ])('%s documents with content type %s is refused', async (method, contentType) => {
    const reply = await call(method, docsPath(freshKb()), { body: 'x', contentType })
    expect(reply.status).toBe(422)
    expect(details(reply)).toEqual([
      {
        loc: ['header', 'content-type'],
        msg: expect.stringContaining('multipart/form-data'),
        type: 'content_type',
      },
    ])
  })

  it('a multipart body with no part is refused', async () => {
    const raw = rawMultipart([])
    const reply = await call('POST', docsPath(freshKb()), { body: raw.body, contentType: raw.contentType })
    expect(reply.status).toBe(422)
    expect(details(reply)).toEqual([
      { loc: ['body', 'files'], msg: expect.stringContaining('no file part'), type: 'missing' },
    ])
  })

  it('a broken multipart body is refused', async () => {
    const reply = await call('POST', docsPath(freshKb()), {
      body: '--b\r\nContent-Disposition: form-data; name="files"; filename="a"\r\n\r\nno end',
      contentType: 'multipart/form-data; boundary=b',
    })
    expect(reply.status).toBe(422)
    expect(details(reply)).toEqual([
      { loc: ['body'], msg: expect.stringContaining('Malformed multipart'), type: 'value_error' },
    ])
  })

  it('a POST part not named "files" is refused and nothing is stored', async () => {
    const kb = freshKb()
    const data = new FormData()
    data.append('files', new Blob(['a']), 'a.md')
    data.append('file', new Blob(['b']), 'b.md')
    const reply = await call('POST', docsPath(kb), { body: data })
    expect(reply.status).toBe(422)
    expect(details(reply)).toEqual([
      { loc: ['body', 'file'], msg: expect.stringContaining('must be named "files"'), type: 'value_error' },
    ])
    expect(emulator.documents(kb.flow, kb.org, kb.node)).toEqual([])
  })

  it.each([[['file1', 'file3']], [['file2', 'file1']], [['files', 'files']], [['file0']]])(
    'PATCH parts named %j are refused',
    async (fields) => {
      const kb = freshKb()
      await upload(kb, [
        ['a.md', 'a'],
        ['b.md', 'b'],
      ])
      const data = new FormData()
      fields.forEach((field, index) => data.append(field, new Blob(['new']), index === 0 ? 'a.md' : 'b.md'))
      const reply = await call('PATCH', docsPath(kb), { body: data })
      expect(reply.status).toBe(422)
      expect(details(reply)[0]).toMatchObject({
        msg: expect.stringContaining('file1..fileN'),
        type: 'value_error',
      })
      expect(emulator.documents(kb.flow, kb.org, kb.node).map((d) => d.updated)).toEqual([0, 0])
    },
  )

  it('a part without a filename is refused', async () => {
    const raw = rawMultipart([
      { field: 'files', filename: 'a.md', content: 'a' },
      { field: 'files', content: 'just a field' },
    ])
    const kb = freshKb()
    const reply = await call('POST', docsPath(kb), { body: raw.body, contentType: raw.contentType })
    expect(reply.status).toBe(422)
    expect(details(reply)).toEqual([
      { loc: ['body', 'files'], msg: expect.stringContaining('no filename'), type: 'value_error' },
    ])
    expect(emulator.documents(kb.flow, kb.org, kb.node)).toEqual([])
  })

  it('an empty filename counts as none', async () => {
    const raw = rawMultipart([{ field: 'file1', filename: '', content: 'a' }])
    const reply = await call('PATCH', docsPath(freshKb()), { body: raw.body, contentType: raw.contentType })
    expect(reply.status).toBe(422)
    expect(details(reply)[0].msg).toContain('no filename')
  })

  it('duplicate names in one request are refused', async () => {
    const kb = freshKb()
    const reply = await upload(kb, [
      ['a.md', '1'],
      ['b.md', '2'],
      ['a.md', '3'],
    ])
    expect(reply.status).toBe(422)
    expect(details(reply)).toEqual([
      { loc: ['body', 'files'], msg: 'Duplicate document name "a.md" in one request', type: 'value_error' },
    ])
    expect(emulator.documents(kb.flow, kb.org, kb.node)).toEqual([])
  })
})

describe('rejectDocument', () => {
  it('answers 422 with the message for a request holding that name; nothing is stored', async () => {
    const strict = await startEmulator({
      privateKey: PRIVATE_KEY,
      publicKey: PUBLIC_KEY,
      rejectDocument: (name) => (name === 'bad.pdf' ? 'Unsupported file: bad.pdf' : undefined),
    })
    try {
      const data = form('files', [
        ['good.md', 'g'],
        ['bad.pdf', 'b'],
      ])
      const response = await fetch(`${strict.url}${BASE}/documents/f/o/n`, {
        method: 'POST',
        headers: { authorization: `Bearer ${PRIVATE_KEY}` },
        body: data,
      })
      expect(response.status).toBe(422)
      expect(await response.json()).toEqual({
        detail: [{ loc: ['body', 'files'], msg: 'Unsupported file: bad.pdf', type: 'value_error' }],
      })
      expect(strict.documents('f', 'o', 'n')).toEqual([])
      const alone = await fetch(`${strict.url}${BASE}/documents/f/o/n`, {
        method: 'POST',
        headers: { authorization: `Bearer ${PRIVATE_KEY}` },
        body: form('files', [['good.md', 'g']]),
      })
      expect(alone.status).toBe(200)
    } finally {
      await strict.close()
    }
  })
})

describe('store', () => {
  it('stores uploaded documents with size, sha256 and counts; answers the names', async () => {
    const kb = freshKb()
    const reply = await upload(kb, [
      ['docs/b.md', 'bravo'],
      ['docs/a.md', 'alpha'],
    ])
    expect(reply).toMatchObject({ status: 200, body: { uploaded: ['docs/b.md', 'docs/a.md'] } })
    expect(emulator.documents(kb.flow, kb.org, kb.node)).toEqual([
      { name: 'docs/a.md', size: 5, sha256: sha256('alpha'), created: 1, updated: 0 },
      { name: 'docs/b.md', size: 5, sha256: sha256('bravo'), created: 1, updated: 0 },
    ])
    expect(emulator.requests().at(-1)).toMatchObject({
      method: 'POST',
      path: docsPath(kb),
      status: 200,
      key: 'private',
      applied: true,
      documents: [
        {
          field: 'files',
          filename: 'docs/b.md',
          size: 5,
          sha256: sha256('bravo'),
          contentType: expect.any(String),
        },
        {
          field: 'files',
          filename: 'docs/a.md',
          size: 5,
          sha256: sha256('alpha'),
          contentType: expect.any(String),
        },
      ],
    })
  })

  it('keeps names with newlines, quotes, slashes and non-ASCII exactly', async () => {
    const kb = freshKb()
    const names = [
      'line\nbreak.md',
      'quote"d.md',
      'crlf\r\n.md',
      'ünïcødé/日本.md',
      '../../escape.md',
      '%22.md',
    ]
    const reply = await upload(
      kb,
      names.map((name) => [name, name]),
    )
    expect(reply.status).toBe(200)
    const stored = emulator.documents(kb.flow, kb.org, kb.node)
    // %22 is how a browser writes a quote: a name holding those three characters cannot survive.
    const expected = names.map((name) => (name === '%22.md' ? '".md' : name))
    expect(stored.map((d) => d.name).sort()).toEqual([...expected].sort())
    for (const document of stored) expect(document.size).toBeGreaterThan(0)
  })

  it('POST of an existing name is 409 naming it, and nothing of the request is applied', async () => {
    const kb = freshKb()
    await upload(kb, [['a.md', 'one']])
    const reply = await upload(kb, [
      ['new.md', 'new'],
      ['a.md', 'two'],
    ])
    expect(reply.status).toBe(409)
    expect((reply.body as { detail: string }).detail).toContain('"a.md"')
    expect((reply.body as { detail: string }).detail).not.toContain('new.md')
    expect(emulator.documents(kb.flow, kb.org, kb.node)).toEqual([
      { name: 'a.md', size: 3, sha256: sha256('one'), created: 1, updated: 0 },
    ])
    expect(emulator.requests().at(-1)).toMatchObject({ status: 409, applied: false })
  })

  it('PATCH replaces content and counts updates; PATCH of a missing name is 404 and applies nothing', async () => {
    const kb = freshKb()
    await upload(kb, [
      ['a.md', 'one'],
      ['b.md', 'bee'],
    ])
    const replaced = await update(kb, [['a.md', 'second version']])
    expect(replaced).toMatchObject({ status: 200, body: { updated: ['a.md'] } })
    const missing = await update(kb, [
      ['b.md', 'changed'],
      ['c.md', 'x'],
      ['d.md', 'y'],
    ])
    expect(missing.status).toBe(404)
    expect((missing.body as { detail: string }).detail).toMatch(/"c\.md", "d\.md"$/)
    expect(emulator.documents(kb.flow, kb.org, kb.node)).toEqual([
      { name: 'a.md', size: 14, sha256: sha256('second version'), created: 1, updated: 1 },
      { name: 'b.md', size: 3, sha256: sha256('bee'), created: 1, updated: 0 },
    ])
  })

  it('URLs: stored by value, POST of an existing one is 409, PATCH of a missing one is 404, all or nothing', async () => {
    const kb = freshKb()
    expect(await json('POST', urlsPath(kb), ['https://b.example/x', 'http://a.example/'])).toMatchObject({
      status: 200,
      body: { uploaded: ['https://b.example/x', 'http://a.example/'] },
    })
    const again = await json('POST', urlsPath(kb), ['https://c.example', 'https://b.example/x'])
    expect(again.status).toBe(409)
    expect((again.body as { detail: string }).detail).toContain('"https://b.example/x"')
    const missing = await json('PATCH', urlsPath(kb), ['http://a.example/', 'https://d.example'])
    expect(missing.status).toBe(404)
    expect((missing.body as { detail: string }).detail).toContain('"https://d.example"')
    expect(await json('PATCH', urlsPath(kb), ['http://a.example/'])).toMatchObject({
      status: 200,
      body: { updated: ['http://a.example/'] },
    })
    expect(emulator.urls(kb.flow, kb.org, kb.node)).toEqual(['http://a.example/', 'https://b.example/x'])
    expect(emulator.requests().at(-1)).toMatchObject({ urls: ['http://a.example/'], applied: true })
  })

  it('knowledge bases are separate per (flow, org, node)', async () => {
    const kb = freshKb()
    await upload(kb, [['a.md', 'x']])
    expect(emulator.documents(kb.flow, kb.org, `${kb.node}-other`)).toEqual([])
    expect(emulator.documents(kb.flow, 'other-org', kb.node)).toEqual([])
    expect((await upload({ ...kb, flow: 'flow2' }, [['a.md', 'x']])).status).toBe(200)
  })
})

describe('persistence and the request log', () => {
  it('a second emulator on the same data directory sees the data; close() keeps a given directory', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'emulator-persist-'))
    try {
      const first = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY, dataDir })
      const auth = { authorization: `Bearer ${PRIVATE_KEY}` }
      await fetch(`${first.url}${BASE}/documents/f/o/n`, {
        method: 'POST',
        headers: auth,
        body: form('files', [['kept.md', 'kept content']]),
      })
      await fetch(`${first.url}${BASE}/urls/f/o/n`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: '["https://kept.example"]',
      })
      await first.close()

      const second = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY, dataDir })
      try {
        expect(second.dataDir).toBe(dataDir)
        expect(second.documents('f', 'o', 'n')).toEqual([
          { name: 'kept.md', size: 12, sha256: sha256('kept content'), created: 1, updated: 0 },
        ])
        expect(second.urls('f', 'o', 'n')).toEqual(['https://kept.example'])
        const conflict = await fetch(`${second.url}${BASE}/documents/f/o/n`, {
          method: 'POST',
          headers: auth,
          body: form('files', [['kept.md', 'again']]),
        })
        expect(conflict.status).toBe(409)
        const lines = (await readFile(path.join(dataDir, 'requests.jsonl'), 'utf8')).trim().split('\n')
        expect(lines.map((line) => (JSON.parse(line) as { status: number }).status)).toEqual([200, 200, 409])
      } finally {
        await second.close()
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })

  it('a temp data directory is removed by close()', async () => {
    const temporary = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY })
    await temporary.close()
    await expect(readFile(path.join(temporary.dataDir, 'requests.jsonl'))).rejects.toThrow()
  })

  it('refuses options it cannot honour', async () => {
    await expect(startEmulator({ privateKey: '', publicKey: 'p' })).rejects.toThrow('privateKey')
    await expect(startEmulator({ privateKey: 'same', publicKey: 'same' })).rejects.toThrow('differ')
    await expect(startEmulator({ privateKey: 'a', publicKey: 'b', faultRate: 2 })).rejects.toThrow(
      'faultRate',
    )
  })

  it('refuses bad options before it creates any folder; a port in use leaves a given folder as it is', async () => {
    const parent = await mkdtemp(path.join(os.tmpdir(), 'kb-sync-test-'))
    const blocker = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY })
    try {
      const never = path.join(parent, 'never')
      for (const bad of [{ faultRate: 2 }, { seed: Number.NaN }, { latencyMs: -1 }])
        await expect(
          startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY, dataDir: never, ...bad }),
        ).rejects.toThrow(RangeError)
      expect(await readdir(parent)).toEqual([])
      // A port in use is only found out by listening: a given folder stays (it is the caller's).
      const port = Number(new URL(blocker.url).port)
      const given = path.join(parent, 'given')
      await expect(
        startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY, port, dataDir: given }),
      ).rejects.toThrow('EADDRINUSE')
      expect(await readdir(parent)).toEqual(['given'])
    } finally {
      await blocker.close()
      await rm(parent, { recursive: true, force: true })
    }
  })

  it('numbers requests from 1 and logs the raw path, time and key kind', async () => {
    const fresh = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY })
    try {
      await fetch(`${fresh.url}/nowhere?x=1`)
      await fetch(`${fresh.url}/inference/v0/run/o/f`, {
        method: 'POST',
        headers: { authorization: `Bearer ${PUBLIC_KEY}`, 'content-type': 'application/json' },
        body: '{"in-0":"hello"}',
      })
      const log = fresh.requests()
      expect(log).toEqual([
        {
          seq: 1,
          time: expect.any(String),
          method: 'GET',
          path: '/nowhere',
          status: 404,
          key: 'none',
          applied: false,
        },
        {
          seq: 2,
          time: expect.any(String),
          method: 'POST',
          path: '/inference/v0/run/o/f',
          status: 200,
          key: 'public',
          applied: false,
          inputs: { 'in-0': 'hello' },
        },
      ])
      log.pop()
      expect(fresh.requests()).toHaveLength(2)
    } finally {
      await fresh.close()
    }
  })
})
