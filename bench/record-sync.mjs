// npm run bench -- record-sync: the incremental sync from the knowledge base's record (issue 39) side by
// side with the history-based one, through the action's bundle (dist/index.js) run as the runner runs it,
// against the constant stand-in service (no work per document, answers after 20 ms). For each size N, a
// real git repository of N documents of 2 KB (docs/sNN/, 100 folders; commit 1), then commit 2 modifying
// 1 % of them, adding 0.1 % and deleting 0.1 %. Each run:
//   0. full-plain — commit 1 checked out, `mode: upload`, no `state-file` (and no ACTIONS_RUNTIME_TOKEN, so no
//      record is kept): the full sync as before the record, the like-for-like baseline of step 1;
//   1. full   — commit 1 checked out, `mode: upload`, `state-file` set: every document sent, the record written;
//   2. record — commit 2, `mode: auto` from that record (`state-file`), on a push event: the output
//      `base-source` must be `state` and the counts exact (update 1 %, upload 0.1 %, blank 0.1 %);
//   3. history — commit 2, `mode: auto`, the same push event (before/after in GITHUB_EVENT_PATH), no
//      `state-file` and no ACTIONS_RUNTIME_TOKEN: no record, the change set from `git diff` as runs without
//      a record do; `base-source` must be `push`, the counts the same.
// The bench fails loudly when a run fails or a count is off. Wall time and peak RSS (/usr/bin/time -v) of
// the whole process, the requests the service saw, the record file's size, and the time of each of the
// log's groups (stdout read as it comes, `::group::`/`::endgroup::` stamped on arrival).
// BENCH_RECORD_COUNTS (2000,20000,100000) and BENCH_RECORD_RUNS (3) set the sizes and runs; the four
// steps are alternated within each run, so load from elsewhere falls on all of them.
// Needs `npm run bundle`.
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  ACTION,
  actionEnv,
  FLOW,
  median,
  ms,
  NODE,
  ORG,
  PRIVATE_KEY,
  startConstantService,
} from './side-by-side.mjs'

const COUNTS = (process.env.BENCH_RECORD_COUNTS ?? '2000,20000,100000').split(',').map(Number)
const RUNS = Number(process.env.BENCH_RECORD_RUNS ?? 3)
const TEXT = 'Some documentation text. '.repeat(80)
const document = (i, version) => `# Page ${i} (${version})\n\n${TEXT}\n`
const STEPS = ['full-plain', 'full', 'record', 'history']

function git(cwd, ...args) {
  return execFileSync('git', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 26 })
    .toString()
    .trim()
}

const pathOf = (i) => `docs/s${String(i % 100).padStart(2, '0')}/p${String(i).padStart(6, '0')}.md`

/** The two commits; the working tree is left at commit 2. */
function makeRepository(dir, count) {
  git(dir, '-c', 'init.defaultBranch=main', 'init', '-q')
  git(dir, 'config', 'user.email', 'bench@example.com')
  git(dir, 'config', 'user.name', 'bench')
  for (let f = 0; f < 100; f++)
    mkdirSync(join(dir, 'docs', `s${String(f).padStart(2, '0')}`), { recursive: true })
  for (let i = 0; i < count; i++) writeFileSync(join(dir, pathOf(i)), document(i, 'one'))
  git(dir, 'add', '-A')
  git(dir, 'commit', '-q', '-m', 'one')
  const before = git(dir, 'rev-parse', 'HEAD')
  // 1 % modified (i ≡ 0 mod 100), 0.1 % deleted (i ≡ 1 mod 1000), 0.1 % added after the last.
  const modified = []
  const removed = []
  const added = []
  for (let i = 0; i < count; i += 100) modified.push(i)
  for (let i = 1; i < count; i += 1000) removed.push(i)
  for (let j = 0; j < count / 1000; j++) added.push(count + j)
  for (const i of modified) writeFileSync(join(dir, pathOf(i)), document(i, 'two'))
  for (const i of removed) rmSync(join(dir, pathOf(i)))
  for (const i of added) writeFileSync(join(dir, pathOf(i)), document(i, 'one'))
  git(dir, 'add', '-A')
  git(dir, 'commit', '-q', '-m', 'two')
  return {
    before,
    after: git(dir, 'rev-parse', 'HEAD'),
    expected: { updated: modified.length, uploaded: added.length, removed: removed.length },
  }
}

/** The value of one output in a GITHUB_OUTPUT file. */
function output(temp, name) {
  const text = readFileSync(join(temp, 'output'), 'utf8')
  return new RegExp(`^${name}<<(\\S+)\\n([\\s\\S]*?)\\n\\1$`, 'm').exec(text)?.[2]
}

/**
 * Runs the bundle under /usr/bin/time -v with `env`; stdout is read as it comes and each group's start and
 * end stamped on arrival. Resolves with wall time, peak RSS (MiB), exit code, stderr and the groups' times.
 */
function runTimed(env, cwd) {
  return new Promise((resolve, reject) => {
    const start = performance.now()
    const child = spawn('/usr/bin/time', ['-v', NODE, ACTION], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env,
      cwd,
    })
    let stderr = ''
    let pending = ''
    let open
    const groups = []
    const tail = []
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.stdout.on('data', (chunk) => {
      const now = performance.now()
      pending += chunk
      const lines = pending.split('\n')
      pending = lines.pop()
      for (const line of lines) {
        if (line.startsWith('::group::')) open = { name: line.slice(9), start: now }
        else if (line.startsWith('::endgroup::') && open) {
          groups.push({ name: open.name, ms: now - open.start })
          open = undefined
        }
        tail.push(line)
        if (tail.length > 60) tail.shift()
      }
    })
    child.on('error', reject)
    child.on('close', (code) => {
      const kb = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)
      resolve({
        ms: performance.now() - start,
        code,
        stderr,
        stdout: tail.join('\n'),
        rss: Number(kb?.[1]) / 1024,
        groups,
      })
    })
  })
}

/** Total time of the groups named `name` (the record is written twice: before the first request and at the end). */
const groupMs = (groups, name) => groups.filter((g) => g.name === name).reduce((sum, g) => sum + g.ms, 0)

let nodeCounter = 0

async function step(kind, service, workspace, repo, stateFile) {
  const temp = mkdtempSync(join(tmpdir(), 'kb-sync-bench-record-sync-'))
  try {
    const inputs = {
      'base-url': service.url,
      'flow-id': FLOW,
      'org-id': ORG,
      'node-id': kind === 'full' || kind === 'record' ? 'record' : `${kind}-${++nodeCounter}`,
      'private-key': PRIVATE_KEY,
      files: 'docs/**',
      mode: kind.startsWith('full') ? 'upload' : 'auto',
    }
    const keeps = kind === 'full' || kind === 'record'
    if (keeps) inputs['state-file'] = stateFile
    const push = {
      ref: 'refs/heads/main',
      before: repo.before,
      after: repo.after,
      created: false,
      deleted: false,
      forced: false,
      commits: [],
      repository: { full_name: 'bench/docs' },
    }
    const env = kind.startsWith('full')
      ? actionEnv(workspace, temp, inputs)
      : {
          ...actionEnv(workspace, temp, inputs, 'push', push),
          GITHUB_SHA: repo.after,
          GITHUB_REF: push.ref,
        }
    const before = service.entries().length
    const result = await runTimed(env, workspace)
    const requests = service.entries().length - before
    const counts = Object.fromEntries(
      ['uploaded', 'updated', 'removed', 'failed'].map((name) => [
        name,
        Number(output(temp, `${name}-count`)),
      ]),
    )
    const baseSource = output(temp, 'base-source') ?? ''
    const want = kind.startsWith('full')
      ? { uploaded: repo.count, updated: 0, removed: 0, failed: 0 }
      : { ...repo.expected, failed: 0 }
    const wantSource = { record: 'state', history: 'push' }[kind]
    const wrong = Object.entries(want).filter(([name, value]) => counts[name] !== value)
    if (result.code !== 0 || wrong.length > 0 || (wantSource && baseSource !== wantSource))
      throw new Error(
        `${kind} sync of ${repo.count} documents: exit ${result.code}, base-source "${baseSource}" (expected ` +
          `"${wantSource ?? 'any'}"), counts ${JSON.stringify(counts)} (expected ${JSON.stringify(want)})\n` +
          `${result.stdout}\n${result.stderr.slice(-3000)}`,
      )
    const recordBytes = keeps && existsSync(stateFile) ? statSync(stateFile).size : 0
    if (keeps && recordBytes === 0)
      throw new Error(`${kind} sync of ${repo.count} documents wrote no record at ${stateFile}`)
    return { ...result, requests, recordBytes }
  } finally {
    rmSync(temp, { recursive: true, force: true })
  }
}

const GROUPS = ['Recorded state', 'Selection', 'Change detection', 'Plan', 'Record', 'Send']

export async function benchRecordSync({ row }) {
  if (!existsSync(ACTION)) throw new Error(`${ACTION} is missing: run npm run bundle first`)
  if (!existsSync('/usr/bin/time')) throw new Error('/usr/bin/time is needed for peak RSS')
  const version = execFileSync(NODE, ['-v'], { encoding: 'utf8' }).trim()
  row(
    'settings',
    `${RUNS} runs per size, steps alternated`,
    `action on Node ${version}; constant stand-in service (no work per document, 20 ms); documents of 2 KB`,
  )
  const work = mkdtempSync(join(tmpdir(), 'kb-sync-bench-record-sync-'))
  const service = await startConstantService()
  try {
    for (const count of COUNTS) {
      const workspace = join(work, `repo-${count}`)
      mkdirSync(workspace)
      const made = performance.now()
      const repo = { count, ...makeRepository(workspace, count) }
      console.error(`${count} documents: repository made in ${ms(performance.now() - made)}`)
      const stateFile = join(work, `record-${count}.json.gz`)
      const samples = Object.fromEntries(STEPS.map((kind) => [kind, []]))
      for (let i = 0; i < RUNS; i++) {
        rmSync(stateFile, { force: true })
        git(workspace, 'checkout', '-q', repo.before)
        samples['full-plain'].push(await step('full-plain', service, workspace, repo, stateFile))
        samples.full.push(await step('full', service, workspace, repo, stateFile))
        git(workspace, 'checkout', '-q', repo.after)
        samples.record.push(await step('record', service, workspace, repo, stateFile))
        samples.history.push(await step('history', service, workspace, repo, stateFile))
        console.error(
          `${count} documents, run ${i + 1}: ${STEPS.map((k) => `${k} ${ms(samples[k].at(-1).ms)}`).join(', ')}`,
        )
      }
      const label = count.toLocaleString('en-US')
      for (const kind of STEPS) {
        const runs = samples[kind]
        const groups = GROUPS.map((name) => [name, median(runs.map((r) => groupMs(r.groups, name)))])
          .filter(([, value]) => value > 0)
          .map(([name, value]) => `${name} ${ms(value)}`)
          .join(', ')
        const record = runs[0].recordBytes
          ? `record ${(median(runs.map((r) => r.recordBytes)) / 1024).toFixed(0)} KiB`
          : 'no record'
        row(
          `${label} documents, ${kind}`,
          `${ms(median(runs.map((r) => r.ms)))}, ${median(runs.map((r) => r.rss)).toFixed(0)} MiB, ${median(runs.map((r) => r.requests))} requests, ${record}`,
          `median of ${RUNS} (wall ${runs.map((r) => ms(r.ms)).join(', ')}; peak ${runs.map((r) => r.rss.toFixed(0)).join(', ')} MiB); groups: ${groups}`,
        )
      }
      const share = samples.record.map(
        (r) => groupMs(r.groups, 'Recorded state') + groupMs(r.groups, 'Record'),
      )
      row(
        `${label} documents: the record's own share of the incremental sync`,
        ms(median(share)),
        `read and decode ("Recorded state") + write before the first request and at the end ("Record"); runs ${share.map(ms).join(', ')}`,
      )
      const fullExtra = samples.full.map((r, i) => r.ms - samples['full-plain'][i].ms)
      row(
        `${label} documents: full − full-plain (the record's cost on a full sync), per run`,
        ms(median(fullExtra)),
        `runs ${fullExtra.map(ms).join(', ')}; peak RSS ${median(samples['full-plain'].map((r) => r.rss)).toFixed(0)} → ${median(samples.full.map((r) => r.rss)).toFixed(0)} MiB`,
      )
      const extra = samples.record.map((r, i) => r.ms - samples.history[i].ms)
      row(
        `${label} documents: record − history, per run`,
        ms(median(extra)),
        `runs ${extra.map(ms).join(', ')}`,
      )
      rmSync(workspace, { recursive: true, force: true })
    }
  } finally {
    await service.stop()
    rmSync(work, { recursive: true, force: true })
  }
}
