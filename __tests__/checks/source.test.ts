import { afterEach, describe, expect, it } from '@jest/globals'
import { symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { readChecksSource } from '../../src/checks/source.js'
import { makeWorkspace } from '../helpers/workspace.js'

const CHECKS = '- name: a\n  inputs: {in-0: q}\n'
let workspace: ReturnType<typeof makeWorkspace>
afterEach(() => workspace.remove())

describe('readChecksSource', () => {
  it('reads a file in the workspace, and inline YAML or JSON as it is', () => {
    workspace = makeWorkspace({ '.github/checks.yml': CHECKS })
    expect(readChecksSource('.github/checks.yml', workspace.dir)).toEqual({
      text: CHECKS,
      origin: '.github/checks.yml',
    })
    expect(readChecksSource(CHECKS, workspace.dir)).toEqual({ text: CHECKS, origin: 'inline' })
    const json = '[{"name": "a", "inputs": {"in-0": "q"}}]'
    expect(readChecksSource(json, workspace.dir)).toEqual({ text: json, origin: 'inline' })
  })

  it.each([
    ['a missing file', 'checks.yml', /does not exist/],
    ['an absolute path', '/etc/passwd', /relative to the workspace/],
    ['a path leaving the workspace', '../outside.yml', /does not exist|outside the workspace/],
    ['a folder', 'docs', /not a regular file/],
  ])('refuses %s', (_, value, pattern) => {
    workspace = makeWorkspace({ 'docs/a.md': 'x' })
    const source = readChecksSource(value, workspace.dir)
    expect('problem' in source && source.problem).toMatch(pattern)
  })

  it('refuses a link that leads out of the workspace', () => {
    workspace = makeWorkspace({ 'a.md': 'x' })
    const outside = makeWorkspace({ 'checks.yml': CHECKS })
    try {
      symlinkSync(join(outside.dir, 'checks.yml'), join(workspace.dir, 'checks.yml'))
      const source = readChecksSource('checks.yml', workspace.dir)
      expect('problem' in source && source.problem).toMatch(/outside the workspace/)
    } finally {
      outside.remove()
    }
  })
})
