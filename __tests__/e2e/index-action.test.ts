// The built index action (dist/index.js) run as the runner runs it, against the emulator.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { createHash } from 'node:crypto'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { runAction } from '../helpers/run-action.js'
import { makeWorkspace } from '../helpers/workspace.js'
import { PRIVATE_KEY, PUBLIC_KEY } from '../helpers/keys.js'

const ids = {
  'flow-id': '65f0c0ffee0000000000beef',
  'org-id': 'b2a1c3d4-0000-4000-8000-000000000001',
  'node-id': 'knowledgebase-1',
}
const DOCS = {
  'docs/refunds.md': '# Refunds\n\nRefunds are granted within 14 days of a payment.\n',
  'docs/api.md': '# API\n\nEach token may send 120 requests per minute.\n',
  'docs/guide/start.md': '# Start\n\nInvitation links are valid for 7 days.\n',
  'notes.txt': 'not selected',
}

let emulator: Emulator
let workspace: ReturnType<typeof makeWorkspace>

beforeEach(async () => {
  emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY })
  workspace = makeWorkspace(DOCS)
})
afterEach(async () => {
  await emulator.close()
  workspace.remove()
})

function index(inputs: Record<string, string>, extra: { eventName?: string; payload?: unknown } = {}) {
  return runAction({
    action: 'action.yml',
    workspace: workspace.dir,
    inputs: { 'base-url': emulator.url, ...ids, 'private-key': PRIVATE_KEY, files: 'docs/**', ...inputs },
    ...extra,
  })
}

const stored = () => emulator.documents(ids['flow-id'], ids['org-id'], ids['node-id'])
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')
const requestShapes = () =>
  emulator
    .requests()
    .map(
      (r) =>
        `${r.method} ${r.path.split('/')[3]} ${r.status} ${(r.documents ?? []).map((d) => d.field).join(',')}`,
    )

describe('index action', () => {
  it('mode upload POSTs every selected file in parts named "files" and reports them uploaded', async () => {
    const run = await index({ mode: 'upload' })
    expect(run.status).toBe(0)
    expect(JSON.parse(run.outputs.uploaded)).toEqual([
      'docs/api.md',
      'docs/guide/start.md',
      'docs/refunds.md',
    ])
    expect(JSON.parse(run.outputs.updated)).toEqual([])
    expect(JSON.parse(run.outputs.failed)).toEqual([])
    expect(requestShapes()).toEqual(['POST documents 200 files,files,files'])
    expect(stored().map((d) => [d.name, d.sha256])).toEqual([
      ['docs/api.md', sha256(DOCS['docs/api.md'])],
      ['docs/guide/start.md', sha256(DOCS['docs/guide/start.md'])],
      ['docs/refunds.md', sha256(DOCS['docs/refunds.md'])],
    ])
    expect(run.summary).toContain('- docs/refunds.md')
    expect(run.summary).toContain('✅ **Synced.** Uploaded 3 · updated 0')
  })

  it('mode update PATCHes parts file1..fileN, and fails the documents the service does not have', async () => {
    expect((await index({ mode: 'upload', files: 'docs/api.md' })).status).toBe(0)
    const run = await index({ mode: 'update', 'batch-size': '1' })
    expect(run.status).toBe(1)
    expect(JSON.parse(run.outputs.updated)).toEqual(['docs/api.md'])
    expect(JSON.parse(run.outputs.failed)).toEqual(['docs/guide/start.md', 'docs/refunds.md'])
    expect(run.stdout).toContain('2 item(s) failed to sync')
    const patches = emulator.requests().filter((r) => r.method === 'PATCH')
    expect(patches.every((r) => r.documents?.map((d) => d.field).join() === 'file1')).toBe(true)
  })

  it('mode auto updates what the service has and uploads what it lacks (404 → POST), once each', async () => {
    expect((await index({ mode: 'upload', files: 'docs/api.md' })).status).toBe(0)
    const run = await index({ mode: 'auto' })
    expect(run.status).toBe(0)
    expect(JSON.parse(run.outputs.updated)).toEqual(['docs/api.md'])
    expect(JSON.parse(run.outputs.uploaded)).toEqual(['docs/guide/start.md', 'docs/refunds.md'])
    expect(stored().map((d) => [d.name, d.created])).toEqual([
      ['docs/api.md', 1],
      ['docs/guide/start.md', 1],
      ['docs/refunds.md', 1],
    ])
  })

  it('mode auto with every document present only PATCHes', async () => {
    expect((await index({ mode: 'upload' })).status).toBe(0)
    const before = emulator.requests().length
    const run = await index({ mode: 'auto' })
    expect(run.status).toBe(0)
    expect(JSON.parse(run.outputs.updated)).toHaveLength(3)
    expect(
      emulator
        .requests()
        .slice(before)
        .map((r) => `${r.method} ${r.status}`),
    ).toEqual(['PATCH 200'])
  })

  it('sends URLs as a JSON array and reports them', async () => {
    const run = await index({
      files: '',
      urls: 'https://docs.example.com/a\n\n  https://docs.example.com/b  \nhttps://docs.example.com/a',
      mode: 'upload',
    })
    expect(run.status).toBe(0)
    expect(emulator.urls(ids['flow-id'], ids['org-id'], ids['node-id'])).toEqual([
      'https://docs.example.com/a',
      'https://docs.example.com/b',
    ])
    expect(JSON.parse(run.outputs.uploaded)).toEqual([
      'https://docs.example.com/a',
      'https://docs.example.com/b',
    ])
  })

  it('dry-run sends nothing, needs no key, and prints the plan', async () => {
    const run = await index({ 'dry-run': 'true', 'private-key': '' }, { eventName: 'push' })
    expect(run.status).toBe(0)
    expect(emulator.requests()).toHaveLength(0)
    expect(run.stdout).toContain('docs/refunds.md')
    expect(run.summary).toContain('**Dry run: nothing sent.**')
  })

  // One run for both: the question carries the private key, as a careless input would.
  it('runs the flow after indexing when flow-inputs is set, with the public key; never prints the keys', async () => {
    const run = await index({
      mode: 'upload',
      'public-key': PUBLIC_KEY,
      'flow-inputs': `{"in-0": "How long are refunds granted? echo ${PRIVATE_KEY}"}`,
    })
    expect(run.status).toBe(0)
    expect(run.outputs.result).toContain('14 days')
    expect(JSON.parse(run.outputs.response).outputs['out-0']).toBe(run.outputs.result)
    const runRequest = emulator.requests().find((r) => r.path.startsWith('/inference/'))
    expect(runRequest?.key).toBe('public')
    expect(runRequest?.path).toBe(`/inference/v0/run/${ids['org-id']}/${ids['flow-id']}`)
    expect(run.summary).toContain('How long are refunds granted?')
    // `::add-mask::` lines are how the runner learns the secrets; the runner consumes them.
    const stdout = run.stdout
      .split('\n')
      .filter((line) => !line.startsWith('::add-mask::'))
      .join('\n')
    for (const text of [stdout, run.stderr, run.summary, JSON.stringify(run.outputs)]) {
      expect(text).not.toContain(PRIVATE_KEY)
      expect(text).not.toContain(PUBLIC_KEY)
    }
  })

  it('fails when files selects nothing and if-no-files-found is error', async () => {
    const run = await index({ files: 'nothing/**', 'if-no-files-found': 'error' })
    expect(run.status).toBe(1)
    expect(run.stdout).toContain('if-no-files-found')
    expect(emulator.requests()).toHaveLength(0)
  })
})

describe('index action: bad inputs fail before any request', () => {
  const cases: [string, Record<string, string>, string, string?][] = [
    ['missing flow-id', { 'flow-id': '' }, 'flow-id'],
    ['missing org-id', { 'org-id': '' }, 'org-id'],
    ['missing node-id', { 'node-id': '' }, 'node-id'],
    ['an id that escapes the path', { 'node-id': '..' }, 'node-id'],
    ['a bad mode', { mode: 'sync' }, 'mode'],
    ['a bad batch size', { 'batch-size': 'ten' }, 'batch-size'],
    ['a bad concurrency', { concurrency: '0' }, 'concurrency'],
    ['a bad max file size', { 'max-file-size': '5 parsecs' }, 'max-file-size'],
    ['bad flow-inputs JSON', { 'flow-inputs': '{in-0: x}', 'public-key': PUBLIC_KEY }, 'flow-inputs'],
    ['a non-string flow input', { 'flow-inputs': '{"in-0": 1}', 'public-key': PUBLIC_KEY }, 'flow-inputs'],
    ['a bad URL', { urls: 'ftp://example.com/x' }, 'urls'],
    ['a URL with credentials', { urls: 'https://user:pw@example.com/' }, 'urls'],
    ['an http base URL that is not loopback', { 'base-url': 'http://api.example.com' }, 'base-url'],
    ['a pattern leaving the workspace', { files: '../outside/**' }, 'files'],
    ['an empty key on push', { 'private-key': '' }, 'private-key', 'push'],
  ]
  it.each(cases)('%s', async (_, inputs, input, eventName = 'workflow_dispatch') => {
    const run = await runAction({
      action: 'action.yml',
      workspace: workspace.dir,
      eventName,
      inputs: { 'base-url': emulator.url, ...ids, 'private-key': PRIVATE_KEY, files: 'docs/**', ...inputs },
    })
    expect(run.status).toBe(1)
    const errorLine = run.stdout.split('\n').find((line) => line.startsWith('::error::')) ?? ''
    expect(errorLine).toContain(`"${input}"`)
    expect(run.summary).toContain('## Knowledge base sync failed')
    expect(run.summary).toContain(`"${input}"`)
    expect(emulator.requests()).toHaveLength(0)
  })
})
