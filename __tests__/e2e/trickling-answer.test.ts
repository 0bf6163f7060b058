// A service that answers an indexing request 200 and then sends its body one byte a second: never idle
// long enough for the no-progress timeout, so only the client's bound on reading an answer it does not use
// (DEFAULT_TIMEOUTS.indexingAnswerMs) ends the wait. The built action finishes, once per batch, and counts
// the documents as sent. The test's own timeout is only the kill for a run that would never end.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { DEFAULT_TIMEOUTS } from '../../src/service/client.js'
import { runAction } from '../helpers/run-action.js'
import { makeWorkspace } from '../helpers/workspace.js'
import { startRecordingServer, type RecordingServer } from '../helpers/recording-server.js'
import { PRIVATE_KEY } from '../helpers/keys.js'

const ids = { 'flow-id': 'flow-trickle', 'org-id': 'org-trickle', 'node-id': 'knowledgebase-1' }

let service: RecordingServer
let workspace: ReturnType<typeof makeWorkspace>
const trickles = new Set<NodeJS.Timeout>()
let flowRunTrickles = false

beforeEach(async () => {
  service = await startRecordingServer((request, response) => {
    // Indexing requests are answered at once when the flow run is the one that trickles.
    if (flowRunTrickles && request.url.startsWith('/indexing/')) {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}')
      return
    }
    response.writeHead(200, { 'content-type': 'application/json' })
    response.write('{')
    const timer = setInterval(() => response.write(' '), 1000)
    trickles.add(timer)
    response.on('close', () => {
      clearInterval(timer)
      trickles.delete(timer)
    })
  })
  workspace = makeWorkspace({ 'docs/a.md': '# A\n', 'docs/b.md': '# B\n', 'docs/c.md': '# C\n' })
})
afterEach(async () => {
  flowRunTrickles = false
  for (const timer of trickles) clearInterval(timer)
  await service.close()
  workspace.remove()
})

describe('index action: an indexing answer that trickles', () => {
  it(
    'is cut off after the bound on reading it; the documents count as sent, once',
    async () => {
      const run = await runAction({
        action: 'action.yml',
        workspace: workspace.dir,
        eventName: 'workflow_dispatch',
        inputs: {
          'base-url': service.url,
          ...ids,
          'private-key': PRIVATE_KEY,
          files: 'docs/**',
          mode: 'upload',
          'batch-size': '2',
        },
      })
      expect(run.status).toBe(0)
      expect(JSON.parse(run.outputs.uploaded)).toEqual(['docs/a.md', 'docs/b.md', 'docs/c.md'])
      expect(JSON.parse(run.outputs.failed)).toEqual([])
      // Two batches, one request each: nothing was sent again.
      expect(service.requests.map((r) => (r.parts ?? []).map((p) => p.filename))).toEqual(
        expect.arrayContaining([['docs/a.md', 'docs/b.md'], ['docs/c.md']]),
      )
      expect(service.requests).toHaveLength(2)
    },
    // Far past the bound the code enforces; reached only if the wait were unbounded.
    DEFAULT_TIMEOUTS.indexingAnswerMs + 60_000,
  )
})

describe('index action: a flow run after indexing whose answer trickles', () => {
  const RUN_TIMEOUT_S = 3
  it(
    'is stopped at run-timeout: the step fails naming the input, the sync stays reported',
    async () => {
      flowRunTrickles = true
      const run = await runAction({
        action: 'action.yml',
        workspace: workspace.dir,
        eventName: 'workflow_dispatch',
        inputs: {
          'base-url': service.url,
          ...ids,
          'private-key': PRIVATE_KEY,
          'public-key': 'pub-trickle-0123456789',
          files: 'docs/**',
          mode: 'upload',
          'flow-inputs': '{"in-0": "What changed?"}',
          'run-timeout': String(RUN_TIMEOUT_S),
        },
      })
      expect(run.status).toBe(1)
      expect(run.stdout).toContain(`no complete answer within "run-timeout" (${RUN_TIMEOUT_S} s)`)
      expect(JSON.parse(run.outputs.uploaded)).toEqual(['docs/a.md', 'docs/b.md', 'docs/c.md'])
      expect(run.outputs.result).toBe('')
      expect(service.requests.filter((r) => r.url.startsWith('/inference/'))).toHaveLength(1)
    },
    // Far past the bound the code enforces; reached only if the flow run's wait were unbounded.
    RUN_TIMEOUT_S * 1000 + 60_000,
  )
})
