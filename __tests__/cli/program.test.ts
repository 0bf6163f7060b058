// The command line itself, in process: the program parses argv and prints to the writers it is given, so
// usage errors and help are tested without spawning the bundle.
import { describe, expect, it } from '@jest/globals'
import { CommanderError } from 'commander'
import { buildProgram } from '../../src/cli/program.js'
import { inputReader, type Flags } from '../../src/cli/inputs.js'

async function parse(args: string[]) {
  const out: string[] = []
  const err: string[] = []
  const called: { command: string; flags: Flags }[] = []
  const program = buildProgram(
    {
      index: async (flags) => void called.push({ command: 'index', flags }),
      run: async (flags) => void called.push({ command: 'run', flags }),
      serve: async (flags) => void called.push({ command: 'serve', flags: flags as unknown as Flags }),
      status: async (flags) => void called.push({ command: 'status', flags }),
    },
    { writeOut: (text) => out.push(text), writeErr: (text) => err.push(text) },
  )
  let error: unknown
  try {
    await program.parseAsync(args, { from: 'user' })
  } catch (thrown) {
    error = thrown
  }
  return { stdout: out.join(''), stderr: err.join(''), called, error }
}

describe('usage errors', () => {
  it('an unquoted glob the shell expanded: the error says to quote the pattern', async () => {
    const files = Array.from({ length: 55 }, (_, i) => `docs/page-${i}.md`)
    const run = await parse(['index', '--files', ...files])
    expect(run.error).toBeInstanceOf(CommanderError)
    expect(run.called).toEqual([])
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(
        /Expected 0 arguments but got 54\. .*expanded by the shell.*quote it, e\.g\. --files 'docs\/\*\*\/\*\.md'/,
      ),
    ])
  })

  it('two quoted patterns after one --files: the error says to repeat the flag', async () => {
    const run = await parse(['index', '--files', 'docs/**', 'guides/**'])
    expect(run.called).toEqual([])
    expect(run.stderr).toContain(
      "A flag takes one value: repeat it for each (--files 'docs/**' --files 'guides/**').",
    )
  })

  it('other usage errors get no such hint', async () => {
    const run = await parse(['index', '--mode', 'sideways'])
    expect(run.stderr).toContain('--mode')
    expect(run.stderr).not.toContain('quote')
  })

  it('--question reaches the run command as given', async () => {
    const run = await parse(['run', '--question', 'What is new?'])
    expect(run.called).toEqual([
      { command: 'run', flags: expect.objectContaining({ question: 'What is new?' }) },
    ])
  })
})

describe('removed documents and drafts', () => {
  it('--removed and --no-skip-drafts reach the index command as the inputs removed and skip-drafts', async () => {
    const defaults = await parse(['index'])
    const given = await parse(['index', '--removed', 'keep', '--no-skip-drafts'])
    const read = (flags: Flags) => inputReader(flags)
    expect([
      read(defaults.called[0].flags)('removed'),
      read(defaults.called[0].flags)('skip-drafts'),
    ]).toEqual(['tombstone', 'true'])
    expect([read(given.called[0].flags)('removed'), read(given.called[0].flags)('skip-drafts')]).toEqual([
      'keep',
      'false',
    ])
    const bad = await parse(['index', '--removed', 'delete'])
    expect(bad.called).toEqual([])
    expect(bad.stderr).toMatch(/--removed.*'delete' is invalid.*tombstone, keep/)
  })
})

describe('--help', () => {
  // The bundle's own --help exit (status 0, stdout) is in e2e/cli.test.ts, for one command.
  it.each(['index', 'run', 'serve', 'status'])('%s --help: its usage line, exit code 0', async (command) => {
    const run = await parse([command, '--help'])
    expect((run.error as CommanderError).exitCode).toBe(0)
    expect(run.stdout).toContain(`Usage: kb-sync ${command}`)
  })

  it('index: required flags marked, defaults as the action spells them, the key variables, an example', async () => {
    const run = await parse(['index', '--help'])
    expect((run.error as CommanderError).exitCode).toBe(0)
    const help = run.stdout.replace(/\s+/g, ' ')
    for (const flag of ['--flow-id <id>', '--org-id <id>', '--node-id <id>'])
      expect(help).toMatch(new RegExp(`${flag} [^-]*\\(required\\)`))
    expect(help).toContain('(required unless --dry-run; prefer KB_SYNC_PRIVATE_KEY)')
    expect(help).toContain('files per request (default: 25)')
    expect(help).toContain('requests in flight (default: 16)')
    expect(help).toContain('(choices: "auto", "upload", "update", default: auto)')
    expect(help).not.toMatch(/default: "/)
    for (const variable of ['KB_SYNC_PRIVATE_KEY', 'KB_SYNC_PUBLIC_KEY', 'GITHUB_TOKEN'])
      expect(run.stdout).toMatch(new RegExp(`^ {2}${variable} `, 'm'))
    expect(run.stdout).toMatch(/^Example:\n {2}export KB_SYNC_PRIVATE_KEY=.*\n {2}kb-sync index --flow-id /m)
  })

  it('run: --question, its defaults from the run-flow table, the flow key variable, examples', async () => {
    const run = await parse(['run', '--help'])
    const help = run.stdout.replace(/\s+/g, ' ')
    expect(help).toContain(`short for --inputs '{"in-0": TEXT}'`)
    expect(help).toContain('check runs in flight (1-8) (default: 2)')
    expect(help).toContain('(default: 600)')
    expect(help).not.toMatch(/default: "/)
    expect(run.stdout).toMatch(/^ {2}KB_SYNC_PUBLIC_KEY /m)
    expect(run.stdout).toMatch(/^ {2}kb-sync run .*--question '/m)
  })
})
