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

beforeEach(async () => {
  service = await startRecordingServer((_request, response) => {
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
