// npm start: the whole job offline. Starts the emulator (kb-sync serve), runs the index action's own
// bundle on examples/docs the way the runner does (INPUT_* environment, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY),
// then the run-flow action's bundle, and prints the summary and the answer.
// npm start -- compare: a docs change before and after — the README's own recipe ("A docs change, before
// and after"), run in bash with the built kb-sync on the PATH, so the demo is what the README shows.
import { spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const RECIPE_HEADING = '#### A docs change, before and after'

/** The first `sh` block under the recipe's heading in README.md (`#` lines inside a block are no headings). */
function readmeRecipe() {
  const lines = readFileSync(join(root, 'README.md'), 'utf8').split('\n')
  const start = lines.indexOf(RECIPE_HEADING)
  for (let i = start + 1; start >= 0 && i < lines.length && !/^#{1,4} /.test(lines[i]); i++) {
    if (lines[i] === '```sh') return lines.slice(i + 1, lines.indexOf('```', i + 1)).join('\n')
    if (lines[i].startsWith('```')) i = lines.indexOf('```', i + 1)
  }
  throw new Error(`README.md has no sh block under "${RECIPE_HEADING}"`)
}

if (process.argv[2] === 'compare') {
  // `kb-sync` on the PATH as `npm link` puts it there: the committed bundle.
  const bin = mkdtempSync(join(tmpdir(), 'kb-sync-bin-'))
  symlinkSync(join(root, 'dist/cli/index.js'), join(bin, 'kb-sync'))
  const path = [bin, dirname(process.execPath), process.env.PATH].join(':')
  const run = spawnSync('bash', ['-c', readmeRecipe()], {
    cwd: root,
    env: { ...process.env, PATH: path },
    stdio: 'inherit',
  })
  rmSync(bin, { recursive: true, force: true })
  process.exit(run.status ?? 1)
} else if (process.argv[2] !== undefined) {
  console.error(`npm start: unknown command "${process.argv[2]}"; try npm start, or npm start -- compare`)
  process.exit(2)
}

const work = mkdtempSync(join(tmpdir(), 'kb-sync-start-'))
const keys = {
  KB_SYNC_PRIVATE_KEY: randomBytes(18).toString('hex'),
  KB_SYNC_PUBLIC_KEY: randomBytes(18).toString('hex'),
}
const ids = {
  flow: '65f0c0ffee0000000000beef',
  org: 'b2a1c3d4-0000-4000-8000-000000000001',
  node: 'knowledgebase-1',
}

const server = spawn(
  process.execPath,
  [join(root, 'dist/cli/index.js'), 'serve', '--data-dir', join(work, 'data')],
  {
    env: { ...process.env, ...keys },
    stdio: ['ignore', 'pipe', 'inherit'],
  },
)
const baseUrl = await new Promise((resolve, reject) => {
  server.once('exit', (code) => reject(new Error(`the emulator exited with ${code}`)))
  createInterface({ input: server.stdout }).once('line', resolve)
})

function runAction(bundle, inputs) {
  const output = join(work, 'output.txt')
  const summary = join(work, 'summary.md')
  writeFileSync(output, '')
  writeFileSync(summary, '')
  const env = { ...process.env, GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: summary }
  env.GITHUB_WORKSPACE = root
  env.GITHUB_EVENT_NAME = 'workflow_dispatch'
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value
  const run = spawnSync(process.execPath, [join(root, bundle)], { env, encoding: 'utf8' })
  return {
    status: run.status,
    log: run.stdout + run.stderr,
    outputs: readFileSync(output, 'utf8'),
    summary: readFileSync(summary, 'utf8'),
  }
}

function output(text, name) {
  const match = text.match(new RegExp(`^${name}<<(.+)\\n([\\s\\S]*?)\\n\\1$`, 'm'))
  return match ? match[2] : ''
}

let status = 0
try {
  console.log(`Emulator: ${baseUrl}\n`)
  const index = runAction('dist/index.js', {
    'base-url': baseUrl,
    'flow-id': ids.flow,
    'org-id': ids.org,
    'node-id': ids.node,
    'private-key': keys.KB_SYNC_PRIVATE_KEY,
    files: 'examples/docs/**',
    mode: 'auto',
    // Off a runner there is no artifact storage: the knowledge base's record is kept in a file.
    'state-file': join(work, 'kb-state.json.gz'),
  })
  console.log(index.summary)
  if (index.status !== 0) throw new Error(`the index action failed:\n${index.log}`)

  const question = 'How long do I have to ask for a refund?'
  const flow = runAction('dist/run-flow/index.js', {
    'base-url': baseUrl,
    'flow-id': ids.flow,
    'org-id': ids.org,
    'public-key': keys.KB_SYNC_PUBLIC_KEY,
    inputs: JSON.stringify({ 'in-0': question }),
    expect: 'refund',
  })
  if (flow.status !== 0) throw new Error(`the run-flow action failed:\n${flow.log}`)
  console.log(`Question: ${question}\n\nAnswer:\n${output(flow.outputs, 'result')}`)
  console.log(
    '\nNext: a docs change before and after, on a production and a staging flow: npm start -- compare',
  )
} catch (error) {
  console.error(error.message)
  status = 1
} finally {
  server.kill('SIGTERM')
  rmSync(work, { recursive: true, force: true })
}
process.exit(status)
