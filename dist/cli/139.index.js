export const id = 139;
export const ids = [139];
export const modules = {

/***/ 98723:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   iA: () => (/* binding */ expectationProblem),
/* harmony export */   mU: () => (/* binding */ compileExpectation),
/* harmony export */   n_: () => (/* binding */ findBounded)
/* harmony export */ });
/* unused harmony exports MAX_MATCH_WORK, MatchTooCostlyError */
/* harmony import */ var re2js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(2856);
/* harmony import */ var _units_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(61996);
// The `expect` check of a flow's answer, with RE2 syntax (re2js): matching takes time linear in the
// answer, so no pattern can hang the step the way a backtracking engine can on `(a+)+$`.


/**
 * The most work one match may take, as RE2's program size × the text's length. RE2 is linear in the text,
 * but its automaton may walk its whole program per character: `(\w|\s){1000}\d` (a program of 3,003)
 * against 90,000 characters takes seconds, ~20–25 ns per unit at worst (`npm run bench -- matching`,
 * bench/README.md). 40 million units is at most ~1 s of a blocked thread; common patterns
 * (`(?i)refund.*30 days`: 17) stay far below it even against a 900 KiB answer.
 */
const MAX_MATCH_WORK = 40_000_000;
/** A match refused before it starts, because it could hold the thread for seconds. */
class MatchTooCostlyError extends Error {
    constructor(pattern, length) {
        super(`the pattern ${JSON.stringify(pattern.pattern())} (an RE2 program of ${(0,_units_js__WEBPACK_IMPORTED_MODULE_0__/* .formatCount */ .B4)(pattern.programSize())}) ` +
            `against ${(0,_units_js__WEBPACK_IMPORTED_MODULE_0__/* .formatCount */ .B4)(length)} characters is more work than one match may take ` +
            `(${(0,_units_js__WEBPACK_IMPORTED_MODULE_0__/* .formatCount */ .B4)(MAX_MATCH_WORK)} program steps × characters); use a shorter pattern (fewer repeats)`);
        this.name = 'MatchTooCostlyError';
    }
}
/** Whether `pattern` matches somewhere in `text`; throws MatchTooCostlyError instead of a long match. */
function findBounded(pattern, text) {
    if (pattern.programSize() * text.length > MAX_MATCH_WORK)
        throw new MatchTooCostlyError(pattern, text.length);
    return pattern.matcher(text).find();
}
// How much of a non-matching answer the failure quotes; the whole (cut) answer is the `result` output.
const QUOTED_CHARS = 2000;
/** The compiled pattern, or why it is not a valid RE2 pattern. */
function compileExpectation(source) {
    try {
        return { pattern: re2js__WEBPACK_IMPORTED_MODULE_1__/* .RE2JS */ .L3.compile(source) };
    }
    catch (error) {
        if (!(error instanceof re2js__WEBPACK_IMPORTED_MODULE_1__/* .RE2JSException */ .o_))
            throw error;
        return { problem: error.message };
    }
}
/**
 * Why the answer fails `expect` (quoting its beginning, unless it is shown already), or undefined when it
 * matches or nothing is expected.
 */
function expectationProblem(answer, expect, { input = '"expect"', answerShown = false } = {}) {
    if (!expect)
        return undefined;
    try {
        if (findBounded(expect, answer))
            return undefined;
    }
    catch (error) {
        if (!(error instanceof MatchTooCostlyError))
            throw error;
        return `The flow's answer could not be matched against ${input}: ${error.message}.`;
    }
    if (answerShown)
        return `The flow's answer (printed on stdout) does not match ${input} (${expect.pattern()}).`;
    const quoted = answer.length <= QUOTED_CHARS ? answer : answer.slice(0, QUOTED_CHARS);
    const rest = answer.length <= QUOTED_CHARS
        ? ''
        : `\n…[${(0,_units_js__WEBPACK_IMPORTED_MODULE_0__/* .formatCount */ .B4)(answer.length - QUOTED_CHARS)} more characters in the "result" output]`;
    return `The flow's answer does not match ${input} (${expect.pattern()}). The answer begins:\n${quoted}${rest}`;
}


/***/ }),

/***/ 67139:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  wf: () => (/* binding */ FlowRunError),
  YH: () => (/* binding */ questionOf),
  runFlow: () => (/* binding */ runFlow)
});

// UNUSED EXPORTS: expectationProblem

// EXTERNAL MODULE: ./src/setting-names.ts
var setting_names = __webpack_require__(81018);
// EXTERNAL MODULE: ./src/flow/answer.ts
var flow_answer = __webpack_require__(1500);
// EXTERNAL MODULE: ./src/service/cut.ts
var cut = __webpack_require__(44395);
// EXTERNAL MODULE: ./src/service/errors.ts
var errors = __webpack_require__(5756);
// EXTERNAL MODULE: ./src/service/retry.ts
var retry = __webpack_require__(75585);
;// CONCATENATED MODULE: ./src/flow/run-retry.ts
// When a flow run may be sent again. A run costs money and may have side effects, so unlike indexing
// it is retried only when it provably did not start: the `flowRun` column of RETRY_RULES.


function runMayBeRetried(failure, options) {
    if (!(failure instanceof errors/* ServiceError */._7))
        return false;
    switch ((0,retry/* retryRuleOf */.mF)(failure)?.flowRun) {
        case 'retried':
            return true;
        case 'with-retry-on-server-error':
            return options.retryOnServerError;
        case 'before-body-sent':
            // A 2xx whose body stalls, or a sent request that got no answer, may have started a run.
            return failure.status === undefined && !failure.bodySent;
        default:
            return false;
    }
}
/** Why a failure that indexing would retry was not retried here, for the error message. */
function whyNotRetried(failure, options) {
    if (!(failure instanceof errors/* ServiceError */._7) || !failure.retryable || runMayBeRetried(failure, options))
        return undefined;
    if (failure.status !== undefined)
        return `not retried: a flow run is not idempotent and HTTP ${failure.status} does not prove it did not start (set "retry-on-server-error" to retry ${serverErrorStatuses()})`;
    return 'not retried: a flow run is not idempotent and the request may have reached the service';
}
function serverErrorStatuses() {
    const statuses = Object.entries(retry/* RETRY_RULES */.r9.statuses)
        .filter(([, rule]) => rule.flowRun === 'with-retry-on-server-error')
        .map(([status]) => status);
    return `${statuses.slice(0, -1).join(', ')} and ${statuses.at(-1)}`;
}

// EXTERNAL MODULE: ./src/service/client.ts + 3 modules
var service_client = __webpack_require__(2581);
// EXTERNAL MODULE: ./src/flow/expect.ts
var expect = __webpack_require__(98723);
// EXTERNAL MODULE: ./src/units.ts
var units = __webpack_require__(61996);
;// CONCATENATED MODULE: ./src/flow/run.ts
// One run of the flow: retried only when it provably did not start, bounded by a deadline for the whole
// run, judged by the answer's own state, and cut to what a step output can hold.










/**
 * A run that failed; `response` is the (cut) answer when the service gave one. `othersCannotRun`: why no
 * other run can succeed either (the service answered 401/403 to the key, or nothing listens at a base
 * URL on this machine), in the words a run left unsent is reported with.
 */
class FlowRunError extends Error {
    response;
    othersCannotRun;
    constructor(message, response, othersCannotRun) {
        super(message);
        this.response = response;
        this.othersCannotRun = othersCannotRun;
        this.name = 'FlowRunError';
    }
}
/** The question shown in the summary: `in-0` when present, else every input. */
function questionOf(inputs) {
    return (inputs['in-0'] ??
        Object.entries(inputs)
            .map(([k, v]) => `${k}: ${v}`)
            .join('\n'));
}
async function runFlow(client, request, options) {
    const { log } = options;
    if (!Object.keys(request.inputs).some((key) => /^in-\d+$/.test(key))) {
        log.warning('None of the flow inputs is named like "in-<n>" (e.g. "in-0"); sending them as given.');
    }
    const retryOptions = { retryOnServerError: options.retryOnServerError ?? false };
    const names = options.names ?? setting_names/* ACTION_INPUT_NAMES */.f;
    const deadline = options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs);
    const signals = [options.signal, deadline].filter((s) => s !== undefined);
    const signal = signals.length > 0 ? AbortSignal.any(signals) : undefined;
    const noOneListens = (failure) => failure instanceof service_client/* ServiceError */._7 && !options.retry.retryLocalRefusal
        ? (0,errors/* nothingListening */.bW)(failure, names)
        : undefined;
    const startedAt = Date.now();
    let refusalExplained = false;
    let answer;
    try {
        answer = await (0,retry/* callWithRetry */.ZG)((s) => client.runFlow(request.target, request.inputs, { signal: s, outputKey: request.outputKey }), {
            policy: options.retry,
            signal,
            retryable: (failure) => !noOneListens(failure) && runMayBeRetried(failure, retryOptions),
            onRetry: (failure, attempt, delayMs) => {
                if (!refusalExplained && failure instanceof service_client/* ServiceError */._7 && failure.code === 'ECONNREFUSED') {
                    refusalExplained = true;
                    log.warning((0,errors/* refusedConnectionNotice */.Lc)(failure, names, retryBound(startedAt, options)));
                }
                log.warning(`Flow run attempt ${attempt} did not start (${failure instanceof Error ? failure.message : String(failure)}); ` +
                    `trying again in ${(delayMs / 1000).toFixed(1)} s.`);
            },
        });
    }
    catch (error) {
        const unreachable = noOneListens(error);
        const keyRefused = error instanceof service_client/* ServiceError */._7 && (error.status === 401 || error.status === 403);
        throw new FlowRunError(unreachable ??
            explainFailure(error, {
                ...retryOptions,
                cancelled: options.signal?.aborted === true,
                timedOut: deadline?.aborted === true,
                timeoutMs: options.timeoutMs,
                names,
            }), undefined, unreachable
            ? 'nothing listens at the base URL (an earlier run was refused the connection)'
            : keyRefused
                ? 'the service refused the key of an earlier run'
                : undefined);
    }
    const response = (0,cut/* cutJson */.xQ)(answer);
    if (response.cutStrings > 0 || response.cutChars > 0)
        log.warning(`The output "response" was cut to stay under GitHub's 1 MiB limit: ${response.cutStrings} string value(s) ` +
            `shortened, ${(0,units/* formatCount */.B4)(response.cutChars)} characters removed (each cut is marked in place).`);
    const failure = (0,flow_answer/* runFailure */.A)(answer);
    if (failure)
        throw new FlowRunError(failure, response.value);
    let named;
    try {
        named = (0,service_client/* namedOutput */.XQ)(answer, request.outputKey);
    }
    catch (error) {
        throw new FlowRunError(error instanceof Error ? error.message : String(error), response.value);
    }
    const result = (0,cut/* cutText */.IN)(named, cut/* OUTPUT_LIMIT_BYTES */._G);
    if (result.cutBytes > 0)
        log.warning(`The output "result" (${request.outputKey}) was cut to stay under GitHub's 1 MiB limit: the last ` +
            `${(0,units/* formatCount */.B4)(result.cutBytes)} of ${(0,units/* formatCount */.B4)(result.totalBytes)} bytes were removed.`);
    return {
        question: questionOf(request.inputs),
        result: result.text,
        ...(result.cutBytes > 0 ? { resultBytes: result.totalBytes } : {}),
        response: response.value,
    };
}
/** Until when a run that did not start is retried: retry-deadline, or run-timeout when it ends first. */
function retryBound(startedAt, options) {
    const what = 'The flow run is retried while it provably did not start,';
    const timeoutFirst = options.timeoutMs !== undefined && options.timeoutMs < options.retry.deadlineMs;
    return timeoutFirst
        ? { what, until: startedAt + options.timeoutMs, bound: 'run-timeout', boundMs: options.timeoutMs }
        : {
            what,
            until: startedAt + options.retry.deadlineMs,
            bound: 'retry-deadline',
            boundMs: options.retry.deadlineMs,
        };
}
function explainFailure(error, context) {
    const { ref } = context.names;
    const message = error instanceof Error ? error.message : String(error);
    if (context.cancelled) {
        const sent = error instanceof service_client/* ServiceError */._7 && error.bodySent;
        return ('The flow run was cancelled before a complete answer came' +
            (sent ? '; the request had been sent, so the run may still complete on the service.' : '.'));
    }
    if (context.timedOut) {
        const sent = error instanceof service_client/* ServiceError */._7 && error.bodySent;
        return (`The flow run got no complete answer within ${ref('run-timeout')} (${(context.timeoutMs ?? 0) / 1000} s) and was stopped` +
            (sent ? '; the request had been sent, so the run may still complete on the service.' : '.'));
    }
    if (error instanceof service_client/* ServiceError */._7 && (error.status === 401 || error.status === 403)) {
        return (`The service refused the key of the flow run (HTTP ${error.status}): check ${context.names.the('public-key')} — a ` +
            `flow run needs the flow's public key, not the private indexing key. ${message}`);
    }
    if (error instanceof service_client/* ServiceError */._7 && error.status === 404) {
        return (`The service has no flow at ${error.path} (HTTP 404): check ${ref('org-id')} and ${ref('flow-id')} ` +
            `(the run path names the organization first), and ${ref('base-url')}. ${message}`);
    }
    const note = whyNotRetried(error, context);
    return note ? `${message} (${note})` : message;
}


/***/ })

};
