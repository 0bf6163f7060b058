// The built index action (dist/index.js) as two jobs of a matrix, shard 1/2 and 2/2, against one
// emulator: each sends its part, the parts are disjoint, their union is every selected document, and each
// summary and output names its shard.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { runCliAsync } from '../helpers/cli.js'
import { PRIVATE_KEY, PUBLIC_KEY } from '../helpers/keys.js'
import { runAction } from '../helpers/run-action.js'
import { makeWorkspace } from '../helpers/workspace.js'

const ids = {
  'flow-id': '65f0c0ffee0000000000beef',
  'org-id': 'b2a1c3d4-0000-4000-8000-000000000001',
  'node-id': 'knowledgebase-1',
}
const NAMES = Array.from({ length: 30 }, (_, i) => `docs/page-${String(i).padStart(2, '0')}.md`)

let emulator: Emulator
let workspace: ReturnType<typeof makeWorkspace>

beforeEach(async () => {
  emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY })
  workspace = makeWorkspace(Object.fromEntries(NAMES.map((name, i) => [name, `# Page ${i}\n`])))
})
afterEach(async () => {
  await emulator.close()
  workspace.remove()
})

const index = (inputs: Record<string, string>) =>
  runAction({
    action: 'action.yml',
    workspace: workspace.dir,
    eventName: 'workflow_dispatch',
    inputs: { 'base-url': emulator.url, ...ids, 'private-key': PRIVATE_KEY, files: 'docs/**', ...inputs },
  })

describe('shard 1/2 and 2/2', () => {
  it('send disjoint parts whose union is every document, each summary and output naming its shard', async () => {
    const runs = [
      await index({ mode: 'upload', shard: '1/2' }),
      await index({ mode: 'upload', shard: '2/2' }),
    ]
    const parts = runs.map((run) => JSON.parse(run.outputs.uploaded) as string[])
    for (const [i, run] of runs.entries()) {
      expect(run.status).toBe(0)
      expect(run.outputs.shard).toBe(`${i + 1}/2`)
      expect(run.summary).toContain(`## Knowledge base sync, shard ${i + 1}/2`)
      expect(parts[i].length).toBeGreaterThan(0)
      expect(run.stdout).toContain(`selected in shard ${i + 1}/2 (30 in all shards)`)
    }
    expect(parts[0].filter((name) => parts[1].includes(name))).toEqual([])
    expect([...parts[0], ...parts[1]].sort()).toEqual(NAMES)
    const stored = emulator.documents(ids['flow-id'], ids['org-id'], ids['node-id'])
    expect(stored.map((d) => [d.name, d.created])).toEqual(NAMES.map((name) => [name, 1]))
  })

  it('a dry run of a full sync plans its part as upsert', async () => {
    const run = await index({ 'dry-run': 'true', 'full-sync': 'true', shard: '2/2' })
    expect(run.status).toBe(0)
    const planned = JSON.parse(run.outputs.planned) as { name: string; operation: string }[]
    expect(planned.length).toBeGreaterThan(0)
    expect(planned.length).toBeLessThan(NAMES.length)
    expect(planned.every((item) => item.operation === 'upsert')).toBe(true)
    expect(run.summary).toContain(`Would upload 0 · update 0 · upsert ${planned.length} ·`)
    expect(run.summary).toContain(`<summary>Would upsert (${planned.length})</summary>`)
    expect(emulator.requests()).toEqual([])
  })

  it('the CLI sends the same part with --shard, and refuses a shard past N naming the flag', async () => {
    const args = ['index', '--base-url', emulator.url, '--flow-id', ids['flow-id'], '--org-id', ids['org-id']]
    args.push('--node-id', ids['node-id'], '--files', 'docs/**', '--mode', 'upload', '--json')
    const env = { KB_SYNC_PRIVATE_KEY: PRIVATE_KEY }
    const action = await index({ mode: 'upload', shard: '1/2', 'dry-run': 'true' })
    const cli = await runCliAsync([...args, '--shard', '1/2'], { cwd: workspace.dir, env })
    expect(cli.status).toBe(0)
    const outputs = JSON.parse(cli.stdout) as { uploaded: string[]; shard: string }
    expect(outputs.shard).toBe('1/2')
    expect(outputs.uploaded).toEqual(
      (JSON.parse(action.outputs.planned) as { name: string }[]).map((item) => item.name),
    )

    const refused = await runCliAsync([...args, '--shard', '3/2'], { cwd: workspace.dir, env })
    expect(refused.status).toBe(2)
    expect(refused.stderr).toContain('--shard must be I/N with I from 1 to N (2) (got "3/2").')
  })
})
