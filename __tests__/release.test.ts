// What a careful adopter checks before pinning: every third-party action pinned at one SHA across the
// repository (Dependabot moves .github/workflows; this test makes the examples and the README follow in
// the same pull request), a release that attests its bundles and ships an SBOM made by the command the
// workflow runs, drafted before it is published (an immutable release takes no asset afterwards),
// CodeQL on pushes and pull requests, and owners for what runs on users' runners.
import { describe, expect, it } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'

const root = process.cwd()
const read = (path: string) => readFileSync(join(root, path), 'utf8')
const ymlIn = (dir: string) =>
  readdirSync(join(root, dir))
    .filter((name) => name.endsWith('.yml'))
    .map((name) => join(dir, name))

interface Step {
  name?: string
  uses?: string
  run?: string
  with?: Record<string, unknown>
  env?: Record<string, string>
}
interface Job {
  permissions?: Record<string, string>
  steps: Step[]
}
interface Workflow {
  on: Record<string, unknown>
  permissions: Record<string, string>
  jobs: Record<string, Job>
}

/** Every `uses: owner/repo[/path]@ref # comment` of a text, with where it is. */
function pinsOf(where: string, text: string) {
  return [...text.matchAll(/^\s*(?:-\s+)?uses:\s*([\w.-]+\/[\w.-]+)(?:\/[\w./-]+)?@(\S+)(.*)$/gm)]
    .filter(([, repo]) => !/\/kb-sync$/.test(repo) && repo !== 'OWNER/kb-sync')
    .map(([line, repo, ref, comment]) => ({
      where,
      line: line.trim(),
      repo,
      ref,
      version: /#\s*(v\S+)/.exec(comment)?.[1],
    }))
}

const readmeBlocks = [...read('README.md').matchAll(/^```ya?ml\n([\s\S]*?)^```/gm)].map((match) => match[1])
const everyPin = [
  ...[...ymlIn('.github/workflows'), ...ymlIn('examples/workflows')].flatMap((file) =>
    pinsOf(file, read(file)),
  ),
  ...readmeBlocks.flatMap((block, index) => pinsOf(`README.md yaml block ${index + 1}`, block)),
]

describe('pins', () => {
  it('finds the pins (the scan is live)', () => {
    expect(new Set(everyPin.map((pin) => pin.repo))).toEqual(
      new Set([
        'actions/checkout',
        'actions/setup-node',
        'actions/upload-artifact',
        'actions/attest-build-provenance',
        'github/codeql-action',
        'dorny/test-reporter',
      ]),
    )
  })

  it('pins each third-party action at one commit SHA and one version everywhere', () => {
    const byRepo = new Map<string, Set<string>>()
    for (const pin of everyPin) {
      const seen = byRepo.get(pin.repo) ?? new Set<string>()
      seen.add(`${pin.ref} # ${pin.version}`)
      byRepo.set(pin.repo, seen)
    }
    const drifted = [...byRepo]
      .filter(([, refs]) => refs.size > 1)
      .map(([repo, refs]) => `${repo}: ${[...refs].join(' | ')}`)
    expect(drifted).toEqual([])
    for (const pin of everyPin)
      expect({
        line: pin.line,
        pinned: /^[0-9a-f]{40}$/.test(pin.ref) && /^v\d+\.\d+\.\d+$/.test(pin.version ?? ''),
      }).toEqual({ line: pin.line, pinned: true })
  })
})

describe('the release workflow', () => {
  const workflow = parse(read('.github/workflows/release.yml')) as Workflow
  const job = workflow.jobs.release
  const steps = job.steps
  const runs = steps.map((step) => step.run ?? '').join('\n')

  it('runs on a pushed vX.Y.Z tag with the permissions an attestation needs, and no more by default', () => {
    expect(workflow.on).toEqual({ push: { tags: ['v*.*.*'] } })
    expect(workflow.permissions).toEqual({ contents: 'read' })
    expect(job.permissions).toEqual({ contents: 'write', 'id-token': 'write', attestations: 'write' })
  })

  it('checks dist/ before it attests the bundles and the SBOM', () => {
    const at = (predicate: (step: Step) => boolean) => steps.findIndex(predicate)
    const verify = at((step) => step.run?.includes('npm run bundle') === true)
    const sbom = at((step) => step.run?.includes('scripts/sbom.sh') === true)
    const attest = at((step) => step.uses?.startsWith('actions/attest-build-provenance@') === true)
    expect(verify).toBeGreaterThan(-1)
    expect(sbom).toBeGreaterThan(verify)
    expect(attest).toBeGreaterThan(sbom)
    const subjects = String(steps[attest].with?.['subject-path']).trim().split('\n')
    expect(subjects).toEqual(['dist/**/*.js', 'kb-sync-${{ github.ref_name }}.cdx.json'])
  })

  it('drafts the release with the SBOM attached, then publishes it, then moves the major tag', () => {
    const draft = runs.indexOf('gh release create "$TAG" --draft')
    const publish = runs.indexOf('gh release edit "$TAG" --draft=false')
    const moveTag = runs.indexOf('git push --force origin "refs/tags/$major"')
    expect(draft).toBeGreaterThan(-1)
    expect(runs.slice(draft, runs.indexOf('\n', draft))).toContain('"kb-sync-$TAG.cdx.json"')
    expect(publish).toBeGreaterThan(draft)
    expect(moveTag).toBeGreaterThan(publish)
  })

  it('makes the SBOM with the script the heavy test runs', () => {
    expect(runs).toContain('scripts/sbom.sh "kb-sync-$TAG.cdx.json"')
  })
})

describe('CodeQL and code owners', () => {
  it('analyses the TypeScript and the workflows on pushes to main, pull requests and weekly', () => {
    const workflow = parse(read('.github/workflows/codeql.yml')) as Workflow & {
      jobs: { analyze: Job & { strategy: { matrix: { language: string[] } } } }
    }
    expect(Object.keys(workflow.on).sort()).toEqual(['pull_request', 'push', 'schedule'])
    expect(workflow.jobs.analyze.strategy.matrix.language).toEqual(['javascript-typescript', 'actions'])
    expect(workflow.jobs.analyze.permissions).toMatchObject({ 'security-events': 'write' })
    const uses = workflow.jobs.analyze.steps.map((step) => step.uses?.split('@')[0])
    expect(uses).toEqual(['actions/checkout', 'github/codeql-action/init', 'github/codeql-action/analyze'])
  })

  it('names an owner for everything, and for what runs on users’ runners by name', () => {
    const rules = read('.github/CODEOWNERS')
      .split('\n')
      .filter((line) => line.trim() && !line.startsWith('#'))
      .map((line) => line.trim().split(/\s+/))
    for (const [, ...owners] of rules) expect(owners.length).toBeGreaterThan(0)
    expect(rules.map(([pattern]) => pattern)).toEqual(
      expect.arrayContaining(['*', '/dist/', '/action.yml', '/run-flow/', '/.github/', '/package-lock.json']),
    )
  })
})
