// The built index action on a push that git cannot answer (the workspace is no checkout): change
// detection, loaded only for pushes, reaches GitHub's compare API through @actions/github's octokit at
// GITHUB_API_URL (a local server answering in the REST shape), and exactly the named files are sent; behind
// the runner's proxy too (the bundles give @actions/* a lean undici: src/net/undici-lean.ts).
import { afterEach, beforeEach, expect, it } from '@jest/globals'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import net, { type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { runAction } from '../helpers/run-action.js'
import { PRIVATE_KEY, GITHUB_TOKEN as TOKEN } from '../helpers/keys.js'
import { CompareServer } from '../helpers/compare-server.js'

const BEFORE = 'a'.repeat(40)
const AFTER = 'b'.repeat(40)

let emulator: Emulator
let workspace: string
let api: CompareServer
let apiUrl: string
let apiRequests: CompareServer['requests']

beforeEach(async () => {
  emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: 'pub-unused-key' })
  workspace = mkdtempSync(join(tmpdir(), 'kb-sync-compare-'))
  mkdirSync(join(workspace, 'docs'))
  for (const name of ['a.md', 'b.md', 'untouched.md'])
    writeFileSync(join(workspace, 'docs', name), `${name}\n`)
  api = new CompareServer('octo-org/docs')
  const file = (filename: string, status: string) => ({ filename, status })
  api.answers[`${BEFORE}...${AFTER}`] = {
    files: [
      file('docs/a.md', 'modified'),
      file('docs/b.md', 'added'),
      file('docs/old.md', 'removed'),
      file('src/x.ts', 'added'),
    ],
  }
  apiUrl = await api.start()
  apiRequests = api.requests
})

afterEach(async () => {
  await api.close()
  await emulator.close()
  rmSync(workspace, { recursive: true, force: true })
})

function pushRun(env: Record<string, string>) {
  return runAction({
    action: 'action.yml',
    workspace,
    eventName: 'push',
    payload: {
      ref: 'refs/heads/main',
      before: BEFORE,
      after: AFTER,
      created: false,
      deleted: false,
      forced: false,
      commits: [],
    },
    env,
    inputs: {
      'base-url': emulator.url,
      'flow-id': '65f0c0ffee0000000000beef',
      'org-id': 'b2a1c3d4-0000-4000-8000-000000000001',
      'node-id': 'urlemb-0',
      'private-key': PRIVATE_KEY,
      'github-token': TOKEN,
      files: 'docs/**',
      mode: 'auto',
    },
  })
}

it('sends what the compare API names when the workspace is no git checkout', async () => {
  const run = await pushRun({ GITHUB_API_URL: apiUrl })
  expect(run.status).toBe(0)
  expect(apiRequests.length).toBeGreaterThan(0)
  expect(apiRequests[0].authorization).toContain(TOKEN)
  // Added → POST; modified → PATCH, which the empty node answers 404, then POST.
  const sent = emulator
    .requests()
    .map((request) => [request.method, request.status, ...(request.documents ?? []).map((d) => d.filename)])
  // The two documents are sent concurrently: only the requests of one document have an order.
  expect(sent.filter((request) => request[2] === 'docs/b.md')).toEqual([['POST', 200, 'docs/b.md']])
  expect(sent.filter((request) => request[2] === 'docs/a.md')).toEqual([
    ['PATCH', 404, 'docs/a.md'],
    ['POST', 200, 'docs/a.md'],
  ])
  // The removed document's placeholder: the empty node does not hold it (404), which is success.
  expect(sent.filter((request) => request[2] === 'docs/old.md')).toEqual([['PATCH', 404, 'docs/old.md']])
  expect(sent).toHaveLength(4)
  expect(JSON.parse(run.outputs.removed)).toEqual(['docs/old.md'])
  expect(run.summary).toContain('GitHub compare API')
  // Only the masking command may carry the token.
  const printed = `${run.stdout}\n${run.stderr}`
    .split('\n')
    .filter((line) => !line.startsWith('::add-mask::'))
  expect(printed.join('\n')).not.toContain(TOKEN)
})

it('reaches the compare API through the proxy in http_proxy', async () => {
  // A CONNECT proxy that knows the made-up host api.test (a loopback API address would bypass the proxy).
  const tunnels: string[] = []
  const proxy = http.createServer((_request, response) => {
    response.statusCode = 502
    response.end('this proxy only tunnels')
  })
  proxy.on('connect', (request: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    tunnels.push(request.url ?? '')
    const [host, port] = (request.url ?? '').split(':')
    const upstream = net.connect(Number(port), host === 'api.test' ? '127.0.0.1' : host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      upstream.write(head)
      upstream.pipe(client)
      client.pipe(upstream)
    })
    upstream.on('error', () => client.destroy())
    client.on('error', () => upstream.destroy())
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  try {
    const apiPort = api.port
    const proxyPort = (proxy.address() as AddressInfo).port
    const run = await pushRun({
      GITHUB_API_URL: `http://api.test:${apiPort}`,
      http_proxy: `http://127.0.0.1:${proxyPort}`,
    })
    expect(run.status).toBe(0)
    expect(tunnels).toContain(`api.test:${apiPort}`)
    expect(apiRequests[0].path).toContain(`/compare/${BEFORE}...${AFTER}`)
    expect(JSON.parse(run.outputs.removed)).toEqual(['docs/old.md'])
    expect(emulator.requests().filter((request) => request.status === 200)).toHaveLength(2)
  } finally {
    proxy.closeAllConnections()
    await new Promise((resolve) => proxy.close(resolve))
  }
})
