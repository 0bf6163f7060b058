// Issue 5 end to end: the built index action when the service is down, and when the runner cancels it.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { freePort } from '../helpers/ports.js'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { runAction } from '../helpers/run-action.js'
import { makeWorkspace } from '../helpers/workspace.js'
import { PRIVATE_KEY as KEY } from '../helpers/keys.js'

const ids = {
  'flow-id': '65f0c0ffee0000000000beef',
  'org-id': 'b2a1c3d4-0000-4000-8000-000000000001',
  'node-id': 'knowledgebase-1',
}
const docs = Object.fromEntries(
  Array.from({ length: 12 }, (_, i) => [`docs/d${String(i).padStart(2, '0')}.md`, `doc ${i}\n`]),
)

let workspace: ReturnType<typeof makeWorkspace>
beforeEach(() => {
  workspace = makeWorkspace(docs)
})
afterEach(() => workspace.remove())

describe('index action reliability', () => {
  it('fails the step and names every document when the service cannot be reached', async () => {
    const run = await runAction({
      action: 'action.yml',
      workspace: workspace.dir,
      inputs: {
        'base-url': `http://127.0.0.1:${await freePort()}`,
        ...ids,
        'private-key': KEY,
        files: 'docs/**',
        retries: '2',
        'retry-deadline': '1',
      },
    })
    expect(run.status).toBe(1)
    expect(JSON.parse(run.outputs.failed)).toEqual(Object.keys(docs).sort())
    expect(JSON.parse(run.outputs.uploaded)).toEqual([])
    expect(run.summary).toContain(`❌ **${Object.keys(docs).length} of ${Object.keys(docs).length} failed.**`)
    // No Node warning (e.g. MaxListenersExceededWarning) reaches the log (issue 10).
    expect(run.stderr).toBe('')
  })

  describe('cancellation', () => {
    let emulator: Emulator
    beforeEach(async () => {
      emulator = await startEmulator({ privateKey: KEY, publicKey: 'pub-unused', latencyMs: 400 })
    })
    afterEach(() => emulator.close())

    it('on SIGTERM starts no new request and still writes outputs and summary with the unsent documents failed', async () => {
      const run = await runAction({
        action: 'action.yml',
        workspace: workspace.dir,
        inputs: {
          'base-url': emulator.url,
          ...ids,
          'private-key': KEY,
          files: 'docs/**',
          mode: 'upload',
          'batch-size': '1',
          concurrency: '1',
        },
        onStart: (child) => {
          // Cancel once the first request has reached the service.
          const timer = setInterval(() => {
            if (emulator.requests().length > 0 || child.exitCode !== null) {
              clearInterval(timer)
              child.kill('SIGTERM')
            }
          }, 20)
        },
      })
      expect(run.status).toBe(1)
      const uploaded: string[] = JSON.parse(run.outputs.uploaded)
      const failed: string[] = JSON.parse(run.outputs.failed)
      expect(failed.length).toBeGreaterThan(0)
      expect([...uploaded, ...failed].sort()).toEqual(Object.keys(docs).sort())
      expect(emulator.requests().length).toBeLessThan(Object.keys(docs).length)
      expect(run.summary).toContain('cancelled')
      expect(run.stderr).toBe('')
    })
  })
})
