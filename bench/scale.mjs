// npm run bench -- scale: the action's bundle against the least client (bench/least-client.mjs) at 2,000,
// 20,000 and 100,000 documents of 2 KB in one folder (issue 24), `mode: upload`, against a stand-in service
// that does no work per document and answers after 20 ms; the two alternated in one run, so the ratios
// compare like with like on a loaded machine. Peak RSS of both from /usr/bin/time (VmHWM polled from
// /proc without it). Each run also times the least client making the system calls of the action's per-file
// checks first (`checked`): the floor of a client that checks what it sends. Then searching that
// 100,000-entry folder for patterns that select 5 of its files.
// BENCH_SCALE_COUNTS=2000,20000 leaves the 100,000 row out; BENCH_SCALE_RUNS sets the runs per size (3).
// BENCH_BASELINE=<another build's dist/index.js> runs that build too, in the same alternation (action, least
// client, checked least client, baseline): a before/after comparison the machine's drift cannot skew.
// BENCH_SCALE_LATENCY_MS sets the stand-in service's latency (20 ms): a slower service, as a real one is,
// shows how much of the action's own work the waits for its answers hide.
// Needs `npm run bundle` (dist/index.js) and the tsc build of bench/run.mjs (for the in-process search).
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  ACTION,
  actionEnv,
  batchSize,
  concurrency,
  FLOW,
  LATENCY_MS,
  LEAST_CLIENT,
  median,
  ms,
  NODE,
  ORG,
  PRIVATE_KEY,
  run,
  startConstantService,
  timedWithPeak,
  uploadInputs,
} from './side-by-side.mjs'

const COUNTS = (process.env.BENCH_SCALE_COUNTS ?? '2000,20000,100000').split(',').map(Number)
const RUNS = Number(process.env.BENCH_SCALE_RUNS ?? 3)
const DOCUMENT = `# Page\n\n${'Some documentation text. '.repeat(81)}\n` // 2,033 bytes
const SELECTED = 5
const BASELINE = process.env.BENCH_BASELINE
const LATENCY = Number(process.env.BENCH_SCALE_LATENCY_MS ?? LATENCY_MS)

/** `count` documents of 2 KB in `workspace`/docs, and SELECTED more named guide-N.md, not uploaded. */
function writeDocs(workspace, count) {
  mkdirSync(join(workspace, 'docs'), { recursive: true })
  for (let i = 0; i < count; i++)
    writeFileSync(join(workspace, 'docs', `page-${String(i).padStart(6, '0')}.md`), DOCUMENT)
}

/** The value of one output in a GITHUB_OUTPUT file. */
function outputValue(file, name) {
  const match = new RegExp(`^${name}<<(\\S+)\\n([\\s\\S]*?)\\n\\1$`, 'm').exec(readFileSync(file, 'utf8'))
  return match?.[2]
}

let nodeCounter = 0

async function runAction(service, workspace, count, action = ACTION) {
  const temp = mkdtempSync(join(tmpdir(), 'kb-sync-bench-scale-'))
  try {
    const env = actionEnv(workspace, temp, uploadInputs(service.url, `scale-${++nodeCounter}`))
    const before = service.entries().length
    const result = await timedWithPeak([action], { env, cwd: workspace })
    const uploaded = Number(outputValue(join(temp, 'output'), 'uploaded-count'))
    if (result.code !== 0 || uploaded !== count)
      throw new Error(
        `the action failed (exit ${result.code}, ${uploaded} of ${count} uploaded): ${result.stderr.slice(-2000)}`,
      )
    return { ...result, requests: service.entries().length - before }
  } finally {
    rmSync(temp, { recursive: true, force: true })
  }
}

async function runLeastClient(service, folder, expectedRequests, checked = false) {
  const url = `${service.url}/indexing/v0/documents/${FLOW}/${ORG}/least-${++nodeCounter}`
  const before = service.entries().length
  const args = [LEAST_CLIENT, url, folder, String(batchSize), String(concurrency), PRIVATE_KEY]
  if (checked) args.push('checked')
  const result = await timedWithPeak(args, { env: { PATH: process.env.PATH, HOME: process.env.HOME } })
  const requests = service.entries().length - before
  if (result.code !== 0 || requests !== expectedRequests)
    throw new Error(`the least client failed (exit ${result.code}, ${requests} requests): ${result.stderr}`)
  return result
}

/**
 * selectFiles (in process, first call and median) on the 100,000-entry folder with SELECTED guide files
 * beside them, for a few pattern shapes that each select those 5; and the bundle's whole dry run with the
 * first shape.
 */
async function benchSearch({ row, load }, workspace, results) {
  const { selectFiles } = await load('src/select/files.js')
  for (let i = 1; i <= SELECTED; i++) writeFileSync(join(workspace, 'docs', `guide-${i}.txt`), DOCUMENT)
  const shapes = [
    ['docs/guide-*.txt'],
    ['docs/*.txt'],
    ['**/*.txt'],
    ['docs/**', '!docs/page-*'],
    ['docs/guide-1.txt', 'docs/guide-2.txt', 'docs/guide-3.txt', 'docs/guide-4.txt', 'docs/guide-5.txt'],
  ]
  const options = { workspace, includeHidden: false, maxFileSize: 1 << 20, followSymlinks: 'inside' }
  let worst = 0
  for (const patterns of shapes) {
    const samples = []
    for (let i = 0; i < 3; i++) {
      const start = performance.now()
      const selection = await selectFiles({ ...options, patterns })
      samples.push(performance.now() - start)
      if (selection.files.length !== SELECTED)
        throw new Error(`${patterns.join(', ')} selected ${selection.files.length}, not ${SELECTED}`)
    }
    worst = Math.max(worst, median(samples))
    row(
      `search a folder of ${results.searchEntries.toLocaleString('en-US')} entries for \`${patterns.join('`, `')}\` (selects ${SELECTED})`,
      ms(median(samples)),
      `median of 3, in process (first ${ms(samples[0])})`,
    )
  }
  results.search = worst
  const temp = mkdtempSync(join(tmpdir(), 'kb-sync-bench-scale-'))
  try {
    const dry = []
    for (let i = 0; i < 3; i++) {
      const env = actionEnv(workspace, temp, {
        'flow-id': FLOW,
        'org-id': ORG,
        'node-id': 'dry',
        files: shapes[0][0],
        'dry-run': 'true',
      })
      const result = await run(NODE, [ACTION], { env, cwd: workspace })
      if (result.code !== 0) throw new Error(`dry run failed: ${result.stderr.slice(-2000)}`)
      dry.push(result.ms)
    }
    results.searchDryRun = median(dry)
    row(
      `dry run selecting ${SELECTED} of a ${results.searchEntries.toLocaleString('en-US')}-entry folder (bundle, whole process)`,
      ms(results.searchDryRun),
      'median of 3',
    )
  } finally {
    rmSync(temp, { recursive: true, force: true })
    for (let i = 1; i <= SELECTED; i++) rmSync(join(workspace, 'docs', `guide-${i}.txt`))
  }
}

export async function benchScale({ row, load }) {
  if (!existsSync(ACTION)) throw new Error(`${ACTION} is missing: run npm run bundle first`)
  const version = execFileSync(NODE, ['-v'], { encoding: 'utf8' }).trim()
  row(
    'settings',
    `batch-size ${batchSize}, concurrency ${concurrency}, ${RUNS} runs per size`,
    `action and least client on Node ${version}; stand-in service: no work per document, latency ${LATENCY} ms`,
  )
  const work = mkdtempSync(join(tmpdir(), 'kb-sync-bench-scale-'))
  const service = await startConstantService(LATENCY)
  const results = { rows: [] }
  try {
    for (const count of COUNTS) {
      const workspace = join(work, `docs-${count}`)
      writeDocs(workspace, count)
      const action = { walls: [], rss: [] }
      const least = { walls: [], rss: [] }
      const checkedLeast = []
      const baseline = { walls: [], rss: [] }
      let requests = 0
      // Alternated, so a burst of load from elsewhere falls on every client compared.
      for (let i = 0; i < RUNS; i++) {
        const result = await runAction(service, workspace, count)
        requests = result.requests
        action.walls.push(result.ms)
        action.rss.push(result.rss)
        const leastRun = await runLeastClient(service, join(workspace, 'docs'), requests)
        least.walls.push(leastRun.ms)
        least.rss.push(leastRun.rss)
        checkedLeast.push((await runLeastClient(service, join(workspace, 'docs'), requests, true)).ms)
        if (BASELINE) {
          const before = await runAction(service, workspace, count, BASELINE)
          baseline.walls.push(before.ms)
          baseline.rss.push(before.rss)
        }
      }
      const ratios = action.walls.map((wall, i) => wall / least.walls[i])
      const floor = checkedLeast.map((wall, i) => wall / least.walls[i])
      row(
        `${count.toLocaleString('en-US')} documents: least client with the checks' system calls / least client`,
        `${median(floor).toFixed(2)}x (${ms(median(checkedLeast))})`,
        `lstat and a read of each file's beginning first (bench/least-client.mjs checked); ratio per pair ${floor.map((r) => `${r.toFixed(2)}x`).join(', ')}`,
      )
      if (BASELINE) {
        const before = baseline.walls.map((wall, i) => wall / least.walls[i])
        row(
          `${count.toLocaleString('en-US')} documents: baseline build / least client`,
          `${median(before).toFixed(2)}x (${ms(median(baseline.walls))}; ${median(baseline.rss).toFixed(0)} MiB)`,
          `BENCH_BASELINE, in the same alternation; ratio per pair ${before.map((r) => `${r.toFixed(2)}x`).join(', ')}`,
        )
      }
      const entry = {
        count,
        requests,
        action: median(action.walls),
        least: median(least.walls),
        ratio: median(ratios),
        checkedRatio: median(action.walls.map((wall, i) => wall / checkedLeast[i])),
        actionRss: median(action.rss),
        leastRss: median(least.rss),
      }
      results.rows.push(entry)
      row(
        `${count.toLocaleString('en-US')} documents of 2 KB: least client / action`,
        `${ms(entry.least)} / ${ms(entry.action)}`,
        `median of ${RUNS}, alternated; ${requests} requests each; ratio per pair ${ratios.map((r) => `${r.toFixed(2)}x`).join(', ')}`,
      )
      row(
        `${count.toLocaleString('en-US')} documents: peak RSS, least client / action`,
        `${entry.leastRss.toFixed(0)} / ${entry.actionRss.toFixed(0)} MiB`,
        `median of ${RUNS}; action runs ${action.rss.map((r) => r.toFixed(0)).join(', ')} MiB`,
      )
      if (count === Math.max(...COUNTS) && count >= 100_000) {
        results.searchEntries = count + SELECTED
        await benchSearch({ row, load }, workspace, results)
      }
      rmSync(workspace, { recursive: true, force: true })
    }
  } finally {
    await service.stop()
    rmSync(work, { recursive: true, force: true })
  }

  const verdict = (ok) => (ok ? 'met' : 'NOT met')
  // The target as decided (bench/README.md, eighth round of Scale): against the least client that makes
  // the checks users rely on, from 20,000 documents; at 2,000 the fixed start-up costs rule, which the
  // side-by-side bench holds (start to first request). Against the least client without checks the ratio
  // is printed as the issue first asked for it.
  for (const entry of results.rows) {
    const count = entry.count.toLocaleString('en-US')
    row(
      `**action ÷ least client with the checks, ${count} documents**`,
      `${entry.checkedRatio.toFixed(2)}x`,
      entry.count >= 20_000
        ? `target ≤ 1.3x: ${verdict(entry.checkedRatio <= 1.3)} (median of the per-pair ratios)`
        : 'no target: fixed costs rule here (start to first request: npm run bench -- side-by-side)',
    )
    row(
      `action ÷ least client without checks, ${count} documents`,
      `${entry.ratio.toFixed(2)}x`,
      'issue 24 as first written (≤ 1.3x); median of the per-pair ratios',
    )
  }
  const smallest = results.rows.find((entry) => entry.count === 2000)
  const largest = results.rows.find((entry) => entry.count === 100_000)
  if (smallest && largest) {
    const growth = largest.actionRss / smallest.actionRss
    row(
      '**peak RSS, 100,000 ÷ 2,000 documents**',
      `${growth.toFixed(2)}x`,
      `target ≤ 1.3x: ${verdict(growth <= 1.3)}`,
    )
    row(
      '**peak RSS, 100,000 documents**',
      `${largest.actionRss.toFixed(0)} MiB`,
      `target < 160 MB (152.6 MiB): ${verdict(largest.actionRss * 1024 * 1024 < 160e6)}`,
    )
  }
  if (results.search !== undefined)
    row(
      `**search of ${results.searchEntries.toLocaleString('en-US')} entries selecting ${SELECTED}, slowest shape**`,
      ms(results.search),
      `target < 1 s: ${verdict(results.search < 1000)}`,
    )
}
