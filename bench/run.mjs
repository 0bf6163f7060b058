// npm run bench: compiles src/ once (tsc → .bench-build/), then measures
//   1. change detection: a 10,000-file change set (pure parsing/folding, and a real git tree diff)
//   2. sync throughput: 500 documents through the emulator, fault-free and with 30 % transient faults
//   3. start-up of the committed bundles
//   4. selection: the per-file checks on 2,000 files, synchronous and through fs/promises, and selectFiles
//   5. side-by-side (only when named: `npm run bench -- side-by-side`): the bundle vs a one-process-per-file
//      loop and a least client against a 20 ms service, the ideal schedule, peak RSS, start to first
//      request (side-by-side.mjs; BENCH_NODE runs the action on another Node)
//   6. curve (only when named): the bundle's time per batch size × concurrency, the basis of the defaults
//   7. requests (only when named): the requests of a full sync with scattered new documents (requests.mjs)
//   8. matching (only when named): one RE2 match's cost per program size × text length (matching.mjs)
//   9. state (only when named): content ids and the difference from the record at 2,000 / 20,000 /
//      100,000 files (state.mjs)
//  10. record (only when named): the knowledge base's record at 2,000 / 20,000 / 100,000 documents, its
//      size and the time to encode and decode it (record.mjs)
//  11. record-sync (only when named): the bundle's full sync, then the incremental sync from the record and
//      the history-based one, at 2,000 / 20,000 / 100,000 documents (record-sync.mjs)
// and prints a markdown report. Numbers are wall time on this machine; see bench/README.md.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const build = join(root, '.bench-build')
const only = process.argv[2]

function compile() {
  rmSync(build, { recursive: true, force: true })
  execFileSync(
    process.execPath,
    [join(root, 'node_modules/typescript/bin/tsc'), '-p', root, '--noEmit', 'false', '--outDir', build],
    {
      stdio: 'inherit',
    },
  )
  writeFileSync(join(build, 'package.json'), '{"type":"module"}')
}

const load = (path) => import(join(build, path))
const noop = () => undefined
/** A log sink that prints nothing: the benchmarks measure work, not logging. */
const silent = Object.fromEntries(
  ['info', 'debug', 'notice', 'warning', 'error', 'startGroup', 'endGroup', 'mask'].map((name) => [
    name,
    noop,
  ]),
)

async function time(fn, runs = 5) {
  const samples = []
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint()
    await fn()
    samples.push(Number(process.hrtime.bigint() - start) / 1e6)
  }
  samples.sort((a, b) => a - b)
  return samples[Math.floor(samples.length / 2)]
}

const rows = []
const row = (name, value, note = '') => {
  rows.push(`| ${name} | ${value} | ${note} |`)
  console.error(`${name}: ${value} ${note}`)
}

async function benchChanges() {
  const { parseNameStatus, foldCommitLists } = await load('src/history/change-sets.js')
  const N = 10_000
  const z = Array.from(
    { length: N },
    (_, i) => `${['A', 'M', 'D'][i % 3]}\0docs/section-${i % 50}/page ${i}.md\0`,
  ).join('')
  row(
    'parse a 10,000-entry `git diff --name-status -z`',
    `${(await time(() => parseNameStatus(z), 11)).toFixed(1)} ms`,
    'median of 11',
  )
  const commits = Array.from({ length: 100 }, (_, c) => ({
    added: Array.from({ length: 40 }, (_, i) => `docs/c${c}/a${i}.md`),
    modified: Array.from({ length: 40 }, (_, i) => `docs/c${(c + 1) % 100}/a${i}.md`),
    removed: Array.from({ length: 20 }, (_, i) => `docs/c${(c + 2) % 100}/a${i}.md`),
  }))
  row(
    'fold 100 commits × 100 entries of payload lists (net semantics)',
    `${(await time(() => foldCommitLists(commits), 11)).toFixed(1)} ms`,
    'median of 11',
  )

  // A real repository: 10,000 files changed between two commits, read by detectChanges.
  const { detectChanges } = await load('src/history/changes.js')
  const { Logger } = await load('src/log.js')
  const repo = mkdtempSync(join(tmpdir(), 'kb-sync-bench-git-'))
  try {
    const git = (...args) =>
      execFileSync('git', args, { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] })
        .toString()
        .trim()
    git('-c', 'init.defaultBranch=main', 'init', '-q')
    git('config', 'user.email', 'bench@example.com')
    git('config', 'user.name', 'bench')
    const write = (prefix) => {
      for (let i = 0; i < N; i++) {
        const dir = join(repo, 'docs', `s${i % 100}`)
        mkdirSync(dir, { recursive: true })
        writeFileSync(join(dir, `p${i}.md`), `${prefix} ${i}\n`)
      }
    }
    write('one')
    git('add', '-A')
    git('commit', '-q', '-m', 'one')
    const before = git('rev-parse', 'HEAD')
    write('two')
    git('add', '-A')
    git('commit', '-q', '-m', 'two')
    const after = git('rev-parse', 'HEAD')
    const context = {
      eventName: 'push',
      payload: {
        ref: 'refs/heads/main',
        before,
        after,
        created: false,
        deleted: false,
        forced: false,
        commits: [],
      },
      workspace: repo,
      log: new Logger(silent),
    }
    let count = 0
    const ms = await time(async () => {
      const decision = await detectChanges(context)
      count = decision.kind === 'changes' ? decision.modified.length : -1
    })
    row(
      'detectChanges on a real repository, 10,000 modified files (git diff-tree)',
      `${ms.toFixed(0)} ms`,
      `median of 5; ${count} modified`,
    )
  } finally {
    rmSync(repo, { recursive: true, force: true })
  }
}

async function benchSync() {
  const { startEmulator } = await load('src/emulator/server.js')
  const { ServiceClient } = await load('src/service/client.js')
  const { sendPlan } = await load('src/send/send-plan.js')
  const { planSync } = await load('src/plan.js')
  const { Logger } = await load('src/log.js')
  const { DEFAULT_RETRY_POLICY } = await load('src/service/retry.js')
  const dir = mkdtempSync(join(tmpdir(), 'kb-sync-bench-docs-'))
  try {
    const files = Array.from({ length: 500 }, (_, i) => {
      const name = `docs/page-${String(i).padStart(3, '0')}.md`
      mkdirSync(join(dir, 'docs'), { recursive: true })
      const content = `# Page ${i}\n\n${'Some documentation text. '.repeat(140)}\n`
      writeFileSync(join(dir, name), content)
      return { name, path: join(dir, name), size: Buffer.byteLength(content), mtimeMs: 0 }
    })
    const target = { flowId: 'f'.repeat(24), orgId: 'bench-org', nodeId: 'knowledgebase-1' }
    for (const [label, faultRate, retryAfterSeconds] of [
      ['no faults', 0, 1],
      ['30 % faults, Retry-After 1 s', 0.3, 1],
      ['30 % faults, Retry-After 0 s', 0.3, 0],
    ]) {
      const emulator = await startEmulator({
        privateKey: 'bench-private',
        publicKey: 'bench-public',
        faultRate,
        seed: 7,
        retryAfterSeconds,
      })
      const client = new ServiceClient({ baseUrl: emulator.url, privateKey: 'bench-private', connections: 4 })
      const plan = planSync({
        selection: { files, skipped: [] },
        urls: [],
        mode: 'auto',
        changes: { kind: 'all', source: 'full-sync', reason: 'bench' },
        batchSize: 10,
      })
      const start = process.hrtime.bigint()
      const result = await sendPlan(plan, client, target, {
        concurrency: 4,
        retry: DEFAULT_RETRY_POLICY,
        log: new Logger(silent),
      })
      const seconds = Number(process.hrtime.bigint() - start) / 1e9
      const stored = emulator.documents(target.flowId, target.orgId, target.nodeId)
      const failed = result.items.filter((item) => item.outcome === 'failed').length
      const once = stored.every((d) => d.created === 1)
      row(
        `sync 500 documents (auto, empty node, concurrency 4): ${label}`,
        `${seconds.toFixed(1)} s`,
        `${result.requests} requests, ${failed} failed, ${stored.length} stored, each created once: ${once}`,
      )
      await client.close()
      await emulator.close()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * Selection's per-file checks on 2,000 files of a fresh folder (warm metadata, as after a checkout): the
 * synchronous calls selection makes against their fs/promises twins 16 at a time, and the whole selectFiles.
 */
async function benchSelection() {
  const { accessSync, constants, lstatSync } = await import('node:fs')
  const { access, lstat } = await import('node:fs/promises')
  const { selectFiles } = await load('src/select/files.js')
  const workspace = mkdtempSync(join(tmpdir(), 'kb-sync-bench-select-'))
  try {
    mkdirSync(join(workspace, 'docs'))
    const paths = Array.from({ length: 2000 }, (_, i) => join(workspace, 'docs', `page-${i}.md`))
    for (const path of paths) writeFileSync(path, '# Page\n')
    // The action makes these calls once, in a process just started: the first run is the one it sees.
    const firstThenMedian = async (fn) => {
      const start = process.hrtime.bigint()
      await fn()
      const first = Number(process.hrtime.bigint() - start) / 1e6
      return `${first.toFixed(1)} ms first, ${(await time(fn, 11)).toFixed(1)} ms median of 11`
    }
    const sync = () => {
      for (const path of paths) {
        lstatSync(path)
        accessSync(path, constants.R_OK)
      }
    }
    const concurrent = async () => {
      let next = 0
      const worker = async () => {
        while (next < paths.length) {
          const path = paths[next++]
          await lstat(path)
          await access(path, constants.R_OK)
        }
      }
      await Promise.all(Array.from({ length: 16 }, worker))
    }
    // The asynchronous calls first: all the synchronous ones gain from that is warm file metadata, which a
    // fresh checkout has too.
    row('lstat + access of 2,000 files, fs/promises 16 at a time', await firstThenMedian(concurrent))
    row('lstat + access of 2,000 files, synchronous', await firstThenMedian(sync))
    const options = { patterns: ['docs/**'], workspace, includeHidden: false, maxFileSize: 1 << 20 }
    const selected = await time(() => selectFiles({ ...options, followSymlinks: 'inside' }), 11)
    row('selectFiles on 2,000 files', `${selected.toFixed(1)} ms`, 'median of 11, in process')
  } finally {
    rmSync(workspace, { recursive: true, force: true })
  }
}

async function benchStartup() {
  for (const bundle of ['dist/index.js', 'dist/run-flow/index.js', 'dist/cli/index.js']) {
    const args = bundle.includes('cli') ? [join(root, bundle), '--help'] : [join(root, bundle)]
    const ms = await time(() => {
      try {
        execFileSync(process.execPath, args, { stdio: 'ignore', env: { PATH: process.env.PATH } })
      } catch {
        // The actions exit 1 without inputs: start-up is what is measured.
      }
    })
    row(`start-up of ${bundle}`, `${ms.toFixed(0)} ms`, 'median of 5, includes Node start')
  }
}

const benches = {
  changes: benchChanges,
  sync: benchSync,
  startup: benchStartup,
  selection: benchSelection,
  'side-by-side': async () => (await import('./side-by-side.mjs')).benchSideBySide({ row, load, silent }),
  curve: async () => (await import('./side-by-side.mjs')).benchCurve({ row }),
  requests: async () => (await import('./requests.mjs')).benchRequests({ row, load, silent }),
  scale: async () => (await import('./scale.mjs')).benchScale({ row, load }),
  state: async () => (await import('./state.mjs')).benchState({ row, load }),
  record: async () => (await import('./record.mjs')).benchRecord({ row, load }),
  'record-sync': async () => (await import('./record-sync.mjs')).benchRecordSync({ row }),
  matching: async () =>
    (await import('./matching.mjs')).benchMatching({
      row,
      work: (await load('src/flow/expect.js')).MAX_MATCH_WORK,
    }),
}
// The side-by-side and curve parts run the bundle for a minute or more (side-by-side writes 512 MiB of
// documents, and keeps up to 512 MiB of the emulator's copies of them): only when asked for.
const selected = only ? [only] : ['changes', 'sync', 'startup', 'selection']
if (!selected.every((name) => name in benches))
  throw new Error(`unknown part ${only}; parts: ${Object.keys(benches).join(', ')}`)
if (!process.env.BENCH_NO_COMPILE) compile()
for (const name of selected) await benches[name]()
console.log(`\nNode ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}\n`)
console.log('| benchmark | result | note |\n|---|---|---|\n' + rows.join('\n'))
