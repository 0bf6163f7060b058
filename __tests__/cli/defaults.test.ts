// The CLI's defaults are the actions' (one table each, which action.yml must match too:
// action-metadata.test.ts): a flag named like an input starts from the input's default.
import { describe, expect, test } from '@jest/globals'
import type { Command } from 'commander'
import { buildProgram } from '../../src/cli/program.js'
import { INDEX_DEFAULTS } from '../../src/config/index-config.js'
import { RUN_DEFAULTS } from '../../src/config/run-inputs.js'

const program = buildProgram({
  index: async () => undefined,
  run: async () => undefined,
  serve: async () => undefined,
  status: async () => undefined,
})

function command(name: string): Command {
  const found = program.commands.find((candidate) => candidate.name() === name)
  if (!found) throw new Error(`no command ${name}`)
  return found
}

describe.each([
  { name: 'index', table: INDEX_DEFAULTS },
  { name: 'run', table: RUN_DEFAULTS },
])('kb-sync $name', ({ name, table }) => {
  const shared = command(name).options.filter((option) => Object.hasOwn(table, option.long!.slice(2)))

  test('has flags named like the inputs with defaults', () => {
    expect(shared.length).toBeGreaterThanOrEqual(name === 'index' ? 9 : 7)
  })

  test.each(shared.map((option) => [option.long!, option] as const))(
    '%s defaults to the action input default',
    (_flag, option) => {
      const input = option.long!.slice(2)
      // A switch (no value) is off unless given: the input's default must be false.
      if (option.isBoolean()) expect(table[input]).toBe('false')
      else expect(String(option.defaultValue)).toBe(table[input])
    },
  )
})
