// What to do after a request of a unit (a batch, or one item of it) failed: this failure, this state, what
// next. Pure: the loop in send-plan.ts carries the step out (waits, logs, splits, records outcomes), so
// every rule is unit-tested without a server.
import type { SettingNames } from '../setting-names.js'
import type { Operation } from '../model.js'
import { runRefusal, ServiceError } from '../service/errors.js'
import {
  decideRetry,
  honoursRetryAfter,
  parseRetryAfter,
  retryRuleOf,
  type RetryPolicy,
} from '../service/retry.js'

/** Where a unit stands after its failed request. */
export interface UnitState {
  /** Items still without an outcome in the unit (more than one: a batch that may be split). */
  items: number
  /** The operation the plan chose (a split batch starts from it again after contradictory answers). */
  planned: Operation
  operation: Operation
  /** 404 on update → upload, 409 on upload → update. */
  upsert: boolean
  /** Placeholders of removed documents: 404 to their PATCH means the document is not there (success). */
  placeholders?: boolean
  switches: number
  /**
   * The unit is part of a failed unit being searched: its operation is the one most of its items need,
   * so a wrong-operation answer means odd items to find, not a unit that is wholly the other way.
   */
  searching: boolean
  /** Failed attempts that use up `retries` (RETRY_RULES' `send` column). */
  failedAttempts: number
  /** All failed attempts (for the backoff). */
  tries: number
  /** Times a batch's file changed while it was sent: the service never had it, so no retry is used. */
  fileChanges: number
  firstAttemptAt: number
}

export interface StepContext {
  policy: RetryPolicy
  now: number
  random?: () => number
  /** Cancellation cut the request off in flight. */
  hardStopped: boolean
  /** The second signal that cut it off before the grace ended (e.g. SIGTERM), when one did. */
  cutOffBy?: string
  /** How a refusal names the key and the ids (the actions' inputs, or the CLI's flags). */
  names?: SettingNames
  /** The operation the node's latest answers say documents of this run need (none yet: undefined). */
  evidence?: Operation
}

export type Step =
  | { step: 'fail'; error: string }
  /** The service refused the key or the ids: no other request can succeed (`cause` for every item). */
  | { step: 'refused'; cause: string }
  /** Not a retry: the document simply is (not) there yet; sent again as `state.operation`. */
  | { step: 'switch'; from: Operation; status: number }
  /** A file of the batch changed: sent again at once as the files are now. */
  | { step: 'resend' }
  | { step: 'retry'; delayMs: number }
  /** A file that keeps changing must not sink the others: each is sent alone, starting from `operation`. */
  | { step: 'each-alone'; operation: Operation; why: string }
  /**
   * Some items of the unit are odd (refused, or they need the other operation): it is searched in parts
   * sent as `operation` (bisection.ts). With `oddNeedsOther`, an odd item found alone is sent as the
   * other operation without trying `operation` again.
   */
  | { step: 'bisect'; operation: Operation; why: string; oddNeedsOther: boolean }
  /** A placeholder's document is not in the knowledge base: nothing to blank, which is success. */
  | { step: 'absent' }

/** The step after `failure`, and the unit's state for it. `message` is the failure's text. */
export function nextStep(
  failure: unknown,
  message: string,
  state: UnitState,
  context: StepContext,
): { next: Step; state: UnitState } {
  const error = failure instanceof ServiceError ? failure : undefined
  const status = error?.status
  if (context.hardStopped) {
    const by = context.cutOffBy ? ` (cut off by ${context.cutOffBy})` : ''
    return {
      next: { step: 'fail', error: `cancelled while the request was in flight${by}: ${message}` },
      state,
    }
  }
  const refusal = error && runRefusal(error, context.names, context.policy)
  if (refusal) return { next: { step: 'refused', cause: refusal }, state }

  if (state.placeholders && status === 404 && state.operation === 'update') {
    // A batch answered 404 may hold documents that are there: it is searched in parts (bisection.ts), as
    // any batch that some of its documents make fail, and a placeholder answered 404 alone is absent.
    if (state.items === 1) return { next: { step: 'absent' }, state }
    const why = 'PATCH answered 404: some of the removed documents are not in the knowledge base'
    return { next: { step: 'bisect', operation: 'update', why, oddNeedsOther: false }, state }
  }

  const wrongOperation =
    state.upsert &&
    ((status === 404 && state.operation === 'update') || (status === 409 && state.operation === 'upload'))
  // A batch answered "wrong operation" is wholly the other way (an empty node, the half of a node an
  // interrupted sync never reached) or mixed: it is tried whole the other way once, and searched only
  // when that is refused too. Searching a batch that is wholly the other way would cost about two
  // requests per document. A part of a search is searched again: the search knows its operation fits most.
  if (wrongOperation && (state.items === 1 ? state.switches < 2 : state.switches === 0 && !state.searching)) {
    return {
      next: { step: 'switch', from: state.operation, status: status! },
      state: { ...state, switches: state.switches + 1, operation: otherOf(state.operation) },
    }
  }

  const fileChanged = error?.code === 'FILE_CHANGED'
  if (fileChanged && state.items > 1) {
    // A second change means one of them keeps changing, and only that one may fail.
    const fileChanges = state.fileChanges + 1
    const next: Step =
      fileChanges >= 2 ? { step: 'each-alone', operation: state.operation, why: message } : { step: 'resend' }
    return { next, state: { ...state, fileChanges } }
  }

  if (error && (error.retryable || fileChanged)) {
    const usesRetries = fileChanged || retryRuleOf(error)?.send === 'attempts'
    const failedAttempts = state.failedAttempts + (usesRetries ? 1 : 0)
    const tries = state.tries + 1
    const counted = { ...state, failedAttempts, tries }
    if (failedAttempts >= context.policy.attempts)
      return { next: { step: 'fail', error: message }, state: counted }
    const decision = decideRetry(
      { retryable: true, status, retryAfter: error.retryAfter },
      tries,
      state.firstAttemptAt,
      { ...context.policy, attempts: Number.POSITIVE_INFINITY },
      { now: () => context.now },
      context.random,
    )
    if (!decision.retry)
      return { next: { step: 'fail', error: `${message}${gaveUpNote(error, context)}` }, state: counted }
    // The whole body went out and no answer came: the upload may have been applied. Updating is safe
    // either way (404 then means it was not, and the upload is sent again).
    const ambiguousUpload = state.operation === 'upload' && error.bodySent && status === undefined
    return {
      next: { step: 'retry', delayMs: fileChanged ? 0 : decision.delayMs },
      state: ambiguousUpload ? { ...counted, operation: 'update', upsert: true, switches: 0 } : counted,
    }
  }

  if (state.items > 1) {
    if (!wrongOperation)
      return {
        next: { step: 'bisect', operation: state.operation, why: message, oddNeedsOther: false },
        state,
      }
    // After both operations were refused (a mixed unit) the search sends what the node's answers say most
    // documents need, else what the plan chose.
    const operation = state.switches === 0 ? state.operation : (context.evidence ?? state.planned)
    const why =
      state.switches === 0
        ? `${METHOD[state.operation]} answered ${status} (some of them ${state.operation === 'update' ? 'are not there yet' : 'are there already'})`
        : `both ${METHOD[otherOf(state.operation)]} and ${METHOD[state.operation]} were refused (some exist, some do not)`
    return { next: { step: 'bisect', operation, why, oddNeedsOther: true }, state }
  }
  return { next: { step: 'fail', error: message }, state }
}

export const METHOD: Record<Operation, string> = { upload: 'POST', update: 'PATCH' }

export function otherOf(operation: Operation): Operation {
  return operation === 'upload' ? 'update' : 'upload'
}

/** Why a retryable failure is not retried although attempts are left: the deadline. */
function gaveUpNote(error: ServiceError, context: StepContext): string {
  const hinted = honoursRetryAfter(error.status) ? parseRetryAfter(error.retryAfter, context.now) : undefined
  const seconds = Math.round(context.policy.deadlineMs / 1000)
  return hinted === undefined
    ? ` (gave up: the next attempt would start past retry-deadline, ${seconds} s)`
    : ` (gave up: the service asked to wait ${formatMs(hinted)}, past what is left of retry-deadline, ${seconds} s)`
}

export function formatMs(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`
}
