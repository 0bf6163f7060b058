// A sync of every selected file looks for drafts while its first batches are sent. The built index action
// still never sends a draft, logs the plan it carries out (drafts skipped, each batch as sent) before the
// send's own lines, and a dry run shows the same plan.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { runAction } from '../helpers/run-action.js'
import { makeWorkspace } from '../helpers/workspace.js'
import { PRIVATE_KEY } from '../helpers/keys.js'

const ids = { 'flow-id': 'flow-drafts', 'org-id': 'org-drafts', 'node-id': 'knowledgebase-1' }
const draft = (title: string) => `---\ntitle: ${title}\ndraft: true\n---\n# ${title}\n`
const page = (title: string) => `---\ntitle: ${title}\n---\n# ${title}\n`

let emulator: Emulator
let workspace: ReturnType<typeof makeWorkspace>

beforeEach(async () => {
  emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: 'pub-unused-key' })
  // Batches of 3 in name order: [a b c] [d e f] [g h i] [j]; b, f, g, h and i are drafts (the third batch
  // holds nothing else), and j's front matter does not parse.
  const files: Record<string, string> = {}
  for (const name of 'abcdefghi') files[`docs/${name}.md`] = 'bfghi'.includes(name) ? draft(name) : page(name)
  files['docs/j.md'] = '---\ntitle: [unclosed\n---\n# j\n'
  workspace = makeWorkspace(files)
})
afterEach(async () => {
  await emulator.close()
  workspace.remove()
})

function index(inputs: Record<string, string> = {}) {
  return runAction({
    action: 'action.yml',
    workspace: workspace.dir,
    eventName: 'workflow_dispatch',
    inputs: {
      'base-url': emulator.url,
      ...ids,
      'private-key': PRIVATE_KEY,
      files: 'docs/**',
      mode: 'upload',
      'batch-size': '3',
      concurrency: '1',
      ...inputs,
    },
  })
}

/** The plan group's lines, without the group markers. */
function planOf(stdout: string): string[] {
  const lines = stdout.split('\n')
  const start = lines.indexOf('::group::Plan')
  return lines.slice(start + 1, lines.indexOf('::endgroup::', start))
}

describe('index action: drafts looked for while sending', () => {
  it('sends no draft, logs the plan it carries out before the send, and a dry run shows that plan', async () => {
    const run = await index()
    expect(run.status).toBe(0)
    const sent = emulator.requests().map((r) => (r.documents ?? []).map((d) => d.filename))
    // The drafts left their batches: the third batch, all drafts, was not sent.
    expect(sent).toEqual([['docs/a.md', 'docs/c.md'], ['docs/d.md', 'docs/e.md'], ['docs/j.md']])
    expect(JSON.parse(run.outputs.uploaded)).toEqual([
      'docs/a.md',
      'docs/c.md',
      'docs/d.md',
      'docs/e.md',
      'docs/j.md',
    ])
    expect(JSON.parse(run.outputs.skipped)).toEqual([
      'docs/b.md',
      'docs/f.md',
      'docs/g.md',
      'docs/h.md',
      'docs/i.md',
    ])
    expect(run.stdout).toMatch(/::warning::The front matter of 1 file\(s\) does not parse.*docs\/j\.md/)

    const plan = planOf(run.stdout)
    expect(plan[0]).toBe('5 item(s) in 3 request(s).')
    expect(plan.slice(1)).toEqual(
      ['a', 'c', 'd', 'e', 'j'].map((name) => `  upload document docs/${name}.md`),
    )
    // The log reads in order: the plan, then the send and its progress.
    const lines = run.stdout.split('\n')
    expect(lines.indexOf('::group::Plan')).toBeLessThan(lines.indexOf('::group::Send'))
    expect(lines.indexOf('::group::Send')).toBeGreaterThan(
      lines.findIndex((line) => line.includes('does not parse')),
    )

    const dry = await index({ 'dry-run': 'true' })
    expect(dry.status).toBe(0)
    expect(planOf(dry.stdout)).toEqual(plan)
    expect(emulator.requests()).toHaveLength(3)
  })
})
