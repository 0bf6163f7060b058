import { describe, expect, test } from '@jest/globals'
import { CircuitBreaker } from '../../src/send/breaker.js'
import { RequestScheduler } from '../../src/send/scheduler.js'
import type { Clock } from '../../src/service/retry.js'

/** Time moves only when the test says so; sleeps resolve when it has moved far enough. */
function manualClock(): Clock & { advance(ms: number): Promise<void> } {
  let now = 0
  const timers: { at: number; resolve: () => void }[] = []
  return {
    now: () => now,
    sleep: (ms, signal) =>
      new Promise<void>((resolve) => {
        if (signal?.aborted) return resolve()
        timers.push({ at: now + ms, resolve })
        signal?.addEventListener('abort', () => resolve(), { once: true })
      }),
    async advance(ms) {
      now += ms
      for (const timer of timers.filter((t) => t.at <= now)) {
        timers.splice(timers.indexOf(timer), 1)
        timer.resolve()
      }
      await flush()
    },
  }
}

const flush = () => new Promise((resolve) => setImmediate(resolve))

/** Starts `acquire` and records when (and whether) it was granted. */
function track(scheduler: RequestScheduler, label: string, granted: string[], priority = false) {
  void scheduler.acquire(priority).then((ok) => granted.push(ok ? label : `${label}:stopped`))
}

describe('RequestScheduler', () => {
  test('never lets more than the limit start, and hands turns out in order', async () => {
    const scheduler = new RequestScheduler(2, manualClock(), new AbortController().signal)
    const granted: string[] = []
    for (const label of ['a', 'b', 'c', 'd']) track(scheduler, label, granted)
    await flush()
    expect(granted).toEqual(['a', 'b'])
    scheduler.release()
    await flush()
    expect(granted).toEqual(['a', 'b', 'c'])
    scheduler.release()
    scheduler.release()
    await flush()
    expect(granted).toEqual(['a', 'b', 'c', 'd'])
  })

  test('a retry (priority) goes ahead of new requests, behind earlier retries', async () => {
    const scheduler = new RequestScheduler(1, manualClock(), new AbortController().signal)
    const granted: string[] = []
    track(scheduler, 'first', granted)
    await flush()
    track(scheduler, 'new1', granted)
    track(scheduler, 'new2', granted)
    track(scheduler, 'retry1', granted, true)
    track(scheduler, 'retry2', granted, true)
    for (let i = 0; i < 4; i++) {
      scheduler.release()
      await flush()
    }
    expect(granted).toEqual(['first', 'retry1', 'retry2', 'new1', 'new2'])
  })

  test('a pause holds every waiter until its time', async () => {
    const clock = manualClock()
    const scheduler = new RequestScheduler(4, clock, new AbortController().signal)
    const granted: string[] = []
    scheduler.pause(1000)
    track(scheduler, 'a', granted)
    track(scheduler, 'b', granted, true)
    await clock.advance(999)
    expect(granted).toEqual([])
    // A longer hint while paused extends the pause.
    scheduler.pause(500)
    await clock.advance(1)
    expect(granted).toEqual([])
    await clock.advance(499)
    expect(granted).toEqual(['b', 'a'])
  })

  test('halves the limit on 429 (not below 1) and recovers by one per success up to the maximum', async () => {
    const scheduler = new RequestScheduler(8, manualClock(), new AbortController().signal)
    scheduler.rateLimited()
    expect(scheduler.limit).toBe(4)
    scheduler.rateLimited()
    scheduler.rateLimited()
    scheduler.rateLimited()
    expect(scheduler.limit).toBe(1)
    for (let i = 0; i < 20; i++) scheduler.succeeded()
    expect(scheduler.limit).toBe(8)
  })

  test('a lowered limit holds new requests until enough in flight have finished', async () => {
    const scheduler = new RequestScheduler(4, manualClock(), new AbortController().signal)
    const granted: string[] = []
    for (const label of ['a', 'b', 'c', 'd', 'e']) track(scheduler, label, granted)
    await flush()
    scheduler.rateLimited()
    scheduler.release()
    scheduler.release()
    await flush()
    expect(granted).toEqual(['a', 'b', 'c', 'd'])
    scheduler.release()
    await flush()
    expect(granted).toEqual(['a', 'b', 'c', 'd', 'e'])
  })

  test('while probing one request at a time starts; when the service answers, all of them again', async () => {
    const scheduler = new RequestScheduler(4, manualClock(), new AbortController().signal)
    const granted: string[] = []
    scheduler.probing = true
    for (const label of ['a', 'b', 'c']) track(scheduler, label, granted)
    await flush()
    expect(granted).toEqual(['a'])
    scheduler.release()
    await flush()
    expect(granted).toEqual(['a', 'b'])
    scheduler.probing = false
    await flush()
    expect(granted).toEqual(['a', 'b', 'c'])
  })

  test('once stopped, waiting and later requests are refused', async () => {
    const stop = new AbortController()
    const clock = manualClock()
    const scheduler = new RequestScheduler(1, clock, stop.signal)
    const granted: string[] = []
    track(scheduler, 'a', granted)
    track(scheduler, 'b', granted)
    scheduler.pause(10_000)
    await flush()
    stop.abort()
    await flush()
    track(scheduler, 'c', granted)
    await flush()
    expect(granted).toEqual(['a', 'b:stopped', 'c:stopped'])
  })

  test('rejects a concurrency that is not a positive integer', () => {
    expect(() => new RequestScheduler(0, manualClock(), new AbortController().signal)).toThrow(RangeError)
    expect(() => new RequestScheduler(1.5, manualClock(), new AbortController().signal)).toThrow(RangeError)
  })
})

describe('CircuitBreaker', () => {
  test('opens only when every attempt over the window failed, and keeps the last error', () => {
    let now = 0
    const breaker = new CircuitBreaker(1000, { now: () => now })
    // Forty failures in a burst (many workers) do not open it: the window is time, not a count.
    for (let i = 0; i < 40; i++) breaker.failed(`burst ${i}`)
    expect(breaker.down).toBe(true)
    expect(breaker.open).toBe(false)
    now = 900
    breaker.answered()
    expect(breaker.down).toBe(false)
    now = 1000
    breaker.failed('three')
    now = 1999
    breaker.failed('four')
    expect(breaker.open).toBe(false)
    now = 2000
    breaker.failed('five')
    expect(breaker.open).toBe(true)
    expect(breaker.lastError).toBe('five')
    breaker.failed('six, from a request still in flight')
    expect(breaker.lastError).toBe('five')
    breaker.answered()
    expect(breaker.open).toBe(true)
  })
})
