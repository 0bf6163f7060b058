// Usage errors found by the command line itself, in process (runCommandLine with writers): exit 2, one
// `error:` line naming the flag, no command run. The bundle's own exit path is in e2e/cli-usage.test.ts.
import { describe, expect, it } from '@jest/globals'
import { runCommandLine } from '../../src/cli/program.js'

async function commandLine(args: string[]) {
  const out: string[] = []
  const err: string[] = []
  const ran: string[] = []
  const status = await runCommandLine(
    args,
    {
      index: async () => void ran.push('index'),
      run: async () => void ran.push('run'),
      serve: async () => void ran.push('serve'),
      status: async () => void ran.push('status'),
    },
    { writeOut: (text) => out.push(text), writeErr: (text) => err.push(text) },
  )
  return { status, stdout: out.join(''), stderr: err.join(''), ran }
}

describe('usage errors: exit 2, one line naming the flag, nothing run', () => {
  it.each([
    ['unknown option', ['index', '--flw-id', 'x'], '--flw-id'],
    ['unknown option of serve', ['serve', '--bogus'], '--bogus'],
    ['bad choice', ['index', '--mode', 'sideways'], '--mode'],
    ['bad choice of if-no-files-found', ['index', '--if-no-files-found', 'panic'], '--if-no-files-found'],
    ['bad choice of follow-symlinks', ['index', '--follow-symlinks', 'all'], '--follow-symlinks'],
    ['missing value', ['run', '--flow-id'], '--flow-id'],
    ['missing value of --question', ['run', '--question'], '--question'],
    ['missing value of serve', ['serve', '--data-dir'], '--data-dir'],
    ['serve port not a number', ['serve', '--port', 'abc'], '--port'],
    ['serve port out of range', ['serve', '--port', '70000'], '--port'],
    ['serve fault rate above 1', ['serve', '--fault-rate', '2'], '--fault-rate'],
    ['serve latency negative', ['serve', '--latency', '-5'], '--latency'],
    ['serve flow not ORG/FLOW/NODE', ['serve', '--flow', 'org/flow'], '--flow'],
    ['serve flow with a bad id', ['serve', '--flow', 'org/../node'], '--flow'],
    ['unknown command', ['sync'], 'sync'],
    ['extra argument', ['index', 'docs'], 'index'],
  ])('%s', async (_, args, flag) => {
    const run = await commandLine(args)
    expect(run.status).toBe(2)
    expect(run.ran).toEqual([])
    expect(run.stdout).toBe('')
    const lines = run.stderr.trimEnd().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^error: /)
    expect(lines[0]).toContain(flag)
  })

  it('an unknown option given with a value: the option is named, the value (maybe a key) is not shown', async () => {
    const run = await commandLine(['index', '--privat-key=sk-live-secret-123'])
    expect(run.status).toBe(2)
    expect(run.stderr).toContain("'--privat-key=")
    expect(run.stderr).not.toContain('sk-live')
  })

  it('a valid command line runs its command and leaves the exit status to it', async () => {
    const run = await commandLine(['run', '--question', 'q'])
    expect(run).toEqual({ status: undefined, stdout: '', stderr: '', ran: ['run'] })
  })

  it('--help and --version exit 0', async () => {
    for (const args of [['--help'], ['index', '--help'], ['--version']]) {
      const run = await commandLine(args)
      expect(run.status).toBe(0)
      expect(run.stdout).not.toBe('')
      expect(run.stderr).toBe('')
    }
  })
})
