// A checkout without `lfs: true` holds Git LFS pointer text in place of each LFS file. The built index
// action never sends it: the files fail with one cause (one annotation), the step fails (so the run is no
// base), and once the checkout has the real content the next run sends it.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { createHash } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { lfsPointerOf } from '../helpers/lfs-pointer.js'
import { runAction } from '../helpers/run-action.js'
import { makeWorkspace } from '../helpers/workspace.js'
import { PRIVATE_KEY } from '../helpers/keys.js'

const ids = { 'flow-id': 'flow-lfs', 'org-id': 'org-lfs', 'node-id': 'knowledgebase-1' }
const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(200_000, 0x41)])
const SLIDES = Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(50_000, 0x42)])
const GUIDE = '# Guide\n\nThe manual is in manual.pdf.\n'

let emulator: Emulator
let workspace: ReturnType<typeof makeWorkspace>

beforeEach(async () => {
  emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: 'pub-unused-key' })
  workspace = makeWorkspace({
    'docs/manual.pdf': lfsPointerOf(PDF),
    'docs/slides.pptx': lfsPointerOf(SLIDES),
    'docs/guide.md': GUIDE,
  })
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
    inputs: { 'base-url': emulator.url, ...ids, 'private-key': PRIVATE_KEY, files: 'docs/**', ...inputs },
  })
}

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex')
const stored = () => emulator.documents(ids['flow-id'], ids['org-id'], ids['node-id'])
const sentNames = () => emulator.requests().flatMap((r) => (r.documents ?? []).map((d) => d.filename))
const annotations = (stdout: string, level: string) =>
  stdout.split('\n').filter((line) => line.startsWith(`::${level}`))

describe('index action: Git LFS pointers', () => {
  it('fails the pointers with one annotation, sends the rest, and sends the files once the checkout has them', async () => {
    const run = await index()
    expect(run.status).toBe(1)
    expect(JSON.parse(run.outputs.failed)).toEqual(['docs/manual.pdf', 'docs/slides.pptx'])
    expect(JSON.parse(run.outputs.uploaded)).toEqual(['docs/guide.md'])
    // The service never received a pointer.
    expect(sentNames()).not.toContain('docs/manual.pdf')
    expect(sentNames()).not.toContain('docs/slides.pptx')
    expect(stored().map((d) => [d.name, d.sha256])).toEqual([['docs/guide.md', sha256(GUIDE)]])

    const lfs = annotations(run.stdout, 'error').filter((line) => line.includes('Git LFS'))
    expect(lfs).toHaveLength(1)
    expect(lfs[0]).toContain('2 item(s) failed: Git LFS pointer, not the file')
    expect(lfs[0]).toContain('`lfs: true` on actions/checkout')
    expect(lfs[0]).toContain('exclude the pattern in `files`')
    expect(lfs[0]).toContain('docs/manual.pdf, docs/slides.pptx')
    expect(run.summary).toContain('### Failed (2)')

    // The checkout now has the LFS content (as `lfs: true` gives it): the next run sends it.
    writeFileSync(join(workspace.dir, 'docs/manual.pdf'), PDF)
    writeFileSync(join(workspace.dir, 'docs/slides.pptx'), SLIDES)
    const healed = await index()
    expect(healed.status).toBe(0)
    expect(JSON.parse(healed.outputs.failed)).toEqual([])
    expect(stored().map((d) => [d.name, d.sha256])).toEqual([
      ['docs/guide.md', sha256(GUIDE)],
      ['docs/manual.pdf', sha256(PDF)],
      ['docs/slides.pptx', sha256(SLIDES)],
    ])
  })

  it('a dry run fails on them too, as the sync it shows would, and sends nothing', async () => {
    const run = await index({ 'dry-run': 'true', 'private-key': '' })
    expect(run.status).toBe(1)
    expect(JSON.parse(run.outputs.failed)).toEqual(['docs/manual.pdf', 'docs/slides.pptx'])
    expect(emulator.requests()).toEqual([])
    expect(run.summary).toMatch(
      /\*\*Dry run: nothing sent\.\*\* Would upload 0 · update 0 · upsert 1 · .* · failed 2/,
    )
    expect(annotations(run.stdout, 'error').filter((line) => line.includes('Git LFS'))).toHaveLength(1)
  })
})
