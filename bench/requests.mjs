// npm run bench -- requests: how many requests a sync costs against the emulator (in process, no latency:
// the counts are what is measured, and they do not depend on the machine).
//   1. a full sync (mode auto, state unknown) of 1,000 documents into a node that holds 960 of them, the
//      40 new ones scattered (a seeded choice), batch 25 × concurrency 16 (the defaults)
//   2. the same into a node an interrupted first sync filled half (the first 500 documents)
//   3. the same 1,000 documents into an empty node (a first sync)
//   4. one batch of 25 with one new document: the worst count over its 25 positions
// Each is run once with the node filled directly (not by the action), and prints requests, POSTs, and
// whether every document landed once.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const TARGET = { flowId: 'f'.repeat(24), orgId: 'bench-org', nodeId: 'knowledgebase-1' }

/** `count` of `total` positions, spread by a seeded generator (the same every run). */
function scattered(total, count, seed = 24) {
  const chosen = new Set()
  let state = seed
  while (chosen.size < count) {
    state = (state * 1103515245 + 12345) % 2 ** 31
    chosen.add(state % total)
  }
  return chosen
}

export async function benchRequests({ row, load, silent }) {
  const { startEmulator } = await load('src/emulator/server.js')
  const { ServiceClient } = await load('src/service/client.js')
  const { sendPlan } = await load('src/send/send-plan.js')
  const { planSync } = await load('src/plan.js')
  const { Logger } = await load('src/log.js')
  const { DEFAULT_RETRY_POLICY } = await load('src/service/retry.js')
  const dir = mkdtempSync(join(tmpdir(), 'kb-sync-bench-requests-'))
  mkdirSync(join(dir, 'docs'))
  const files = Array.from({ length: 1000 }, (_, i) => {
    const name = `docs/page-${String(i).padStart(4, '0')}.md`
    const content = `# Page ${i}\n\n${'Some documentation text. '.repeat(20)}\n`
    writeFileSync(join(dir, name), content)
    return { name, path: join(dir, name), size: Buffer.byteLength(content), mtimeMs: 0 }
  })

  /** Syncs `selected` (a full sync, mode auto) into a node that holds `present` beforehand. */
  async function sync(selected, present) {
    const emulator = await startEmulator({ privateKey: 'bench-private', publicKey: 'bench-public' })
    const client = new ServiceClient({ baseUrl: emulator.url, privateKey: 'bench-private', connections: 16 })
    try {
      for (let i = 0; i < present.length; i += 100)
        await client.uploadDocuments(TARGET, present.slice(i, i + 100))
      const before = emulator.requests().length
      const plan = planSync({
        selection: { files: selected, skipped: [] },
        urls: [],
        mode: 'auto',
        changes: { kind: 'all', source: 'full-sync', reason: 'bench' },
        batchSize: 25,
      })
      const result = await sendPlan(plan, client, TARGET, {
        concurrency: 16,
        retry: DEFAULT_RETRY_POLICY,
        log: new Logger(silent),
      })
      const sent = emulator.requests().slice(before)
      const stored = emulator.documents(TARGET.flowId, TARGET.orgId, TARGET.nodeId)
      const fresh = new Set(
        selected.map((f) => f.name).filter((name) => !present.some((p) => p.name === name)),
      )
      const right = stored.every((d) => d.created === 1 && d.updated === (fresh.has(d.name) ? 0 : 1))
      return {
        requests: result.requests,
        posts: sent.filter((r) => r.method === 'POST').length,
        failed: result.items.filter((item) => item.outcome === 'failed').length,
        landed: stored.length === selected.length && right,
      }
    } finally {
      await client.close()
      await emulator.close()
    }
  }
  const note = (r) =>
    `${r.posts} POST, ${r.failed} failed, every document landed once as it needed: ${r.landed}`

  try {
    const fresh = scattered(files.length, 40)
    const mixed = await sync(
      files,
      files.filter((_, i) => !fresh.has(i)),
    )
    row(
      'full sync of 1,000 documents, 40 new scattered (batch 25 × concurrency 16)',
      `${mixed.requests} requests`,
      note(mixed),
    )

    const half = await sync(files, files.slice(0, 500))
    row(
      'full sync of 1,000 documents after an interrupted first sync (the first 500 there)',
      `${half.requests} requests`,
      note(half),
    )

    const empty = await sync(files, [])
    row('first sync of 1,000 documents into an empty node', `${empty.requests} requests`, note(empty))

    const batch = files.slice(0, 25)
    let worst = 0
    for (let odd = 0; odd < batch.length; odd++) {
      const one = await sync(
        batch,
        batch.filter((_, i) => i !== odd),
      )
      if (!one.landed) throw new Error(`position ${odd}: not every document landed once`)
      worst = Math.max(worst, one.requests)
    }
    row(
      'one batch of 25 with one new document, worst of its 25 positions',
      `${worst} requests`,
      'bound 2⌈log2 25⌉ + 2 = 12',
    )
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
