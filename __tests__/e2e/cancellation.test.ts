// The runner's cancellation of the built actions: SIGINT, SIGTERM 7.5 s later, SIGKILL 2.5 s after that.
// Whatever the step is waiting on (a lookup, the compare API, a flow run that never answers) and however
// early the SIGINT comes, the step exits on its own before the SIGKILL, failed, with its outputs and a
// summary that says it was cancelled.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { spawn, type ChildProcess } from 'node:child_process'
import type { Readable } from 'node:stream'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { CLI } from '../helpers/cli.js'
import { GitFixture } from '../helpers/git-fixture.js'
import { runAction, type RunActionOptions } from '../helpers/run-action.js'
import { cancelLikeTheRunner, type RunnerCancellation } from '../helpers/runner-cancellation.js'
import { WorkflowRunsServer } from '../helpers/workflow-runs-server.js'
import { makeWorkspace } from '../helpers/workspace.js'
import { startRecordingServer, type RecordingServer } from '../helpers/recording-server.js'
import { GITHUB_TOKEN, PRIVATE_KEY, PUBLIC_KEY } from '../helpers/keys.js'

const ids = { 'flow-id': '65f0c0ffee0000000000beef', 'org-id': 'b2a1c3d4-0000-4000-8000-000000000001' }
const BEFORE = 'a'.repeat(40)
const AFTER = 'b'.repeat(40)

let emulator: Emulator
let hanging: RecordingServer | undefined
/** Set by `whenRequested`: the child to cancel once the hanging server has a request. */
let child: ChildProcess | undefined
let cancellation: RunnerCancellation | undefined

beforeEach(async () => {
  emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY })
  child = undefined
  cancellation = undefined
})
afterEach(async () => {
  await Promise.all([emulator.close(), hanging?.close()])
  hanging = undefined
})

/** A server that takes every request and never answers; the first request starts the cancellation. */
async function neverAnswering(): Promise<string> {
  hanging = await startRecordingServer(() => {
    if (child && !cancellation) cancellation = cancelLikeTheRunner(child)
  })
  return hanging.url
}

function runCancelled(options: RunActionOptions) {
  return runAction({ ...options, onStart: (started) => (child = started) })
}

/** Exited by itself, failed, before the runner's SIGKILL. */
function expectEndedOnItsOwn(run: { status: number | null }) {
  expect(cancellation?.sent[0]).toBe('SIGINT')
  expect(cancellation?.sent).not.toContain('SIGKILL')
  expect(run.status).toBe(1)
}

const indexInputs = {
  ...ids,
  'node-id': 'knowledgebase-1',
  'private-key': PRIVATE_KEY,
  files: 'docs/**',
  urls: 'https://docs.example.com/pricing',
  'github-token': GITHUB_TOKEN,
}

describe('index action cancelled during change detection', () => {
  it('stops a runs-API lookup that never answers and reports the run as cancelled', async () => {
    const fixture = GitFixture.create()
    const runs = new WorkflowRunsServer()
    try {
      const author = fixture.author()
      author.write('docs/a.md').write('docs/b.md')
      const after = author.commit('docs')
      author.push()
      const checkout = fixture.checkout()
      await runs.start()
      runs.failure = { hang: true }
      runs.onRequest = () => {
        if (child && !cancellation) cancellation = cancelLikeTheRunner(child)
      }
      const run = await runCancelled({
        action: 'action.yml',
        workspace: checkout.dir,
        eventName: 'push',
        payload: {
          ref: 'refs/heads/main',
          before: BEFORE,
          after,
          created: false,
          deleted: false,
          forced: false,
        },
        inputs: { ...indexInputs, 'base-url': emulator.url },
        env: {
          GITHUB_API_URL: runs.url,
          GITHUB_WORKFLOW_REF: 'octo-org/docs/.github/workflows/docs.yml@refs/heads/main',
          GITHUB_REF: 'refs/heads/main',
          GITHUB_RUN_ID: '9000002',
          GITHUB_RUN_NUMBER: '2',
        },
      })
      expectEndedOnItsOwn(run)
      expect(runs.requests).toHaveLength(1)
      expect(emulator.requests()).toEqual([])
      // Nothing was sent: the URL of the inputs is failed; no fallback was tried after the signal.
      expect(JSON.parse(run.outputs.failed)).toEqual(['https://docs.example.com/pricing'])
      expect(JSON.parse(run.outputs.uploaded)).toEqual([])
      expect(run.stdout).toMatch(/::warning::Received SIGINT: no new requests are started/)
      expect(run.stdout).toMatch(/::error::The run was cancelled \(SIGINT received\)/)
      expect(run.stdout).not.toContain('cannot be looked up')
      expect(run.summary).toContain('Knowledge base sync failed')
      expect(run.summary).toContain('Stopped:** The run was cancelled (SIGINT received)')
      expect(run.summary).toContain('cancelled before it was sent')
    } finally {
      await runs.close()
      fixture.cleanup()
    }
  })

  it('stops a compare-API call that never answers and reports the run as cancelled', async () => {
    const workspace = makeWorkspace({ 'docs/a.md': 'a\n', 'docs/b.md': 'b\n' })
    try {
      const apiUrl = await neverAnswering()
      const run = await runCancelled({
        action: 'action.yml',
        // No .git: git cannot tell, the payload has no lists, so the compare API is asked.
        workspace: workspace.dir,
        eventName: 'push',
        payload: { ref: 'refs/heads/main', before: BEFORE, after: AFTER, deleted: false, forced: false },
        inputs: { ...indexInputs, 'base-url': emulator.url },
        env: { GITHUB_API_URL: apiUrl },
      })
      expectEndedOnItsOwn(run)
      expect(hanging!.requests[0].url).toContain(`/repos/octo-org/docs/compare/${BEFORE}...${AFTER}`)
      expect(emulator.requests()).toEqual([])
      expect(JSON.parse(run.outputs.failed)).toEqual(['https://docs.example.com/pricing'])
      expect(run.stdout).not.toContain('the change set is unknown')
      expect(run.summary).toContain('Stopped:** The run was cancelled (SIGINT received)')
    } finally {
      workspace.remove()
    }
  })
})

describe('index action cancelled as early as it can be', () => {
  it('writes outputs and summary for a SIGINT that comes while the bundle loads, and a SIGTERM after it', async () => {
    const workspace = makeWorkspace({ 'docs/a.md': 'a\n', 'docs/b.md': 'b\n' })
    try {
      const run = await runAction({
        action: 'action.yml',
        workspace: workspace.dir,
        inputs: { ...indexInputs, 'base-url': emulator.url, mode: 'upload' },
        onStart: (started) => {
          // The first line the bundle prints is its first statement: the signals are claimed. The SIGINT
          // goes at once, while the rest of the bundle is still being evaluated; the SIGTERM as soon as
          // the SIGINT is taken, long before the runner's 7.5 s.
          let stdout = ''
          const onData = (chunk: Buffer) => {
            if (stdout === '') cancellation = cancelLikeTheRunner(started)
            stdout += chunk.toString()
            if (!stdout.includes('Received SIGINT')) return
            started.stdout!.off('data', onData)
            started.kill('SIGTERM')
          }
          started.stdout!.on('data', onData)
        },
      })
      expectEndedOnItsOwn(run)
      expect(run.stdout.startsWith('::debug::kb-sync: SIGINT and SIGTERM are handled from here on\n')).toBe(
        true,
      )
      expect(run.stdout).toMatch(/::error::The run was cancelled \(SIGINT received\)/)
      expect(run.summary).toContain('Stopped:** The run was cancelled (SIGINT received)')
      // What the run knew of ends in one output each (how much it knew depends on when the signal came).
      const uploaded: string[] = JSON.parse(run.outputs.uploaded)
      const failed: string[] = JSON.parse(run.outputs.failed)
      const known = ['https://docs.example.com/pricing', 'docs/a.md', 'docs/b.md']
      expect([...uploaded, ...failed].every((name) => known.includes(name))).toBe(true)
      expect(new Set([...uploaded, ...failed]).size).toBe(uploaded.length + failed.length)
    } finally {
      workspace.remove()
    }
  })
})

describe('index action given a second signal soon after the first', () => {
  const uploadInputs = (url: string) => ({
    ...indexInputs,
    'base-url': url,
    mode: 'upload',
    'batch-size': '1',
    concurrency: '1',
  })
  const files = { 'docs/a.md': 'a\n', 'docs/b.md': 'b\n', 'docs/c.md': 'c\n' }
  const known = ['https://docs.example.com/pricing', 'docs/a.md', 'docs/b.md', 'docs/c.md']

  /** Every item of the run is in exactly one of the outputs' lists, and none was sent. */
  function expectEveryItemFailed(outputs: Record<string, string>) {
    const lists = ['uploaded', 'updated', 'skipped', 'failed', 'removed'].map(
      (name) => JSON.parse(outputs[name]) as string[],
    )
    expect(lists.flat().sort()).toEqual([...known].sort())
    expect((JSON.parse(outputs.failed) as string[]).sort()).toEqual([...known].sort())
  }

  it('writes the outputs and the summary when SIGTERM follows the SIGINT by a moment (the log says the cancellation began)', async () => {
    const workspace = makeWorkspace(files)
    try {
      hanging = await startRecordingServer(() => {
        if (!child || cancellation) return
        child.kill('SIGINT')
        cancellation = { sent: ['SIGINT'] }
      })
      const run = await runAction({
        action: 'action.yml',
        workspace: workspace.dir,
        inputs: uploadInputs(hanging.url),
        onStart: (started) => {
          child = started
          let stdout = ''
          const onData = (chunk: Buffer) => {
            stdout += chunk.toString()
            if (!stdout.includes('Received SIGINT')) return
            started.stdout!.off('data', onData)
            started.kill('SIGTERM')
            cancellation!.sent.push('SIGTERM')
          }
          started.stdout!.on('data', onData)
        },
      })
      expect(cancellation?.sent).toEqual(['SIGINT', 'SIGTERM'])
      expect(run.status).toBe(1)
      expect(hanging.requests).toHaveLength(1)
      expect(run.stdout).toMatch(/::warning::Received SIGINT: no new requests are started/)
      expect(run.stdout).toMatch(
        /::warning::Received SIGTERM after the cancellation: the requests still in flight are cut off/,
      )
      expectEveryItemFailed(run.outputs)
      expect(run.stdout).toContain('cancelled before it was sent')
      expect(run.stdout).toContain('cancelled while the request was in flight')
      expect(run.summary).toContain('Stopped:** The run was cancelled (SIGINT received)')
      expect(run.summary).toContain('cancelled before it was sent')
    } finally {
      workspace.remove()
    }
  })

  it('cuts off the request in flight at once, without waiting out its grace', async () => {
    const workspace = makeWorkspace(files)
    try {
      // The process is stopped while both signals are sent, so it takes them together, before any timer of
      // the run can fire: the grace has not ended. Which of the two it takes first is the kernel's choice.
      hanging = await startRecordingServer(() => {
        if (!child || cancellation) return
        cancellation = { sent: [] }
        child.kill('SIGSTOP')
        for (const signal of ['SIGINT', 'SIGTERM'] as const) {
          child.kill(signal)
          cancellation.sent.push(signal)
        }
        child.kill('SIGCONT')
      })
      const run = await runAction({
        action: 'action.yml',
        workspace: workspace.dir,
        inputs: uploadInputs(hanging.url),
        onStart: (started) => (child = started),
      })
      expect(run.status).toBe(1)
      expect(hanging.requests).toHaveLength(1)
      expectEveryItemFailed(run.outputs)
      const first = /::warning::Received (SIG[A-Z]+): no new requests are started/.exec(run.stdout)?.[1]
      const second =
        /::warning::Received (SIG[A-Z]+) after the cancellation: the requests still in flight are cut off/.exec(
          run.stdout,
        )?.[1]
      expect([first, second].sort()).toEqual(['SIGINT', 'SIGTERM'])
      expect(run.stdout).toContain(
        `failed after 1 attempt(s): cancelled while the request was in flight (cut off by ${second})`,
      )
      expect(run.summary).toContain(`cut off by ${second}`)
    } finally {
      workspace.remove()
    }
  })
})

describe('run-flow action cancelled', () => {
  it('stops a flow run that never answers, with outputs and a summary that says so', async () => {
    const url = await neverAnswering()
    const run = await runCancelled({
      action: 'run-flow/action.yml',
      inputs: { 'base-url': url, ...ids, 'public-key': PUBLIC_KEY, inputs: '{"in-0": "refunds?"}' },
    })
    expectEndedOnItsOwn(run)
    expect(hanging!.requests).toHaveLength(1)
    expect(run.stdout).toMatch(/::error::The flow run was cancelled before a complete answer came/)
    expect(run.outputs).toMatchObject({ result: '', response: '', outputs: '{}' })
    expect(run.summary).toContain('cancelled')
  })
})

/** `kb-sync index` uploading the workspace's docs one request at a time to `url`. */
function startCliUpload(
  url: string,
  workspace: string,
): ChildProcess & { stdout: Readable; stderr: Readable } {
  const started = spawn(
    process.execPath,
    [CLI, 'index', '--base-url', url, ...Object.entries(ids).flatMap(([k, v]) => [`--${k}`, v])]
      .concat(['--node-id', 'knowledgebase-1', '--files', 'docs/**', '--mode', 'upload'])
      .concat(['--batch-size', '1', '--concurrency', '1', '--workspace', workspace]),
    { env: { ...process.env, KB_SYNC_PRIVATE_KEY: PRIVATE_KEY }, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  child = started
  return started
}

describe('kb-sync index interrupted with Ctrl-C', () => {
  it('prints what was done, lists what was not sent as failed, and exits 130', async () => {
    const workspace = makeWorkspace({ 'docs/a.md': 'a\n', 'docs/b.md': 'b\n', 'docs/c.md': 'c\n' })
    try {
      const url = await neverAnswering()
      const started = startCliUpload(url, workspace.dir)
      let stdout = ''
      let stderr = ''
      started.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
      started.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
      const status = await new Promise<number | null>((resolve) => started.on('close', resolve))
      // Bounded like a step: it has exited on its own before a SIGKILL would have come.
      expect(cancellation?.sent).toEqual(['SIGINT'])
      expect(status).toBe(130)
      expect(hanging!.requests).toHaveLength(1)
      expect(stdout).toContain(
        'Uploaded 0, updated 0, skipped 0, failed 3, removed from answers 0, left in the knowledge base 0',
      )
      expect(stdout).toMatch(/1 × cancelled while the request was in flight/)
      expect(stdout).toMatch(/2 × cancelled before it was sent/)
      expect(stderr).toMatch(/^warning: Received SIGINT: no new requests are started/m)
      expect(stderr).toMatch(/^error: The run was cancelled \(SIGINT received\)/m)
      expect(`${stdout}${stderr}`).not.toContain(PRIVATE_KEY)
    } finally {
      workspace.remove()
    }
  })
  it('a second Ctrl-C cuts off the request in flight and prints what was done at once', async () => {
    const workspace = makeWorkspace({ 'docs/a.md': 'a\n', 'docs/b.md': 'b\n' })
    try {
      const url = await neverAnswering()
      const started = startCliUpload(url, workspace.dir)
      let stdout = ''
      let stderr = ''
      let second = false
      started.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
      started.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString()
        // The second Ctrl-C once the first is taken (the log says so).
        if (second || !stderr.includes('Received SIGINT')) return
        second = true
        started.kill('SIGINT')
      })
      const status = await new Promise<number | null>((resolve) => started.on('close', resolve))
      expect(second).toBe(true)
      expect(status).toBe(130)
      expect(stderr).toMatch(
        /^warning: Received SIGINT after the cancellation: the requests still in flight are cut off/m,
      )
      expect(stdout).toContain(
        'Uploaded 0, updated 0, skipped 0, failed 2, removed from answers 0, left in the knowledge base 0',
      )
      expect(stdout).toMatch(/1 × cancelled before it was sent/)
    } finally {
      workspace.remove()
    }
  })
})
