// The decision after a failed request, without a server: what the sender does next, and how the unit's
// state moves (attempts used up, switches, the operation after an ambiguous upload).
import { describe, expect, it } from '@jest/globals'
import { nextStep, type StepContext, type UnitState } from '../../src/send/next-step.js'
import { ServiceError, type ServiceErrorFields } from '../../src/service/errors.js'
import { isRetried } from '../../src/service/retry.js'
import { FAST_RETRY } from './fixture.js'

const NOW = 1_000_000

function state(overrides: Partial<UnitState> = {}): UnitState {
  return {
    items: 1,
    planned: 'upload',
    operation: 'upload',
    upsert: false,
    switches: 0,
    searching: false,
    failedAttempts: 0,
    tries: 0,
    fileChanges: 0,
    firstAttemptAt: NOW,
    ...overrides,
  }
}

function context(overrides: Partial<StepContext> = {}): StepContext {
  return { policy: FAST_RETRY, now: NOW, random: () => 0.5, hardStopped: false, ...overrides }
}

function failure(fields: Partial<ServiceErrorFields>): ServiceError {
  const retryable = isRetried(fields) || (fields.retryable ?? false)
  return new ServiceError({
    operation: 'uploadDocuments',
    method: 'POST',
    path: '/documents',
    bodySent: false,
    reason: fields.status === undefined ? `${fields.code}: broke` : `HTTP ${fields.status}`,
    ...fields,
    retryable,
  })
}

describe('nextStep', () => {
  it('a request cut off by cancellation fails, whatever the answer', () => {
    const { next } = nextStep(failure({ status: 503 }), 'HTTP 503', state(), context({ hardStopped: true }))
    expect(next).toEqual({ step: 'fail', error: 'cancelled while the request was in flight: HTTP 503' })
  })

  it('a refused key is the one cause of every item', () => {
    const { next } = nextStep(failure({ status: 401 }), 'HTTP 401', state({ items: 3 }), context())
    expect(next.step).toBe('refused')
    expect(next.step === 'refused' && next.cause).toMatch(/private-key/)
  })

  it('404 on update switches to upload once for a batch, without using up an attempt', () => {
    const first = nextStep(
      failure({ status: 404, operation: 'updateDocuments' }),
      'HTTP 404',
      state({ items: 3, planned: 'update', operation: 'update', upsert: true }),
      context(),
    )
    expect(first.next).toEqual({ step: 'switch', from: 'update', status: 404 })
    expect(first.state).toMatchObject({ operation: 'upload', switches: 1, failedAttempts: 0, tries: 0 })

    // Then 409 on the upload: some exist, some do not; the unit is searched in parts as planned.
    const second = nextStep(failure({ status: 409 }), 'HTTP 409', first.state, context())
    expect(second.next).toEqual({
      step: 'bisect',
      operation: 'update',
      why: 'both PATCH and POST were refused (some exist, some do not)',
      oddNeedsOther: true,
    })
    // ... or as what the node's answers so far say most documents need.
    const told = nextStep(failure({ status: 409 }), 'HTTP 409', first.state, context({ evidence: 'upload' }))
    expect(told.next).toMatchObject({ step: 'bisect', operation: 'upload' })
  })

  it('a batch answered 404 is tried whole as POST even when the node answered PATCH so far', () => {
    // It may be wholly new (the half of a node an interrupted sync never reached): searching it would
    // cost about two requests per document, trying it whole one.
    const { next, state: after } = nextStep(
      failure({ status: 404, operation: 'updateDocuments' }),
      'HTTP 404',
      state({ items: 25, planned: 'update', operation: 'update', upsert: true }),
      context({ evidence: 'update' }),
    )
    expect(next).toEqual({ step: 'switch', from: 'update', status: 404 })
    expect(after.switches).toBe(1)
  })

  it('a part of a unit under search is searched again, never switched whole; one item alone switches', () => {
    const part = state({ items: 4, planned: 'update', operation: 'update', upsert: true, searching: true })
    const failed = failure({ status: 404, operation: 'updateDocuments' })
    expect(nextStep(failed, 'HTTP 404', part, context()).next).toMatchObject({
      step: 'bisect',
      operation: 'update',
    })
    expect(nextStep(failed, 'HTTP 404', { ...part, items: 1 }, context()).next).toEqual({
      step: 'switch',
      from: 'update',
      status: 404,
    })
  })

  it('a single item may switch twice, not three times', () => {
    const twice = nextStep(
      failure({ status: 409 }),
      'HTTP 409',
      state({ upsert: true, switches: 1 }),
      context(),
    )
    expect(twice.next.step).toBe('switch')
    const third = nextStep(
      failure({ status: 404, operation: 'updateDocuments' }),
      'HTTP 404',
      twice.state,
      context(),
    )
    expect(third.next).toEqual({ step: 'fail', error: 'HTTP 404' })
  })

  it('a file that changed in a batch: sent again at once, then each alone on the second change', () => {
    const changed = failure({ code: 'FILE_CHANGED' })
    const first = nextStep(changed, 'FILE_CHANGED: a.md', state({ items: 4 }), context())
    expect(first.next).toEqual({ step: 'resend' })
    const second = nextStep(changed, 'FILE_CHANGED: a.md', first.state, context())
    expect(second.next).toEqual({ step: 'each-alone', operation: 'upload', why: 'FILE_CHANGED: a.md' })
  })

  it('a file that changed, sent alone: retried at once and uses up an attempt', () => {
    const { next, state: after } = nextStep(failure({ code: 'FILE_CHANGED' }), 'changed', state(), context())
    expect(next).toEqual({ step: 'retry', delayMs: 0 })
    expect(after).toMatchObject({ failedAttempts: 1, tries: 1 })
  })

  it('a failure that uses up retries ends when they are used up', () => {
    const policy = { ...FAST_RETRY, attempts: 2 }
    const first = nextStep(failure({ status: 500 }), 'HTTP 500', state(), context({ policy }))
    expect(first.next.step).toBe('retry')
    expect(first.state).toMatchObject({ failedAttempts: 1, tries: 1 })
    const second = nextStep(failure({ status: 500 }), 'HTTP 500', first.state, context({ policy }))
    expect(second.next).toEqual({ step: 'fail', error: 'HTTP 500' })
  })

  it('a deadline-bound failure is retried however many attempts failed', () => {
    const policy = { ...FAST_RETRY, attempts: 1 }
    const { next, state: after } = nextStep(
      failure({ status: 502 }),
      'HTTP 502',
      state({ tries: 50 }),
      context({ policy }),
    )
    expect(next.step).toBe('retry')
    expect(after).toMatchObject({ failedAttempts: 0, tries: 51 })
  })

  it("the service's Retry-After is the wait, and a wait past the deadline gives up naming it", () => {
    const hinted = nextStep(failure({ status: 429, retryAfter: '2' }), 'HTTP 429', state(), context())
    expect(hinted.next).toEqual({ step: 'retry', delayMs: 2000 })

    const policy = { ...FAST_RETRY, deadlineMs: 10_000 }
    const tooLong = nextStep(
      failure({ status: 503, retryAfter: '30' }),
      'HTTP 503',
      state(),
      context({ policy }),
    )
    expect(tooLong.next).toEqual({
      step: 'fail',
      error:
        'HTTP 503 (gave up: the service asked to wait 30.0 s, past what is left of retry-deadline, 10 s)',
    })
  })

  it('an upload sent whole without an answer is retried as an update with the upsert switch on', () => {
    const { next, state: after } = nextStep(
      failure({ code: 'UND_ERR_SOCKET', bodySent: true }),
      'UND_ERR_SOCKET: other side closed',
      state(),
      context(),
    )
    expect(next.step).toBe('retry')
    expect(after).toMatchObject({ operation: 'update', upsert: true, switches: 0 })
  })

  it('a refused request: a batch is searched in parts, one item fails with the answer', () => {
    const refused = failure({ status: 422 })
    expect(nextStep(refused, 'HTTP 422', state({ items: 2 }), context()).next).toEqual({
      step: 'bisect',
      operation: 'upload',
      why: 'HTTP 422',
      oddNeedsOther: false,
    })
    expect(nextStep(refused, 'HTTP 422', state(), context()).next).toEqual({
      step: 'fail',
      error: 'HTTP 422',
    })
  })

  it('an error that is no service failure (a bug) is not retried', () => {
    expect(nextStep(new Error('boom'), 'boom', state(), context()).next).toEqual({
      step: 'fail',
      error: 'boom',
    })
  })

  describe('placeholders of removed documents', () => {
    const patch404 = () => failure({ status: 404, operation: 'updateDocuments', method: 'PATCH' })
    const placeholders = (items: number) =>
      state({ items, planned: 'update', operation: 'update', placeholders: true })

    it('404 to one placeholder: the document is not there, which is success', () => {
      expect(nextStep(patch404(), 'HTTP 404', placeholders(1), context()).next).toEqual({ step: 'absent' })
    })

    it('404 to a batch, or to a part of its search: searched in parts (some may be there), as PATCH again', () => {
      for (const searching of [false, true]) {
        const { next } = nextStep(patch404(), 'HTTP 404', { ...placeholders(3), searching }, context())
        expect(next).toEqual({
          step: 'bisect',
          operation: 'update',
          why: expect.stringMatching(/404/),
          oddNeedsOther: false,
        })
      }
    })

    it('any other refusal of a placeholder fails it, and a retryable answer is retried', () => {
      const refused = nextStep(
        failure({ status: 422, operation: 'updateDocuments', method: 'PATCH' }),
        'HTTP 422',
        placeholders(1),
        context(),
      )
      expect(refused.next).toEqual({ step: 'fail', error: 'HTTP 422' })
      const busy = nextStep(
        failure({ status: 503, operation: 'updateDocuments', method: 'PATCH' }),
        'HTTP 503',
        placeholders(1),
        context(),
      )
      expect(busy.next.step).toBe('retry')
    })

    it('404 to an ordinary update without upsert still fails', () => {
      const { next } = nextStep(
        patch404(),
        'HTTP 404',
        state({ planned: 'update', operation: 'update' }),
        context(),
      )
      expect(next.step).toBe('fail')
    })
  })
})
