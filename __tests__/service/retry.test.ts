import { describe, expect, test } from '@jest/globals'
import {
  backoffDelay,
  callWithRetry,
  decideRetry,
  DEFAULT_RETRY_POLICY,
  parseRetryAfter,
  systemClock,
  type Clock,
  type RetryPolicy,
} from '../../src/service/retry.js'

const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY }

/** A clock that never really waits: every sleep moves time forward and is recorded. */
function fakeClock(start = 1_000_000): Clock & { sleeps: number[] } {
  let now = start
  const sleeps: number[] = []
  return {
    sleeps,
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms)
      now += ms
    },
  }
}

class Failure extends Error {
  constructor(
    readonly retryable: boolean,
    readonly status?: number,
    readonly retryAfter?: string,
  ) {
    super(`failure ${status ?? 'network'}`)
  }
}

describe('DEFAULT_RETRY_POLICY', () => {
  test('is the documented policy', () => {
    expect(DEFAULT_RETRY_POLICY).toEqual({
      attempts: 10,
      deadlineMs: 120_000,
      baseDelayMs: 500,
      maxDelayMs: 20_000,
      maxRetryAfterMs: 60_000,
    })
  })
})

describe('backoffDelay', () => {
  test('full jitter: between 0 and a ceiling that doubles from the base up to the cap', () => {
    const top = () => 0.999999
    expect(backoffDelay(1, policy, top)).toBe(499)
    expect(backoffDelay(2, policy, top)).toBe(999)
    expect(backoffDelay(3, policy, top)).toBe(1999)
    expect(backoffDelay(6, policy, top)).toBe(15999)
    expect(backoffDelay(7, policy, top)).toBe(19999)
    expect(backoffDelay(30, policy, top)).toBe(19999)
    expect(backoffDelay(5, policy, () => 0)).toBe(0)
    expect(backoffDelay(2, policy, () => 0.5)).toBe(500)
  })

  test('uses Math.random by default and stays in range', () => {
    for (let i = 0; i < 200; i++) {
      const delay = backoffDelay(3, policy)
      expect(delay).toBeGreaterThanOrEqual(0)
      expect(delay).toBeLessThan(2000)
    }
  })
})

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-05-01T12:00:00Z')
  test.each([
    ['0', 0],
    ['7', 7000],
    [' 120 ', 120_000],
    ['0.25', 250],
    ['Fri, 01 May 2026 12:00:30 GMT', 30_000],
    ['Fri, 01 May 2026 11:59:00 GMT', 0],
    ['Friday, 01-May-26 12:00:10 GMT', 10_000],
    ['Fri May  1 12:00:05 2026', 5000],
  ])('%j → %d ms', (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms)
  })

  test.each([undefined, '', '  ', '-1', 'soon', '1e3', '12abc', '0x10', 'in 10', 'x 1', '2026-05-01'])(
    '%j → undefined',
    (value) => {
      expect(parseRetryAfter(value, now)).toBeUndefined()
    },
  )
})

describe('decideRetry', () => {
  const clock = fakeClock(10_000)
  const half = () => 0.5

  test('does not retry what is not retryable', () => {
    expect(decideRetry(new Failure(false, 422), 1, 10_000, policy, clock, half)).toEqual({
      retry: false,
      reason: 'not-retryable',
    })
    expect(decideRetry({}, 1, 10_000, policy, clock, half)).toEqual({ retry: false, reason: 'not-retryable' })
  })

  test('backs off on a retryable failure', () => {
    expect(decideRetry(new Failure(true, 500), 1, 10_000, policy, clock, half)).toEqual({
      retry: true,
      delayMs: 250,
    })
  })

  test('stops after the last attempt', () => {
    expect(decideRetry(new Failure(true, 500), 10, 10_000, policy, clock, half)).toEqual({
      retry: false,
      reason: 'attempts',
    })
    expect(decideRetry(new Failure(true, 500), 9, 10_000, policy, clock, half).retry).toBe(true)
  })

  test('does not wait past the deadline', () => {
    const started = 10_000 - policy.deadlineMs + 100
    expect(decideRetry(new Failure(true, 500), 1, started, policy, clock, half)).toEqual({
      retry: false,
      reason: 'deadline',
    })
    expect(decideRetry(new Failure(true, 500), 1, started, policy, clock, () => 0.1).retry).toBe(true)
  })

  test('a Retry-After of 0 or a past date does not make retries immediate: the backoff applies', () => {
    for (const hint of ['0', 'Thu, 01 Jan 1970 00:00:00 GMT'])
      expect(decideRetry(new Failure(true, 429, hint), 1, 10_000, policy, clock, half)).toEqual({
        retry: true,
        delayMs: 250,
      })
  })

  test('honours Retry-After on 429 and 503, capped at maxRetryAfterMs', () => {
    expect(decideRetry(new Failure(true, 429, '3'), 1, 10_000, policy, clock, half)).toEqual({
      retry: true,
      delayMs: 3000,
      hintMs: 3000,
    })
    expect(decideRetry(new Failure(true, 503, '600'), 1, 10_000, policy, clock, half)).toEqual({
      retry: true,
      delayMs: 60_000,
      hintMs: 60_000,
    })
  })

  test('ignores Retry-After on other statuses and when unparseable', () => {
    expect(decideRetry(new Failure(true, 500, '3'), 1, 10_000, policy, clock, half)).toEqual({
      retry: true,
      delayMs: 250,
    })
    expect(decideRetry(new Failure(true, 429, 'later'), 1, 10_000, policy, clock, half)).toEqual({
      retry: true,
      delayMs: 250,
    })
  })

  test('a hint that would pass the deadline ends the retries', () => {
    const short = { ...policy, deadlineMs: 5000 }
    expect(decideRetry(new Failure(true, 429, '10'), 1, 10_000, short, clock, half)).toEqual({
      retry: false,
      reason: 'deadline',
    })
  })
})

describe('callWithRetry', () => {
  test('returns the first success after retryable failures, waiting between attempts', async () => {
    const clock = fakeClock()
    const failures = [new Failure(true, 503, '2'), new Failure(true, 500)]
    let calls = 0
    const result = await callWithRetry(
      async () => {
        calls++
        const failure = failures.shift()
        if (failure) throw failure
        return 'ok'
      },
      { policy, clock, random: () => 0.5 },
    )
    expect(result).toBe('ok')
    expect(calls).toBe(3)
    expect(clock.sleeps).toEqual([2000, 500])
  })

  test('throws a non-retryable failure at once', async () => {
    const clock = fakeClock()
    const failure = new Failure(false, 400)
    let calls = 0
    await expect(
      callWithRetry(
        async () => {
          calls++
          throw failure
        },
        { policy, clock },
      ),
    ).rejects.toBe(failure)
    expect(calls).toBe(1)
    expect(clock.sleeps).toEqual([])
  })

  test('throws the last failure when the attempts run out', async () => {
    const clock = fakeClock()
    let calls = 0
    const retries: number[] = []
    await expect(
      callWithRetry(
        async () => {
          calls++
          throw new Failure(true, 500)
        },
        { policy: { ...policy, attempts: 4 }, clock, onRetry: (_f, attempt) => retries.push(attempt) },
      ),
    ).rejects.toThrow('failure 500')
    expect(calls).toBe(4)
    expect(retries).toEqual([1, 2, 3])
  })

  test('passes the signal to the call and stops retrying once it aborts', async () => {
    const clock = fakeClock()
    const controller = new AbortController()
    const seen: (AbortSignal | undefined)[] = []
    await expect(
      callWithRetry(
        async (signal) => {
          seen.push(signal)
          controller.abort()
          throw new Failure(true, 500)
        },
        { policy, clock, signal: controller.signal },
      ),
    ).rejects.toThrow('failure 500')
    expect(seen).toEqual([controller.signal])
  })
})

describe('systemClock.sleep', () => {
  test('wakes early when the signal aborts', async () => {
    const controller = new AbortController()
    const sleeping = systemClock.sleep(60_000, controller.signal)
    controller.abort()
    await expect(sleeping).resolves.toBeUndefined()
  })

  test('returns at once for an aborted signal or no wait', async () => {
    await systemClock.sleep(0)
    await systemClock.sleep(60_000, AbortSignal.abort())
  })
})
