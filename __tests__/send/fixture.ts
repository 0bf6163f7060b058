// Shared set-up of the send tests: files on disk, a plan over them, the emulator and a client.
import { createHash } from 'node:crypto'
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { IndexTarget, Mode, Plan, SelectedFile } from '../../src/model.js'
import { planSync } from '../../src/plan.js'
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../../src/service/retry.js'

export { PRIVATE_KEY, PUBLIC_KEY } from '../helpers/keys.js'
export const TARGET: IndexTarget = {
  flowId: '0123456789abcdef01234567',
  orgId: '3f0e8c9a-1b2c-4d5e-8f90-123456789abc',
  nodeId: 'knowledgebase-1',
}

/** Retries without real waiting (backoff of a few ms). */
export const FAST_RETRY: RetryPolicy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 1, maxDelayMs: 4 }

export interface Workspace {
  dir: string
  files: SelectedFile[]
  /** Path of a document by name. */
  path(name: string): string
  remove(): Promise<void>
}

/** `count` documents named doc-000.md, doc-001.md, … with distinct content. */
export async function makeDocuments(
  count: number,
  content = (i: number) => `# Document ${i}\n\n${'text '.repeat(20 + (i % 7))}\n`,
): Promise<Workspace> {
  const dir = await mkdtemp(join(tmpdir(), 'kb-sync-send-'))
  const files: SelectedFile[] = []
  for (let i = 0; i < count; i++) {
    const name = `doc-${String(i).padStart(3, '0')}.md`
    const path = join(dir, name)
    await writeFile(path, content(i))
    files.push(await selected(name, path))
  }
  return {
    dir,
    files,
    path: (name) => join(dir, name),
    remove: () => rm(dir, { recursive: true, force: true }),
  }
}

export async function selected(name: string, path: string): Promise<SelectedFile> {
  const stats = await stat(path)
  return { name, path, size: stats.size }
}

export function planFor(files: SelectedFile[], mode: Mode, batchSize = 10, urls: string[] = []): Plan {
  return planSync({
    selection: { files, skipped: [] },
    urls,
    mode,
    changes: { kind: 'all', source: 'full-sync', reason: 'test' },
    batchSize,
  })
}

export function sha256(content: string | Buffer): string {
  return createHash('sha256').update(content).digest('hex')
}
