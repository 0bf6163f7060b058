// The built run-flow action measuring a staging sync the service has not indexed yet (#36 §4): an
// emulator whose flows answer from the previous documents for a while after each update
// (`indexDelayMs`). Without a wait the comparison says nothing changed; with `settle` (a fixed wait, or
// `settle-check` run until it passes) the change is measured. Every time bound here is one the code
// enforces (the index delay, the settle deadline): the tests do not guess the machine's speed.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { ServiceClient } from '../../src/service/client.js'
import { startCommentsServer } from '../helpers/github-comments-server.js'
import { GITHUB_TOKEN, PRIVATE_KEY, PUBLIC_KEY } from '../helpers/keys.js'
import { runAction, type RunActionOptions } from '../helpers/run-action.js'
import { pullRequestExample } from '../helpers/webhook-examples.js'
import { makeWorkspace } from '../helpers/workspace.js'

const ORG = 'b2a1c3d4-0000-4000-8000-000000000001'
const staging = { orgId: ORG, flowId: '65f0c0ffee0000000000057a', nodeId: 'knowledgebase-1' }
const production = { orgId: ORG, flowId: '65f0c0ffee0000000000beef', nodeId: 'knowledgebase-1' }

const SUITE = [
  '- name: refund window',
  '  inputs: {in-0: "How long are refunds granted?"}',
  '  contains: 14 days',
  '- name: support hours',
  '  inputs: {in-0: "When is support open?"}',
  '  contains: 9 to 5',
].join('\n')

let workspace: ReturnType<typeof makeWorkspace>
/** Main's documents, indexed once: each case serves a copy of this data directory. */
let indexedDir: string
let dataDir: string
let emulator: Emulator | undefined

beforeAll(async () => {
  workspace = makeWorkspace({
    'old/refunds.md': '# Refunds\n\nRefunds are granted within 30 days of a payment.\n',
    'new/refunds.md': '# Refunds\n\nRefunds are granted within 14 days of a payment.\n',
    'support.md': '# Support\n\nSupport is open from 9 to 5.\n',
    'ci/checks.yml': SUITE,
  })
  // Both flows hold main's documents, indexed long ago: written by an emulator without a delay, then
  // served by one with a delay from a copy of the same data directory.
  indexedDir = mkdtempSync(join(tmpdir(), 'kb-sync-settle-indexed-'))
  const indexed = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY, dataDir: indexedDir })
  const client = new ServiceClient({ baseUrl: indexed.url, privateKey: PRIVATE_KEY })
  for (const target of [staging, production])
    await client.uploadDocuments(target, [
      doc('refunds.md', 'old/refunds.md'),
      doc('support.md', 'support.md'),
    ])
  await client.close()
  await indexed.close()
})
afterAll(() => {
  workspace.remove()
  rmSync(indexedDir, { recursive: true, force: true })
})
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'kb-sync-settle-'))
  cpSync(indexedDir, dataDir, { recursive: true })
})
afterEach(async () => {
  await emulator?.close()
  emulator = undefined
  rmSync(dataDir, { recursive: true, force: true })
})

const doc = (name: string, path: string) => ({ name, path: join(workspace.dir, path) })

async function serveWithIndexDelay(indexDelayMs: number): Promise<Emulator> {
  emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY, dataDir, indexDelayMs })
  return emulator
}

/** The staging sync of the pull request: the new refund window, accepted now, answerable after the delay. */
async function syncStaging(served: Emulator): Promise<void> {
  const client = new ServiceClient({ baseUrl: served.url, privateKey: PRIVATE_KEY })
  await client.updateDocuments(staging, [doc('refunds.md', 'new/refunds.md')])
  await client.close()
}

function compare(
  served: Emulator,
  inputs: Record<string, string> = {},
  where: Pick<RunActionOptions, 'eventName' | 'payload' | 'env'> = { eventName: 'push' },
) {
  return runAction({
    action: 'run-flow/action.yml',
    ...where,
    workspace: workspace.dir,
    inputs: {
      'base-url': served.url,
      'flow-id': staging.flowId,
      'baseline-flow-id': production.flowId,
      'org-id': ORG,
      'public-key': PUBLIC_KEY,
      checks: 'ci/checks.yml',
      ...inputs,
    },
  })
}

const runsOn = (served: Emulator, flowId: string) =>
  served.requests().filter((r) => r.path === `/inference/v0/run/${ORG}/${flowId}`)

describe('a staging sync the service has not indexed yet', () => {
  it('without a wait, the comparison says nothing changed (the flow still answers from the old documents)', async () => {
    // Ten minutes: no run of this test lasts that long.
    const served = await serveWithIndexDelay(600_000)
    await syncStaging(served)
    const run = await compare(served)
    expect(run.status).toBe(0)
    expect(run.outputs['fixed-count']).toBe('0')
    expect(run.summary).toContain("This pull request changes no check's verdict.")
    expect(run.summary).not.toContain('Settle')
  }, 60_000)

  it('settle-check runs the named check until it passes, then the change is measured', async () => {
    // Five seconds: the first poll, already under way when the sync lands, is answered from the old
    // documents unless the machine stalls that long; the polls 2 and 4 s later then reach past the delay.
    const served = await serveWithIndexDelay(5_000)
    const running = compare(served, { settle: '30', 'settle-check': 'refund window', 'max-runs': '40' })
    // The sync lands once the first run of the settle check has arrived: that run sees the old documents,
    // and the next ones do until the delay has passed.
    while (runsOn(served, staging.flowId).length === 0)
      await new Promise((resolve) => setTimeout(resolve, 20))
    await syncStaging(served)
    const run = await running
    expect(run.stdout).toContain(
      'Settle: "refund window" failed (contains "14 days": not found); next run in 2 s.',
    )
    expect(run.status).toBe(0)
    expect(run.outputs.fixed).toBe('["refund window"]')
    expect(run.summary).toMatch(
      /> \*\*Settle:\*\* The settle check "refund window" passed after [\d.]+ s \(\d+ runs\)/,
    )
    // The polls are runs of the staging flow beside the suite's own (one per check on each flow).
    const polls = runsOn(served, staging.flowId).length - 2
    expect(polls).toBeGreaterThanOrEqual(2)
    expect(runsOn(served, production.flowId)).toHaveLength(2)
  }, 60_000)

  it('settle without a check waits that long before the checks: a sync made before the step is measured', async () => {
    const served = await serveWithIndexDelay(2_000)
    const github = await startCommentsServer({ owner: 'octo-org', repo: 'docs' })
    try {
      await syncStaging(served)
      // The wait (3 s) starts after the sync was accepted, so it outlasts the index delay (2 s).
      const run = await compare(
        served,
        { settle: '3', 'github-token': GITHUB_TOKEN },
        {
          eventName: 'pull_request',
          payload: pullRequestExample('synchronize'),
          env: { GITHUB_API_URL: github.url },
        },
      )
      expect(run.status).toBe(0)
      expect(run.outputs.fixed).toBe('["refund window"]')
      // What the wait saw, above the results: in the summary and in the sticky comment alike.
      const note = /> \*\*Settle:\*\* Waited [\d.]+ s \(settle\) for the knowledge base to take the sync/
      expect(run.summary).toMatch(note)
      expect(github.comments).toHaveLength(1)
      expect(github.comments[0].body).toMatch(note)
      expect(runsOn(served, staging.flowId)).toHaveLength(2)
    } finally {
      await github.close()
    }
  }, 60_000)

  it('a settle check that never passes ends at the settle deadline with a warning, and the checks still run', async () => {
    const served = await serveWithIndexDelay(600_000)
    await syncStaging(served)
    const run = await compare(served, { settle: '3', 'settle-check': 'refund window' })
    expect(run.status).toBe(0)
    expect(run.stdout).toContain(
      '::warning::The settle check "refund window" did not pass within settle (3 s, ',
    )
    expect(run.outputs['fixed-count']).toBe('0')
    expect(runsOn(served, production.flowId)).toHaveLength(2)
  }, 60_000)

  it('the settle check runs count in max-runs: it stops when the suite would not fit', async () => {
    const served = await serveWithIndexDelay(600_000)
    await syncStaging(served)
    // The suite takes 4 runs (2 checks on 2 flows): one run is left for the settle check.
    const run = await compare(served, { settle: '600', 'settle-check': 'refund window', 'max-runs': '5' })
    expect(run.status).toBe(0)
    expect(run.stdout).toContain(
      '::warning::The settle check "refund window" did not pass in 1 run, all that max-runs leaves after the checks',
    )
    expect(runsOn(served, staging.flowId)).toHaveLength(3)
  }, 60_000)

  it('a settle check the baseline passes too is flagged: its passing cannot tell the sync apart', async () => {
    const served = await serveWithIndexDelay(600_000)
    const run = await compare(served, { settle: '30', 'settle-check': 'support hours' })
    expect(run.status).toBe(0)
    expect(run.stdout).toContain(
      '::warning::The settle check "support hours" passes on the baseline flow too',
    )
  }, 60_000)

  it('refuses a settle-check that names no check, before any run', async () => {
    const served = await serveWithIndexDelay(0)
    const run = await compare(served, { settle: '30', 'settle-check': 'refund windw' })
    expect(run.status).toBe(1)
    expect(run.stdout).toContain('Input "settle-check" names no check of "checks" (got "refund windw"')
    expect(run.stdout).toContain('Did you mean "refund window"?')
    expect(served.requests()).toHaveLength(0)
  }, 60_000)
})
