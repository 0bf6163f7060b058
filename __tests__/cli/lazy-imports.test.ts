// What the CLI's commands load at every start (src/cli/commands.ts and its static imports), and every run
// of mode auto (the change-base decision): octokit loads only when GitHub's API is asked, by a dynamic
// import() (its own chunk of the bundle). A user pays each static import at every `kb-sync index` or
// `run`, the action at every push, and the suite at each of its ~400 starts of a bundle.
import { describe, expect, it } from '@jest/globals'
import { relative, resolve } from 'node:path'
import { SRC, staticValueImports } from '../helpers/src-imports.js'

const parsed = new Map<string, string[]>()

function staticImports(file: string): string[] {
  if (!parsed.has(file)) parsed.set(file, staticValueImports(file))
  return parsed.get(file)!
}

/** The chain of static imports from `start` to `target`, or undefined when there is none. */
function chainTo(start: string, target: string): string[] | undefined {
  const from = new Map<string, string | undefined>([[start, undefined]])
  const queue = [start]
  while (queue.length > 0) {
    const file = queue.shift()!
    if (file === target) {
      const chain: string[] = []
      for (let at: string | undefined = file; at !== undefined; at = from.get(at))
        chain.unshift(relative(SRC, at))
      return chain
    }
    for (const next of staticImports(file)) {
      if (from.has(next)) continue
      from.set(next, file)
      queue.push(next)
    }
  }
  return undefined
}

describe("the CLI commands' static imports", () => {
  const commands = resolve(SRC, 'cli/commands.ts')

  it('reach the index job (the walk follows static imports)', () => {
    expect(chainTo(commands, resolve(SRC, 'jobs/index-job.ts'))).toEqual([
      'cli/commands.ts',
      'jobs/index-job.ts',
    ])
  })

  // checks/schema.ts: zod, YAML, ajv and re2js, which only `kb-sync run` needs (cli/run-command.ts).
  it.each(['github/octokit.ts', 'history/change-base.ts', 'checks/schema.ts', 'jobs/checks-suite.ts'])(
    'do not reach %s',
    (module) => {
      expect(chainTo(commands, resolve(SRC, module))).toBeUndefined()
    },
  )
})

describe("the change-base decision's static imports (every index run of mode auto)", () => {
  it('do not reach github/octokit.ts: the API client loads when the API is asked', () => {
    expect(chainTo(resolve(SRC, 'history/change-base.ts'), resolve(SRC, 'github/octokit.ts'))).toBeUndefined()
  })
})
