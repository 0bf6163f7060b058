// npm run bench -- side-by-side: the action's bundle next to what it replaces, in one run, against the
// emulator (`kb-sync serve --latency 20`), with the ratios of issue 13's targets. Needs `npm run bundle`
// (it runs dist/ as the runner does) and the tsc build of bench/run.mjs (for the in-process parts).
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const CLI = join(root, 'dist/cli/index.js')
// BENCH_ACTION: another build of the index action (e.g. an earlier commit's dist/index.js), for before/after.
export const ACTION = process.env.BENCH_ACTION ?? join(root, 'dist/index.js')
// BENCH_NODE: the Node that runs the action and the baselines (the runner's is node24; e.g.
// `BENCH_NODE=$(npx -y node@24 -p process.execPath)`). The emulator runs on the bench's own Node.
export const NODE = process.env.BENCH_NODE ?? process.execPath
export const LEAST_CLIENT = join(root, 'bench/least-client.mjs')
export const LATENCY_MS = 20
export const PRIVATE_KEY = 'bench-private-key'
const PUBLIC_KEY = 'bench-public-key'
export const FLOW = 'f'.repeat(24)
export const ORG = 'bench-org'
const MiB = 1024 * 1024

export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
export const ms = (value) => `${Math.round(value)} ms`

// Every process the bench times gets the environment the action gets (actionEnv adds only GITHUB_* and
// INPUT_*), baselines included: an inherited variable can change a start. With NODE_EXTRA_CA_CERTS set
// (as on this project's machine), Node 20 reads the CA bundle at every start: `node -e ''` took ~50 ms
// instead of ~20, which made the baselines, and the action's ratios to them, look better than they were.
const BASE_ENV = { PATH: process.env.PATH, HOME: process.env.HOME }

/** Spawns (with BASE_ENV unless `options.env` says otherwise) and waits; resolves with wall time, exit code and stderr. */
export function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const start = performance.now()
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'], env: BASE_ENV, ...options })
    let stderr = ''
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({ ms: performance.now() - start, code, stderr, pid: child.pid }))
  })
}

/** The emulator in its own process, so its work is not counted in the bench process's event loop. */
async function startEmulator(dataDir) {
  const child = spawn(
    process.execPath,
    [
      CLI,
      'serve',
      '--latency',
      String(LATENCY_MS),
      '--data-dir',
      dataDir,
      '--private-key',
      PRIVATE_KEY,
      '--public-key',
      PUBLIC_KEY,
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  )
  const url = await new Promise((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (chunk) => {
      out += chunk
      const line = out.split('\n').find((l) => l.startsWith('http'))
      if (line) resolve(line.trim())
    })
    child.on('error', reject)
    child.on('close', (code) => reject(new Error(`the emulator exited (${code})`)))
  })
  const log = join(dataDir, 'requests.jsonl')
  const entries = () =>
    existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).map(JSON.parse) : []
  // The emulator's own CPU time (utime + stime, in clock ticks of 10 ms): a slow emulator, not the client,
  // may be what bounds a run.
  const cpuMs = () => {
    const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10
  }
  return {
    url,
    entries,
    cpuMs,
    stop: () => new Promise((resolve) => (child.once('close', resolve), child.kill('SIGTERM'))),
  }
}

/**
 * Where the emulator keeps its documents: in memory (/dev/shm) when there is room, else under `work`.
 * The emulator stores every document as a file; on this project's VM creating a file on its disk costs
 * ~1.5–2.3 ms of kernel time (strace: openat 2.3 ms per call), so at 2,000 documents the emulator, not the
 * client, would set the pace. A real service does not pay that per document on the client's clock.
 */
function emulatorDataDir(work) {
  try {
    const { bavail, bsize } = statfsSync('/dev/shm')
    if (bavail * bsize > 4 * 1024 * MiB)
      return { dir: mkdtempSync('/dev/shm/kb-sync-bench-emulator-'), where: 'memory (/dev/shm)' }
  } catch {
    // No /dev/shm (macOS) or not writable: the temp folder.
  }
  return { dir: mkdtempSync(join(work, 'emulator-')), where: 'disk (os.tmpdir())' }
}

/**
 * A stand-in service that does no work per document: it reads each request to its end and answers 200
 * after the latency. Against it the run shows the client's own schedule, which the emulator's per-document
 * file work (one thread) hides at 2,000 documents.
 */
export async function startConstantService(latencyMs = LATENCY_MS) {
  const arrivals = []
  const server = http.createServer((request, response) => {
    arrivals.push({ time: new Date().toISOString(), method: request.method })
    request.resume()
    request.on('end', () =>
      setTimeout(() => {
        response.setHeader('content-type', 'application/json')
        response.end('{"uploaded":[]}')
      }, latencyMs),
    )
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    entries: () => arrivals,
    cpuMs: () => 0,
    stop: () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))),
  }
}

function writeDocs(dir, count, folder = 'docs') {
  mkdirSync(join(dir, folder), { recursive: true })
  const names = []
  for (let i = 0; i < count; i++) {
    const name = `${folder}/page-${String(i).padStart(5, '0')}.md`
    writeFileSync(join(dir, name), `# Page ${i}\n\n${'Some documentation text. '.repeat(220)}\n`)
    names.push(name)
  }
  return names
}

const metadata = parse(readFileSync(join(root, 'action.yml'), 'utf8'))
const DEFAULTS = Object.fromEntries(
  Object.entries(metadata.inputs).map(([name, input]) => [
    name,
    String(input.default ?? '').includes('${{') ? '' : String(input.default ?? ''),
  ]),
)
export const batchSize = Number(process.env.BENCH_BATCH_SIZE ?? DEFAULTS['batch-size'])
export const concurrency = Number(process.env.BENCH_CONCURRENCY ?? DEFAULTS.concurrency)

/** The runner's environment for the index action: action.yml defaults, then the inputs, as INPUT_*. */
export function actionEnv(workspace, temp, inputs, eventName = 'workflow_dispatch', payload = {}) {
  const env = {
    ...BASE_ENV,
    GITHUB_ACTIONS: 'true',
    GITHUB_OUTPUT: join(temp, 'output'),
    GITHUB_STEP_SUMMARY: join(temp, 'summary'),
    GITHUB_EVENT_PATH: join(temp, 'event.json'),
    GITHUB_EVENT_NAME: eventName,
    GITHUB_WORKSPACE: workspace,
    GITHUB_REPOSITORY: 'bench/docs',
    RUNNER_TEMP: temp,
  }
  writeFileSync(env.GITHUB_OUTPUT, '')
  writeFileSync(env.GITHUB_STEP_SUMMARY, '')
  writeFileSync(env.GITHUB_EVENT_PATH, JSON.stringify(payload))
  const all = { ...DEFAULTS, 'batch-size': String(batchSize), concurrency: String(concurrency), ...inputs }
  for (const [name, value] of Object.entries(all)) env[`INPUT_${name.toUpperCase()}`] = value
  return env
}

/** Number of entries of one output (a JSON array) in a GITHUB_OUTPUT file. */
export function outputCount(temp, name) {
  const text = readFileSync(join(temp, 'output'), 'utf8')
  const match = new RegExp(`^${name}<<(\\S+)\\n([\\s\\S]*?)\\n\\1$`, 'm').exec(text)
  return match ? JSON.parse(match[2]).length : 0
}

/** The inputs of an upload of docs/** to a fresh node of the service at `url`. */
export function uploadInputs(url, nodeId) {
  return {
    'base-url': url,
    'flow-id': FLOW,
    'org-id': ORG,
    'node-id': nodeId,
    'private-key': PRIVATE_KEY,
    files: 'docs/**',
    mode: 'upload',
  }
}

let nodeCounter = 0
/** Runs dist/index.js uploading `files` of `workspace` to a fresh node; checks every document landed. */
async function runAction(emulator, workspace, expected, inputs = {}, settings = { batchSize, concurrency }) {
  const temp = mkdtempSync(join(tmpdir(), 'kb-sync-bench-run-'))
  try {
    const env = actionEnv(workspace, temp, {
      ...uploadInputs(emulator.url, `node-${++nodeCounter}`),
      'batch-size': String(settings.batchSize),
      concurrency: String(settings.concurrency),
      ...inputs,
    })
    const before = emulator.entries().length
    const cpuBefore = emulator.cpuMs()
    const spawnedAt = Date.now()
    const result = await run(NODE, [ACTION], { env, cwd: workspace })
    const emulatorCpu = emulator.cpuMs() - cpuBefore
    const sent = emulator.entries().slice(before)
    const uploaded = outputCount(temp, 'uploaded')
    if (result.code !== 0 || uploaded !== expected)
      throw new Error(
        `the action failed (exit ${result.code}, ${uploaded} of ${expected} uploaded): ${result.stderr.slice(-2000)}`,
      )
    // The send phase: the first request's arrival to the action's exit. The log has arrival times only, and
    // a single-threaded emulator may still be working through the last requests long after they arrived;
    // the exit comes ~15 ms after the last answer (report, outputs), so this is a slight overestimate.
    const sendMs = spawnedAt + result.ms - Date.parse(sent[0].time)
    const firstMs = Date.parse(sent[0].time) - spawnedAt
    return { ...result, requests: sent.length, emulatorCpu, sendMs, firstMs }
  } finally {
    rmSync(temp, { recursive: true, force: true })
  }
}

/** bench/least-client.mjs uploading every file of `folder` to a fresh node; checks the request count. */
async function runLeastClient(service, folder, expectedRequests) {
  const url = `${service.url}/indexing/v0/documents/${FLOW}/${ORG}/least-${++nodeCounter}`
  const before = service.entries().length
  const result = await run(NODE, [
    LEAST_CLIENT,
    url,
    folder,
    String(batchSize),
    String(concurrency),
    PRIVATE_KEY,
  ])
  const requests = service.entries().length - before
  if (result.code !== 0 || requests !== expectedRequests)
    throw new Error(`the least client failed (exit ${result.code}, ${requests} requests): ${result.stderr}`)
  return result.ms
}

/** One process per file, one after another: curl when present, else a tiny node script. */
async function runLoop(emulator, workspace, names) {
  const url = `${emulator.url}/indexing/v0/documents/${FLOW}/${ORG}/loop-${++nodeCounter}`
  const curl = hasCommand('curl')
  const script =
    'const [u,k,p,n]=process.argv.slice(1);const f=new FormData();' +
    "f.append('files',await require('node:fs').openAsBlob(p,{type:'text/markdown'}),n);" +
    "const r=await fetch(u,{method:'POST',headers:{authorization:'Bearer '+k},body:f});process.exit(r.ok?0:1)"
  const start = performance.now()
  for (const name of names) {
    const path = join(workspace, name)
    const result = curl
      ? await run('curl', [
          '-sSf',
          '-o',
          '/dev/null',
          '-X',
          'POST',
          '-H',
          `authorization: Bearer ${PRIVATE_KEY}`,
          '-F',
          `files=@${path};filename=${name};type=text/markdown`,
          url,
        ])
      : await run(NODE, [
          '--input-type=commonjs',
          '-e',
          `(async()=>{${script}})()`,
          url,
          PRIVATE_KEY,
          path,
          name,
        ])
    if (result.code !== 0) throw new Error(`the loop failed on ${name}: ${result.stderr}`)
  }
  return { ms: performance.now() - start, tool: curl ? 'curl' : 'node' }
}

function hasCommand(name) {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/**
 * Runs `args` with NODE, timed, and its peak RSS in MiB: /usr/bin/time -v when present (its own start is
 * a fork and exec, the same for both clients), else VmHWM from /proc polled every 10 ms.
 */
export async function timedWithPeak(args, options) {
  if (existsSync('/usr/bin/time')) {
    const result = await run('/usr/bin/time', ['-v', NODE, ...args], options)
    const kb = /Maximum resident set size \(kbytes\): (\d+)/.exec(result.stderr)
    return { ...result, rss: kb ? Number(kb[1]) / 1024 : NaN }
  }
  const start = performance.now()
  const child = spawn(NODE, args, { stdio: ['ignore', 'ignore', 'pipe'], env: BASE_ENV, ...options })
  let stderr = ''
  child.stderr.on('data', (chunk) => (stderr += chunk))
  let peakKb = 0
  const poll = setInterval(() => {
    try {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8')
      peakKb = Math.max(peakKb, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0))
    } catch {
      // The process has just ended.
    }
  }, 10)
  const code = await new Promise((resolve) => child.on('close', resolve))
  clearInterval(poll)
  return { ms: performance.now() - start, code, stderr, rss: peakKb / 1024 }
}

/** Peak RSS in MiB of a run that must succeed. */
async function peakRss(args, options) {
  const result = await timedWithPeak(args, options)
  if (result.code !== 0 || !Number.isFinite(result.rss) || result.rss === 0)
    throw new Error(`peak RSS run failed (exit ${result.code}): ${result.stderr.slice(-2000)}`)
  return result.rss
}

/** Milliseconds from spawning `args` to the first request the emulator logs. */
async function startToFirstRequest(emulator, args, options) {
  const before = emulator.entries().length
  const spawnedAt = Date.now()
  const result = await run(NODE, args, options)
  const first = emulator.entries()[before]
  if (!first)
    throw new Error(`no request reached the emulator (exit ${result.code}): ${result.stderr.slice(-2000)}`)
  return Date.parse(first.time) - spawnedAt
}

function writeBig(dir, count, bytes) {
  mkdirSync(join(dir, 'docs'), { recursive: true })
  const chunk = Buffer.alloc(MiB, 'Large document text. ')
  for (let i = 0; i < count; i++) {
    const file = join(dir, 'docs', `big-${i}.txt`)
    writeFileSync(file, '')
    for (let written = 0; written < bytes; written += MiB) writeFileSync(file, chunk, { flag: 'a' })
  }
}

function git(cwd, ...args) {
  return execFileSync('git', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    .toString()
    .trim()
}

/** A git repository of `count` documents, then a commit changing `changed` of them. */
function pushRepository(dir, count, changed) {
  git(dir, '-c', 'init.defaultBranch=main', 'init', '-q')
  git(dir, 'config', 'user.email', 'bench@example.com')
  git(dir, 'config', 'user.name', 'bench')
  for (let i = 0; i < count; i++) {
    const folder = join(dir, 'docs', `s${i % 100}`)
    mkdirSync(folder, { recursive: true })
    writeFileSync(join(folder, `p${i}.md`), `one ${i}\n`)
  }
  git(dir, 'add', '-A')
  git(dir, 'commit', '-q', '-m', 'one')
  const before = git(dir, 'rev-parse', 'HEAD')
  for (let i = 0; i < changed; i++) writeFileSync(join(dir, 'docs', `s${i % 100}`, `p${i}.md`), `two ${i}\n`)
  git(dir, 'commit', '-q', '-am', 'two')
  return { before, after: git(dir, 'rev-parse', 'HEAD') }
}

/** The index job in this process (tsc build), timed: change detection alone, and the whole dry run. */
async function pushSelection(load, silent, dir, commits, expected) {
  const { runIndexJob } = await load('src/jobs/index-job.js')
  const { detectChanges } = await load('src/history/changes.js')
  const { readIndexConfig } = await load('src/config/index-config.js')
  const { Logger } = await load('src/log.js')
  const inputs = { 'flow-id': FLOW, 'org-id': ORG, 'node-id': 'push', files: 'docs/**', 'dry-run': 'true' }
  const config = readIndexConfig((name) => inputs[name] ?? '', { eventName: 'push' })
  const payload = {
    ref: 'refs/heads/main',
    ...commits,
    created: false,
    deleted: false,
    forced: false,
    commits: [],
  }
  const context = { workspace: dir, eventName: 'push', payload, log: new Logger(silent) }
  const detect = []
  const total = []
  for (let i = 0; i < 7; i++) {
    let start = performance.now()
    await detectChanges({ ...context })
    detect.push(performance.now() - start)
    start = performance.now()
    const report = await runIndexJob(config, context)
    total.push(performance.now() - start)
    if (report.planned.length !== expected)
      throw new Error(`push plan has ${report.planned.length} items, expected ${expected}`)
  }
  return { detect: median(detect), total: median(total) }
}

export async function benchSideBySide({ row, load, silent }) {
  for (const bundle of [CLI, ACTION])
    if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run npm run bundle first`)
  const work = mkdtempSync(join(tmpdir(), 'kb-sync-bench-side-'))
  const data = emulatorDataDir(work)
  const emulator = await startEmulator(data.dir)
  const results = {}
  try {
    const version = execFileSync(NODE, ['-v'], { encoding: 'utf8' }).trim()
    row(
      'settings',
      `batch-size ${batchSize}, concurrency ${concurrency}`,
      `action on Node ${version}; emulator latency ${LATENCY_MS} ms, its documents on ${data.where}`,
    )
    const starts = []
    for (let i = 0; i < 5; i++) starts.push((await run(NODE, ['-e', ''])).ms)
    const nodeStart = median(starts)
    row("Node's own start (`node -e ''`)", ms(nodeStart), 'median of 5')
    const ideal = (requests) => Math.ceil(requests / concurrency) * LATENCY_MS + nodeStart

    for (const count of [400, 2000]) {
      const workspace = join(work, `docs-${count}`)
      const names = writeDocs(workspace, count)
      const samples = []
      const emulatorCpu = []
      const sends = []
      const firsts = []
      let requests = 0
      for (let i = 0; i < 3; i++) {
        const result = await runAction(emulator, workspace, count)
        samples.push(result.ms)
        emulatorCpu.push(result.emulatorCpu)
        sends.push(result.sendMs)
        firsts.push(result.firstMs)
        requests = result.requests
      }
      const action = median(samples)
      const idealSend = Math.ceil(requests / concurrency) * LATENCY_MS
      row(
        `action, ${count} documents of 5.5 KB`,
        ms(action),
        `median of 3; ${requests} requests; ideal ${ms(ideal(requests))}; emulator CPU ${ms(median(emulatorCpu))}`,
      )
      row(
        `action, ${count} documents: send phase (first request to exit)`,
        ms(median(sends)),
        `median of 3; ideal send schedule ${ms(idealSend)}; first request ${ms(median(firsts))} after the start`,
      )
      results[`action${count}`] = action
      results[`ideal${count}`] = ideal(requests)
      results[`send${count}`] = median(sends) / idealSend
      if (count === 2000) {
        const constant = await startConstantService()
        const alone = { walls: [], sends: [] }
        const least = []
        try {
          for (let i = 0; i < 3; i++) {
            const result = await runAction(constant, workspace, count)
            alone.walls.push(result.ms)
            alone.sends.push(result.sendMs)
            least.push(await runLeastClient(constant, join(workspace, 'docs'), requests))
          }
        } finally {
          await constant.stop()
        }
        row(
          `action, ${count} documents, against a service that does no per-document work`,
          ms(median(alone.walls)),
          `median of 3; send phase ${ms(median(alone.sends))}, ideal send schedule ${ms(idealSend)}`,
        )
        row(
          `least client (bench/least-client.mjs), the same ${requests} requests, same service`,
          ms(median(least)),
          'median of 3, alternated with the action; reads each file, one buffer per batch, no checks',
        )
        results.constant2000 = median(alone.walls) / ideal(requests)
        results.constantSend2000 = median(alone.sends) / idealSend
        results.leastIdeal2000 = median(least) / ideal(requests)
        results.actionLeast2000 = median(alone.walls) / median(least)
      }
      if (count === 400) {
        const loop = await runLoop(emulator, workspace, names)
        row(
          `one ${loop.tool} process per file, ${count} documents, one after another`,
          ms(loop.ms),
          'one run',
        )
        results.loop400 = loop.ms
      }
      rmSync(workspace, { recursive: true, force: true })
    }

    // Start to first request: the action with one tiny file vs a bare `node -e` making one request, with
    // node:http and with undici, the project's HTTP client (issue 13: "undici stays"). The undici one loads
    // only what the action's bundle loads of it (an Agent and the request API, src/net/undici-lean.ts);
    // undici's root module, as most scripts would load it, is shown too.
    const tiny = join(work, 'tiny')
    writeDocs(tiny, 1)
    const temp = mkdtempSync(join(tmpdir(), 'kb-sync-bench-run-'))
    const tinyEnv = (nodeId) => actionEnv(tiny, temp, uploadInputs(emulator.url, nodeId))
    const target = emulator.url + '/indexing/v0/documents/a/b/c'
    const undiciFile = (file) => JSON.stringify(join(root, 'node_modules/undici', file))
    const baselines = {
      bareFirst: `require('node:http').request(${JSON.stringify(target)},{method:'POST'},(r)=>r.resume()).end()`,
      undiciFirst:
        `const D=require(${undiciFile('lib/dispatcher/dispatcher.js')});` +
        `Object.assign(D.prototype,require(${undiciFile('lib/api/index.js')}));` +
        `const a=new (require(${undiciFile('lib/dispatcher/agent.js')}))();` +
        `a.request({origin:${JSON.stringify(emulator.url)},path:new URL(${JSON.stringify(target)}).pathname,method:'POST',body:''})` +
        `.then((r)=>r.body.dump()).finally(()=>a.close())`,
      undiciRootFirst: `require(${undiciFile('')}).request(${JSON.stringify(target)},{method:'POST',body:''}).then((r)=>r.body.dump())`,
    }
    const firsts = { actionFirst: [], bareFirst: [], undiciFirst: [], undiciRootFirst: [] }
    for (let i = 0; i < 5; i++) {
      firsts.actionFirst.push(
        await startToFirstRequest(emulator, [ACTION], { env: tinyEnv(`first-${i}`), cwd: tiny }),
      )
      for (const [name, code] of Object.entries(baselines))
        firsts[name].push(await startToFirstRequest(emulator, ['-e', code]))
    }
    for (const [name, samples] of Object.entries(firsts)) results[name] = median(samples)
    row('start to first request: action (1 tiny file)', ms(results.actionFirst), 'median of 5')
    row('start to first request: bare `node -e` (node:http)', ms(results.bareFirst), 'median of 5')
    row(
      'start to first request: bare `node -e` (undici Agent, what the bundle loads of undici)',
      ms(results.undiciFirst),
      'median of 5',
    )
    row(
      "start to first request: bare `node -e` (undici's root module, `request()`)",
      ms(results.undiciRootFirst),
      'median of 5',
    )

    // Peak RSS: 1 tiny file vs 2 × 256 MiB.
    // Median of 3 each: one run's peak moves by a few MiB, and the 10 % target is a few MiB wide. With
    // `ownEmulator` (the big documents) each run gets an emulator of its own, removed with what it stored:
    // one emulator would keep every run's copies (~3 GB in /dev/shm) until the bench ends.
    const peakOf = async (flags, dir, tag, { ownEmulator = false, inputs = {} } = {}) => {
      const peaks = []
      for (let i = 0; i < 3; i++) {
        const own = ownEmulator ? emulatorDataDir(work) : undefined
        const service = own ? await startEmulator(own.dir) : emulator
        try {
          const env = actionEnv(dir, temp, { ...uploadInputs(service.url, `rss-${tag}-${i}`), ...inputs })
          peaks.push(await peakRss([...flags, ACTION], { env, cwd: dir }))
        } finally {
          if (own) {
            await service.stop()
            rmSync(own.dir, { recursive: true, force: true })
          }
        }
      }
      return median(peaks)
    }
    results.rssTiny = await peakOf([], tiny, 'tiny')
    row('peak RSS of the action, 1 tiny file', `${results.rssTiny.toFixed(0)} MiB`, 'median of 3')
    // 2 × 16 MiB streams long enough for V8 to optimise the streaming code (its compilers' memory is a
    // one-time cost of any run that does real work), so 16 → 256 MiB shows what file size alone adds.
    // With the optimising compilers off (`--max-opt=1`: interpreter and baseline code only), the growth
    // left over the tiny run is the action's own memory; the rest is the compilers' code and working memory.
    const big = { ownEmulator: true, inputs: { 'max-file-size': '1GB' } }
    for (const mib of [16, 256]) {
      const dir = join(work, `big-${mib}`)
      writeBig(dir, 2, mib * MiB)
      results[`rss${mib}`] = await peakOf([], dir, mib, big)
      row(
        `peak RSS of the action, 2 × ${mib} MiB documents`,
        `${results[`rss${mib}`].toFixed(0)} MiB`,
        'median of 3',
      )
      if (mib === 256) {
        const plainTiny = await peakOf(['--max-opt=1'], tiny, 'plain-tiny')
        const plainBig = await peakOf(['--max-opt=1'], dir, 'plain-256', big)
        row(
          'peak RSS, optimising compilers off (`--max-opt=1`): 1 tiny file / 2 × 256 MiB',
          `${plainTiny.toFixed(0)} / ${plainBig.toFixed(0)} MiB`,
          'median of 3 each',
        )
        results.rssPlain = plainBig / plainTiny
      }
      rmSync(dir, { recursive: true, force: true })
    }
    results.rssBig = results.rss256
    rmSync(join(data.dir, 'kb'), { recursive: true, force: true })

    // A push changing 100 of 10,000 selected files (in process), and the bundle's dry run of all 10,000.
    const repo = join(work, 'repo')
    mkdirSync(repo)
    const commits = pushRepository(repo, 10_000, 100)
    const push = await pushSelection(load, silent, repo, commits, 100)
    results.pushSelection = push.total - push.detect
    row('push changing 100 of 10,000: change detection (git)', ms(push.detect), 'median of 7, in process')
    row('push changing 100 of 10,000: whole dry-run job', ms(push.total), 'median of 7, in process')
    const dry = []
    for (let i = 0; i < 3; i++) {
      const result = await run(NODE, [ACTION], {
        env: actionEnv(repo, temp, {
          'flow-id': FLOW,
          'org-id': ORG,
          'node-id': 'dry',
          files: 'docs/**',
          'dry-run': 'true',
        }),
        cwd: repo,
      })
      if (result.code !== 0) throw new Error(`dry run failed: ${result.stderr.slice(-2000)}`)
      dry.push(result.ms)
    }
    results.dryRun = median(dry)
    row('dry run of a 10,000-file full sync (bundle, whole process)', ms(results.dryRun), 'median of 3')
    rmSync(temp, { recursive: true, force: true })
  } finally {
    await emulator.stop()
    rmSync(work, { recursive: true, force: true })
    rmSync(data.dir, { recursive: true, force: true })
  }

  const verdict = (ok) => (ok ? 'met' : 'NOT met')
  const ratios = [
    [
      'loop ÷ action, 400 documents',
      results.loop400 / results.action400,
      '≥ 25x',
      results.loop400 / results.action400 >= 25,
    ],
    [
      'action ÷ ideal, 2,000 documents',
      results.action2000 / results.ideal2000,
      '≤ 1.3x',
      results.action2000 / results.ideal2000 <= 1.3,
      'out of reach for any client: see the least client ÷ ideal',
    ],
    ['action ÷ ideal, 400 documents', results.action400 / results.ideal400, 'x (information)', undefined],
    ['send phase ÷ ideal send schedule, 2,000 documents', results.send2000, 'x (information)', undefined],
    [
      'action ÷ ideal, 2,000 documents, service without per-document work',
      results.constant2000,
      'x (information)',
      undefined,
    ],
    [
      'send phase ÷ ideal send schedule, 2,000 documents, service without per-document work',
      results.constantSend2000,
      'x (information)',
      undefined,
    ],
    [
      'least client ÷ ideal, 2,000 documents, service without per-document work',
      results.leastIdeal2000,
      'x (information)',
      undefined,
    ],
    [
      'action ÷ least client, 2,000 documents, service without per-document work',
      results.actionLeast2000,
      'x (information)',
      undefined,
    ],
    ['peak RSS, 2 × 256 MiB', results.rssBig, '< 120 MiB', results.rssBig < 120],
    [
      'peak RSS, 2 × 256 MiB ÷ 1 tiny file',
      results.rssBig / results.rssTiny,
      '≤ 1.1x',
      results.rssBig / results.rssTiny <= 1.1,
      "with V8's optimising compilers, which a one-file run never starts: see the row with them off",
    ],
    [
      'peak RSS, 2 × 256 MiB ÷ 2 × 16 MiB (file size alone)',
      results.rss256 / results.rss16,
      'x (information)',
      undefined,
    ],
    [
      'peak RSS, 2 × 256 MiB ÷ 1 tiny file, optimising compilers off',
      results.rssPlain,
      '≤ 1.1x',
      results.rssPlain <= 1.1,
    ],
    [
      'start to first request, action ÷ bare node making the request with undici',
      results.actionFirst / results.undiciFirst,
      '≤ 2x',
      results.actionFirst / results.undiciFirst <= 2,
    ],
    [
      'start to first request, action ÷ bare node making the request with node:http',
      results.actionFirst / results.bareFirst,
      'x (information)',
      undefined,
    ],
    [
      'push 100 of 10,000: selection + planning (job − detection)',
      results.pushSelection,
      '< 150 ms',
      results.pushSelection < 150,
    ],
    ['dry run, 10,000 files', results.dryRun, '< 1000 ms', results.dryRun < 1000],
  ]
  for (const [name, value, target, ok, whyNot] of ratios) {
    const shown = target.includes('x')
      ? `${value.toFixed(2)}x`
      : target.includes('MiB')
        ? `${value.toFixed(0)} MiB`
        : ms(value)
    const note = ok === undefined ? 'no target' : `target ${target}: ${verdict(ok)}`
    row(`**${name}**`, shown, ok === false && whyNot ? `${note} (${whyNot})` : note)
  }
}

/** The defaults' curve: the bundle's wall time per batch size × concurrency, at 400 and 2,000 documents. */
export async function benchCurve({ row }) {
  for (const bundle of [CLI, ACTION])
    if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run npm run bundle first`)
  const work = mkdtempSync(join(tmpdir(), 'kb-sync-bench-curve-'))
  const data = emulatorDataDir(work)
  const emulator = await startEmulator(data.dir)
  row('emulator', `latency ${LATENCY_MS} ms`, `its documents on ${data.where}`)
  try {
    const settings = [
      [10, 4],
      [25, 4],
      [10, 16],
      [25, 8],
      [25, 16],
      [50, 16],
      [25, 32],
    ]
    for (const count of [400, 2000]) {
      const workspace = join(work, `docs-${count}`)
      writeDocs(workspace, count)
      for (const [size, inFlight] of settings) {
        const samples = []
        let requests = 0
        for (let i = 0; i < 3; i++) {
          const result = await runAction(
            emulator,
            workspace,
            count,
            {},
            { batchSize: size, concurrency: inFlight },
          )
          samples.push(result.ms)
          requests = result.requests
        }
        row(
          `${count} documents, batch-size ${size} × concurrency ${inFlight}`,
          ms(median(samples)),
          `median of 3; ${requests} requests`,
        )
      }
      rmSync(workspace, { recursive: true, force: true })
      rmSync(join(data.dir, 'kb'), { recursive: true, force: true })
    }
  } finally {
    await emulator.stop()
    rmSync(work, { recursive: true, force: true })
    rmSync(data.dir, { recursive: true, force: true })
  }
}
