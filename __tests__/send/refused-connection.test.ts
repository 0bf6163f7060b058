// A service that refuses the connection (a wrong base-url port, the emulator not started), through the real
// client against a port where nothing listens: on this machine the run ends at once with what to check;
// elsewhere (a local port standing in, with `retryLocalRefusal`) the first refusal says what is retried,
// until when and what to check, instead of a silent wait.
import { afterEach, describe, expect, test } from '@jest/globals'
import { sendPlan } from '../../src/send/send-plan.js'
import { ServiceClient } from '../../src/service/client.js'
import { DEFAULT_RETRY_POLICY, type Clock } from '../../src/service/retry.js'
import { recordingLog } from '../helpers/log.js'
import { freePort } from '../helpers/ports.js'
import { FAST_RETRY, makeDocuments, planFor, PRIVATE_KEY, TARGET, type Workspace } from './fixture.js'

const cleanup: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

async function documents(count: number): Promise<Workspace> {
  const workspace = await makeDocuments(count)
  cleanup.push(() => workspace.remove())
  return workspace
}

function clientFor(url: string): ServiceClient {
  const client = new ServiceClient({ baseUrl: url, privateKey: PRIVATE_KEY, connections: 4 })
  cleanup.push(() => client.close())
  return client
}

/** Time that moves only when the sender waits: a retry-deadline of minutes passes without waiting. */
function fakeClock(start: number): Clock {
  let now = start
  return {
    now: () => now,
    sleep: async (ms) => {
      now += ms
      await new Promise((resolve) => setImmediate(resolve))
    },
  }
}

describe('a refused connection', () => {
  test('on this machine: no retry, every item failed with the base URL and what to check', async () => {
    const workspace = await documents(8)
    const port = await freePort()
    const { log, lines } = recordingLog()
    const result = await sendPlan(
      planFor(workspace.files, 'upload', 2),
      clientFor(`http://127.0.0.1:${port}`),
      TARGET,
      // A deadline of an hour: only not retrying ends this run.
      { concurrency: 4, retry: { ...FAST_RETRY, deadlineMs: 3_600_000 }, log },
    )
    const cause =
      `Nothing is listening at http://127.0.0.1:${port} (ECONNREFUSED): check "base-url" (its port), or ` +
      'start the local service with `kb-sync serve`. A refused connection on this machine is not retried; ' +
      'nothing more was sent.'
    expect(result.items.map((item) => [item.outcome, item.error])).toEqual(
      workspace.files.map(() => ['failed', cause]),
    )
    // No batch was tried twice, and no retry was announced.
    expect(result.items.every((item) => item.attempts <= 1)).toBe(true)
    expect(lines.filter((line) => /retrying|refused the connection/.test(line.message))).toEqual([])
  })

  test('elsewhere: the first refusal says what is retried, until when, and what to check, once', async () => {
    const workspace = await documents(2)
    const port = await freePort()
    const { log, lines } = recordingLog()
    const result = await sendPlan(
      planFor(workspace.files, 'upload', 1),
      clientFor(`http://127.0.0.1:${port}`),
      TARGET,
      {
        concurrency: 2,
        retry: { ...DEFAULT_RETRY_POLICY, retryLocalRefusal: true },
        log,
        clock: fakeClock(Date.UTC(2026, 0, 1, 12, 0, 0)),
        random: () => 0.5,
      },
    )
    expect(result.items.every((item) => item.outcome === 'failed')).toBe(true)
    const retries = lines.filter((line) => /attempt \d+ failed .*ECONNREFUSED.*; retrying/.test(line.message))
    expect(retries.length).toBeGreaterThan(2)
    const explained = lines.filter((line) => line.message.includes('refused the connection'))
    expect(explained).toEqual([
      {
        level: 'warning',
        message:
          `The service at http://127.0.0.1:${port} refused the connection (ECONNREFUSED). Every request is ` +
          'retried, and the run stops if none connects, until 12:02:00 UTC ("retry-deadline", 120 s). Check ' +
          '"base-url", and that the service is running there (the local emulator: `kb-sync serve`).',
      },
    ])
    // Said at the first refusal, before the first wait.
    expect(lines.indexOf(explained[0])).toBeLessThan(lines.indexOf(retries[0]))
  })
})
