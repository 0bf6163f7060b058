// The search of a failed batch, without a server: nextStep decides, probeSize and afterProbe say how the
// search goes on, and a model node (the names it holds) answers as the emulator does (PATCH of a missing
// name 404, POST of a present one 409). The sender carries out the same steps (upsert.test.ts and
// search.test.ts check it against the emulator); here every position of the odd documents is counted.
import { describe, expect, it } from '@jest/globals'
import type { Operation } from '../../src/model.js'
import { afterProbe, probeSize, searchCost } from '../../src/send/bisection.js'
import { nextStep, otherOf, type UnitState } from '../../src/send/next-step.js'
import { ServiceError } from '../../src/service/errors.js'
import { FAST_RETRY } from './fixture.js'

interface Run {
  requests: number
  landed: Map<number, Operation>
}

interface Part {
  operation: Operation
  searching: boolean
  switches: number
}

/**
 * Requests to sync documents 0..size-1 in one upsert batch planned as `planned`, into a node that holds
 * `present`; `evidence` is what earlier answers of the run said most documents need.
 */
function syncBatch(size: number, present: Set<number>, planned: Operation, evidence?: Operation): Run {
  const run: Run = { requests: 0, landed: new Map() }
  const sendUnit = (items: number[], part: Part): boolean => {
    let state: UnitState = {
      items: items.length,
      planned: part.operation,
      operation: part.operation,
      upsert: true,
      switches: part.switches,
      searching: part.searching,
      failedAttempts: 0,
      tries: 0,
      fileChanges: 0,
      firstAttemptAt: 0,
    }
    for (;;) {
      run.requests++
      const wrong = items.filter((i) => present.has(i) !== (state.operation === 'update'))
      if (wrong.length === 0) {
        for (const i of items) run.landed.set(i, state.operation)
        return state.operation === state.planned
      }
      const status = state.operation === 'update' ? 404 : 409
      const failure = new ServiceError({
        operation: state.operation === 'update' ? 'updateDocuments' : 'uploadDocuments',
        method: state.operation === 'update' ? 'PATCH' : 'POST',
        path: '/documents',
        bodySent: true,
        reason: `HTTP ${status}`,
        status,
        retryable: false,
      })
      const decided = nextStep(failure, `HTTP ${status}`, state, {
        policy: FAST_RETRY,
        now: 0,
        hardStopped: false,
        evidence,
      })
      state = decided.state
      const next = decided.next
      if (next.step === 'switch') continue
      if (next.step !== 'bisect') throw new Error(`unexpected step ${next.step}`)
      search(items, next.operation, next.oddNeedsOther)
      return false
    }
  }
  const search = (items: number[], operation: Operation, oddNeedsOther: boolean): void => {
    const probe = items.slice(0, probeSize(items.length))
    const rest = items.slice(probe.length)
    const landed = sendUnit(probe, { operation, searching: true, switches: 0 })
    const then = afterProbe(landed, rest.length, oddNeedsOther)
    if (then === 'search') search(rest, operation, oddNeedsOther)
    else if (then === 'whole') sendUnit(rest, { operation, searching: true, switches: 0 })
    else sendUnit(rest, { operation: otherOf(operation), searching: true, switches: 1 })
  }
  sendUnit(
    Array.from({ length: size }, (_, i) => i),
    { operation: planned, searching: false, switches: 0 },
  )
  return run
}

const allBut = (size: number, ...odd: number[]) =>
  new Set(Array.from({ length: size }, (_, i) => i).filter((i) => !odd.includes(i)))
const bound = (size: number) => 2 * Math.ceil(Math.log2(size)) + 2

/**
 * Every document landed once, as the operation it needed: one assertion per run (the loops below make
 * ~1,400 runs; an `expect` per document was ~40,000 of them, most of this file's CPU).
 */
function expectSynced(run: Run, size: number, present: Set<number>): void {
  const wrong = [...run.landed].filter(
    ([i, operation]) => operation !== (present.has(i) ? 'update' : 'upload'),
  )
  expect({ landed: run.landed.size, wrong }).toEqual({ landed: size, wrong: [] })
}

describe.each([25, 16])('a batch of %i', (size) => {
  it(`one new document at any position: at most 2⌈log2 ${size}⌉ + 2 requests`, () => {
    // The batch is first tried whole as POST (it might be wholly new), then searched; what the node
    // answered before decides only the operation the search sends.
    for (const evidence of [undefined, 'update'] as const) {
      const counts = Array.from({ length: size }, (_, odd) => {
        const present = allBut(size, odd)
        const run = syncBatch(size, present, 'update', evidence)
        expectSynced(run, size, present)
        return run.requests
      })
      expect(Math.max(...counts)).toBeLessThanOrEqual(bound(size))
    }
  })

  it('one document already there among new ones (planned upload): as few', () => {
    for (let odd = 0; odd < size; odd++) {
      const present = new Set([odd])
      const run = syncBatch(size, present, 'upload')
      expectSynced(run, size, present)
      expect(run.requests).toBeLessThanOrEqual(bound(size))
    }
  })

  it('two new documents at any two positions: at most twice the search of one', () => {
    let worst = 0
    for (let a = 0; a < size; a++) {
      for (let b = a + 1; b < size; b++) {
        const present = allBut(size, a, b)
        const run = syncBatch(size, present, 'update')
        expectSynced(run, size, present)
        worst = Math.max(worst, run.requests)
      }
    }
    expect(worst).toBeLessThanOrEqual(2 * (bound(size) - 1))
    // Below splitting into single documents: the batch, its POST, one per document, and two more POSTs.
    expect(worst).toBeLessThan(size + 4)
  })

  it('all new (a first sync to an empty node): PATCH, then one POST', () => {
    const run = syncBatch(size, new Set(), 'update')
    expectSynced(run, size, new Set())
    expect(run.requests).toBe(2)
  })
})

describe('every batch size from 1 to 40', () => {
  it('one new document at any position: at most 2⌈log2 n⌉ + 2 requests, one more for 2 and 4', () => {
    for (let size = 1; size <= 40; size++) {
      let worst = 0
      for (let odd = 0; odd < size; odd++) {
        const present = allBut(size, odd)
        const run = syncBatch(size, present, 'update')
        expectSynced(run, size, present)
        worst = Math.max(worst, run.requests)
      }
      // 2 and 4: the two whole tries and a mixed pair (or four) cannot be found in less.
      const allowed = size === 1 ? 2 : bound(size) + (size === 2 || size === 4 ? 1 : 0)
      expect({ size, worst }).toEqual({ size, worst: Math.min(worst, allowed) })
    }
  })
})

describe('probeSize and searchCost', () => {
  it('the worst case over one odd item, after the failed request, is at most 2⌈log2 n⌉ + 1 for every batch size', () => {
    for (let size = 2; size <= 100; size++) {
      expect(searchCost(size)).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(size)) + 1)
      expect(probeSize(size)).toBeGreaterThanOrEqual(1)
      expect(probeSize(size)).toBeLessThanOrEqual(size / 2)
    }
  })

  it('a unit of one cannot be split', () => {
    expect(() => probeSize(1)).toThrow(RangeError)
  })
})
