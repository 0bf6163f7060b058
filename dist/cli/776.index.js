export const id = 776;
export const ids = [776];
export const modules = {

/***/ 33553:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  w6: () => (/* binding */ cancellationSignal),
  Hu: () => (/* binding */ gitHubBudget)
});

// UNUSED EXPORTS: fail, maskKeys, messageOf, readRunnerEnvironment, writeSummary

// EXTERNAL MODULE: ./node_modules/@actions/core/lib/core.js + 11 modules
var lib_core = __webpack_require__(91659);
// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(73024);
// EXTERNAL MODULE: ./src/config/errors.ts
var errors = __webpack_require__(37827);
// EXTERNAL MODULE: ./src/github/lookup-budget.ts
var lookup_budget = __webpack_require__(62975);
// EXTERNAL MODULE: ./src/cancellation.ts
var cancellation = __webpack_require__(34632);
// EXTERNAL MODULE: ./src/service/cut.ts
var cut = __webpack_require__(44395);
;// CONCATENATED MODULE: ./src/report/summary-limit.ts
// The job summary within GitHub's limit. The runner drops a step's summary whole above 1 MiB, and an
// open runner bug drops some just below it: every summary stays at most 1,000 KiB in UTF-8 bytes,
// counting what the step already wrote to the file.

const SUMMARY_LIMIT_BYTES = (/* unused pure expression or super */ null && (1000 * 1024));
/**
 * `markdown` when it fits after `usedBytes` already in the summary file, else its beginning up to a line
 * break and a note saying where the rest is (`pointer`, e.g. the report file).
 */
function summary_limit_fitSummary(markdown, usedBytes, pointer) {
    const room = SUMMARY_LIMIT_BYTES - usedBytes;
    if (Buffer.byteLength(markdown) <= room)
        return markdown;
    const note = `\n\n_The summary was cut here to stay within GitHub's 1,000 KiB limit for a job summary; ${pointer}._\n`;
    if (room < Buffer.byteLength(note))
        return '';
    const head = utf8Prefix(markdown, room - Buffer.byteLength(note));
    const lineEnd = head.lastIndexOf('\n');
    return (lineEnd > 0 ? head.slice(0, lineEnd) : '') + note;
}

;// CONCATENATED MODULE: ./src/actions/runner.ts
// What the runner tells an action through its environment, and the pieces both action entries share.







/** A run's GitHub budget: KB_SYNC_GITHUB_DEADLINE_SECONDS, else the default; a bad value is an input error. */
function gitHubBudget(env, cancel) {
    const deadline = (0,lookup_budget/* readGitHubDeadline */.Sp)(env);
    if (!deadline.ok)
        throw new errors/* ConfigError */.xL([{ input: lookup_budget/* DEADLINE_VARIABLE */._h, message: deadline.why }]);
    return new lookup_budget/* LookupBudget */.CX({ deadlineMs: deadline.deadlineMs, cancel });
}
function readRunnerEnvironment(env = process.env) {
    const [owner, repo] = (env.GITHUB_REPOSITORY ?? '').split('/');
    return {
        github: gitHubBudget(env, runCancellation),
        eventName: env.GITHUB_EVENT_NAME ?? '',
        payload: readPayload(env.GITHUB_EVENT_PATH),
        workspace: env.GITHUB_WORKSPACE || process.cwd(),
        repository: owner && repo ? { owner, repo } : undefined,
        apiUrl: env.GITHUB_API_URL || undefined,
        workflow: readWorkflowRun(env),
        signal: runCancellation,
        cutOff: runCutOff,
    };
}
function readPayload(path) {
    if (!path || !existsSync(path))
        return {};
    try {
        const parsed = JSON.parse(readFileSync(path, 'utf8'));
        return parsed !== null && typeof parsed === 'object' ? parsed : {};
    }
    catch {
        return {};
    }
}
/**
 * The run's cancellation (SIGINT, then SIGTERM), announced once in the log when it comes (at once if it
 * came while the bundle was loading), and so is the second signal, which cuts off what is in flight.
 */
function cancellationSignal(log) {
    const announce = () => {
        const signal = (0,cancellation/* cancellationOf */.zg)(cancellation/* runCancellation */.pc)?.signalName ?? 'a cancellation';
        log.warning(`Received ${signal}: no new requests are started; what was done is reported, with every item not ` +
            'sent as failed.');
    };
    const announceCutOff = () => {
        const signal = (0,cancellation/* cancellationOf */.zg)(cancellation/* runCutOff */.Nf)?.signalName ?? 'a second signal';
        log.warning(`Received ${signal} after the cancellation: the requests still in flight are cut off, and what was ` +
            'done is reported now.');
    };
    if (cancellation/* runCancellation */.pc.aborted)
        announce();
    else
        cancellation/* runCancellation */.pc.addEventListener('abort', announce, { once: true });
    if (cancellation/* runCutOff */.Nf.aborted)
        announceCutOff();
    else
        cancellation/* runCutOff */.Nf.addEventListener('abort', announceCutOff, { once: true });
    return cancellation/* runCancellation */.pc;
}
/** Masks both keys before anything else is printed. */
function maskKeys(log, names) {
    for (const name of names)
        log.addSecret(core.getInput(name));
}
const DEFAULT_POINTER = "the step's outputs and its report file hold everything";
/**
 * Writes the job summary, cut to GitHub's limit. A summary that cannot be written is a warning naming the
 * file, never the step's result: it is for people, later steps read the outputs and the report file.
 */
async function writeSummary(markdown, log, context = {}) {
    const file = process.env.GITHUB_STEP_SUMMARY;
    if (!file)
        return;
    try {
        const used = statSync(file, { throwIfNoEntry: false })?.size ?? 0;
        await core.summary
            .addRaw(fitSummary(log.secrets.redact(markdown), used, context.pointer ?? DEFAULT_POINTER))
            .write();
    }
    catch (error) {
        core.summary.emptyBuffer();
        log.warning(`The job summary could not be written to ${file} (GITHUB_STEP_SUMMARY): ${messageOf(error)}. ` +
            `${context.done ? `This step: ${context.done}. ` : ''}The outputs and the report file are not affected.`);
    }
}
const messageOf = (error) => (error instanceof Error ? error.message : String(error));
function fail(log, error) {
    core.setFailed(log.clean(messageOf(error)));
}


/***/ }),

/***/ 11983:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Of: () => (/* binding */ GRADE_SHAPE),
/* harmony export */   QO: () => (/* binding */ scoreText),
/* harmony export */   dG: () => (/* binding */ judgeInputs),
/* harmony export */   iW: () => (/* binding */ JUDGE_OUTPUT),
/* harmony export */   oY: () => (/* binding */ rubricFailure),
/* harmony export */   xf: () => (/* binding */ judgeFlowName)
/* harmony export */ });
/* unused harmony exports JUDGE_INPUTS, referenceOf */
/** The judge flow's input names: the README's table. */
const JUDGE_INPUTS = {
    question: 'in-0',
    answer: 'in-1',
    rubric: 'in-2',
    reference: 'in-3',
};
/** The judge flow's output read (`out-0`), holding the grade as JSON text. */
const JUDGE_OUTPUT = 'out-0';
/** The reference the judge is given: the check's `similar` reference, else its `equals`, else none. */
function referenceOf(check) {
    return check.similar?.reference ?? check.equals ?? '';
}
/** The judge flow's inputs for one answer of a check with a rubric. */
function judgeInputs(check, question, answer) {
    return {
        [JUDGE_INPUTS.question]: question,
        [JUDGE_INPUTS.answer]: answer,
        [JUDGE_INPUTS.rubric]: check.rubric ?? '',
        [JUDGE_INPUTS.reference]: referenceOf(check),
    };
}
/** What the answer a judge flow must give looks like, for messages. */
const GRADE_SHAPE = '{"verdict": "pass" | "fail", "score": 0 to 1, "reason": "one line"}';
/** The judge flow named in messages. */
const judgeFlowName = (target) => `judge flow ${target.flowId}`;
/** `0.75` */
const scoreText = (score) => score.toFixed(2);
/**
 * The rubric's assertion: passed when the judge says pass with a score of at least `minScore`; else one
 * sentence starting with the assertion, the score and the judge's reason.
 */
function rubricFailure(grade, minScore, minScoreName) {
    if (grade.verdict === 'fail')
        return `rubric: the judge says fail (score ${scoreText(grade.score)}): ${grade.reason}`;
    if (grade.score < minScore)
        return (`rubric: score ${scoreText(grade.score)} is below ${minScoreName} ${String(minScore)} ` +
            `(the judge says pass): ${grade.reason}`);
    return undefined;
}


/***/ }),

/***/ 29948:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Cw: () => (/* binding */ singleQuestionResult),
/* harmony export */   _2: () => (/* binding */ suiteVerdict),
/* harmony export */   oo: () => (/* binding */ runsMade),
/* harmony export */   sG: () => (/* binding */ outcomeOf),
/* harmony export */   t$: () => (/* binding */ checkResultOf),
/* harmony export */   x5: () => (/* binding */ runsPassed)
/* harmony export */ });
/* unused harmony export SINGLE_CHECK_NAME */
const median = (values) => {
    if (values.length === 0)
        return 0;
    const sorted = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1
        ? sorted[middle]
        : Math.round(((sorted[middle - 1] + sorted[middle]) / 2) * 10) / 10;
};
/** Runs that passed every assertion. */
const runsPassed = (result) => result.runs.filter((run) => run.verdict === 'passed').length;
/** Runs that were sent (a cancelled step leaves some unsent). */
const runsMade = (result) => result.runs.filter((run) => run.started).length;
/** A check judged from its runs: passed when at least `minPass` passed; else failed, or error when no run that missed had an answer. */
function checkResultOf(check, runs) {
    const missed = runs.filter((run) => run.verdict !== 'passed');
    const verdict = runsPassed({ runs }) >= check.minPass
        ? 'passed'
        : missed.some((run) => run.verdict === 'failed')
            ? 'failed'
            : 'error';
    const prefix = (run) => (runs.length > 1 ? `run ${run.run}: ` : '');
    const shown = missed[0] ?? runs[runs.length - 1];
    return {
        name: check.name,
        question: check.question,
        verdict,
        failed: missed.flatMap((run) => run.failed.map((failure) => `${prefix(run)}${failure}`)),
        answer: shown?.answer ?? '',
        runId: shown?.runId,
        seconds: median(runs.filter((run) => run.started).map((run) => run.seconds)),
        runs,
        minPass: check.minPass,
        ...(shown?.judge ? { judge: shown.judge } : {}),
        ...(check.advisory ? { advisory: true } : {}),
    };
}
const outcomeOf = (verdict) => !verdict.ok ? 'failed' : verdict.failed > 0 ? 'warning' : 'passed';
function suiteVerdict(all, threshold) {
    const results = all.filter((result) => !result.advisory);
    const advisory = all.filter((result) => result.advisory);
    const passed = results.filter((result) => result.verdict === 'passed').length;
    const failed = results.length - passed;
    const percent = results.length === 0 ? 100 : (passed / results.length) * 100;
    // passed/total ≥ threshold/100, compared in integers so 2/3 against 66.67% is not a rounding accident.
    const ok = passed * 100 >= threshold * results.length;
    const seconds = all.flatMap((result) => result.runs.filter((run) => run.started).map((run) => run.seconds));
    return {
        passed,
        failed,
        percent,
        threshold,
        ok,
        failedNames: results.filter((result) => result.verdict !== 'passed').map((result) => result.name),
        runs: seconds.length,
        judgeRuns: all.reduce((sum, result) => sum + result.runs.filter((run) => run.judgeSent).length, 0),
        advisory: {
            passed: advisory.filter((result) => result.verdict === 'passed').length,
            failed: advisory.filter((result) => result.verdict !== 'passed').length,
            failedNames: advisory.filter((result) => result.verdict !== 'passed').map((result) => result.name),
        },
        medianSeconds: median(seconds),
        slowestSeconds: seconds.length === 0 ? 0 : Math.max(...seconds),
    };
}
/** The name of the single question's one check (`inputs` + `expect`) in the table. */
const SINGLE_CHECK_NAME = 'flow run';
/** The single question (`inputs` + `expect`) as a suite of one at a threshold of 100%. */
function singleQuestionResult(run) {
    const result = checkResultOf({ name: SINGLE_CHECK_NAME, question: run.question, minPass: 1 }, [
        {
            run: 1,
            verdict: run.error ? 'error' : run.problem ? 'failed' : 'passed',
            failed: run.problem ? [run.problem] : [],
            answer: run.answer,
            seconds: Math.round(run.seconds * 10) / 10,
            started: true,
        },
    ]);
    return { results: [result], verdict: suiteVerdict([result], 100) };
}


/***/ }),

/***/ 20478:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   T: () => (/* binding */ holdWasmBaseline),
/* harmony export */   jK: () => (/* binding */ chunkStreamed),
/* harmony export */   kK: () => (/* binding */ holdYoungGeneration),
/* harmony export */   s$: () => (/* binding */ requestFinished),
/* harmony export */   xk: () => (/* binding */ collectIfGrown)
/* harmony export */ });
/* harmony import */ var node_v8__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(78877);
/* harmony import */ var node_v8__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_v8__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_vm__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(30714);
/* harmony import */ var node_vm__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_vm__WEBPACK_IMPORTED_MODULE_1__);
// Streaming a large file allocates a fresh buffer per read. That memory lives outside V8's heap and is
// returned only when a garbage collection finds the buffers' small wrappers dead, and V8 starts one for it
// only after tens of MiB have piled up: most of the action's peak RSS growth when it streams big files
// (bench/README.md). A minor collection, well under a millisecond on this process's small heap, every few
// MiB streamed keeps the pile small. (Batches of small documents are laid out in buffers used again,
// service/body-buffers.ts, and leave no such pile.) The action cannot pass V8 flags (the
// runner starts `node index.js`), so the collector is taken the documented way at run time; without it,
// streaming works as before.


const COLLECT_EVERY_BYTES = 2 * 1024 * 1024;
let streamedSinceCollection = 0;
let collector;
/**
 * Counts file bytes handed on by a file stream; collects the young
 * generation every few MiB.
 */
function chunkStreamed(bytes) {
    streamedSinceCollection += bytes;
    if (streamedSinceCollection < COLLECT_EVERY_BYTES)
        return;
    streamedSinceCollection = 0;
    collectorOf()?.({ type: 'minor' });
}
// The same holds for the heap itself on a long run. What a request allocates outlives a young-generation
// collection or two while the request is in flight, and moves to the old generation, which V8 collects
// only once it has grown to a multiple of what was live after the last full collection. With 100,000
// documents live (~50 MiB), that let the heap grow by ~100 MiB of dead requests during the send
// (bench/README.md, issue 24). A full collection whenever the heap has grown by HEAP_GROWTH_BYTES since
// the last one bounds it at what is live plus that; with fewer documents the heap never grows that far.
// 8 MiB: on Node 22 and later, whose V8 keeps the pages a collection frees for reuse, the heap's highest
// point is the process's, and 100,000 documents peak 3–4 MiB lower than at 16 MiB in the same time; 4 MiB
// lowered it no further (on Node 20, 16 MiB was already as low; bench/README.md).
const HEAP_GROWTH_BYTES = 8 * 1024 * 1024;
/** Requests between two looks at the heap's size (each look costs a few µs). */
const REQUESTS_PER_LOOK = 16;
let requestsSinceLook = 0;
/**
 * The least heap seen since the last full collection it made: close to what is live, as V8 collects too.
 * Until the first, the heap at start-up: what selection and the plan leave behind counts as growth.
 */
let heapFloor = (0,node_v8__WEBPACK_IMPORTED_MODULE_0__.getHeapStatistics)().used_heap_size;
/** Counts a finished request; collects the whole heap when it has grown by HEAP_GROWTH_BYTES. */
function requestFinished() {
    if (++requestsSinceLook < REQUESTS_PER_LOOK)
        return;
    requestsSinceLook = 0;
    collectIfGrown();
}
// A forced full collection marks the whole heap, which in a small run is mostly the bundle's own code and
// objects: 10-40 ms of CPU for a heap of 15-25 MB, two to four times a run, and it lowers nothing there,
// since below this much heap the run's peak is its fixed part, not its documents (bench/README.md).
const LARGE_HEAP_BYTES = 32 * 1024 * 1024;
/**
 * Collects the whole heap when it has grown by `growth` bytes and holds more than `largerThan`. Called
 * after selection and at the send's start too: with 100,000 documents the garbage of selection and the
 * plan (~40 MiB) would otherwise stay until V8's own next full collection, and the send's allocations grow
 * the heap on top of it (the action's peak RSS, bench/README.md).
 */
function collectIfGrown(growth = HEAP_GROWTH_BYTES, largerThan = LARGE_HEAP_BYTES) {
    const used = (0,node_v8__WEBPACK_IMPORTED_MODULE_0__.getHeapStatistics)().used_heap_size;
    heapFloor = Math.min(heapFloor, used);
    if (used <= largerThan || used - heapFloor < growth)
        return;
    collectorOf()?.();
    heapFloor = (0,node_v8__WEBPACK_IMPORTED_MODULE_0__.getHeapStatistics)().used_heap_size;
}
/**
 * V8 doubles the young generation, up to 2 × 16 MiB, whenever most of what it holds survives a collection,
 * as selection's 100,000 file records do, and that memory stays for the rest of the run. Kept at its
 * starting size, such records move to the old generation sooner, whose growth the collections above
 * bound: peak RSS at 100,000 documents ~171 → ~152 MiB, at 2,000 ~110 → ~106 MiB, time unchanged
 * (bench/README.md). A process-wide V8 setting, taken at run time as the collector is.
 */
function holdYoungGeneration() {
    try {
        (0,node_v8__WEBPACK_IMPORTED_MODULE_0__.setFlagsFromString)('--semi-space-growth-factor=1');
    }
    catch {
        // Without it the young generation grows as V8 decides: more memory, same results.
    }
}
// undici parses HTTP with llhttp compiled to WebAssembly. V8 compiles it with its baseline compiler,
// Liftoff, then, once its parse function has run a while (already with 3 requests in a run), again with
// its optimizing compiler on a background thread, whose working memory (~23 MB of zone for that one
// function, `--trace-wasm-compilation-times`) comes and goes within a second: wherever in the run that
// falls, it adds to the process's peak RSS (an incremental sync of 100,000 documents: Node 20 104 → 69
// MiB, Node 24 ~17 MiB; bench/README.md). The baseline code parses the service's small answers all the
// same. `--liftoff-only` set at run time stops it on Node 20 and 22 but not on 24 (its V8 applies what
// that flag implies only at start-up); `--wasm-tier-up-filter` (tier up only the function of that index)
// is read as each function is compiled, on 20, 22 and 24 alike: Liftoff emits no tier-up check for a
// function whose index is not the one named, and no module has a function at NO_WASM_FUNCTION (V8 allows
// a million). A process-wide V8 setting, taken at run time before the first request compiles the module.
const NO_WASM_FUNCTION = 2_147_483_647;
/** Keeps WebAssembly on V8's baseline compiler, Liftoff: see above. */
function holdWasmBaseline() {
    try {
        (0,node_v8__WEBPACK_IMPORTED_MODULE_0__.setFlagsFromString)(`--wasm-tier-up-filter=${NO_WASM_FUNCTION}`);
    }
    catch {
        // Without it V8 tiers up as it decides: a transient ~20–30 MiB more, same results.
    }
}
function collectorOf() {
    if (collector === undefined) {
        try {
            (0,node_v8__WEBPACK_IMPORTED_MODULE_0__.setFlagsFromString)('--expose-gc');
            collector = (0,node_vm__WEBPACK_IMPORTED_MODULE_1__.runInNewContext)('gc');
        }
        catch {
            collector = null;
        }
        finally {
            // Only the context made above gets the function; later contexts (vm, workers) stay as they were.
            (0,node_v8__WEBPACK_IMPORTED_MODULE_0__.setFlagsFromString)('--no-expose-gc');
        }
    }
    return collector;
}


/***/ }),

/***/ 81776:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  checkPaths: () => (/* binding */ checkPaths),
  cliContext: () => (/* binding */ cliContext),
  indexCommand: () => (/* binding */ indexCommand),
  statusCommand: () => (/* binding */ statusCommand),
  writeReportFileFlag: () => (/* binding */ writeReportFileFlag),
  writeSummaryFile: () => (/* binding */ writeSummaryFile)
});

// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(73024);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(76760);
var external_node_path_default = /*#__PURE__*/__webpack_require__.n(external_node_path_);
// EXTERNAL MODULE: ./src/actions/runner.ts + 1 modules
var runner = __webpack_require__(33553);
// EXTERNAL MODULE: ./src/cancellation.ts
var cancellation = __webpack_require__(34632);
// EXTERNAL MODULE: ./src/config/errors.ts
var errors = __webpack_require__(37827);
// EXTERNAL MODULE: ./src/config/index-config.ts + 2 modules
var index_config = __webpack_require__(37470);
// EXTERNAL MODULE: ./src/flow/answer.ts
var answer = __webpack_require__(1500);
;// CONCATENATED MODULE: ./src/github/workflow.ts
// Which workflow run this is, from the variables the runner sets for every step.
// owner/repo/.github/workflows/FILE@ref (a reusable workflow still reports its caller's file).
const WORKFLOW_REF = /^([^/]+)\/([^/]+)\/\.github\/workflows\/([^/@]+)@(.+)$/;
/** A runner variable's whole number above 0 (GITHUB_RUN_ID, GITHUB_RUN_ATTEMPT, …), else undefined. */
function positiveInteger(text) {
    return text && /^[1-9]\d{0,15}$/.test(text) ? Number(text) : undefined;
}
/** Undefined when not on a runner (no GITHUB_WORKFLOW_REF); otherwise the run, or why it is unknown. */
function readWorkflowRun(env = process.env) {
    const workflowRef = env.GITHUB_WORKFLOW_REF;
    if (!workflowRef)
        return undefined;
    const match = WORKFLOW_REF.exec(workflowRef);
    if (!match)
        return {
            ok: false,
            why: `GITHUB_WORKFLOW_REF "${workflowRef}" is not owner/repo/.github/workflows/FILE@ref`,
        };
    const [owner, repo] = (env.GITHUB_REPOSITORY || `${match[1]}/${match[2]}`).split('/');
    if (!owner || !repo)
        return { ok: false, why: 'GITHUB_REPOSITORY is not owner/repo' };
    const ref = env.GITHUB_REF ?? '';
    return {
        ok: true,
        run: {
            owner,
            repo,
            workflowFile: match[3],
            branch: ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : '',
            runId: positiveInteger(env.GITHUB_RUN_ID),
            runNumber: positiveInteger(env.GITHUB_RUN_NUMBER),
        },
    };
}

// EXTERNAL MODULE: ./src/chunk-release.ts
var chunk_release = __webpack_require__(20478);
// EXTERNAL MODULE: ./src/log.ts
var src_log = __webpack_require__(25625);
// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(51455);
var promises_default = /*#__PURE__*/__webpack_require__.n(promises_);
// EXTERNAL MODULE: ./src/documents/document-names.ts
var document_names = __webpack_require__(95620);
// EXTERNAL MODULE: ./src/select/inside-name.ts
var inside_name = __webpack_require__(4012);
// EXTERNAL MODULE: ./src/select/patterns.ts
var select_patterns = __webpack_require__(77525);
// EXTERNAL MODULE: ./node_modules/minimatch/dist/esm/index.js + 7 modules
var esm = __webpack_require__(33581);
// EXTERNAL MODULE: ./src/select/git/byte-names.ts
var byte_names = __webpack_require__(50320);
;// CONCATENATED MODULE: ./src/select/search.ts
// The `files` patterns → the paths they match, walking the workspace one folder at a time so that one odd
// entry never stops the search: a folder that cannot be read, a path longer than the system allows, a
// name that is not valid UTF-8 are each reported as skipped (with the reason) and the rest is searched.
// The matching rules are @actions/glob's (its minimatch options, implicit descendants, `!` excludes in
// order, a trailing `/` matching folders only, links never followed); only its walk, which gives up on the
// first error, is replaced.






/** Entries read from a folder at a time: fewer calls into libuv than its default 32, and still small. */
const READ_AHEAD = 1024;
const MATCH_OPTIONS = { dot: true, nobrace: true, nocomment: true, noext: true, nonegate: true };
function rulesOf(patterns, root) {
    const rules = [];
    for (const pattern of patterns) {
        const rooted = (0,select_patterns/* rootedPattern */.Ai)(root, pattern);
        const negate = rooted.startsWith('!');
        const body = negate ? rooted.slice(1) : rooted;
        const foldersOnly = body.endsWith('/');
        const trimmed = body.replace(/\/+$/, '');
        const searchPath = external_node_path_default().join(root, ...(0,select_patterns/* literalPrefix */.Qz)(pattern));
        const endsInGlobstar = trimmed.split('/').at(-1) === '**';
        rules.push({
            negate,
            matcher: new esm/* Minimatch */.VR(trimmed, MATCH_OPTIONS),
            explicitGlobstar: endsInGlobstar,
            foldersOnly,
            searchPath,
        });
        // A pattern also matches everything below what it matches.
        if (foldersOnly || !endsInGlobstar) {
            rules.push({
                negate,
                matcher: new esm/* Minimatch */.VR(`${trimmed}/**`, MATCH_OPTIONS),
                explicitGlobstar: false,
                foldersOnly: false,
                searchPath,
            });
        }
    }
    return rules;
}
/**
 * A path as minimatch splits it, for an absolute path that is already normalised (no repeated or
 * trailing separator): the search builds each child's segments from its folder's instead of splitting
 * the child's whole path again (a folder of 100,000 entries was ~100,000 splits per rule).
 */
function segmentsOf(absolute) {
    // The file system's root is the one such path that ends in a separator: its children are `/name`.
    return absolute === '/' ? [''] : absolute.split('/');
}
/** What `matcher.match(path)` answers (a rooted pattern never has matchBase, negation or comments). */
function matchesSegments(rule, segments, partial) {
    return rule.matcher.set.some((pattern) => rule.matcher.matchOne(segments, pattern, partial));
}
/**
 * Whether the rule matches the path given as segments. As @actions/glob does, an explicit `**` is
 * matched against the path with a trailing `/` (minimatch needs `/x/` to match `/x/**` itself): one
 * more, empty, segment.
 */
function ruleMatches(rule, segments, isFolder) {
    if (rule.foldersOnly && !isFolder)
        return false;
    if (!rule.explicitGlobstar)
        return matchesSegments(rule, segments, false);
    segments.push('');
    try {
        return matchesSegments(rule, segments, false);
    }
    finally {
        segments.pop();
    }
}
/** Whether the path is selected: the last pattern that matches it decides. */
function selected(rules, segments, isFolder) {
    let result = false;
    for (const rule of rules) {
        if (ruleMatches(rule, segments, isFolder))
            result = !rule.negate;
    }
    return result;
}
/** Whether something below the folder may match an include pattern. */
function worthSearching(rules, segments) {
    return rules.some((rule) => !rule.negate && rule.matcher.matchOne(segments, rule.matcher.set[0], true));
}
/**
 * The rules that can match something below the folder: one that cannot match the folder's path as a
 * beginning cannot match any path below it, so its folder's entries are not matched against it.
 */
function rulesBelow(rules, segments) {
    return rules.filter((rule) => matchesSegments(rule, segments, true));
}
/** Search roots: one per include pattern, without those inside another. */
function searchRoots(rules) {
    const roots = [...new Set(rules.filter((rule) => !rule.negate).map((rule) => rule.searchPath))];
    return roots.filter((root) => !roots.some((other) => other !== root && root.startsWith(other.endsWith('/') ? other : `${other}/`)));
}
/** What an error code means for a user, e.g. `permission denied (EACCES)`. */
function describeFailure(error) {
    const code = error?.code;
    switch (code) {
        case 'EACCES':
        case 'EPERM':
            return `permission denied (${code})`;
        case 'ENAMETOOLONG':
            return 'its path is longer than the system allows (ENAMETOOLONG)';
        case 'ELOOP':
            return 'too many levels of symbolic links (ELOOP)';
        case 'ENOENT':
            return 'it disappeared while the workspace was searched (ENOENT)';
        default:
            return typeof code === 'string' ? code : String(error?.message ?? error);
    }
}
/**
 * `path.join(folder, name)` for a folder path that is already normalised and an entry name as readdir
 * gives it (never empty, `.`, `..`, or holding a separator): the same string, without normalising it
 * again for every entry (~5 µs each, 2,000 entries: ~10 ms of a 2,000-document run).
 */
function childPath(folder, name) {
    return folder.endsWith((external_node_path_default()).sep) ? folder + name : folder + (external_node_path_default()).sep + name;
}
async function searchFiles(patterns, root) {
    const rules = rulesOf(patterns, root);
    const paths = [];
    const skipped = [];
    const relative = (absolute) => external_node_path_default().relative(root, absolute).split((external_node_path_default()).sep).join('/') || '.';
    const skip = (name, detail) => skipped.push({ kind: 'document', name, reason: 'unreadable', detail });
    /** An entry of the search: a file is kept when selected, a folder is searched when something below may be. */
    const visit = async (absolute, segments, isFolder, candidates) => {
        const match = selected(candidates, segments, isFolder);
        if (!isFolder) {
            if (match)
                paths.push(absolute);
            return;
        }
        if (!match && !worthSearching(candidates, segments))
            return;
        const below = rulesBelow(candidates, segments);
        const listed = listFolder(absolute, segments, below);
        if (listed === 'undecodable')
            return visitByBytes(absolute, segments, below);
        if (listed === undefined)
            return;
        for (const name of listed)
            await visit(childPath(absolute, name), [...segments, name], true, below);
    };
    /**
     * A folder's files matched as they are read, READ_AHEAD entries at a time, and its subfolders' names
     * returned to be searched after it: `readdir` would hold every entry of a folder at once (a folder of
     * 100,000 entries: ~30 MB of entries and of libuv's sorted copy, kept by the process after they are
     * freed). Undefined when the folder could not be read (reported), `undecodable` when a name is not valid
     * UTF-8 (none of its files were kept).
     */
    const listFolder = (absolute, segments, below) => {
        const files = [];
        const folders = [];
        // One array for every entry's segments: the folder's, then the entry's name in the last place.
        const child = [...segments, ''];
        let dir;
        try {
            dir = (0,external_node_fs_.opendirSync)(absolute, { bufferSize: READ_AHEAD });
            for (let entry = dir.readSync(); entry !== null; entry = dir.readSync()) {
                // A name that is not valid UTF-8 comes back with U+FFFD for its bad bytes: only then is the folder
                // read again as bytes, to tell such names from one that holds U+FFFD itself.
                if (entry.name.includes('\uFFFD'))
                    return 'undecodable';
                if (entry.isDirectory())
                    folders.push(entry.name);
                else {
                    child[segments.length] = entry.name;
                    if (selected(below, child, false))
                        files.push(entry.name);
                }
            }
        }
        catch (error) {
            skip(relative(absolute), `folder could not be searched: ${describeFailure(error)}; nothing below it was selected.`);
            return undefined;
        }
        finally {
            dir?.closeSync();
        }
        // In name order, as readdir gave them (a folder's own order is the file system's): the result does not
        // depend on the disk, and selection's sort by name finds its files in order (linear, not n log n).
        for (const name of files.sort())
            paths.push(childPath(absolute, name));
        return folders.sort();
    };
    /** A folder holding a name that may not be valid UTF-8: its entries by their bytes. */
    const visitByBytes = async (absolute, segments, below) => {
        let entries;
        try {
            entries = await (0,promises_.readdir)(absolute, { withFileTypes: true, encoding: 'buffer' });
        }
        catch (error) {
            skip(relative(absolute), `folder could not be searched: ${describeFailure(error)}; nothing below it was selected.`);
            return;
        }
        for (const entry of entries) {
            const name = (0,byte_names/* decodedName */.Uq)(entry.name);
            if (name === undefined) {
                const lossy = [...segments, entry.name.toString('utf8')];
                const relevant = entry.isDirectory() ? worthSearching(below, lossy) : selected(below, lossy, false);
                if (relevant) {
                    const shown = `${relative(absolute) === '.' ? '' : `${relative(absolute)}/`}${(0,byte_names/* bytesShown */.Tv)(entry.name)}`;
                    skipped.push((0,byte_names/* undecodableSkip */.iB)(shown, entry.isDirectory()));
                }
                continue;
            }
            await visit(childPath(absolute, name), [...segments, name], entry.isDirectory(), below);
        }
    };
    for (const start of searchRoots(rules)) {
        let isFolder;
        try {
            isFolder = (await (0,promises_.lstat)(start)).isDirectory();
        }
        catch (error) {
            // A pattern naming something that is not there selects nothing.
            if (error.code !== 'ENOENT')
                skip(relative(start), `could not be searched: ${describeFailure(error)}.`);
            continue;
        }
        await visit(start, segmentsOf(start), isFolder, rules);
    }
    // Roots are disjoint (none lies inside another) and links are not followed: no path is found twice.
    return { paths, skipped };
}

;// CONCATENATED MODULE: ./src/select/match.ts
// Matches document names (workspace-relative, `/`) against the `files` patterns without touching the
// disk: a removed file no longer exists, yet the `removed` output lists only what the globs select.
// Same rules as @actions/glob: patterns apply in order (`!` excludes, a later include re-includes), `*`
// matches dotfiles, and a pattern also matches everything below a matched folder.

function nameMatcher(patterns) {
    const rules = patterns.map((raw) => {
        let pattern = raw;
        let negate = false;
        while (pattern.startsWith('!')) {
            negate = !negate;
            pattern = pattern.slice(1);
        }
        pattern = pattern.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
        return { negate, pattern };
    });
    return (name) => {
        let selected = false;
        for (const { negate, pattern } of rules) {
            const hit = (0,esm/* minimatch */.xF)(name, pattern, { dot: true }) || (0,esm/* minimatch */.xF)(name, `${pattern}/**`, { dot: true });
            if (hit)
                selected = !negate;
        }
        return selected;
    };
}

;// CONCATENATED MODULE: ./src/select/workspace-file.ts
// A selected file at its own name in the workspace: the record kept for every selected document from
// selection to outcome, so it holds the name once and makes the path when it is read.

/**
 * A file whose real path is the workspace's real path and its name (not reached through a link): the
 * path is not stored beside the name but made from the two when it is read (opening the file). It is an
 * own, enumerable property like a stored one, so a copy (`{...file}`) or JSON has it.
 */
class WorkspaceFile {
    constructor(root, name, size) {
        this.name = ownString(name);
        Object.defineProperty(this, 'path', pathOf(root));
        this.size = size;
    }
    /** Whether `real` is `root`/`name` on this system, so that a WorkspaceFile can stand for it. */
    static fits(root, name, real) {
        return ((external_node_path_default()).sep === '/' &&
            real.length === root.length + 1 + name.length &&
            real.startsWith(root) &&
            real[root.length] === '/' &&
            real.endsWith(name));
    }
}
/**
 * The `path` property of the files of one root: the root is held by the getter, one per root, not by every
 * file (8 bytes a document), and files of one root share one shape as they share the getter.
 */
let lastRoot;
function pathOf(root) {
    if (lastRoot?.root !== root) {
        const descriptor = {
            get() {
                return `${root}/${this.name}`;
            },
            enumerable: true,
        };
        lastRoot = { root, descriptor };
    }
    return lastRoot.descriptor;
}
/**
 * The name as a string of its own. A name cut from its path (`slice`) is, in V8, a view that keeps the
 * whole path alive (~100 bytes a document with the view); a copy is ~40. A view is made only from 13
 * characters up, and a JSON round trip copies every code unit as it is (lone surrogates included).
 */
function ownString(text) {
    return text.length < 13 ? text : JSON.parse(JSON.stringify(text));
}

;// CONCATENATED MODULE: ./src/select/secrets.ts
// Well-known files that hold credentials. Indexing a file publishes it to anyone with the flow's public
// key, so these are skipped unless a pattern names the exact file.
const SECRET_FILE_NAMES = [
    /^\.env/i, // .env, .env.local, .envrc
    /\.pem$/i,
    /\.key$/i,
    /\.p12$/i,
    /\.pfx$/i,
    /^id_(rsa|dsa|ecdsa|ed25519)/i,
    /^\.npmrc$/i,
    /^\.pypirc$/i,
    /^\.netrc$/i,
    /^\.git-credentials$/i,
];
/** True when the last segment of a name is a well-known secret file. */
function isSecretFile(name) {
    const base = name.slice(name.lastIndexOf('/') + 1);
    return SECRET_FILE_NAMES.some((rule) => rule.test(base));
}

// EXTERNAL MODULE: ./src/map-limited.ts
var map_limited = __webpack_require__(69270);
;// CONCATENATED MODULE: ./src/select/files.ts
// `files` patterns → the files to send, and everything matched but not sent with the reason.
// Indexing a file publishes it, and a merged pull request decides what the workspace holds, so every
// candidate is checked on the disk: inside the workspace after resolving links, a regular file (checked
// again on the open handle when it is read for sending), readable, not hidden, not git metadata, not a
// well-known secret, not too large.













/**
 * Whether a name alone (no disk) would be skipped by the hidden, .git and secret rules: used for
 * removed files, which no longer exist but are reported only when the selection would have sent them.
 */
function nameIsSelectable(name, options) {
    return (nameRule(name, { includeHidden: options.includeHidden, literal: (0,select_patterns/* literalNames */.o1)(options.patterns) }) ===
        undefined);
}
/**
 * Files checked at once: their folders' real paths are resolved asynchronously, once per folder. The
 * per-file `lstat` and `access` are synchronous: on a checkout's warm metadata each is a few µs, while
 * the thread-pool round trip of the asynchronous call costs several times that on the main thread
 * (2,000 files, first run in a process: ~8 ms synchronous, ~45 ms 16 at a time; `npm run bench --
 * selection`).
 */
const CONCURRENCY = 16;
async function selectFiles(options) {
    checkPatterns(options.patterns);
    const root = await (0,promises_.realpath)(options.workspace);
    // Links are never followed while searching: a link to `/` would walk the whole disk. Each matched link
    // is resolved and checked against the workspace boundary below instead.
    const search = await searchFiles(options.patterns, root);
    const context = checkContext(options, root);
    // The candidates' folders are resolved first (once each), so that the usual candidate, a file in a
    // folder that is its own real path, is checked without a promise of its own (100,000 files: 100,000).
    const folders = new Set();
    for (const candidate of search.paths)
        folders.add(external_node_path_default().dirname(candidate));
    await (0,map_limited/* mapLimited */.b)([...folders], CONCURRENCY, (folder) => isRealFolder(folder, context));
    const verdicts = search.paths.map((candidate) => checkKnown(candidate, context));
    // The others (links, folders behind links) are checked as before, 16 at a time, and take their places.
    const rest = search.paths.filter((_, index) => verdicts[index] === undefined);
    if (rest.length > 0) {
        const checked = await (0,map_limited/* mapLimited */.b)(rest, CONCURRENCY, (candidate) => check(candidate, context));
        let next = 0;
        for (let index = 0; index < verdicts.length; index++)
            verdicts[index] ??= checked[next++];
    }
    for (const skipped of search.skipped)
        verdicts.push({ skipped });
    return collect(verdicts, root);
}
/**
 * The selection restricted to `names` (workspace-relative, `/`; a push's added and modified files): only
 * the names the patterns match are looked at on disk, with the same checks, instead of searching the
 * workspace. A name the search would not have found (gone, a folder, below a linked folder, not a plain
 * relative path) is left out silently, as the search would have.
 */
async function selectNamedFiles(options, names) {
    checkPatterns(options.patterns);
    const root = await (0,promises_.realpath)(options.workspace);
    const matches = nameMatcher(options.patterns);
    const folders = new Map();
    const wanted = [...new Set(names)].filter((name) => isPlainRelative(name) && matches(name));
    const found = await (0,map_limited/* mapLimited */.b)(wanted, CONCURRENCY, async (name) => {
        const candidate = external_node_path_default().join(root, ...name.split('/'));
        return (await searchWouldFind(candidate, folders)) ? candidate : undefined;
    });
    const candidates = found.filter((candidate) => candidate !== undefined);
    const context = checkContext(options, root);
    const verdicts = await (0,map_limited/* mapLimited */.b)(candidates, CONCURRENCY, (candidate) => check(candidate, context));
    // Named one by one (a push's changes): each is reported under its own name, as every other skip is, so
    // that every changed document is in exactly one output list.
    return collect(verdicts, root, { groupFolders: false });
}
/**
 * Whether the patterns select at least one file in the workspace: stops at the first one (used when a
 * push changed none of them, to tell an empty selection from patterns that match nothing).
 */
async function hasSelectableFile(options) {
    checkPatterns(options.patterns);
    if (options.patterns.length === 0)
        return false;
    const root = await (0,promises_.realpath)(options.workspace);
    const context = checkContext(options, root);
    // The same search as selectFiles (an odd entry is skipped, never fatal), checked until one is selectable.
    const search = await searchFiles(options.patterns, root);
    for (const candidate of search.paths)
        if ('selected' in (await check(candidate, context)))
            return true;
    return false;
}
function isPlainRelative(name) {
    return (name !== '' &&
        !external_node_path_default().posix.isAbsolute(name) &&
        external_node_path_default().posix.normalize(name) === name &&
        !name.startsWith('../'));
}
/** What the search (links not followed, folders not listed) would have returned for this path. */
async function searchWouldFind(candidate, folders) {
    const folder = external_node_path_default().dirname(candidate);
    let plainFolder = folders.get(folder);
    if (!plainFolder) {
        // The search does not descend into linked folders: the folder must be its own real path.
        plainFolder = (0,promises_.realpath)(folder).then((real) => real === folder, () => false);
        folders.set(folder, plainFolder);
    }
    if (!(await plainFolder))
        return false;
    try {
        return !(await (0,promises_.lstat)(candidate)).isDirectory();
    }
    catch {
        return false;
    }
}
function checkPatterns(patterns) {
    for (const pattern of patterns) {
        const problem = (0,select_patterns/* patternProblem */.AL)(pattern);
        if (problem)
            throw new Error(`Input "files": the pattern ${JSON.stringify(pattern)} ${problem}.`);
    }
}
function checkContext(options, root) {
    return {
        ...options,
        root,
        literal: (0,select_patterns/* literalNames */.o1)(options.patterns),
        realFolders: new Map(),
        knownFolders: new Map(),
    };
}
function isRealFolder(folder, context) {
    let real = context.realFolders.get(folder);
    if (!real) {
        real = (0,promises_.realpath)(folder).then((resolved) => {
            const answer = resolved === folder;
            context.knownFolders.set(folder, answer);
            return answer;
        }, () => {
            context.knownFolders.set(folder, false);
            return false;
        });
        context.realFolders.set(folder, real);
    }
    return real;
}
function nameRule(name, context) {
    const segments = name.split('/');
    const git = segments.indexOf('.git');
    if (git >= 0)
        return { reason: 'git-dir', folder: segments.slice(0, git + 1).join('/') };
    const hidden = segments.findIndex((segment) => segment.startsWith('.'));
    if (!context.includeHidden && hidden >= 0 && hidden < segments.length - 1)
        return { reason: 'hidden', folder: segments.slice(0, hidden + 1).join('/') };
    if (isSecretFile(name) && !context.literal.has(name))
        return { reason: 'secret' };
    if (!context.includeHidden && hidden === segments.length - 1)
        return { reason: 'hidden' };
    return undefined;
}
const RULE_DETAIL = {
    'git-dir': 'git metadata is never indexed, even with include-hidden-files',
    hidden: 'hidden file; set include-hidden-files to true to index it',
    secret: 'well-known secret file; name it exactly in files (without wildcards) to index it',
};
function skip(name, reason, detail) {
    return { skipped: { kind: 'document', name, reason, detail } };
}
/**
 * The verdict of `check` without waiting, for a candidate that is not a link in a folder already known to
 * be its own real path; undefined when `check` has more to find out.
 */
function checkKnown(candidate, context) {
    if (context.knownFolders.get(external_node_path_default().dirname(candidate)) !== true)
        return undefined;
    const name = (0,inside_name/* insideName */.M)(context.root, candidate);
    if (name === undefined)
        return undefined;
    const rule = nameRule(name, context);
    if (rule?.folder !== undefined)
        return { grouped: { name, folder: rule.folder, reason: rule.reason } };
    if (rule)
        return skip(name, rule.reason, `${RULE_DETAIL[rule.reason]}.`);
    const own = lstatOrUndefined(candidate);
    if (!own || own.isSymbolicLink())
        return undefined;
    return inspect(name, candidate, false, context, own);
}
async function check(candidate, context) {
    const name = (0,inside_name/* insideName */.M)(context.root, candidate);
    if (name === undefined)
        return skip(candidate, 'outside-workspace', 'matched outside the workspace.');
    const rule = nameRule(name, context);
    if (rule?.folder !== undefined)
        return { grouped: { name, folder: rule.folder, reason: rule.reason } };
    if (rule)
        return skip(name, rule.reason, `${RULE_DETAIL[rule.reason]}.`);
    // Not a link itself, in a folder that is its own real path: the path is already the real one, so
    // resolving it file by file would only repeat the folder's answer. Anything else is resolved below.
    const own = lstatOrUndefined(candidate);
    if (own && !own.isSymbolicLink() && (await isRealFolder(external_node_path_default().dirname(candidate), context)))
        return inspect(name, candidate, false, context, own);
    let real;
    try {
        real = await (0,promises_.realpath)(candidate);
    }
    catch (error) {
        const code = errorCode(error);
        const detail = code === 'ENOENT' || code === 'ELOOP'
            ? 'broken symbolic link'
            : `could not be resolved: ${describeFailure(error)}`;
        return skip(name, 'unreadable', `${detail}.`);
    }
    const realName = (0,inside_name/* insideName */.M)(context.root, real);
    if (realName === undefined)
        return skip(name, 'outside-workspace', `symbolic link to ${(0,src_log/* displayName */.QC)(real)}, outside the workspace.`);
    const linked = real !== candidate;
    if (linked) {
        if (context.followSymlinks === 'none')
            return skip(name, 'symlink', `symbolic link to ${(0,src_log/* displayName */.QC)(realName)}; follow-symlinks is none.`);
        // The target is judged by its own name too: a link must not carry `.git/config` or `.env` out under
        // an innocent name.
        const targetRule = nameRule(realName, context);
        if (targetRule) {
            const where = targetRule.folder === undefined ? '' : ` (in ${(0,src_log/* displayName */.QC)(targetRule.folder)}/)`;
            return skip(name, targetRule.reason, `symbolic link to ${(0,src_log/* displayName */.QC)(realName)}${where}: ${RULE_DETAIL[targetRule.reason]}.`);
        }
    }
    return inspect(name, real, linked, context);
}
function lstatOrUndefined(candidate) {
    try {
        return (0,external_node_fs_.lstatSync)(candidate);
    }
    catch {
        return undefined;
    }
}
/**
 * Type and size from the file itself (lstat: a FIFO is never opened here). Readability is asked of the
 * system without opening the file; the file is opened, and its handle checked again, only when it is read
 * for sending (read-guard.ts), which is what keeps a path swapped for a FIFO or a link since from being read.
 */
function inspect(name, real, linked, context, known) {
    let stats;
    try {
        stats = known ?? (0,external_node_fs_.lstatSync)(real);
    }
    catch (error) {
        return skip(name, 'unreadable', `could not be read: ${describeFailure(error)}.`);
    }
    if (!stats.isFile())
        return skip(name, 'not-regular', `is ${kindOf(stats, linked)}, not a regular file.`);
    if (!ownerMayRead(stats))
        try {
            (0,external_node_fs_.accessSync)(real, external_node_fs_.constants.R_OK);
        }
        catch (error) {
            return skip(name, 'unreadable', `could not be opened: ${describeFailure(error)}.`);
        }
    if (stats.size > context.maxFileSize)
        return skip(name, 'too-large', `${formatBytes(stats.size)} is over max-file-size ${formatBytes(context.maxFileSize)}.`);
    const size = unboxed(stats.size);
    return {
        selected: WorkspaceFile.fits(context.root, name, real)
            ? new WorkspaceFile(context.root, name, size)
            : { name, path: real, size },
    };
}
const processUid = process.getuid?.();
/**
 * A file this process owns with its owner's read bit set: the system grants the read (an access control
 * list never narrows the owner's entry, which is these bits), so `access` is not asked (a checkout's files
 * are the runner's own: one system call less per file, ~2 µs). Any other file is asked about.
 */
function ownerMayRead(stats) {
    return stats.uid === processUid && (stats.mode & external_node_fs_.constants.S_IRUSR) !== 0;
}
// A size read from Stats is a double that V8 boxes (16 bytes) in every record that copies it: the selected
// file, its planned item and its outcome. A size that fits V8's small integers is stored in place (~5 MB
// less at 100,000 documents, bench/README.md).
const unboxed = (bytes) => (bytes <= SMALL_INTEGER_MAX ? bytes | 0 : bytes);
const SMALL_INTEGER_MAX = 2 ** 30 - 1;
function kindOf(stats, linked) {
    if (stats.isDirectory())
        return linked ? 'a folder behind a symbolic link (such folders are not searched)' : 'a folder';
    if (stats.isFIFO())
        return 'a FIFO';
    if (stats.isSocket())
        return 'a socket';
    if (stats.isCharacterDevice() || stats.isBlockDevice())
        return 'a device';
    return 'not a file';
}
/**
 * The selection from every candidate's verdict. A search groups the files of a hidden (or .git) folder as
 * one skip naming the folder: it may hold thousands of files no one chose (caches, tool folders).
 */
function collect(verdicts, root, { groupFolders = true } = {}) {
    const skipped = [];
    const groups = new Map();
    // Every candidate is a distinct path, so every name is distinct too.
    const selected = [];
    for (const verdict of verdicts) {
        if ('selected' in verdict)
            selected.push(verdict.selected);
        else if ('skipped' in verdict)
            skipped.push(verdict.skipped);
        else if (!groupFolders) {
            const { name, folder, reason } = verdict.grouped;
            skipped.push({
                kind: 'document',
                name,
                reason,
                detail: `in ${(0,src_log/* displayName */.QC)(folder)}/: ${folderRule(reason)}.`,
            });
        }
        else {
            const group = groups.get(verdict.grouped.folder) ?? { reason: verdict.grouped.reason, count: 0 };
            group.count += 1;
            groups.set(verdict.grouped.folder, group);
        }
    }
    for (const [folder, { reason, count }] of groups) {
        const files = count === 1 ? '1 matching file' : `${count} matching files`;
        skipped.push({
            kind: 'document',
            name: folder,
            reason,
            detail: `${files} in ${(0,src_log/* displayName */.QC)(folder)}/: ${folderRule(reason)}.`,
        });
    }
    selected.sort(document_names/* byNameOrder */.rR);
    // Files at their own names have distinct paths, as their names are; only a link can reach one again.
    const reachedOnce = selected.every((file) => file instanceof WorkspaceFile);
    const distinct = (0,document_names/* distinctDocumentNames */.k3)(reachedOnce ? selected : oncePerPath(selected, root, skipped));
    skipped.push(...distinct.skipped);
    // distinctDocumentNames keeps the files in code-unit name order, the order a selection has.
    return { files: distinct.kept, skipped: skipped.sort(document_names/* byNameOrder */.rR) };
}
/** Why the files of a folder are skipped. */
function folderRule(reason) {
    return reason === 'git-dir'
        ? 'git metadata is never indexed, even with include-hidden-files'
        : 'hidden folder; set include-hidden-files to true to index it';
}
/** One file reached under two names (a link and its target) is kept once, under its own name. */
function oncePerPath(files, root, skipped) {
    const byPath = new Map();
    for (const file of files) {
        const kept = byPath.get(file.path);
        if (!kept) {
            byPath.set(file.path, file);
            continue;
        }
        const [keep, drop] = isOwnName(file, root) && !isOwnName(kept, root) ? [file, kept] : [kept, file];
        byPath.set(file.path, keep);
        skipped.push({
            kind: 'document',
            name: drop.name,
            reason: 'duplicate',
            detail: `same file as ${(0,src_log/* displayName */.QC)(keep.name)}.`,
        });
    }
    return [...byPath.values()];
}
function isOwnName(file, root) {
    return (0,inside_name/* insideName */.M)(root, file.path) === file.name;
}
function formatBytes(bytes) {
    const units = ['B', 'KB', 'MB', 'GB'];
    let value = bytes;
    let unit = 0;
    while (value >= 1024 && unit < units.length - 1) {
        value /= 1024;
        unit += 1;
    }
    const shown = unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
    return `${shown} (${bytes} bytes)`;
}
function errorCode(error) {
    const code = error?.code;
    return typeof code === 'string' ? code : 'error';
}

// EXTERNAL MODULE: ./src/select/document/drafts.ts + 2 modules
var document_drafts = __webpack_require__(53271);
;// CONCATENATED MODULE: ./src/select/document/section-pages.ts
// A Hugo section's `_index.md` holds a `cascade` that every page below it inherits (drafts.ts). When a push
// changes, adds or removes one, the pages below it may become drafts, or stop being drafts, without
// changing themselves: they are judged again, as modified files — one that is unpublished now is blanked
// (404: it was not there, which is success), the others are sent (update, 404 → upload).



/** The folders of the section files a change set touches ('' for the workspace's own). */
function changedSections(changes) {
    const folders = new Set();
    for (const name of [...changes.added, ...changes.modified, ...changes.removed])
        if (document_drafts/* SECTION_FILES */.KS.includes(external_node_path_default().posix.basename(name)))
            folders.add(external_node_path_default().posix.dirname(name));
    return [...folders].map((folder) => (folder === '.' ? '' : folder)).sort();
}
/**
 * The change set with every selected page below a changed section added as modified (when there is
 * one): `pages` says how many were added, for the log.
 */
async function withSectionPages(changes, options) {
    const sections = changedSections(changes);
    if (sections.length === 0)
        return { changes, sections, pages: 0 };
    const known = new Set([...changes.added, ...changes.modified, ...changes.removed]);
    const below = (name) => sections.some((folder) => folder === '' || name.startsWith(`${folder}/`));
    const { files } = await selectFiles(options);
    const pages = files.map((file) => file.name).filter((name) => below(name) && !known.has(name));
    if (pages.length === 0)
        return { changes, sections, pages: 0 };
    return { changes: { ...changes, modified: [...changes.modified, ...pages] }, sections, pages: pages.length };
}

;// CONCATENATED MODULE: ./src/report/sitemap-line.ts
/** What the sitemaps listed, what was left out and why, and what is synced. */
function sitemapCountsLine(counts) {
    const parts = [
        `${counts.read} sitemap(s) read`,
        ...(counts.failed > 0 ? [`${counts.failed} failed`] : []),
        `${counts.listed} page(s) listed`,
        `${counts.filtered} filtered out`,
        `${counts.unchanged} unchanged by lastmod${counts.since ? ` (not after ${counts.since})` : ''}`,
        ...(counts.duplicates > 0 ? [`${counts.duplicates} already listed`] : []),
        ...(counts.invalid > 0 ? [`${counts.invalid} not usable URLs`] : []),
        `${counts.synced} to sync`,
    ];
    return `Sitemaps: ${parts.join(' · ')}`;
}

// EXTERNAL MODULE: ./src/select/shard.ts
var select_shard = __webpack_require__(86768);
;// CONCATENATED MODULE: ./src/jobs/job-context.ts
/** A failure of the job as a whole (not of one document), with a message a user can act on. */
class JobError extends Error {
}
/**
 * The job stopped before its end. `report` holds what it knew, with every item it knew of that has no
 * outcome failed with the cause, so the outputs and the summary are still written.
 */
class IndexJobFailure extends Error {
    report;
    constructor(message, report) {
        super(message);
        this.report = report;
        this.name = 'IndexJobFailure';
    }
}
/** The report of a job that has not started (yet): nothing known but the inputs. */
function emptyIndexReport(dryRun) {
    return {
        dryRun,
        changeSource: 'not decided',
        planned: [],
        items: [],
        skipped: [],
        left: [],
        requests: 0,
        durationMs: 0,
        notices: [],
    };
}

;// CONCATENATED MODULE: ./src/jobs/selection-stage.ts






function selectionOptions(config, context) {
    return {
        patterns: config.files,
        workspace: context.workspace,
        includeHidden: config.includeHiddenFiles,
        maxFileSize: config.maxFileSize,
        followSymlinks: config.followSymlinks,
    };
}
async function selection_stage_select(config, context, changes) {
    if (config.files.length === 0)
        return { files: [], skipped: [] };
    const options = selectionOptions(config, context);
    // A push sends only what it changed: only those paths are checked on disk, not the whole workspace.
    // Folders whose changes are unknown need the search (the plan keeps only what lies below them).
    const selection = changes.kind === 'changes' && !changes.everythingUnder
        ? await selectNamedFiles(options, [...changes.added, ...changes.modified])
        : await selectFiles(options);
    if (changes.kind === 'changes')
        selection.skipped.push(...undecodableSkips(config, changes, selection));
    const none = selection.files.length === 0 && (changes.kind !== 'changes' || !(await hasSelectableFile(options)));
    if (none) {
        const { names } = config;
        const message = `No files were found with the ${names.ref('files')} patterns (${config.files.join(', ')}) in ${context.workspace}.`;
        if (config.ifNoFilesFound === 'error')
            throw new JobError(`${message} Set ${names.ref('if-no-files-found')} to warn or ignore to allow this.`);
        if (config.ifNoFilesFound === 'warn')
            context.log.warning(message);
    }
    return selection;
}
/**
 * Changed names that are not valid UTF-8 and that the patterns select: skipped as the workspace search
 * skips them (the search reports them itself when it ran).
 */
function undecodableSkips(config, changes, selection) {
    const matches = nameMatcher(config.files);
    const reported = new Set(selection.skipped.map((item) => item.name));
    return (changes.undecodable ?? [])
        .filter((name) => !reported.has(name.shown) && matches(name.lossy))
        .map((name) => (0,byte_names/* undecodableSkip */.iB)(name.shown, name.isFolder));
}
/** The URLs (of the inputs, of sitemaps) that this job's shard sends (all without a shard). */
function shardUrls(config, urls = config.urls) {
    return config.shard ? urls.filter((url) => (0,select_shard/* inShard */.Iw)(url, config.shard)) : urls;
}
/**
 * The pages of the `sitemaps` input; in mode auto only those changed since the base commit (lastmod), or
 * with the record (`sent`), those never sent or changed since they were sent.
 */
async function sitemapPages(config, context, base, sent) {
    if (config.sitemaps.length === 0)
        return undefined;
    // Loaded only when there are sitemaps, from its own chunks: the XML parser (~280 KB with the sitemap
    // code) is not compiled at every run's start-up (see decideChanges).
    const { syncSitemaps } = await Promise.all(/* import() */[__webpack_require__.e(780), __webpack_require__.e(651)]).then(__webpack_require__.bind(__webpack_require__, 83651));
    return context.log.group('Sitemaps', async () => {
        const sync = await syncSitemaps({
            sitemaps: config.sitemaps,
            include: config.urlInclude,
            exclude: config.urlExclude,
            known: config.urls,
            operation: config.mode === 'upload' ? 'upload' : 'update',
            base: config.mode === 'auto' && !sent ? base : undefined,
            sent,
            workspace: context.workspace,
            log: context.log,
            signal: context.signal,
        });
        context.log.info(sitemapCountsLine(sync.counts));
        return sync;
    });
}
/** This shard's part of the files a change set needs (all of them, or what a push changed), logged. */
async function selectStage(config, context, changes) {
    return context.log.group('Selection', async () => {
        const all = await selection_stage_select(config, context, changes);
        const found = (0,select_shard/* shardSelection */.PE)(all, config.shard);
        const which = changes.kind === 'changes' ? 'changed file(s)' : 'file(s)';
        const part = config.shard
            ? ` in shard ${(0,select_shard/* shardLabel */.$_)(config.shard)} (${all.files.length} in all shards)`
            : '';
        context.log.info(`${found.files.length} ${which} selected${part}, ${found.skipped.length} skipped.`);
        return found;
    });
}

;// CONCATENATED MODULE: ./src/jobs/inferred-changes.ts





const SOURCE_TEXT = {
    'git-diff': 'git diff of the push (before..after)',
    'fetched-before': 'git diff of the push, after fetching the before commit',
    'compare-api': 'GitHub compare API',
    payload: 'commit lists of the push payload',
    'last-success': 'git diff since the last successful sync',
    'since-ref': 'git diff since the --since commit',
    staging: 'the names that can differ from what earlier runs left in the staging node',
    state: "the knowledge base's record: what the checkout selects minus what the node holds",
};
function describeChanges(changes) {
    if (changes.kind === 'changes')
        return SOURCE_TEXT[changes.source];
    if (changes.kind === 'all')
        return `full sync (${changes.reason})${changes.removed ? ", and the push's own removals (before..after)" : ''}`;
    return `nothing to index (${changes.reason})`;
}
/** One line naming the base commit and, for the last successful sync, its run. */
function describeBase(base) {
    if (base.source === 'none')
        return 'none (full sync)';
    if (base.source === 'push')
        return `the push's before commit ${base.sha}`;
    if (base.source === 'ref')
        return `--since commit ${base.sha}`;
    if (base.source === 'state')
        return `the knowledge base's record, ${base.recordedBy ?? 'of an earlier run'}`;
    return `the last successful sync, run #${base.run?.number ?? '?'} at commit ${base.sha}`;
}
async function decideChanges(config, context) {
    // `--since` with another mode is refused when the CLI reads its config.
    if (config.mode !== 'auto') {
        return {
            decision: { kind: 'all', source: 'full-sync', reason: `mode ${config.mode}: every selected file` },
            base: { source: 'none', sha: '' },
            notices: [],
        };
    }
    // Loaded only when a change set is computed: change detection brings git and @actions/github
    // (octokit). As its own chunk file (dist/<id>.index.js), not "eager" in index.js: V8 compiles all of a
    // file it loads, evaluated or not. With this and the other seams (sitemaps, octokit, undici's fetch,
    // YAML, form-data) as chunks, index.js went 2.43 -> 1.20 MB, its compile at start ~50 -> ~32 ms, and a
    // small upload's start to its first log group 127 -> 84 ms (median of 9, shared 2-core machine).
    // scripts/bundle.mjs fails if index.js holds that code again (LAZY_IN_INDEX_ACTION).
    const { decideChangeBase } = await Promise.all(/* import() */[__webpack_require__.e(198), __webpack_require__.e(606)]).then(__webpack_require__.bind(__webpack_require__, 38606));
    return decideChangeBase({
        ...context,
        patterns: config.files,
        githubToken: config.githubToken,
        fullSync: config.fullSync,
    });
}
/**
 * The pull request's own change set (base..head): what a preview shows, and in a staging sync only what
 * `pull-request-changed` counts (`quiet`: its own warning says why the count is unknown).
 */
async function pullRequestChanges(config, context, options = {}) {
    const { detectPullRequestChanges } = await Promise.all(/* import() */[__webpack_require__.e(198), __webpack_require__.e(369)]).then(__webpack_require__.bind(__webpack_require__, 82369));
    const changes = await detectPullRequestChanges({ ...context, patterns: config.files, githubToken: config.githubToken }, options);
    context.log.info(`${options.quiet ? "The pull request's own changes" : 'Change set'}: ${changes.description}`);
    return changes;
}
async function stagingChanges(config, context) {
    const { detectStagingChanges } = await Promise.all(/* import() */[__webpack_require__.e(198), __webpack_require__.e(334)]).then(__webpack_require__.bind(__webpack_require__, 28334));
    const changes = await detectStagingChanges({
        ...context,
        patterns: config.files,
        githubToken: config.githubToken,
        fullSync: config.fullSync,
    });
    context.log.info(`Change set: ${changes.description}`);
    return changes;
}
/** Pages below a Hugo section whose `_index.md` changed are judged again (select/document/section-pages.ts). */
async function withChangedSections(config, context, changes) {
    if (config.files.length === 0)
        return changes;
    const found = await withSectionPages(changes, selectionOptions(config, context));
    if (found.pages > 0)
        context.log.info(`A section's _index.md changed (its cascade applies to the pages below it): ${found.pages} page(s) ` +
            `below ${found.sections.map((folder) => (folder === '' ? '.' : folder)).join(', ')} are judged again, ` +
            'sent if published and blanked if not.');
    return found.changes;
}
/**
 * The names the selection would send, by name (patterns, hidden files): removed names that were never
 * in the knowledge base drop out, and a pull request's changes are counted among these.
 */
function selectedNames(config, names) {
    const matches = nameMatcher(config.files);
    const options = { patterns: config.files, includeHidden: config.includeHiddenFiles };
    return names.filter((name) => matches(name) && nameIsSelectable(name, options));
}
/**
 * The `pull-request-changed` output: how many selected documents the pull request's own change set
 * (base..head) adds, modifies or removes, or why that is unknown.
 */
function pullRequestChangedCount(config, own) {
    const { decision } = own;
    if (decision.kind === 'none')
        return { count: 0 };
    if (decision.kind === 'all')
        return { unknown: decision.reason };
    if (decision.everythingUnder)
        return {
            unknown: `the changes below ${decision.everythingUnder.map(src_log/* displayName */.QC).join(', ')} are not known one by one`,
        };
    return {
        count: selectedNames(config, [...decision.added, ...decision.modified, ...decision.removed]).length,
    };
}
/**
 * The change set: the record's difference when there is one (`fromRecord`), else the preview of a pull
 * request, a staging node's names, or mode auto's base (history/). Also counts the pull request's own
 * changes, and says when there is nothing to index.
 */
async function detectChanges(config, context, report, fromRecord) {
    const { log } = context;
    const notices = report.notices;
    // In a pull request, what merging would change is previewed.
    const pullRequest = config.preview
        ? await log.group('Change detection', () => pullRequestChanges(config, context))
        : undefined;
    // `pull-request: index` makes the node a staging node: it ends equal to this checkout. With mode
    // upload/update it sends every selected file: no change set is needed.
    const staged = !fromRecord &&
        !config.preview &&
        config.pullRequest === 'index' &&
        'pull_request' in context.payload &&
        config.mode === 'auto'
        ? await log.group('Change detection', () => stagingChanges(config, context))
        : undefined;
    // What the pull request itself changes (not the staging node's wider change set) is counted for the
    // run-flow action's skip rule. The sync is never skipped: see the `pull-request-changed` output.
    const ownChanges = pullRequest ??
        (config.pullRequest === 'index' && 'pull_request' in context.payload
            ? await log.group('Pull request changes', () => pullRequestChanges(config, context, { quiet: true }))
            : undefined);
    if (ownChanges) {
        const changed = pullRequestChangedCount(config, ownChanges);
        if ('count' in changed)
            report.pullRequestChanged = changed.count;
        else
            log.warning(`The output "pull-request-changed" is empty: the pull request's own change set is unknown (${changed.unknown}).`);
    }
    // upload/update send every selected file whatever changed; only auto previews the pull request's changes.
    const previewed = config.mode === 'auto' ? pullRequest : undefined;
    const detected = previewed?.decision ??
        fromRecord ??
        staged?.decision ??
        (await log.group('Change detection', async () => {
            const decided = await decideChanges(config, context);
            log.info(`Change set: ${describeChanges(decided.decision)}`);
            if (decided.base.sha)
                log.info(`Base: ${describeBase(decided.base)}`);
            notices.push(...decided.notices);
            report.base = decided.base;
            return decided.decision;
        }));
    const changes = config.skipDrafts && detected.kind === 'changes' && !fromRecord
        ? await withChangedSections(config, context, detected)
        : detected;
    if (changes.kind === 'changes')
        for (const warning of changes.warnings ?? []) {
            log.warning(`Change detection: ${warning}.`);
            notices.push(`Change detection: ${warning}.`);
        }
    if (config.preview && pullRequest)
        report.preview = {
            number: pullRequest.number,
            base: pullRequest.base ?? '',
            head: pullRequest.head ?? '',
        };
    if (pullRequest?.base)
        report.changeBase = { sha: pullRequest.base, source: 'pull request base' };
    report.changeSource = previewed?.description ?? describeChanges(changes);
    if (staged) {
        const { orgId, flowId, nodeId } = config.target;
        report.changeSource = `staging knowledge base ${orgId}/${flowId}/${nodeId}: ${staged.description}`;
        if (changes.kind === 'all')
            notices.push(`Change detection: ${staged.description}.`);
    }
    if (changes.kind === 'none') {
        log.notice(`Nothing to index: ${changes.reason}.`);
        notices.push(`Nothing to index: ${changes.reason}.`);
    }
    const base = previewed ? pullRequest?.base : fromRecord || staged ? undefined : report.base?.sha;
    return { changes, staged, ...(base ? { base } : {}) };
}

;// CONCATENATED MODULE: ./src/history/staging-removals.ts
// Reasons that say the file is not a document of this checkout. Not among them: a name conflict or a
// duplicate (another file reaches the node under that name), an unreadable file (the run fails on it).
const NOT_A_DOCUMENT = new Set([
    'hidden',
    'git-dir',
    'secret',
    'too-large',
    'outside-workspace',
    'symlink',
    'not-regular',
]);
/** The changed names that the selection skipped as not being documents of this checkout. */
function stagingRemovals(changes, selection) {
    const changed = new Set(changes.modified);
    return selection.skipped
        .filter((item) => item.kind === 'document' && changed.has(item.name) && NOT_A_DOCUMENT.has(item.reason))
        .map((item) => item.name);
}

// EXTERNAL MODULE: ./src/plan.ts + 1 modules
var src_plan = __webpack_require__(21733);
// EXTERNAL MODULE: ./src/report/causes.ts
var report_causes = __webpack_require__(40304);
// EXTERNAL MODULE: ./src/report/index-outputs.ts
var index_outputs = __webpack_require__(45521);
// EXTERNAL MODULE: ./src/select/document/read-head.ts
var read_head = __webpack_require__(7413);
;// CONCATENATED MODULE: ./src/select/document/lfs-pointers.ts

/** The spec: "Pointer files must be less than 1024 bytes in size". */
const LFS_POINTER_MAX_BYTES = 1023;
// The current version URL, and the older one git-lfs still reads.
const VERSION_LINES = [
    'version https://git-lfs.github.com/spec/v1',
    'version https://hawser.github.com/spec/v1',
];
const OID_LINE = /^oid sha256:[0-9a-f]{64}$/;
const SIZE_LINE = /^size \d+$/;
// `{key} {value}`: keys of [a-z0-9.-], one space, a value without line breaks.
const KEY_VALUE_LINE = /^[a-z0-9.-]+ [^\r\n]*$/;
/** No pointer is shorter: the shorter version line, an oid line and `size 0`. */
const LFS_POINTER_MIN_BYTES = `${VERSION_LINES[1]}\noid sha256:${'0'.repeat(64)}\nsize 0`.length;
/** The one cause every pointer fails with (one group in the summary, one annotation). */
const LFS_POINTER_CAUSE = 'Git LFS pointer, not the file: the checkout has the pointer text in place of the LFS content. ' +
    'Set `lfs: true` on actions/checkout (or run `git lfs pull`), or exclude the pattern in `files`; not sent.';
/** Whether these bytes are a Git LFS pointer (lenient on CRLF and a missing last line break, as git-lfs). */
function isLfsPointer(bytes) {
    if (bytes.length < LFS_POINTER_MIN_BYTES || bytes.length > LFS_POINTER_MAX_BYTES)
        return false;
    const lines = bytes
        .toString('latin1')
        .replace(/\r?\n$/, '')
        .split(/\r?\n/);
    if (!VERSION_LINES.includes(lines[0]))
        return false;
    const rest = lines.slice(1);
    return (rest.every((line) => KEY_VALUE_LINE.test(line)) &&
        rest.some((line) => OID_LINE.test(line)) &&
        rest.some((line) => SIZE_LINE.test(line)));
}
/**
 * The selected files whose content is an LFS pointer. Only files of a pointer's size are opened (a few
 * hundred bytes, read whole, synchronously: for such files the thread-pool round trips of asynchronous
 * calls cost more than the reads); every other file is judged by its selected size alone. A file that
 * cannot be read here is left to sending, which reports why.
 */
function findLfsPointers(files) {
    return files.filter((file) => file.size >= LFS_POINTER_MIN_BYTES &&
        file.size <= LFS_POINTER_MAX_BYTES &&
        isLfsPointer((0,read_head/* readHead */.z)(file.path, Buffer.allocUnsafe(LFS_POINTER_MAX_BYTES + 1), file.size)));
}

;// CONCATENATED MODULE: ./src/jobs/plan-stage.ts










const PLAN_LINES_PER_MESSAGE = 2000;
/**
 * The plan, in the report (planned, skipped, left) as soon as it is made: what a job stopped on the way
 * reports. Logged here unless drafts are looked for while sending (then by the send stage, once found).
 */
async function planStage(config, context, report, input) {
    const { log } = context;
    const notices = report.notices;
    const { selection, fromRecord } = input;
    let changes = input.changes;
    // In a staging node a present file that is no longer selected (too large, a link) goes too: listed as
    // removed, the log says why.
    const unselected = changes.kind === 'changes' && input.staged ? stagingRemovals(changes, selection) : [];
    const unselectedNames = new Set(unselected);
    for (const item of selection.skipped)
        if (unselectedNames.has(item.name))
            log.info(`No longer a document of this checkout, so taken out of the staging node (\`removed\`, or \`left\` ` +
                `when no placeholder fits): ${(0,src_log/* displayName */.QC)(item.name)}: ${item.detail}`);
    // The record's removals are the names the node holds (of this shard) that are not selected now, whatever
    // the patterns say today: narrowing `files` takes documents out too.
    const removed = fromRecord
        ? changes.kind === 'all'
            ? (changes.removed ?? [])
            : changes.kind === 'changes'
                ? changes.removed
                : []
        : selectedNames(config, changes.kind === 'all'
            ? // Every selected file is sent, and the removals known even so (a push's own) are blanked.
                (changes.removed ?? [])
            : changes.kind === 'changes'
                ? [...changes.removed, ...unselected]
                : []).filter((name) => (0,select_shard/* inShard */.Iw)(name, config.shard));
    // Found before planning, so a dry run and a preview fail on them too, as the sync they show would.
    const pointers = findLfsPointers(selection.files);
    // A sync of every selected file looks for drafts while its first batches are sent: the plan it logs is
    // the same, only its first requests leave before (bench/README.md). A dry run, a preview and a push's
    // changed files look first: a changed draft is blanked, which the plan must know before it sends.
    const draftsWhileSending = config.skipDrafts && changes.kind === 'all' && !config.dryRun && !config.preview;
    const drafts = fromRecord && changes.kind === 'changes'
        ? reportedDrafts(fromRecord, log, notices)
        : config.skipDrafts && !draftsWhileSending
            ? await draftsOf(selection.files, log, notices)
            : undefined;
    // Without the record, a changed draft that was a draft before too is left alone (never published).
    if (!fromRecord && changes.kind === 'changes' && drafts && input.base)
        changes = await withDraftsLeftAlone(changes, drafts, input.base, context);
    const blanking = removed.length > 0 || (changes.kind === 'changes' && (drafts?.size ?? 0) > 0);
    const sitemaps = await sitemapPages(config, context, report.base, fromRecord && changes.kind === 'changes' ? input.record?.urls : undefined);
    const plan = (0,src_plan/* planSync */.R4)({
        selection,
        urls: shardUrls(config, sitemaps ? [...config.urls, ...sitemaps.urls] : config.urls),
        mode: config.mode,
        changes: changes.kind === 'none' ? changes : { ...changes, removed },
        batchSize: config.batchSize,
        refused: new Map(pointers.map((file) => [file.name, LFS_POINTER_CAUSE])),
        removed: config.removed,
        removedBy: blanking && config.removed === 'tombstone'
            ? await (await __webpack_require__.e(/* import() */ 121).then(__webpack_require__.bind(__webpack_require__, 48121))).removalCommit(context.workspace, config.files, context.payload)
            : undefined,
        drafts,
    });
    report.planned = (0,src_plan/* plannedItems */.Hs)(plan);
    report.skipped = plan.skipped;
    report.left = plan.left;
    if (sitemaps) {
        report.sitemaps = sitemaps.counts;
        notices.push(...sitemaps.notices);
    }
    const unsent = [...plan.refused, ...(sitemaps?.failures ?? [])];
    report.items = unsent;
    if (!draftsWhileSending)
        await logPlan(plan, config, report, log);
    return { plan, unsent, drafts, draftsWhileSending, sitemaps };
}
/** The plan in the report and the log: what is skipped, what is left, then every planned item. */
function logPlan(plan, config, report, log) {
    report.planned = (0,src_plan/* plannedItems */.Hs)(plan);
    report.skipped = plan.skipped;
    report.left = plan.left;
    (0,index_outputs/* logSkipped */.fc)(plan.skipped, log);
    warnLeft(plan.left, log, report.notices);
    return log.group('Plan', async () => {
        // Placeholders are a few hundred bytes: their requests are counted by batch size alone.
        const requests = plan.batches.length + Math.ceil(plan.placeholders.length / config.batchSize);
        const lines = [`${report.planned.length} item(s) in ${requests} request(s).`];
        // A few thousand lines per message: one write to the runner's pipe per message instead of one per
        // item, yet no one string of every item (cleaning it made ~5 copies of ~6 MB at 100,000 documents).
        for (const item of report.planned) {
            lines.push(item.removal
                ? `  remove from answers (placeholder, update) document ${(0,src_log/* displayName */.QC)(item.name)}`
                : `  ${(0,src_plan/* plannedOperation */.aZ)(item)}${(0,src_plan/* fallbackNote */.lz)(item)} ${item.kind} ${(0,src_log/* displayName */.QC)(item.name)}`);
            if (lines.length === PLAN_LINES_PER_MESSAGE)
                log.info(lines.splice(0).join('\n'));
        }
        if (lines.length > 0)
            log.info(lines.join('\n'));
    });
}
/**
 * The change set with each modified draft that was a draft at `base` too moved to the added ones: the
 * plan skips it like a new draft (`skipped`, reason draft) instead of blanking it, as the record's change
 * set does with a draft the node holds no content of. One that cannot be judged there stays modified.
 */
async function withDraftsLeftAlone(changes, drafts, base, context) {
    const names = changes.modified.filter((name) => drafts.has(name));
    if (names.length === 0)
        return changes;
    const { draftsBefore } = await __webpack_require__.e(/* import() */ 316).then(__webpack_require__.bind(__webpack_require__, 88316));
    let before;
    try {
        before = await draftsBefore({ workspace: context.workspace, base, names, signal: context.signal });
    }
    catch (error) {
        context.signal?.throwIfAborted();
        context.log.info(`The drafts' versions at ${base} could not be read (${error instanceof Error ? error.message : String(error)}): ` +
            'each changed draft is blanked, in case it was published.');
        return changes;
    }
    if (before.size === 0)
        return changes;
    context.log.info(`${before.size} changed draft(s) were drafts at ${base} too, so never published: left alone, not ` +
        `blanked: ${(0,report_causes/* firstNames */.d9)([...before], NAMES_IN_WARNING, src_log/* displayName */.QC)}.`);
    return {
        ...changes,
        added: [...changes.added, ...before],
        modified: changes.modified.filter((name) => !before.has(name)),
    };
}
/** Drafts the record's change set judged: their unparsable front matter is reported like the scan's. */
function reportedDrafts(found, log, notices) {
    if (found.scan)
        reportUnparsable(found.scan, log, notices);
    return found.drafts;
}
const NAMES_IN_WARNING = 10;
/** The drafts among the selected files; front matter that does not parse is one warning naming the files. */
async function draftsOf(files, log, notices) {
    const scan = await (0,document_drafts/* findDrafts */.i7)(files);
    reportUnparsable(scan, log, notices);
    return scan.drafts;
}
/** Front matter that does not parse: one warning naming the files (they are sent, as not drafts). */
function reportUnparsable(scan, log, notices) {
    if (scan.unparsable.length > 0) {
        const names = (0,report_causes/* firstNames */.d9)(scan.unparsable.map((bad) => `${(0,src_log/* displayName */.QC)(bad.name)} (${bad.why})`), NAMES_IN_WARNING, (name) => name);
        const message = `The front matter of ${scan.unparsable.length} file(s) does not parse, so they are not ` +
            `treated as drafts (skip-drafts) and are sent: ${names}.`;
        log.warning(message);
        notices.push(message);
    }
}
/** Removed documents left in the knowledge base: one warning for the formats that cannot be blanked. */
function warnLeft(left, log, notices) {
    const unblankable = left.filter((document) => document.reason === 'format').map((d) => d.name);
    const kept = left.filter((document) => document.reason === 'keep').map((d) => d.name);
    const names = (list) => (0,report_causes/* firstNames */.d9)(list, NAMES_IN_WARNING, src_log/* displayName */.QC);
    if (unblankable.length > 0) {
        const message = `${unblankable.length} removed document(s) stay in the knowledge base and keep being answered: no ` +
            `placeholder can be written in their format (the service has no delete). Remove them in the service ` +
            `by hand: ${names(unblankable)}. The "left" output lists all.`;
        log.warning(message);
        notices.push(message);
    }
    if (kept.length > 0)
        log.notice(`${kept.length} removed document(s) stay in the knowledge base (removed: keep): ${names(kept)}.`);
}

// EXTERNAL MODULE: ./src/git.ts
var src_git = __webpack_require__(71243);
// EXTERNAL MODULE: ./src/select/git/tree-output.ts
var tree_output = __webpack_require__(34381);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(77598);
// EXTERNAL MODULE: external "node:timers/promises"
var external_node_timers_promises_ = __webpack_require__(58500);
// EXTERNAL MODULE: ./src/documents/read-guard.ts
var read_guard = __webpack_require__(27939);
// EXTERNAL MODULE: ./src/state/record.ts
var state_record = __webpack_require__(10388);
;// CONCATENATED MODULE: ./src/state/blob-ids.ts
// Git's blob id of a selected file's bytes, computed here: sha1 (or sha256 in a SHA-256 repository) of
// `blob <size>\0` followed by the content, as `git hash-object --no-filters` gives. No process per file
// and none at all outside a repository; the bytes hashed are the ones sending reads (the read guard:
// exactly the selected size, no link followed, no FIFO), so a file that changed since it was selected
// gets UNKNOWN, as sending will fail it.





/** Files up to this size are read whole and synchronously (thread-pool round trips cost more). */
const SMALL_FILE_BYTES = 64 * 1024;
/** Small files hashed between two turns of the event loop (where cancellation is seen). */
const SMALL_FILES_PER_TURN = 256;
/** Larger files streamed at once. */
const LARGE_FILES_AT_ONCE = 4;
/** The blob id of bytes held in memory. */
function blobId(content, format = 'sha1') {
    return (0,external_node_crypto_.createHash)(format).update(`blob ${content.length}\0`).update(content).digest('hex');
}
async function streamedBlobId(file, format, signal) {
    const hash = (0,external_node_crypto_.createHash)(format).update(`blob ${file.size}\0`);
    const stream = await (0,read_guard/* openSelectedFile */.yl)(file);
    const onAbort = () => stream.destroy(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
        for await (const chunk of stream)
            hash.update(chunk);
    }
    finally {
        signal?.removeEventListener('abort', onAbort);
    }
    return hash.digest('hex');
}
/**
 * The blob id of each file, set in `into` by name: UNKNOWN for a file that cannot be read as selected
 * (gone, replaced, another size). Rejects only with the signal's reason.
 */
async function hashSelectedFiles(items, into, signal) {
    const small = items.filter((item) => item.file.size <= SMALL_FILE_BYTES);
    const large = items.filter((item) => item.file.size > SMALL_FILE_BYTES);
    const buffer = Buffer.allocUnsafe(SMALL_FILE_BYTES + 1);
    for (let start = 0; start < small.length; start += SMALL_FILES_PER_TURN) {
        signal?.throwIfAborted();
        for (const { file, format } of small.slice(start, start + SMALL_FILES_PER_TURN)) {
            let id;
            try {
                id = blobId((0,read_guard/* readSmallSelectedFile */.Vx)(file, buffer.subarray(0, file.size + 1)), format);
            }
            catch {
                id = state_record/* UNKNOWN */.HV;
            }
            into.set(file.name, id);
        }
        await (0,external_node_timers_promises_.setImmediate)();
    }
    await (0,map_limited/* mapLimited */.b)(large, LARGE_FILES_AT_ONCE, async ({ file, format }) => {
        signal?.throwIfAborted();
        let id;
        try {
            id = await streamedBlobId(file, format, signal);
        }
        catch {
            signal?.throwIfAborted();
            id = state_record/* UNKNOWN */.HV;
        }
        into.set(file.name, id);
    });
    signal?.throwIfAborted();
}

;// CONCATENATED MODULE: ./src/state/content-ids.ts







/** Regular files, executable or not: a link (120000) or a submodule (160000) is not a file's content. */
const FILE_MODES = new Set(['100644', '100755']);
/**
 * Name → content id of every selected file (`name` relative to the workspace), UNKNOWN for one that
 * cannot be read as selected; an id equal to the one `held` gives the name is that very string. Rejects
 * only with the signal's reason: when git cannot list a repository, its files are hashed instead
 * (slower, the same ids in the default configuration).
 */
async function contentIds(workspace, files, signal, held) {
    signal?.throwIfAborted();
    const root = await promises_default().realpath(workspace);
    // Each selected name's place in `files`; what git knows is kept by that place, in one array, not in a
    // second map of 100,000 names beside the ids' own.
    const selected = new Map();
    for (let index = 0; index < files.length; index++)
        selected.set(files[index].name, index);
    let sorted;
    const sortedNames = () => (sorted ??= [...selected.keys()].sort(src_plan/* compareNames */.MP));
    const own = await checkoutAt(root, '', signal);
    const queue = own ? [own] : await checkoutsBelow(root, selected.keys(), signal);
    const checkouts = [];
    let known;
    for (let checkout = queue.shift(); checkout; checkout = queue.shift()) {
        checkouts.push(checkout);
        const listed = await listUnchanged(checkout, files, selected, signal, held);
        // The first checkout's ids are taken as they are (the only ones, without submodules): no copy.
        if (!known)
            known = listed.ids;
        else if (listed.ids)
            for (let index = 0; index < files.length; index++)
                known[index] = listed.ids[index] ?? known[index];
        for (const submodule of listed.submodules) {
            if (!hasNameBelow(sortedNames(), `${submodule}/`))
                continue;
            const inner = await checkoutAt(external_node_path_default().join(root, submodule), submodule, signal);
            if (inner)
                queue.push(inner);
        }
    }
    // Innermost first: a file is hashed with the object format of the repository that holds it.
    checkouts.sort((a, b) => b.folder.length - a.folder.length);
    const formatOf = (name) => checkouts.find((checkout) => checkout.folder === '' || name.startsWith(`${checkout.folder}/`))?.format ??
        'sha1';
    const ids = new Map();
    const toHash = [];
    for (let index = 0; index < files.length; index++) {
        const file = files[index];
        const id = known?.[index];
        // The index knows the file at its name; a file read from elsewhere (through a link) is hashed.
        if (id !== undefined && file.path === pathAt(root, file.name))
            ids.set(file.name, id);
        else
            toHash.push({ file, format: formatOf(file.name) });
    }
    await hashSelectedFiles(toHash, ids, signal);
    return ids;
}
const pathAt = (root, name) => (external_node_path_default()).sep === '/' ? `${root}/${name}` : external_node_path_default().join(root, name);
/** Whether some selected name starts with `prefix` (names sorted by compareNames). */
function hasNameBelow(sortedNames, prefix) {
    let low = 0;
    let high = sortedNames.length;
    while (low < high) {
        const middle = (low + high) >>> 1;
        if (sortedNames[middle] < prefix)
            low = middle + 1;
        else
            high = middle;
    }
    return low < sortedNames.length && sortedNames[low].startsWith(prefix);
}
/** The working tree at `directory`, or undefined when it is in none (or git cannot be run). */
async function checkoutAt(directory, folder, signal) {
    try {
        const result = await new src_git/* Git */.T(directory).run(['rev-parse', '--is-inside-work-tree', '--show-object-format'], {
            signal,
        });
        const [inside, format] = result.stdout.trim().split('\n');
        if (result.exitCode !== 0 || inside !== 'true')
            return undefined;
        return { folder, directory, format: format === 'sha256' ? 'sha256' : 'sha1' };
    }
    catch {
        signal?.throwIfAborted();
        // git is not installed: every file is hashed.
        return undefined;
    }
}
const hasGitEntry = (folder) => promises_default().lstat(external_node_path_default().join(folder, '.git')).catch(() => undefined);
/**
 * A workspace that is not in a repository may hold some (actions/checkout with `path:`): the outermost
 * folder holding a `.git` entry above each selected file, found with one lstat per distinct folder.
 */
async function checkoutsBelow(root, names, signal) {
    const outermost = new Map();
    const checkoutOf = async (folder) => {
        if (folder === '')
            return null;
        const cached = outermost.get(folder);
        if (cached !== undefined)
            return cached;
        const slash = folder.lastIndexOf('/');
        const above = await checkoutOf(slash === -1 ? '' : folder.slice(0, slash));
        const found = above ?? ((await hasGitEntry(external_node_path_default().join(root, folder))) ? folder : null);
        outermost.set(folder, found);
        return found;
    };
    const parents = new Set();
    for (const name of names) {
        const slash = name.lastIndexOf('/');
        if (slash !== -1)
            parents.add(name.slice(0, slash));
    }
    const folders = new Set();
    for (const parent of parents) {
        signal?.throwIfAborted();
        const found = await checkoutOf(parent);
        if (found !== null)
            folders.add(found);
    }
    const checkouts = [];
    for (const folder of folders) {
        const checkout = await checkoutAt(external_node_path_default().join(root, folder), folder, signal);
        if (checkout)
            checkouts.push(checkout);
    }
    return checkouts;
}
/** The name at `start`..`end` of git's `-z` output as text, or undefined when it is not UTF-8. */
function textAt(output, start, end) {
    const lenient = output.toString('utf8', start, end);
    return lenient.includes('\uFFFD') ? (0,byte_names/* decodedName */.Uq)(output.subarray(start, end)) : lenient;
}
const TAB = 0x09;
const CACHED = 0x48; // `H`
const STAGE_0 = 0x30; // `0`
/**
 * The id of every selected file of the checkout that git knows unchanged, and the folders
 * (workspace-relative) of its submodules; none of either when git cannot list the checkout. An entry counts only when it is a regular file at
 * stage 0 (not a conflict) shown as `H` by `ls-files -v`: `S` (skip-worktree, sparse checkout) and
 * lowercase (assume-unchanged) entries are not compared with the worktree by git, so they are hashed.
 */
async function listUnchanged(checkout, files, selected, signal, held) {
    // By the file's place in `files`.
    const known = new Array(files.length).fill(undefined);
    const git = new src_git/* Git */.T(checkout.directory);
    const prefix = checkout.folder === '' ? '' : `${checkout.folder}/`;
    const submodules = [];
    // `<tag> <mode> <id> <stage>\t<name>\0`, read in place: no copy, no pattern, and no Buffer.indexOf per
    // entry (a call into C++ each: more than the rest of the entry's work at 100,000 entries). The tab is
    // where the object format puts it; the name's end is found by a scan of its few bytes.
    const tabOffset = (checkout.format === 'sha256' ? 64 : 40) + 10;
    /** Reads the whole entries of `listing` (it ends with one's NUL). */
    const readEntries = (listing) => {
        for (let start = 0; start < listing.length;) {
            let tab = start + tabOffset;
            if (listing[tab] !== TAB)
                tab = listing.indexOf(TAB, start);
            if (tab === -1)
                break;
            let end = tab + 1;
            while (end < listing.length && listing[end] !== 0)
                end++;
            const entry = start;
            start = end + 1;
            if (listing[entry] !== CACHED || listing[tab - 1] !== STAGE_0)
                continue;
            const text = textAt(listing, tab + 1, end);
            if (text === undefined)
                continue;
            const name = prefix + text;
            const mode = listing.toString('latin1', entry + 2, entry + 8);
            if (mode === tree_output/* GITLINK_MODE */.B1) {
                submodules.push(name);
                continue;
            }
            // Found by its place in the selection: the name made from git's output dies young (100,000 of them).
            const index = FILE_MODES.has(mode) ? selected.get(name) : undefined;
            if (index === undefined)
                continue;
            const file = files[index];
            // The record's own string when the id is the one it holds (most of them): not a second copy of
            // 100,000 ids beside it (~6 MB of heap at the run's peak).
            const id = listing.toString('latin1', entry + 9, tab - 2);
            const was = held && Object.hasOwn(held, file.name) ? held[file.name] : undefined;
            known[index] = was === id ? was : id;
        }
    };
    // The listing is read as git writes it, a pipe's chunk at a time (~7 MB at 100,000 files, which whole
    // and then joined was ~14 MB of buffers at the run's peak); an entry cut by a chunk's end waits for
    // the rest of it.
    let partial;
    const onChunk = (chunk) => {
        const bytes = partial ? Buffer.concat([partial, chunk]) : chunk;
        const last = bytes.lastIndexOf(0);
        partial = last === bytes.length - 1 ? undefined : Buffer.from(bytes.subarray(last + 1));
        if (last !== -1)
            readEntries(bytes.subarray(0, last + 1));
    };
    let changed;
    try {
        // Both relative to the checkout's directory and limited to it (ls-files by default, diff-files by
        // --relative), which is what names a workspace inside a repository.
        ;
        [, changed] = await Promise.all([
            git.eachChunk(['ls-files', '-v', '-s', '-z'], onChunk, { signal }),
            git.execBytes(['diff-files', '--name-only', '--relative', '-z'], { signal }),
        ]);
    }
    catch (error) {
        signal?.throwIfAborted();
        // What was read of a listing git could not finish is not trusted: those files are hashed.
        if (error instanceof src_git/* GitError */.X)
            return { submodules: [] };
        throw error;
    }
    for (let start = 0, end = changed.indexOf(0); end !== -1; start = end + 1, end = changed.indexOf(0, start)) {
        const text = textAt(changed, start, end);
        const index = text === undefined ? undefined : selected.get(prefix + text);
        if (index !== undefined)
            known[index] = undefined;
    }
    return { ids: known, submodules };
}

// EXTERNAL MODULE: ./src/state/difference.ts
var difference = __webpack_require__(56994);
;// CONCATENATED MODULE: ./src/state/next-record.ts

/**
 * The documents the node holds after the run. Each rule, and why:
 * - Start from the previous record: a name the run did not touch holds what it held. That includes a
 *   held name that is no longer selected and got no outcome (`removed: keep`, or a format without a
 *   placeholder: `left`): the node still answers from it, so the record keeps it, and a later run that
 *   can blank it will.
 * - No previous record: the run's change set came from today's history-based inference, which judged
 *   every selected name it did not plan unchanged since the last sync; the record trusts that judgement
 *   (each such name held with its current id), or there would be no first record to be exact from.
 *   A selected name it planned but never sent (attempts 0) is UNKNOWN: the inference said it changed,
 *   so the node holds an older version of it or nothing.
 * - Uploaded or updated → the selected content id: the node answered that it holds it. UNKNOWN if the
 *   name is not selected (not expected: what was sent was selected).
 * - Removed → PLACEHOLDER: the node holds the placeholder. Removed because it answered 404 (`absent`):
 *   the node holds nothing under that name, so it leaves the record.
 * - Failed after at least one attempt → UNKNOWN: a request was sent and its answer is not known (or
 *   was an error after the service may have applied it), so the node may hold the old content, the new
 *   one, or nothing; UNKNOWN is sent again (or blanked) by the next run, never trusted.
 * - Failed without an attempt (refused, cancelled before sending) → as before: nothing reached the node
 *   (with a previous record: what it held; absent stays absent).
 */
function nextHeld(input) {
    const { previous, desired, outcomes, inShard } = input;
    // Made in place, without a prototype (a document named `__proto__` stays a name): at 100,000 documents a
    // map beside it, and the arrays of [name, id] pairs before that, were ~20 MB of the heap at its peak
    // (bench/README.md).
    const held = heldFrom(previous, desired);
    // Without a record, a planned name holds what its outcome says (nothing, when it got none).
    if (!previous)
        for (const item of outcomes)
            if (item.kind === 'document')
                delete held[item.name];
    applyOutcomes(held, outcomes, desired, previous !== undefined);
    return inShard ? onlyIn(held, inShard) : held;
}
/** The previous record's documents, or without one every selected name (the inference's judgement). */
function heldFrom(previous, desired) {
    const held = Object.create(null);
    if (previous)
        for (const name of Object.keys(previous))
            held[name] = previous[name];
    else
        for (const [name, id] of desired)
            held[name] = id;
    return held;
}
function onlyIn(held, inShard) {
    for (const name of Object.keys(held))
        if (!inShard(name))
            delete held[name];
    return held;
}
/**
 * What the node may hold once the run has sent what it plans: every planned document as if it failed
 * after an attempt (UNKNOWN). Written before the first request, so a run killed after its first batch
 * leaves the next run every name it may have written, to be sent (or blanked) again. Made without a copy:
 * the previous record's own documents (not needed as they were once the plan is made) become the pending
 * record, and what each planned name held is kept aside for the final record (settlePending). At 100,000
 * documents a copy was ~10 MB of heap at the run's peak.
 */
function markPending(previous, desired, planned) {
    const held = previous ?? heldFrom(undefined, desired);
    if (!previous) {
        for (const name of planned)
            held[name] = state_record/* UNKNOWN */.HV;
        return { held, before: planned, hadPrevious: false };
    }
    const before = new Map();
    for (const name of planned) {
        if (!before.has(name))
            before.set(name, Object.hasOwn(held, name) ? held[name] : undefined);
        held[name] = state_record/* UNKNOWN */.HV;
    }
    return { held, before, hadPrevious: true };
}
/**
 * The final record made in place over the pending one: the same documents nextHeld gives for the same
 * previous record, selection and outcomes (a planned name without an outcome, or never sent, holds what it
 * held before; the others what their outcome says).
 */
function settlePending(pending, desired, outcomes) {
    const { held, before, hadPrevious } = pending;
    const restore = (name, restored) => {
        if (restored === undefined)
            delete held[name];
        else
            held[name] = restored;
    };
    if (before instanceof Map)
        for (const [name, was] of before)
            restore(name, hadPrevious ? was : desired.get(name));
    else
        for (const name of before)
            restore(name, desired.get(name));
    applyOutcomes(held, outcomes, desired, hadPrevious);
    return held;
}
/**
 * What each document's outcome leaves the node holding (nextHeld's rules), over `held` as it was before
 * the run for the names planned. Without a previous record a name never sent holds nothing unless selected.
 */
function applyOutcomes(held, outcomes, desired, hadPrevious) {
    for (const item of outcomes) {
        if (item.kind !== 'document')
            continue;
        const { name } = item;
        switch (item.outcome) {
            case 'uploaded':
            case 'updated':
                held[name] = desired.get(name) ?? state_record/* UNKNOWN */.HV;
                break;
            case 'removed':
                if (item.absent)
                    delete held[name];
                else
                    held[name] = state_record/* PLACEHOLDER */.Kx;
                break;
            case 'failed':
                if (item.attempts > 0)
                    held[name] = state_record/* UNKNOWN */.HV;
                else if (!hadPrevious) {
                    if (desired.has(name))
                        held[name] = state_record/* UNKNOWN */.HV;
                    else
                        delete held[name];
                }
                break;
        }
    }
}
/**
 * The URLs the node holds after the run:
 * - uploaded or updated → sent now, with the `lastmod` the page had (a later `lastmod` sends it again);
 * - failed → forgotten, whatever the attempts: the node may hold an old version, a part, or nothing,
 *   and a URL cannot be blanked, so the only way to be sure is to send it again; a URL the record does
 *   not hold is sent by the next run;
 * - not sent → as before.
 */
function nextUrls(previous, outcomes, lastmods, now) {
    const held = new Map(previous ? Object.entries(previous) : []);
    const sentAt = now.toISOString();
    for (const item of outcomes) {
        if (item.kind !== 'url')
            continue;
        if (item.outcome === 'uploaded' || item.outcome === 'updated') {
            const lastmod = lastmods.get(item.name);
            held.set(item.name, lastmod === undefined ? { sentAt } : { sentAt, lastmod });
        }
        else if (item.outcome === 'failed') {
            held.delete(item.name);
        }
    }
    return Object.fromEntries(held);
}

;// CONCATENATED MODULE: ./src/state/settings.ts
// The fingerprint of the settings that shape the selection, kept in the record so that a run can say which
// of them changed since the record was written, without the record holding their values. Each value is
// put in a canonical form first, so that a change that cannot change the selection (the order of `urls`)
// is not reported as one.


/** The settings that shape the selection, by their action input names, in action.yml order. */
const SELECTION_SETTINGS = [
    'files',
    'urls',
    'sitemaps',
    'url-include',
    'url-exclude',
    'removed',
    'skip-drafts',
    'include-hidden-files',
    'max-file-size',
    'follow-symlinks',
    'shard',
];
/** A set: order and repeats do not change what it selects. */
const asSet = (values) => [...new Set(values)].sort();
/**
 * `files` patterns apply in order, the last that matches a name deciding (`!` excludes): only the order
 * within a run of includes (or of excludes) is free, so each run is sorted and the runs kept in order.
 */
function canonicalPatterns(patterns) {
    const runs = [];
    for (const pattern of patterns) {
        const negated = (0,select_patterns/* isNegatedPattern */.Z4)(pattern);
        const last = runs.at(-1);
        if (last && last.negated === negated)
            last.patterns.push(pattern);
        else
            runs.push({ negated, patterns: [pattern] });
    }
    return runs.map((run) => asSet(run.patterns));
}
function canonicalValues(config) {
    const shard = config.shard && config.shard.count > 1 ? `${config.shard.index}/${config.shard.count}` : '';
    return {
        files: canonicalPatterns(config.files),
        urls: asSet(config.urls),
        // A page listed by two sitemaps is one page: the sitemaps are a set too.
        sitemaps: asSet(config.sitemaps),
        'url-include': asSet(config.urlInclude),
        'url-exclude': asSet(config.urlExclude),
        removed: config.removed,
        'skip-drafts': config.skipDrafts,
        'include-hidden-files': config.includeHiddenFiles,
        'max-file-size': config.maxFileSize,
        'follow-symlinks': config.followSymlinks,
        // `1/1` selects what no shard selects: everything.
        shard,
    };
}
/** 12 hex digits of SHA-256: enough to tell two values apart; the record keeps no value itself. */
const shortHash = (value) => (0,external_node_crypto_.createHash)('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 12);
/** Each selection setting (by input name) → a short hash of its canonical value. */
function settingsOf(config) {
    const values = canonicalValues(config);
    const settings = {};
    for (const name of SELECTION_SETTINGS)
        settings[name] = shortHash(values[name]);
    return settings;
}
/** The input names whose hash differs between two records' settings (absent on one side: changed), sorted. */
function changedSettings(before, after) {
    const names = new Set([...Object.keys(before), ...Object.keys(after)]);
    return [...names]
        .filter((name) => !Object.hasOwn(before, name) || !Object.hasOwn(after, name) || before[name] !== after[name])
        .sort();
}

;// CONCATENATED MODULE: ./src/jobs/recorded-state.ts












function recordTargetOf(config) {
    return {
        host: new URL(config.baseUrl).host,
        ...config.target,
        ...(config.shard ? { shard: { ...config.shard } } : {}),
    };
}
/** Reads the record; what it found is logged, and a record that cannot be used is a warning naming why. */
async function readRecord(keeping, config, log, notices, signal) {
    const read = await keeping.store.read(recordTargetOf(config), signal);
    // Decoding leaves its text, the parsed object and its copies behind (~30 MB at 100,000 documents):
    // collected before selection adds its own (bench/README.md).
    (0,chunk_release/* collectIfGrown */.xk)();
    if (read.kind === 'found') {
        log.info(`The knowledge base's record: ${read.from} (${describeWriter(read.record.writtenBy)}).`);
        return read;
    }
    const message = read.kind === 'missing'
        ? `No record of this knowledge base yet (${read.why}): the change set is inferred from git history this time; this run writes one, so the next one is exact.`
        : `The knowledge base's record is not used (${read.why}): the change set is inferred from git history this time; this run writes a new one.`;
    if (read.kind === 'missing')
        log.notice(message);
    else
        log.warning(message);
    notices.push(message);
    return read;
}
function describeWriter(writer) {
    const run = writer.runId
        ? `run ${writer.runNumber ? `#${writer.runNumber} ` : ''}(id ${writer.runId}${writer.runAttempt && writer.runAttempt > 1 ? `, attempt ${writer.runAttempt}` : ''})`
        : 'a run';
    const where = [
        writer.event,
        writer.pullRequest ? `pull request #${writer.pullRequest}` : undefined,
        writer.commit ? `commit ${writer.commit.slice(0, 12)}` : undefined,
    ].filter(Boolean);
    return `written by ${run}${where.length > 0 ? `, ${where.join(', ')}` : ''} at ${writer.at}`;
}
/** The files' content ids without the drafts among them. */
async function desiredOf(workspace, files, drafts, signal) {
    const ids = await contentIds(workspace, files, signal);
    for (const name of drafts?.keys() ?? [])
        ids.delete(name);
    return ids;
}
/**
 * The change set from the record: documents the node lacks are uploaded, those it holds with other
 * content updated, those it holds that are no longer selected (deleted, excluded, unpublished, another
 * pull request's) blanked. Drafts are judged for the documents that differ, and for every selected one
 * when a setting that shapes the selection changed (turning `skip-drafts` on must blank the drafts the node
 * holds). A draft the node holds as a placeholder already is left alone.
 */
async function recordedChanges(config, record, selection, workspace, signal) {
    const settingsChanged = changedSettings(record.settings, settingsOf(config));
    const held = record.documents;
    const ids = await contentIds(workspace, selection.files, signal, held);
    const differs = (file) => held[file.name] !== ids.get(file.name);
    let drafts;
    let scan;
    if (config.skipDrafts) {
        const judged = settingsChanged.length > 0 ? selection.files : recorded_state_withSectionPages(selection.files, differs, held, ids);
        scan = await (0,document_drafts/* findDrafts */.i7)(judged);
        drafts = scan.drafts;
    }
    // The ids themselves, not a copy (100,000 entries at scale): nothing reads them after this.
    const desired = ids;
    for (const name of drafts?.keys() ?? [])
        desired.delete(name);
    const found = (0,difference/* difference */.i)(desired, held);
    const added = found.upload;
    const modified = found.update;
    // The plan skips an added draft and blanks a modified one (it was published): a draft the node holds
    // with content is "modified", one it lacks or holds as a placeholder is "added" (skipped, not sent).
    for (const name of drafts?.keys() ?? []) {
        const was = held[name];
        if (was === undefined || was === state_record/* PLACEHOLDER */.Kx)
            added.push(name);
        else
            modified.push(name);
    }
    const blank = found.blank.filter((name) => !drafts?.has(name));
    return {
        changes: {
            kind: 'changes',
            source: 'state',
            added: added.sort(src_plan/* compareNames */.MP),
            modified: modified.sort(src_plan/* compareNames */.MP),
            removed: blank,
        },
        drafts,
        scan,
        desired,
        unchanged: found.unchanged,
        settingsChanged,
    };
}
/**
 * The files that differ from the record, and every page below a Hugo section whose `_index.md` differs
 * (added, changed or gone): its `cascade` may publish or unpublish them without changing them.
 */
function recorded_state_withSectionPages(files, differs, held, ids) {
    const differing = files.filter(differs);
    const gone = Object.keys(held).filter((name) => !ids.has(name) && held[name] !== state_record/* PLACEHOLDER */.Kx);
    const sections = changedSections({
        kind: 'changes',
        source: 'state',
        added: differing.map((file) => file.name),
        modified: [],
        removed: gone,
    });
    if (sections.length === 0)
        return differing;
    const below = (name) => sections.some((folder) => folder === '' || name.startsWith(`${folder}/`));
    return files.filter((file) => differs(file) || below(file.name));
}
function writerNow(keeping) {
    return { ...keeping.writer, at: new Date().toISOString() };
}
function recordOf(basis, phase, documents, urls) {
    return {
        version: state_record/* RECORD_VERSION */.hl,
        phase,
        target: basis.target,
        writtenBy: writerNow(basis.keeping),
        settings: basis.settings,
        documents,
        urls,
    };
}
/**
 * Before the first request: every name the run may write is recorded as unknown, so a run killed on the
 * way still leaves the next one every name it may have written.
 */
async function writePendingRecord(basis, plannedDocuments, log, signal) {
    basis.pending = markPending(basis.previous?.documents, basis.desired, plannedDocuments);
    const written = await basis.keeping.store.write(recordOf(basis, 'pending', basis.pending.held, basis.previous?.urls ?? {}), signal);
    if (written.ok) {
        basis.pendingWritten = true;
        log.info(`Recorded the names this run is about to send (${written.where}).`);
    }
    else
        log.warning(`The names this run is about to send could not be recorded (${written.why}); the sync goes on, and the final record is written at its end.`);
}
/** After the run (also when it failed or was cancelled): what the node holds now. */
async function writeFinalRecord(basis, report, log, signal) {
    const outcomes = report.items;
    const documents = basis.pending
        ? settlePending(basis.pending, basis.desired, outcomes)
        : nextHeld({ previous: basis.previous?.documents, desired: basis.desired, outcomes });
    const urls = nextUrls(basis.previous?.urls, outcomes, basis.lastmods, new Date());
    const record = recordOf(basis, 'final', documents, urls);
    report.record = { source: 'history', ...report.record, holds: holdsOf(record) };
    const written = await basis.keeping.store.write(record, signal);
    if (written.ok) {
        log.info(`Recorded what the knowledge base holds (${written.where}).`);
        return { ok: true, where: written.where };
    }
    const message = `What the knowledge base holds could not be recorded (${written.why}): the next run infers its change set from git history.`;
    log.warning(message);
    report.notices.push(message);
    return { ok: false, why: written.why };
}
/** The counts the summary's first line gives. */
function holdsOf(record) {
    let documents = 0;
    let blanked = 0;
    let unknown = 0;
    const held = record.documents;
    // Not Object.values: on an object of 100,000 names it made ~7 MB of heap at the run's highest point,
    // a for-in the list of its keys alone (bench/README.md).
    for (const name in held) {
        const content = held[name];
        if (content === state_record/* PLACEHOLDER */.Kx)
            blanked++;
        else if (content === state_record/* UNKNOWN */.HV)
            unknown++;
        documents++;
    }
    return { documents, blanked, unknown, pages: Object.keys(record.urls).length };
}
/**
 * The record, read where it can decide the change set (mode auto) or is written (not a dry run); a preview
 * neither reads nor writes it (it shows the pull request's own changes). What was read goes in the report.
 */
async function recordStage(config, context, report) {
    const keeping = config.preview ? undefined : context.record;
    if (!keeping || (config.mode !== 'auto' && config.dryRun))
        return undefined;
    const read = await context.log.group('Recorded state', () => readRecord(keeping, config, context.log, report.notices, context.signal));
    report.record =
        read.kind === 'found' ? { source: 'state', from: read.from } : { source: 'history', why: read.why };
    return read.kind === 'found' ? read.record : undefined;
}
/**
 * The change set from the knowledge base's record: every selected file of this shard is compared with
 * what the node holds (no git history needed). With `full-sync`, every selected file is sent and the
 * names the node holds that are not selected are blanked.
 */
async function changesFromRecord(config, context, record, report) {
    const { log } = context;
    const selection = await log.group('Selection', async () => {
        const found = (0,select_shard/* shardSelection */.PE)(await selection_stage_select(config, context, { kind: 'all', source: 'full-sync', reason: '' }), config.shard);
        log.info(`${found.files.length} file(s) selected, ${found.skipped.length} skipped.`);
        return found;
    });
    (0,chunk_release/* collectIfGrown */.xk)();
    return log.group('Change detection', async () => {
        const found = await recordedChanges(config, record, selection, context.workspace, context.signal);
        const { added, modified, removed } = found.changes;
        report.base = {
            source: 'state',
            sha: record.writtenBy.commit ?? '',
            recordedBy: describeWriter(record.writtenBy),
        };
        report.record = { ...report.record, unchanged: found.unchanged };
        if (found.settingsChanged.length > 0) {
            const message = `Settings that shape the selection changed since the record: ${found.settingsChanged.join(', ')}; every selected document was compared with what the node holds.`;
            log.notice(message);
            report.notices.push(message);
            report.record = { ...report.record, settingsChanged: found.settingsChanged };
        }
        log.info(`Change set: the knowledge base's record: ${added.length} to upload, ${modified.length} to update, ` +
            `${removed.length} held but no longer selected, ${found.unchanged} unchanged.`);
        const changes = config.fullSync
            ? {
                kind: 'all',
                source: 'full-sync',
                reason: 'full-sync: true',
                ...(removed.length > 0 ? { removed } : {}),
            }
            : found.changes;
        return { changes, selection, found };
    });
}
/** What the run needs to record the node: the record it read, and every selected, published document. */
async function basisOf(keeping, config, context, known) {
    const basis = {
        keeping,
        target: recordTargetOf(config),
        settings: settingsOf(config),
        previous: known.previous,
        lastmods: known.lastmods ?? new Map(),
    };
    if (known.desired)
        return { ...basis, desired: known.desired };
    if (known.changes.kind !== 'changes')
        // Every selected file (drafts found while sending leave the map when they are known).
        return {
            ...basis,
            desired: await desiredOf(context.workspace, known.selection.files, known.drafts, context.signal),
        };
    // A change set from history names only what changed: the first record needs every selected document.
    const all = (0,select_shard/* shardSelection */.PE)(await selectFiles(selectionOptions(config, context)), config.shard);
    const drafts = config.skipDrafts ? (await (0,document_drafts/* findDrafts */.i7)(all.files)).drafts : undefined;
    return { ...basis, desired: await desiredOf(context.workspace, all.files, drafts, context.signal) };
}

// EXTERNAL MODULE: ./src/config/shared-inputs.ts + 1 modules
var shared_inputs = __webpack_require__(15774);
// EXTERNAL MODULE: ./src/temp-folder.ts
var temp_folder = __webpack_require__(24658);
;// CONCATENATED MODULE: ./src/send/placeholder-files.ts
// Placeholders are sent like any document: written to a private temp folder first, so the sender's
// read guard, retries and resends work on them unchanged. The folder is removed after sending.



/** The placeholders could not be written: the cause of each removal, naming the folder to fix. */
class PlaceholderFilesError extends Error {
    constructor(folder, error) {
        super(`its placeholder could not be written (${(0,temp_folder/* reasonOf */.A3)(error)}): ${(0,temp_folder/* unusableFolder */.yB)(folder)}`);
        this.name = 'PlaceholderFilesError';
    }
}
/**
 * Writes each placeholder to its own file below `parent` (RUNNER_TEMP on a runner, else the OS's). Throws
 * a PlaceholderFilesError when the folder cannot hold them.
 */
async function writePlaceholderFiles(placeholders, parent = (0,temp_folder/* tempFolder */.vg)()) {
    if (placeholders.length === 0)
        return { files: [], remove: () => Promise.resolve() };
    let dir;
    try {
        dir = await (0,promises_.mkdtemp)(external_node_path_default().join(parent.path, 'kb-sync-placeholders-'));
    }
    catch (error) {
        throw new PlaceholderFilesError(parent, error);
    }
    const remove = () => (0,promises_.rm)(dir, { recursive: true, force: true });
    try {
        const files = [];
        // Numbered, not named: a document name may hold anything a path cannot.
        for (const [index, placeholder] of placeholders.entries()) {
            const file = external_node_path_default().join(dir, String(index));
            await (0,promises_.writeFile)(file, placeholder.content, { mode: 0o600 });
            const stats = await (0,promises_.stat)(file);
            files.push({ name: placeholder.name, path: file, size: stats.size });
        }
        return { files, remove };
    }
    catch (error) {
        await remove();
        throw new PlaceholderFilesError(parent, error);
    }
}

// EXTERNAL MODULE: ./src/service/retry.ts
var retry = __webpack_require__(75585);
;// CONCATENATED MODULE: ./src/send/error-message.ts
// The message of whatever a send caught, as the outcome and the log say it.
function errorMessage(error) {
    // Duck-typed: errors from another realm (vm contexts) are not `instanceof Error`.
    const message = typeof error === 'object' && error !== null ? error.message : undefined;
    return typeof message === 'string' ? message : String(error);
}

// EXTERNAL MODULE: ./src/units.ts
var units = __webpack_require__(61996);
;// CONCATENATED MODULE: ./src/send/unit.ts
// The items of a plan and the units they are sent in: one record per document or URL from the send to
// the report, and the batch of them one request carries.

/**
 * One document or URL of the plan, how far it got, and once it ended its outcome: the record the report
 * gets (one object per item from the send to the report, not one while sending and another after). The
 * file is private so that the outcome, spread or written as JSON, shows only what ItemOutcome holds.
 * `kind`, `name` and a document's `size` are read from what the item is about, through getters shared by
 * every item of a kind (own and enumerable, so a copy and JSON have them): 24 bytes less a document
 * (bench/README.md).
 */
class Item {
    /** The file of a document, the address of a URL. */
    #about;
    // One descriptor object per property, given to defineProperty one by one: V8 then finds the shape it
    // made for the first item (~0.4 µs an item for the three), where defineProperties takes a slow path (~1 µs).
    static #DOCUMENT = { get: () => 'document', enumerable: true };
    static #URL = { get: () => 'url', enumerable: true };
    static #NAME = {
        get() {
            const about = this.#about;
            return typeof about === 'string' ? about : about.name;
        },
        enumerable: true,
    };
    static #SIZE = {
        get() {
            return this.#about.size;
        },
        enumerable: true,
    };
    constructor(about, operation) {
        this.#about = about;
        const url = typeof about === 'string';
        Object.defineProperty(this, 'kind', url ? Item.#URL : Item.#DOCUMENT);
        Object.defineProperty(this, 'name', Item.#NAME);
        this.outcome = undefined;
        this.operation = operation;
        this.attempts = 0;
        if (!url)
            Object.defineProperty(this, 'size', Item.#SIZE);
    }
    /** Documents: the file as last seen on disk (re-read before every resend). */
    get file() {
        return typeof this.#about === 'string' ? undefined : this.#about;
    }
    set file(file) {
        this.#about = file;
    }
    /** Records how the item ended (a document's size is its file's as last seen). */
    end(outcome, operation, details = {}) {
        this.outcome = outcome;
        this.operation = operation;
        if (details.error !== undefined)
            this.error = details.error;
        if (details.absent)
            this.absent = true;
    }
}
/** The items, every one of which has ended, as the outcomes they are. */
function outcomesOf(items) {
    for (const item of items)
        if (item.outcome === undefined)
            throw new Error(`${item.name} has no outcome`);
    return items;
}
function documentsOf(items) {
    return items.map((item) => ({ name: item.name, path: item.file.path, size: item.file.size }));
}
function unitOf(batch) {
    const items = batch.kind === 'documents'
        ? batch.documents.map((file) => new Item(file, batch.operation))
        : batch.urls.map((url) => new Item(url, batch.operation));
    return {
        kind: batch.kind,
        items,
        operation: batch.operation,
        upsert: batch.fallback,
        stateUnknown: batch.stateUnknown ?? false,
        ...(batch.kind === 'documents' && batch.placeholders ? { placeholders: true } : {}),
    };
}
function kindWord(kind) {
    return kind === 'documents' ? 'document' : 'URL';
}
function describe(kind, items) {
    if (items.length === 1)
        return `${kindWord(kind)} ${(0,src_log/* displayName */.QC)(items[0].name)}`;
    return `batch of ${items.length} ${kindWord(kind)}s (${(0,src_log/* displayName */.QC)(items[0].name)}, …)`;
}

;// CONCATENATED MODULE: ./src/send/files.ts
// The files of a batch of documents: opened ahead while the batch waits for its request slot, one batch
// at a time; closed when the batch is not sent; looked at again before a resend.





class BatchFiles {
    client;
    ledger;
    log;
    options;
    /** Settles when the batch queued last has started opening: the next one starts after it (openAhead). */
    openTurn = Promise.resolve();
    constructor(client, ledger, log, options) {
        this.client = client;
        this.ledger = ledger;
        this.log = log;
        this.options = options;
    }
    /**
     * Starts opening the items' files, when the client can; a failure surfaces in the call. Batches are
     * opened one at a time, each in its own turn of the event loop: small files are read synchronously, and
     * batches opened back to back in one turn held every ready request off the wire until all were read
     * (at 2,000 documents, ~60 ms before the first request left).
     */
    openAhead(items) {
        const open = this.client.openDocuments?.bind(this.client);
        if (!open)
            return undefined;
        // The next batch waits for this one's synchronous part only: a slow asynchronous open (a large file
        // on a network disk) does not hold the batches behind it.
        let started;
        const previous = this.openTurn;
        this.openTurn = new Promise((resolve) => (started = resolve));
        const opening = previous
            .then(() => new Promise((resolve) => setImmediate(resolve)))
            .then(() => {
            try {
                return open(documentsOf(items));
            }
            finally {
                started();
            }
        });
        opening.catch(() => undefined);
        return opening;
    }
    /**
     * Before a resend, each file is looked at again: a changed one is sent whole as it is now (never a
     * stale size with new bytes); one that is gone, no longer a readable regular file, or now over
     * max-file-size fails alone.
     */
    async refresh(items, operation) {
        const kept = [];
        await Promise.all(items.map(async (item) => {
            const file = item.file;
            try {
                const stats = await (0,promises_.lstat)(file.path);
                if (!stats.isFile())
                    throw new Error('it is no longer a regular file');
                // Unreadable now (permissions changed): it fails alone, not its batch after every retry.
                await (0,promises_.access)(file.path, promises_.constants.R_OK);
                const limit = this.options.maxFileSize;
                if (limit !== undefined && stats.size > limit) {
                    this.ledger.fail([item], operation, `${(0,src_log/* displayName */.QC)(item.name)} grew to ${(0,units/* formatBytes */.z3)(stats.size)} since it was selected, over ` +
                        `max-file-size ${(0,units/* formatBytes */.z3)(limit)}; not sent.`);
                    return;
                }
                if (stats.size !== file.size) {
                    item.file = { name: file.name, path: file.path, size: stats.size };
                    this.log.info(`${(0,src_log/* displayName */.QC)(item.name)} changed since it was selected; sending its current content.`);
                }
                kept.push(item);
            }
            catch (error) {
                const code = typeof error === 'object' && error !== null ? error.code : undefined;
                const reason = typeof code === 'string' ? code : errorMessage(error);
                this.ledger.fail([item], operation, `${(0,src_log/* displayName */.QC)(item.name)} can no longer be read (${reason}).`);
            }
        }));
        // Keep the planned order (the await above finishes in any order).
        return items.filter((item) => kept.includes(item));
    }
}
/** Closes files opened ahead (idempotent: the request body closes them too once sent). */
function disposeOpened(opened) {
    opened?.then((files) => files.dispose(), () => undefined);
}

;// CONCATENATED MODULE: ./src/send/ledger.ts

class SendLedger {
    log;
    onProgress;
    batchesDone = 0;
    batchesTotal = 0;
    bytesLanded = 0;
    /** Items of the plan taken out before they were sent (SendOptions.withhold): no outcome of theirs. */
    withheld = new Set();
    constructor(log, onProgress) {
        this.log = log;
        this.onProgress = onProgress;
    }
    withhold(item, names) {
        if (!names.has(item.name))
            return false;
        this.withheld.add(item);
        return true;
    }
    /** The outcomes of the plan's items, but for those withheld. */
    outcomes(items) {
        return outcomesOf(this.withheld.size > 0 ? items.filter((item) => !this.withheld.has(item)) : items);
    }
    /** Records the items as landed: uploaded or updated, or for placeholders removed (`absent`: 404). */
    succeed(items, operation, placeholders, absent) {
        for (const item of items) {
            item.end(placeholders ? 'removed' : operation === 'upload' ? 'uploaded' : 'updated', operation, {
                absent,
            });
            if (!absent)
                this.bytesLanded += item.file?.size ?? 0;
        }
        this.reportProgress();
    }
    fail(items, operation, error) {
        const cleaned = this.log.clean(error);
        for (const item of items) {
            if (item.outcome)
                continue;
            item.end('failed', operation, { error: cleaned });
        }
        this.reportProgress();
    }
    reportProgress() {
        this.onProgress?.({ done: this.batchesDone, total: this.batchesTotal, bytes: this.bytesLanded });
    }
}

// EXTERNAL MODULE: ./src/service/errors.ts
var service_errors = __webpack_require__(5756);
;// CONCATENATED MODULE: ./src/send/next-step.ts


/** The step after `failure`, and the unit's state for it. `message` is the failure's text. */
function nextStep(failure, message, state, context) {
    const error = failure instanceof service_errors/* ServiceError */._7 ? failure : undefined;
    const status = error?.status;
    if (context.hardStopped) {
        const by = context.cutOffBy ? ` (cut off by ${context.cutOffBy})` : '';
        return {
            next: { step: 'fail', error: `cancelled while the request was in flight${by}: ${message}` },
            state,
        };
    }
    const refusal = error && (0,service_errors/* runRefusal */.kW)(error, context.names, context.policy);
    if (refusal)
        return { next: { step: 'refused', cause: refusal }, state };
    if (state.placeholders && status === 404 && state.operation === 'update') {
        // A batch answered 404 may hold documents that are there: it is searched in parts (bisection.ts), as
        // any batch that some of its documents make fail, and a placeholder answered 404 alone is absent.
        if (state.items === 1)
            return { next: { step: 'absent' }, state };
        const why = 'PATCH answered 404: some of the removed documents are not in the knowledge base';
        return { next: { step: 'bisect', operation: 'update', why, oddNeedsOther: false }, state };
    }
    const wrongOperation = state.upsert &&
        ((status === 404 && state.operation === 'update') || (status === 409 && state.operation === 'upload'));
    // A batch answered "wrong operation" is wholly the other way (an empty node, the half of a node an
    // interrupted sync never reached) or mixed: it is tried whole the other way once, and searched only
    // when that is refused too. Searching a batch that is wholly the other way would cost about two
    // requests per document. A part of a search is searched again: the search knows its operation fits most.
    if (wrongOperation && (state.items === 1 ? state.switches < 2 : state.switches === 0 && !state.searching)) {
        return {
            next: { step: 'switch', from: state.operation, status: status },
            state: { ...state, switches: state.switches + 1, operation: otherOf(state.operation) },
        };
    }
    const fileChanged = error?.code === 'FILE_CHANGED';
    if (fileChanged && state.items > 1) {
        // A second change means one of them keeps changing, and only that one may fail.
        const fileChanges = state.fileChanges + 1;
        const next = fileChanges >= 2 ? { step: 'each-alone', operation: state.operation, why: message } : { step: 'resend' };
        return { next, state: { ...state, fileChanges } };
    }
    if (error && (error.retryable || fileChanged)) {
        const usesRetries = fileChanged || (0,retry/* retryRuleOf */.mF)(error)?.send === 'attempts';
        const failedAttempts = state.failedAttempts + (usesRetries ? 1 : 0);
        const tries = state.tries + 1;
        const counted = { ...state, failedAttempts, tries };
        if (failedAttempts >= context.policy.attempts)
            return { next: { step: 'fail', error: message }, state: counted };
        const decision = (0,retry/* decideRetry */.tE)({ retryable: true, status, retryAfter: error.retryAfter }, tries, state.firstAttemptAt, { ...context.policy, attempts: Number.POSITIVE_INFINITY }, { now: () => context.now }, context.random);
        if (!decision.retry)
            return { next: { step: 'fail', error: `${message}${gaveUpNote(error, context)}` }, state: counted };
        // The whole body went out and no answer came: the upload may have been applied. Updating is safe
        // either way (404 then means it was not, and the upload is sent again).
        const ambiguousUpload = state.operation === 'upload' && error.bodySent && status === undefined;
        return {
            next: { step: 'retry', delayMs: fileChanged ? 0 : decision.delayMs },
            state: ambiguousUpload ? { ...counted, operation: 'update', upsert: true, switches: 0 } : counted,
        };
    }
    if (state.items > 1) {
        if (!wrongOperation)
            return {
                next: { step: 'bisect', operation: state.operation, why: message, oddNeedsOther: false },
                state,
            };
        // After both operations were refused (a mixed unit) the search sends what the node's answers say most
        // documents need, else what the plan chose.
        const operation = state.switches === 0 ? state.operation : (context.evidence ?? state.planned);
        const why = state.switches === 0
            ? `${METHOD[state.operation]} answered ${status} (some of them ${state.operation === 'update' ? 'are not there yet' : 'are there already'})`
            : `both ${METHOD[otherOf(state.operation)]} and ${METHOD[state.operation]} were refused (some exist, some do not)`;
        return { next: { step: 'bisect', operation, why, oddNeedsOther: true }, state };
    }
    return { next: { step: 'fail', error: message }, state };
}
const METHOD = { upload: 'POST', update: 'PATCH' };
function otherOf(operation) {
    return operation === 'upload' ? 'update' : 'upload';
}
/** Why a retryable failure is not retried although attempts are left: the deadline. */
function gaveUpNote(error, context) {
    const hinted = (0,retry/* honoursRetryAfter */.D7)(error.status) ? (0,retry/* parseRetryAfter */.mu)(error.retryAfter, context.now) : undefined;
    const seconds = Math.round(context.policy.deadlineMs / 1000);
    return hinted === undefined
        ? ` (gave up: the next attempt would start past retry-deadline, ${seconds} s)`
        : ` (gave up: the service asked to wait ${formatMs(hinted)}, past what is left of retry-deadline, ${seconds} s)`;
}
function formatMs(ms) {
    return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

;// CONCATENATED MODULE: ./src/send/node-evidence.ts
class NodeEvidence {
    /**
     * The operation the latest upsert request that landed more than the one odd document of a search used:
     * what the node's documents of this run need now (an interrupted sync leaves a node half filled, so
     * the latest answer says more than a count over the run).
     */
    latestFit;
    /**
     * Until the node's answers say something, only the first unknown-state unit (the pioneer) is sent: the
     * others would all be sent as the plan's guess, and on a first sync to an empty node each would pay a
     * PATCH answered 404 before its POST. Opens on the first evidence, when the pioneer ends, or on a stop.
     */
    pioneer = 'none';
    openGate;
    gate = new Promise((resolve) => (this.openGate = resolve));
    constructor(stop) {
        stop.addEventListener('abort', () => this.openGate(), { once: true });
    }
    /** What the node's latest answers say documents need (undefined before any landed). */
    get latest() {
        return this.latestFit;
    }
    /**
     * Before the first request of a unit of unknown state: undefined when it may go now (as the pioneer when
     * it is the first, `role.pioneer` then set), else the gate it waits at.
     */
    turn(role) {
        if (this.pioneer === 'done' || this.latestFit)
            return undefined;
        if (this.pioneer === 'none') {
            this.pioneer = 'sent';
            role.pioneer = true;
            return undefined;
        }
        return this.gate;
    }
    /** An upsert request landed as `operation`: what the node's documents need now. */
    landed(operation) {
        this.latestFit = operation;
        this.openGate();
    }
    /** The pioneer ended: the units behind it go, as the node's answers (or the plan) say. */
    pioneerEnded() {
        this.pioneer = 'done';
        this.openGate();
    }
}

;// CONCATENATED MODULE: ./src/send/request.ts


class UnitRequests {
    client;
    target;
    scheduler;
    watch;
    ledger;
    stops;
    /** Requests sent (SendResult.requests). */
    count = 0;
    constructor(client, target, scheduler, watch, ledger, stops) {
        this.client = client;
        this.target = target;
        this.scheduler = scheduler;
        this.watch = watch;
        this.ledger = ledger;
        this.stops = stops;
    }
    /** One request. Undefined on success (outcomes recorded), else what it failed with. */
    async attempt(kind, items, operation, opened, placeholders, retry = false) {
        // A retry of an item is a request that sends it again after one that carried it failed; a try that
        // stopped at opening its files carried nothing.
        const retried = retry ? items.filter((item) => item.attempts > 0) : [];
        for (const item of retried)
            item.retries = (item.retries ?? 0) + 1;
        for (const item of items)
            item.attempts++;
        this.count++;
        let failure;
        try {
            await this.call(kind, items, operation, opened);
        }
        catch (error) {
            failure = error ?? new Error('unknown failure');
        }
        finally {
            disposeOpened(opened);
        }
        if (opened &&
            (await opened.then(() => false, () => true))) {
            // A file could not be opened as selected: no request left, so none is counted.
            for (const item of items)
                item.attempts--;
            for (const item of retried)
                item.retries -= 1;
            this.count--;
        }
        // What the answer says about the service is recorded before the slot is given back, so the next
        // request already sees the pause, the lowered limit or the open breaker.
        if (failure === undefined)
            this.scheduler.succeeded();
        this.watch.observe(failure);
        this.scheduler.release();
        if (failure === undefined)
            this.ledger.succeed(items, operation, placeholders === true, false);
        else
            this.ledger.reportProgress();
        return failure;
    }
    call(kind, items, operation, opened) {
        const options = { signal: this.stops.hardStop.signal, opened };
        if (kind === 'urls') {
            const urls = items.map((item) => item.name);
            return operation === 'upload'
                ? this.client.uploadUrls(this.target, urls, options)
                : this.client.updateUrls(this.target, urls, options);
        }
        const documents = documentsOf(items);
        return operation === 'upload'
            ? this.client.uploadDocuments(this.target, documents, options)
            : this.client.updateDocuments(this.target, documents, options);
    }
}

;// CONCATENATED MODULE: ./src/send/scheduler.ts
class RequestScheduler {
    max;
    clock;
    stop;
    active = 0;
    currentLimit;
    pausedUntil = 0;
    probingOnly = false;
    timerPending = false;
    waiters = [];
    /**
     * @param max the configured concurrency, never exceeded
     * @param stop once aborted, nothing more starts and every waiter is told so
     */
    constructor(max, clock, stop) {
        this.max = max;
        this.clock = clock;
        this.stop = stop;
        if (!Number.isInteger(max) || max < 1)
            throw new RangeError(`concurrency must be a positive integer, got ${max}`);
        this.currentLimit = max;
        stop.addEventListener('abort', () => this.drain(), { once: true });
    }
    /** Requests in flight now allowed (halved on 429, back up by one per success). */
    get limit() {
        return this.currentLimit;
    }
    /**
     * Waits for a turn to start a request: true when it may start (call `release` after it), false when
     * sending stopped. `priority` puts a request already in progress (a retry) ahead of new ones, so its
     * deadline is not spent queueing behind the rest of the plan.
     */
    acquire(priority = false) {
        return new Promise((grant) => {
            const waiter = { priority, grant };
            if (priority) {
                const firstNew = this.waiters.findIndex((w) => !w.priority);
                this.waiters.splice(firstNew === -1 ? this.waiters.length : firstNew, 0, waiter);
            }
            else {
                this.waiters.push(waiter);
            }
            this.drain();
        });
    }
    release() {
        this.active--;
        this.drain();
    }
    /** The service asked to wait `ms` (Retry-After): no request starts before then. */
    pause(ms) {
        this.pausedUntil = Math.max(this.pausedUntil, this.clock.now() + ms);
    }
    /**
     * While the service looks down, one request at a time probes it (retries first); the others wait
     * instead of spending their attempts on a service that is not there.
     */
    set probing(on) {
        if (this.probingOnly === on)
            return;
        this.probingOnly = on;
        if (!on)
            this.drain();
    }
    rateLimited() {
        this.currentLimit = Math.max(1, Math.floor(this.currentLimit / 2));
    }
    succeeded() {
        if (this.currentLimit >= this.max)
            return;
        this.currentLimit++;
        this.drain();
    }
    drain() {
        if (this.stop.aborted) {
            for (const waiter of this.waiters.splice(0))
                waiter.grant(false);
            return;
        }
        const wait = this.pausedUntil - this.clock.now();
        if (wait > 0) {
            if (!this.timerPending) {
                this.timerPending = true;
                void this.clock.sleep(wait, this.stop).then(() => {
                    this.timerPending = false;
                    this.drain();
                });
            }
            return;
        }
        const limit = this.probingOnly ? 1 : this.currentLimit;
        while (this.active < limit && this.waiters.length > 0) {
            this.active++;
            this.waiters.shift().grant(true);
        }
    }
}

// EXTERNAL MODULE: ./src/service/client.ts + 3 modules
var service_client = __webpack_require__(2581);
// EXTERNAL MODULE: ./src/setting-names.ts
var setting_names = __webpack_require__(81018);
;// CONCATENATED MODULE: ./src/send/breaker.ts
class CircuitBreaker {
    windowMs;
    clock;
    /** When the current run of failed attempts began; undefined while the service answers. */
    downSince;
    last;
    tripped = false;
    constructor(windowMs, clock) {
        this.windowMs = windowMs;
        this.clock = clock;
    }
    get open() {
        return this.tripped;
    }
    /** Some attempt failed without a trustworthy answer and none has been answered since. */
    get down() {
        return this.downSince !== undefined;
    }
    /** When the breaker opens if no attempt is answered before (undefined while the service answers). */
    get opensAt() {
        return this.downSince === undefined ? undefined : this.downSince + this.windowMs;
    }
    /** The message of the failure that opened the breaker (or the latest one). */
    get lastError() {
        return this.last;
    }
    /** An attempt failed without an answer worth trusting (5xx, 429, connection error, timeout). */
    failed(message) {
        // Once open, the cause stays the one that opened it: every unsent item is reported with one text.
        if (this.tripped)
            return;
        this.last = message;
        const now = this.clock.now();
        this.downSince ??= now;
        if (now - this.downSince >= this.windowMs)
            this.tripped = true;
    }
    /** The service answered (2xx, or a 4xx about the request itself): it is up. Open stays open. */
    answered() {
        if (!this.tripped)
            this.downSince = undefined;
    }
}

;// CONCATENATED MODULE: ./src/send/service-watch.ts







class ServiceWatch {
    scheduler;
    stops;
    clock;
    log;
    options;
    breaker;
    /** Set by the first 401/403, or 404 to a document upload: the one cause of every item that did not land. */
    refusedBy;
    /** The first refused connection was explained (refusedConnectionNotice): once a run. */
    refusalExplained = false;
    constructor(scheduler, stops, clock, log, options) {
        this.scheduler = scheduler;
        this.stops = stops;
        this.clock = clock;
        this.log = log;
        this.options = options;
        this.breaker = new CircuitBreaker(options.breakerWindowMs ?? options.retry.deadlineMs, this.clock);
    }
    get refused() {
        return this.refusedBy;
    }
    /** Feeds the outcome of one request to the breaker and the scheduler. */
    observe(failure) {
        if (failure === undefined)
            return this.serviceAnswered();
        if (!(failure instanceof service_client/* ServiceError */._7) || this.stops.hardStop.signal.aborted)
            return;
        const refusal = (0,service_errors/* runRefusal */.kW)(failure, this.options.names, this.options.retry);
        if (refusal) {
            // About the key or the ids, not a document: every other request would be refused too.
            this.refusedBy ??= refusal;
            this.stops.stop.abort();
            return;
        }
        if (failure.retryable) {
            this.breaker.failed(errorMessage(failure));
            this.scheduler.probing = true;
            if (this.breaker.open)
                this.stops.stop.abort();
            else if (failure.code === 'ECONNREFUSED')
                this.explainRefusal(failure);
        }
        else if (failure.status !== undefined) {
            this.serviceAnswered();
        }
        const rule = (0,retry/* retryRuleOf */.mF)(failure);
        if (rule?.halvesConcurrency)
            this.scheduler.rateLimited();
        if (rule?.retryAfter) {
            const hintMs = (0,retry/* parseRetryAfter */.mu)(failure.retryAfter, this.clock.now());
            if (hintMs !== undefined)
                this.scheduler.pause(Math.min(hintMs, this.options.retry.maxRetryAfterMs));
        }
    }
    /** At the first refused connection, what is retried and until when: a wrong base URL is not a silent wait. */
    explainRefusal(failure) {
        if (this.refusalExplained)
            return;
        this.refusalExplained = true;
        this.log.warning((0,service_errors/* refusedConnectionNotice */.Lc)(failure, this.options.names ?? setting_names/* ACTION_INPUT_NAMES */.f, {
            what: 'Every request is retried, and the run stops if none connects,',
            until: this.breaker.opensAt ?? this.clock.now() + this.breaker.windowMs,
            bound: 'retry-deadline',
            boundMs: this.breaker.windowMs,
        }));
    }
    serviceAnswered() {
        this.breaker.answered();
        this.scheduler.probing = false;
    }
    stoppedReason(lastError) {
        if (this.options.signal?.aborted) {
            return lastError === undefined
                ? 'cancelled before it was sent'
                : `cancelled before it could be retried; last error: ${lastError}`;
        }
        if (this.refusedBy)
            return this.refusedBy;
        const breakerNote = `stopped: every attempt failed for ${formatMs(this.breaker.windowMs)}`;
        return lastError === undefined
            ? `not sent (${breakerNote}); last error: ${this.breaker.lastError ?? 'unknown'}`
            : `${lastError} (${breakerNote})`;
    }
}

;// CONCATENATED MODULE: ./src/send/bisection.ts
// How a batch that failed because of some of its items is searched: probe a part, and let its answer say
// where the odd items are. Pure, so the request counts are unit-tested without a server.
//
// A failed unit is known to hold at least one odd item (a document the service has not got, or has, or
// refuses). Its probe part is sent first; when the probe lands, the odd item is in the rest, which is
// searched the same way without being sent whole (a rest of one is the odd item itself). When the probe
// fails, it is searched in turn and the rest is sent as an ordinary unit. A probe that fails costs one
// request more than one that lands, so the probe is the smaller part, sized so that the worst case over
// every position of one odd item is as small as it can be.
/** worstCost[n]: requests to land a failed unit of n items with one odd item, its odd item last. */
const worstCost = [0, 1];
const bestProbe = [0, 0];
function fill(size) {
    for (let n = worstCost.length; n <= size; n++) {
        let best = Number.POSITIVE_INFINITY;
        let probe = 1;
        for (let part = 1; part <= n / 2; part++) {
            // The probe fails (its search, then the rest sent whole) or lands (the rest is searched).
            const cost = 1 + Math.max(worstCost[part] + 1, worstCost[n - part]);
            if (cost < best) {
                best = cost;
                probe = part;
            }
        }
        worstCost[n] = best;
        bestProbe[n] = probe;
    }
}
/** How many of a failed unit's `size` items (at least 2) are sent first as the probe. */
function probeSize(size) {
    if (size < 2)
        throw new RangeError(`a unit of ${size} cannot be split`);
    fill(size);
    return bestProbe[size];
}
/**
 * Requests, at most, to land every item of a failed unit of `size` items of which one is odd (after the
 * failed request): probes, the rest sent whole, and the odd item sent alone with the operation it needs.
 */
function searchCost(size) {
    fill(size);
    return worstCost[size];
}
/**
 * What is done with the rest of a unit under search once its probe answered: sent whole when the probe
 * failed too (the rest may be fine), searched when the probe landed (the odd item is in the rest), and
 * a rest of one after a landed probe is the odd item: sent as the other operation when what made the
 * unit fail was the operation (else alone, for its own answer).
 */
function afterProbe(probeLanded, restSize, oddNeedsOther) {
    if (!probeLanded)
        return 'whole';
    if (restSize > 1)
        return 'search';
    return oddNeedsOther ? 'other-operation' : 'whole';
}

;// CONCATENATED MODULE: ./src/send/split.ts



class UnitSplit {
    runUnit;
    log;
    /** @param runUnit sends one part until every item of it has an outcome */
    constructor(runUnit, log) {
        this.runUnit = runUnit;
        this.log = log;
    }
    /**
     * Lands `items`, which failed together as `operation` because of at least one odd item: a probe part
     * first, and its answer says where to look (bisection.ts).
     */
    async search(kind, items, operation, upsert, oddNeedsOther, placeholders) {
        const probe = items.slice(0, probeSize(items.length));
        const rest = items.slice(probe.length);
        const part = { kind, operation, upsert, searching: true, placeholders };
        let tellLanded;
        const landed = new Promise((resolve) => (tellLanded = resolve));
        const probing = this.runUnit({ ...part, items: probe, onFirstAnswer: tellLanded });
        const resting = landed.then((probeLanded) => {
            switch (afterProbe(probeLanded, rest.length, oddNeedsOther)) {
                case 'whole':
                    return this.runUnit({ ...part, items: rest });
                case 'search':
                    return this.search(kind, rest, operation, upsert, oddNeedsOther, placeholders);
                case 'other-operation':
                    return this.runUnit({ ...part, items: rest, operation: otherOf(operation), switches: 1 });
            }
        });
        await Promise.all([probing, resting]);
    }
    async sendEachAlone(kind, items, operation, upsert, why, placeholders) {
        this.log.info(`${describe(kind, items)}: ${why}; sending each ${kindWord(kind)} alone.`);
        await Promise.all(items.map((item) => this.runUnit({ kind, items: [item], operation, upsert, placeholders, resend: true })));
    }
}

// EXTERNAL MODULE: external "node:events"
var external_node_events_ = __webpack_require__(78474);
;// CONCATENATED MODULE: ./src/send/stops.ts
// The two stops of a send: the first (cancellation, the breaker opening, a refusal) starts nothing new and
// wakes the sleepers; the second (`graceMs` after cancellation, or a second signal) cuts off the requests
// still in flight.


const DEFAULT_GRACE_MS = 3000;
class SendStops {
    /** Aborted on cancellation or when the breaker opens: nothing new starts, sleepers wake. */
    stop = new AbortController();
    /** Aborted `graceMs` after cancellation, or by a second signal: the requests still in flight are cut off. */
    hardStop = new AbortController();
    /** The second signal that ended the grace early, when one did. */
    cutOffBy;
    constructor() {
        // Every sleeping retry and every request in flight listens to these: as many as the plan has
        // batches, by design, so Node's leak warning (at 11 listeners) would be noise in a user's log.
        (0,external_node_events_.setMaxListeners)(0, this.stop.signal, this.hardStop.signal);
    }
    /**
     * Follows the runner's cancellation (`signal`) and second signal (`cutOff`, cancellation.ts `runCutOff`)
     * until the function returned is called, which stops the send.
     */
    follow(signal, cutOff, graceMs) {
        let graceTimer;
        const onCancel = () => {
            this.stop.abort();
            graceTimer = setTimeout(() => this.hardStop.abort(), graceMs ?? DEFAULT_GRACE_MS);
        };
        if (signal?.aborted)
            onCancel();
        else
            signal?.addEventListener('abort', onCancel, { once: true });
        const onCutOff = () => {
            if (this.hardStop.signal.aborted)
                return;
            this.cutOffBy = (0,cancellation/* cancellationOf */.zg)(cutOff)?.signalName ?? 'a second signal';
            this.stop.abort();
            this.hardStop.abort();
        };
        if (cutOff?.aborted)
            onCutOff();
        else
            cutOff?.addEventListener('abort', onCutOff, { once: true });
        return () => {
            signal?.removeEventListener('abort', onCancel);
            cutOff?.removeEventListener('abort', onCutOff);
            clearTimeout(graceTimer);
            // Ends a pause the service asked for that outlasts the run: its timer must not hold the process.
            this.stop.abort();
        };
    }
}

;// CONCATENATED MODULE: ./src/send/turns.ts
/**
 * Runs every batch, each started when the one before it got its turn to open its files (or ended):
 * batches still wait their turn in plan order, behind retries, as if all had started at once, but only
 * the batches that have a turn or are next hold an async call chain, not every batch of the plan
 * (~1 KB each: ~4 MB at 100,000 documents, bench/README.md).
 */
function runInTurn(units, runBatch) {
    return new Promise((resolve, reject) => {
        let next = 0;
        let running = 0;
        const startNext = () => {
            if (next === units.length) {
                if (running === 0)
                    resolve();
                return;
            }
            const index = next++;
            const unit = units[index];
            running++;
            let admitted = false;
            unit.onAdmitted = () => {
                if (admitted)
                    return;
                admitted = true;
                startNext();
            };
            runBatch(unit, index).then(() => {
                running--;
                unit.onAdmitted?.();
                delete unit.onAdmitted;
                if (next === units.length && running === 0)
                    resolve();
            }, reject);
        };
        startNext();
    });
}

;// CONCATENATED MODULE: ./src/send/send-plan.ts














async function sendPlan(plan, client, target, options) {
    (0,chunk_release/* collectIfGrown */.xk)();
    // No collection at the end: the report now makes only what it shows, and one forced there cost ~250 ms
    // at 100,000 documents for under 1 MiB of peak (bench/README.md).
    return new PlanSender(client, target, options).run(plan.batches);
}
class PlanSender {
    client;
    target;
    options;
    clock;
    log;
    stops = new SendStops();
    scheduler;
    /** Batches whose files are opened while they wait for a request slot (bounds the open files). */
    readAhead;
    watch;
    files;
    requests;
    split;
    node;
    ledger;
    constructor(client, target, options) {
        this.client = client;
        this.target = target;
        this.options = options;
        this.clock = options.clock ?? retry/* systemClock */.ml;
        this.log = options.log;
        this.ledger = new SendLedger(options.log, options.onProgress);
        this.scheduler = new RequestScheduler(options.concurrency, this.clock, this.stops.stop.signal);
        this.readAhead = new RequestScheduler(options.concurrency, this.clock, this.stops.stop.signal);
        this.watch = new ServiceWatch(this.scheduler, this.stops, this.clock, this.log, options);
        this.files = new BatchFiles(client, this.ledger, this.log, options);
        this.requests = new UnitRequests(client, target, this.scheduler, this.watch, this.ledger, this.stops);
        this.split = new UnitSplit((unit) => this.runUnit(unit), this.log);
        this.node = new NodeEvidence(this.stops.stop.signal);
    }
    async run(batches) {
        const units = batches.map((batch) => unitOf(batch));
        // Made at its size (flatMap grows a list of 100,000 through copies of ~2 MB).
        const items = new Array(units.reduce((count, unit) => count + unit.items.length, 0));
        let at = 0;
        for (const unit of units)
            for (const item of unit.items)
                items[at++] = item;
        this.ledger.batchesTotal = units.length;
        const { signal } = this.options;
        const unfollow = this.stops.follow(signal, this.options.cutOff, this.options.graceMs);
        try {
            await runInTurn(units, (unit, index) => this.runBatch(unit, index));
        }
        finally {
            unfollow();
        }
        return {
            items: this.ledger.outcomes(items),
            requests: this.requests.count,
            cancelled: signal?.aborted ?? false,
        };
    }
    async runBatch(unit, index) {
        try {
            if (this.options.withhold && unit.kind === 'documents') {
                const names = await this.options.withhold(index);
                if (names.size > 0)
                    unit.items = unit.items.filter((item) => !this.ledger.withhold(item, names));
                if (unit.items.length === 0) {
                    this.ledger.batchesTotal--;
                    return this.ledger.reportProgress();
                }
            }
            await this.runUnit(unit);
        }
        catch (error) {
            // A bug must not lose items: whatever has no outcome yet fails with the error.
            this.ledger.fail(unit.items.filter((item) => !item.outcome), unit.operation, errorMessage(error));
        }
        this.ledger.batchesDone++;
        this.ledger.reportProgress();
    }
    /** Sends one unit until every item has an outcome: carries out what `nextStep` decides after a failure. */
    async runUnit(start) {
        const role = { pioneer: false };
        let answered = false;
        const answer = (landed) => {
            if (answered)
                return;
            answered = true;
            start.onFirstAnswer?.(landed);
        };
        try {
            await this.sendUnit(start, answer, role);
        }
        finally {
            answer(false);
            if (role.pioneer)
                this.node.pioneerEnded();
        }
    }
    async sendUnit(start, answer, role) {
        const { kind } = start;
        let items = start.items;
        let state;
        /** The next attempt is a retry after a failure (not an upsert switch, which is no retry). */
        let retrying = start.resend === true;
        let lastError;
        const operation = () => state?.operation ?? start.operation;
        for (;;) {
            if (state !== undefined && kind === 'documents')
                items = await this.files.refresh(items, operation());
            if (items.length === 0)
                return;
            if (state === undefined && start.stateUnknown) {
                const gate = this.node.turn(role);
                if (gate)
                    await gate;
            }
            const priority = state !== undefined;
            const admitted = await this.readAhead.acquire(priority);
            start.onAdmitted?.();
            if (!admitted)
                return this.ledger.fail(items, operation(), this.watch.stoppedReason(lastError));
            // The files are opened while the request waits for its slot, not after it got one.
            const opened = kind === 'documents' ? this.files.openAhead(items) : undefined;
            let turn;
            try {
                turn = await this.scheduler.acquire(priority);
            }
            finally {
                this.readAhead.release();
            }
            if (!turn) {
                disposeOpened(opened);
                return this.ledger.fail(items, operation(), this.watch.stoppedReason(lastError));
            }
            if (retrying &&
                state !== undefined &&
                this.clock.now() >= state.firstAttemptAt + this.options.retry.deadlineMs) {
                // Held back (a pause the service asked for, probing) until the deadline passed: not sent again.
                this.scheduler.release();
                disposeOpened(opened);
                return this.ledger.fail(items, operation(), `${lastError ?? 'not sent'} (gave up: retry-deadline passed while waiting to retry)`);
            }
            if (state === undefined) {
                // Chosen as the request leaves: what earlier answers said about the node is as fresh as it can be.
                const first = start.stateUnknown ? (this.node.latest ?? start.operation) : start.operation;
                state = {
                    items: items.length,
                    planned: first,
                    operation: first,
                    upsert: start.upsert,
                    placeholders: start.placeholders,
                    switches: start.switches ?? 0,
                    searching: start.searching ?? false,
                    failedAttempts: 0,
                    tries: 0,
                    fileChanges: 0,
                    firstAttemptAt: this.clock.now(),
                };
            }
            const retry = retrying;
            retrying = false;
            const failure = await this.requests.attempt(kind, items, state.operation, opened, start.placeholders, retry);
            if (failure === undefined) {
                if (state.upsert && (items.length > 1 || !state.searching)) {
                    this.node.landed(state.operation);
                }
                return answer(state.operation === state.planned);
            }
            lastError = errorMessage(failure);
            const decided = nextStep(failure, lastError, { ...state, items: items.length }, {
                policy: this.options.retry,
                now: this.clock.now(),
                random: this.options.random,
                hardStopped: this.stops.hardStop.signal.aborted,
                cutOffBy: this.stops.cutOffBy,
                names: this.options.names,
                evidence: this.node.latest,
            });
            state = decided.state;
            const next = decided.next;
            if (next.step !== 'retry' && next.step !== 'resend')
                answer(false);
            switch (next.step) {
                case 'fail':
                    return this.ledger.fail(items, state.operation, next.error);
                case 'refused':
                    return this.ledger.fail(items, state.operation, this.watch.refused ?? next.cause);
                case 'each-alone':
                    return this.split.sendEachAlone(kind, items, next.operation, state.upsert, next.why, start.placeholders);
                case 'absent':
                    this.log.info(`${describe(kind, items)}: not in the knowledge base (PATCH answered 404); nothing to remove.`);
                    return this.ledger.succeed(items, state.operation, true, true);
                case 'bisect':
                    // A wrong-operation answer is no try of the document (see 'switch'); a refusal is.
                    if (next.oddNeedsOther)
                        for (const item of items)
                            item.attempts--;
                    if (!state.searching)
                        this.log.info(`${describe(kind, items)}: ${next.why}; sending it in parts as ${next.operation} to find which.`);
                    return this.split.search(kind, items, next.operation, state.upsert, next.oddNeedsOther, start.placeholders);
                case 'switch':
                    // `attempts` counts tries of one operation.
                    for (const item of items)
                        item.attempts--;
                    this.log.info(`${describe(kind, items)}: ${METHOD[next.from]} answered ${next.status}; sending again as ${state.operation} (${METHOD[state.operation]}).`);
                    continue;
                case 'resend':
                    this.log.info(`${describe(kind, items)}: ${lastError}; sending it again as the files are now.`);
                    retrying = true;
                    continue;
                case 'retry':
                    this.log.info(`${describe(kind, items)}: attempt ${state.tries} failed (${lastError}); retrying as ${state.operation} in ${formatMs(next.delayMs)}.`);
                    await this.clock.sleep(next.delayMs, this.stops.stop.signal);
                    retrying = true;
                    continue;
            }
        }
    }
}

;// CONCATENATED MODULE: ./src/jobs/send-stage.ts









/** Sends the plan; every outcome lands in the report, a failure of the send itself is thrown. */
async function sendStage(config, context, report, planned, selection, basis) {
    const { log } = context;
    const notices = report.notices;
    const { unsent } = planned;
    let plan = planned.plan;
    const client = new service_client/* ServiceClient */.Nl({
        baseUrl: config.baseUrl,
        privateKey: config.privateKey,
        publicKey: config.flowRun?.publicKey,
        connections: config.concurrency,
    });
    let placeholders;
    try {
        // Nothing to send (the record says the node is in step): no pending record, only the final one.
        if (basis && (plan.batches.length > 0 || plan.placeholders.length > 0))
            await log.group('Record', () => writePendingRecord(basis, plannedDocumentNames(plan), log, context.cutOff));
        placeholders = await placeholdersOrFailed(plan.placeholders, unsent);
        const placeholderRequests = (0,src_plan/* placeholderBatches */.wE)(placeholders.files, config.batchSize);
        const batches = [...plan.batches, ...placeholderRequests];
        const scanner = planned.draftsWhileSending
            ? new document_drafts/* DraftScanner */.gW(plan.batches.map((batch) => (batch.kind === 'documents' ? batch.documents : [])))
            : undefined;
        // The send's lines follow the plan in the log, even when its first requests leave before the plan is
        // complete.
        const held = log.held();
        let progress;
        // Progress, as the log's lines, follows the plan (the CLI draws its own from it).
        const shown = (0,index_outputs/* heldProgress */.LL)((p) => {
            progress?.update(p);
            context.onProgress?.(p);
        });
        const sending = batches.length === 0
            ? undefined
            : sendPlan({ ...plan, batches }, client, config.target, {
                concurrency: config.concurrency,
                maxFileSize: config.maxFileSize,
                names: config.names,
                retry: (0,shared_inputs/* retryPolicyOf */.aB)(config),
                log: held.log,
                signal: context.signal,
                cutOff: context.cutOff,
                withhold: scanner && ((index) => scanner.drafts(index)),
                onProgress: (p) => shown.update(p),
            });
        // Awaited below; a failure of the send itself must not go unhandled while the drafts are looked for.
        sending?.catch(() => undefined);
        if (scanner) {
            let scan;
            try {
                scan = await scanner.done;
            }
            catch (error) {
                // Every batch still waiting for the drafts failed with the error: the report has each outcome.
                const result = await sending;
                if (result)
                    report.items = [...unsent, ...result.items];
                held.release();
                throw error;
            }
            reportUnparsable(scan, log, notices);
            plan = (0,src_plan/* withDraftsFound */.hd)(plan, selection, scan.drafts);
            for (const name of scan.drafts.keys())
                basis?.desired.delete(name);
            await logPlan(plan, config, report, log);
        }
        if (sending) {
            const result = await log.group('Send', async () => {
                held.release();
                progress = (0,index_outputs/* startProgress */.ot)(log, plan.batches.length + placeholderRequests.length);
                shown.show();
                try {
                    return await sending;
                }
                finally {
                    progress.stop();
                }
            });
            // The send's list is the report's when nothing precedes it (not a copy of 100,000 entries).
            report.items = unsent.length === 0 ? result.items : [...unsent, ...result.items];
            report.requests = result.requests;
            if (result.cancelled)
                notices.push('The run was cancelled: unsent items are reported as failed.');
        }
        else
            held.release();
        await flowRunStage(config, context, report, client);
    }
    finally {
        await Promise.all([client.close(), placeholders?.remove()]);
    }
}
/** The flow run after indexing (`flow-inputs`): its failure is reported, the sync's results stand. */
async function flowRunStage(config, context, report, client) {
    const { log } = context;
    if (!config.flowRun || context.signal?.aborted)
        return;
    if (report.items.some((item) => item.outcome === 'failed'))
        log.warning('Some items failed to sync; the flow runs anyway on what the knowledge base holds.');
    try {
        // From its own chunk: only a sync with `flow-inputs` runs a flow (see inferred-changes.ts).
        const { runFlow } = await Promise.all(/* import() */[__webpack_require__.e(856), __webpack_require__.e(139)]).then(__webpack_require__.bind(__webpack_require__, 67139));
        report.flow = await log.group('Flow run', () => runFlow(client, {
            target: { orgId: config.target.orgId, flowId: config.target.flowId },
            inputs: config.flowRun.inputs,
            outputKey: 'out-0',
        }, {
            log,
            retry: (0,shared_inputs/* retryPolicyOf */.aB)(config),
            timeoutMs: config.flowRun.timeoutMs,
            signal: context.signal,
            names: config.names,
        }));
    }
    catch (error) {
        // The sync results stay reported; the step fails on the flow error.
        report.flowError = error instanceof Error ? error.message : String(error);
    }
}
/**
 * The placeholders' files; when they cannot be written, each removal is failed with the cause (in
 * `failed`) and every other document is sent as planned.
 */
async function placeholdersOrFailed(placeholders, failed) {
    try {
        return await writePlaceholderFiles(placeholders);
    }
    catch (error) {
        if (!(error instanceof PlaceholderFilesError))
            throw error;
        for (const { name } of placeholders)
            failed.push({
                kind: 'document',
                name,
                outcome: 'failed',
                operation: 'update',
                attempts: 0,
                error: error.message,
            });
        return { files: [], remove: () => Promise.resolve() };
    }
}
/** The names of the documents the plan sends, in one list (kept by the pending record to the run's end). */
function plannedDocumentNames(plan) {
    const names = [];
    for (const item of (0,src_plan/* plannedItems */.Hs)(plan))
        if (item.kind === 'document')
            names.push(item.name);
    return names;
}

;// CONCATENATED MODULE: ./src/jobs/index-job.ts
// The index pipeline, shared by the index action and `kb-sync index`, its stages in order:
// recorded state ──► change set (the record's difference, else inferred from history) ──► selection ──►
// plan ──► send (pending record first) ──► (flow run) ──► final record ──► report









/**
 * Every item the job knew of without an outcome fails with `cause`: the planned ones, else the URLs of
 * the inputs and the selected files.
 */
function failUnfinished(report, config, files, cause) {
    const done = new Set(report.items.map((item) => `${item.kind}\0${item.name}`));
    const fallbackOperation = config.mode === 'upload' ? 'upload' : 'update';
    const known = report.planned.length > 0
        ? Array.from(report.planned, (item) => ({
            kind: item.kind,
            name: item.name,
            operation: item.operation,
        }))
        : [
            ...files.map(({ name }) => ({ kind: 'document', name, operation: fallbackOperation })),
            ...shardUrls(config).map((name) => ({ kind: 'url', name, operation: fallbackOperation })),
        ];
    for (const item of known) {
        if (done.has(`${item.kind}\0${item.name}`))
            continue;
        report.items.push({ ...item, outcome: 'failed', attempts: 0, error: cause });
    }
}
/**
 * Runs the pipeline. Never ends without a report: a failure on the way throws an IndexJobFailure that
 * carries the report so far, with every item known then failed with the cause.
 */
async function runIndexJob(config, context) {
    const started = Date.now();
    (0,chunk_release/* holdYoungGeneration */.kK)();
    (0,chunk_release/* holdWasmBaseline */.T)();
    const report = emptyIndexReport(config.dryRun);
    report.target = config.target;
    if (config.shard)
        report.shard = config.shard;
    // The selection's own list once it is made (no list of its names beside it), and what the record needs.
    const state = { files: [] };
    try {
        const finished = await indexPipeline(config, context, report, state);
        await recordFinal(state, report, context);
        // Cancelled on the way (items not sent are failed already): the run is no base for the next one.
        context.signal?.throwIfAborted();
        return finished;
    }
    catch (error) {
        // A bad input found on the way (e.g. --since naming no commit) is still an input error: nothing was sent.
        if (error instanceof errors/* ConfigError */.xL)
            throw error;
        const cancelled = (0,cancellation/* cancellationOf */.zg)(context.signal);
        const cause = context.log.clean(cancelled
            ? `${cancelled.message}: nothing new was started; every item not sent is listed as failed.`
            : error instanceof Error
                ? error.message
                : String(error));
        failUnfinished(report, config, state.files, cancelled ? cancellation/* NOT_SENT_CANCELLED */.v$ : cause);
        report.ended = { kind: 'stopped', why: cause };
        // What the node holds is recorded on every way out once something may have been sent.
        if (state.basis?.pendingWritten && report.record?.written === undefined)
            await recordFinal(state, report, context);
        report.durationMs = Date.now() - started;
        throw new IndexJobFailure(cause, report);
    }
}
/**
 * The final record. After the run's cancellation it is still written, until the second signal (cutOff)
 * ends the grace the runner gives.
 */
async function recordFinal(state, report, context) {
    const basis = state.basis;
    if (!basis || report.record?.written !== undefined)
        return;
    // The send's garbage goes before the final record adds its own: at 100,000 documents the end of the
    // run was its highest point (bench/README.md).
    (0,chunk_release/* collectIfGrown */.xk)(0);
    const written = await context.log.group('Record', () => writeFinalRecord(basis, report, context.log, context.cutOff));
    report.record = { ...(report.record ?? { source: 'history' }), written };
    // What the node held and what the checkout selects (~15 MB at 100,000 documents) are not needed once
    // recorded: they go before the report is made.
    state.basis = undefined;
    (0,chunk_release/* collectIfGrown */.xk)(0);
}
async function indexPipeline(config, context, report, state) {
    const { log } = context;
    const started = Date.now();
    context.signal?.throwIfAborted();
    const record = await recordStage(config, context, report);
    const fromRecord = record && config.mode === 'auto' ? await changesFromRecord(config, context, record, report) : undefined;
    const { changes, staged, base } = await detectChanges(config, context, report, fromRecord?.changes);
    // Cancelled during change detection: nothing is selected or sent.
    context.signal?.throwIfAborted();
    if (changes.kind === 'none')
        return report;
    const selection = fromRecord?.selection ?? (await selectStage(config, context, changes));
    // Selection's garbage (~35 MiB at 100,000 files) is collected before the plan and the send add theirs.
    (0,chunk_release/* collectIfGrown */.xk)();
    state.files = selection.files;
    const planned = await planStage(config, context, report, {
        changes,
        selection,
        fromRecord: fromRecord?.found,
        record,
        staged: staged !== undefined,
        base,
    });
    const keeping = config.preview ? undefined : context.record;
    if (keeping && !config.dryRun)
        state.basis = await basisOf(keeping, config, context, {
            previous: record,
            desired: fromRecord?.found.desired,
            changes,
            selection,
            drafts: planned.drafts,
            lastmods: planned.sitemaps?.lastmods,
        });
    if (config.dryRun || config.preview) {
        // A dry run's "nothing sent" is the result line of each front end (logIndexResult, the CLI's summary).
        if (config.preview)
            log.notice('Pull request preview: nothing was sent (set "pull-request: index" to send a pull request\'s files).');
        report.durationMs = Date.now() - started;
        return report;
    }
    try {
        await sendStage(config, context, report, planned, selection, state.basis);
    }
    finally {
        report.durationMs = Date.now() - started;
    }
    return report;
}

// EXTERNAL MODULE: ./src/report/by-outcome.ts
var by_outcome = __webpack_require__(29264);
// EXTERNAL MODULE: ./src/report/markdown.ts + 1 modules
var markdown = __webpack_require__(14702);
// EXTERNAL MODULE: ./src/report/flow-section.ts
var flow_section = __webpack_require__(49046);
;// CONCATENATED MODULE: ./src/report/index-summary.ts









/** GitHub refuses a step summary over 1 MiB; we stay clearly under it. */
const SUMMARY_LIMIT = 1_000_000;
/** A cause is cut to this many characters in the table so it never widens it past the page. */
const CAUSE_WIDTH = 120;
const FIRST_NAMES = 3;
const MAX_CAUSE_ROWS = 50;
/** ✅/❌ and the counts, one line. */
function verdictLine(report, outcomes = (0,by_outcome/* itemsByOutcome */.U)(report.items)) {
    const base = report.changeBase
        ? `, base \`${report.changeBase.sha.slice(0, 12)}\`${report.changeBase.source ? ` (${(0,markdown/* inline */.mG)(report.changeBase.source)})` : ''}`
        : '';
    // A change set not measured from the last successful sync says so first: which base, and why.
    const changeSet = report.base?.why
        ? `base: ${(0,markdown/* inline */.mG)((0,markdown/* shortLine */.tl)(report.base.why, 300))}`
        : `change set: ${(0,markdown/* inline */.mG)(report.changeSource)}${base}`;
    const skipped = report.skipped.length;
    // Never a bare "removed": it reads as deleted, and the service cannot delete.
    const left = report.left.length > 0 ? ` · ⚠️ left in the knowledge base ${report.left.length}` : '';
    if (report.preview || report.dryRun) {
        const counts = (0,src_plan/* plannedCounts */.$h)(report.planned);
        const what = report.preview
            ? `**Preview of pull request${report.preview.number ? ` #${report.preview.number}` : ''}: nothing sent.**`
            : '**Dry run: nothing sent.**';
        // Documents that cannot be sent as they are (Git LFS pointers) fail in a dry run as in the sync.
        const failed = outcomes.failed.length;
        return (`${what} Would upload ${counts.upload} · update ${counts.update}` +
            `${counts.upsert > 0 ? ` · upsert ${counts.upsert}` : ''} · remove from answers ${counts.remove} · ` +
            `unchanged/skipped ${skipped}${left}${failed > 0 ? ` · failed ${failed}` : ''} — ${changeSet}`);
    }
    const failed = outcomes.failed.length;
    const total = report.items.length;
    if (report.ended?.kind === 'skipped')
        return `**Nothing ran:** ${(0,markdown/* inline */.mG)((0,markdown/* shortLine */.tl)(report.ended.why, 2000))}`;
    const verdict = report.ended
        ? `❌ **Stopped:** ${(0,markdown/* inline */.mG)((0,markdown/* shortLine */.tl)(report.ended.why, 2000))}`
        : failed > 0
            ? `❌ **${failed} of ${total} failed.**`
            : report.flowError
                ? '❌ **Synced; the flow run failed.**'
                : '✅ **Synced.**';
    return (`${verdict}${holdsSentence(report)} Uploaded ${outcomes.uploaded.length} · updated ${outcomes.updated.length} · ` +
        `removed from answers ${outcomes.removed.length} · unchanged/skipped ${skipped}${left} · ` +
        `failed ${failed} — ${changeSet} ` +
        `(${report.requests} ${report.requests === 1 ? 'request' : 'requests'}, ${(report.durationMs / 1000).toFixed(1)} s)`);
}
/** What the knowledge base holds after the run, by its record: " The knowledge base holds …". */
function holdsSentence(report) {
    const holds = report.record?.holds;
    if (!holds)
        return '';
    const blanked = holds.blanked > 0 ? ` (${(0,units/* formatCount */.B4)(holds.blanked)} blanked)` : '';
    const unknown = holds.unknown > 0 ? `, ${(0,units/* formatCount */.B4)(holds.unknown)} of them to send again` : '';
    return (` The knowledge base holds ${(0,units/* formatCount */.B4)(holds.documents)} document(s)${blanked}${unknown} and ` +
        `${(0,units/* formatCount */.B4)(holds.pages)} page(s).`);
}
/** Where the change set came from when a record was involved, and whether this run's record was written. */
function recordLines(report) {
    const record = report.record;
    if (!record)
        return [];
    const lines = [];
    if (record.source === 'history' && record.why)
        lines.push(`Record: none used (${(0,markdown/* inline */.mG)((0,markdown/* shortLine */.tl)(record.why, 300))}); the change set was inferred from git history.`);
    if (record.settingsChanged?.length)
        lines.push(`Settings changed since the record: ${record.settingsChanged.map((name) => `\`${name}\``).join(', ')}.`);
    if (record.written && !record.written.ok)
        lines.push(`⚠️ The record of this run was not written: ${(0,markdown/* inline */.mG)((0,markdown/* shortLine */.tl)(record.written.why, 300))}.`);
    return lines;
}
// Only a real retry is an attempt people read of: the upsert switch and the parts of a split batch are
// the service saying where a document is, not a failure (the log keeps every request and its status).
const attemptsNote = (item) => item.retries !== undefined && item.retries > 0 ? ` (${item.retries + 1} attempts)` : '';
/** The lines of the lists of items, each text of an item masked by `mask` before it is escaped. */
function listLines(mask) {
    const item = (item) => `${(0,markdown/* inline */.mG)(mask(item.name))}${attemptsNote(item)}`;
    return {
        item,
        removed: (removed) => `${item(removed)}${removed.absent ? ': was not in the knowledge base, so there was nothing to remove' : ''}`,
        left: (document) => `${(0,markdown/* inline */.mG)(mask(document.name))}: ${document.reason === 'keep' ? 'removed: keep' : 'no placeholder for its format'}`,
        skipped: (skipped) => `${(0,markdown/* inline */.mG)(mask(skipped.name))}: ${(0,markdown/* inline */.mG)((0,markdown/* shortLine */.tl)(mask(skipped.detail), 200))}`,
    };
}
const plannedLine = (item) => `${(0,markdown/* inline */.mG)(item.name)}${fallbackWords(item)}`;
/**
 * What happens to a planned document when the knowledge base answers otherwise than the plan believes, in
 * the reader's words (the log's plan says it with the status codes: fallbackNote).
 */
function fallbackWords(item) {
    if (!item.fallback || item.stateUnknown)
        return '';
    return item.operation === 'upload'
        ? ' — updated instead if it is already in the knowledge base'
        : ' — uploaded instead if it is not there yet';
}
// The outputs may be cut too (outputs budget): the report file is the one place that lists all.
const cutNote = (output) => (missing) => `_${missing} more not shown (to stay within GitHub's size limit); the file named by the \`report-file\` output lists all (key \`${output}\`)._`;
// Nothing planned is an output (a dry run sends nothing): the log's Plan group lists every item.
const planCutNote = (missing) => `_${missing} more not shown (to stay within GitHub's size limit); the log's "Plan" group lists all._`;
/** Which commit the change set was measured from, with a link to the run that synced it. */
function renderBaseLine(base) {
    const commit = `\`${base.sha.slice(0, 12)}\``;
    if (base.source === 'last-success' && base.run)
        return `Base: ${commit}, synced by the last successful run [#${base.run.number}](${base.run.url})`;
    if (base.source === 'push')
        return `Base: ${commit}, the push's before commit`;
    if (base.source === 'state')
        return `Base: the knowledge base's record, ${(0,markdown/* inline */.mG)(base.recordedBy ?? '')}`;
    return `Base: ${commit}`;
}
function summaryTitle(report) {
    // Two steps or two workflows syncing different knowledge bases are told apart by their ids, and a
    // matrix job's summaries, which sit side by side in the run, by their shard.
    const target = report.target
        ? ` — org ${(0,markdown/* inline */.mG)(report.target.orgId)} · flow ${(0,markdown/* inline */.mG)(report.target.flowId)} · node ${(0,markdown/* inline */.mG)(report.target.nodeId)}`
        : '';
    const name = report.shard ? `Knowledge base sync, shard ${(0,select_shard/* shardLabel */.$_)(report.shard)}` : 'Knowledge base sync';
    if (report.preview)
        return `${name}: preview${target}`;
    if (report.ended?.kind === 'skipped')
        return `${name}: nothing ran${target}`;
    if (report.ended?.kind === 'stopped')
        return `${name} failed${target}`;
    return `${name}${target}`;
}
/**
 * The summary of `report`, whose keys are masked before it is rendered (escaping would hide them from
 * the last masking): all of it, or all but the texts of its lists' items (`items`, `skipped`, `left`),
 * which `maskItemText` masks as each item is shown.
 */
function renderIndexSummary(report, limit = SUMMARY_LIMIT, maskItemText = (text) => text) {
    const doc = new markdown/* BudgetedDocument */.Yv(limit - 1024);
    // Outcomes are the code's own words, read as they are; the texts of an item are masked when it is shown.
    const { uploaded, updated, removed, failed } = (0,by_outcome/* itemsByOutcome */.U)(report.items);
    const lines = listLines(maskItemText);
    doc.add(`## ${summaryTitle(report)}\n`);
    doc.add(`${verdictLine(report, { uploaded, updated, removed, failed })}\n`);
    if (report.base?.sha || report.base?.source === 'state')
        doc.add(`${renderBaseLine(report.base)}\n`);
    for (const line of recordLines(report))
        doc.add(`${line}\n`);
    if (report.pullRequestChanged === 0)
        doc.add('This pull request changes none of the selected documents.\n');
    if (report.sitemaps)
        doc.add(`${(0,markdown/* inline */.mG)(sitemapCountsLine(report.sitemaps))}\n`);
    for (const notice of report.notices)
        doc.add(`> ${(0,markdown/* inline */.mG)(notice)}\n`);
    if (report.flow)
        doc.add((0,flow_section/* flowSection */.Ap)(report.flow));
    if (report.flowError)
        doc.add(`### Flow run failed\n\n${(0,markdown/* inline */.mG)((0,markdown/* shortLine */.tl)((0,src_log/* sanitize */.aj)(report.flowError), 2000))}\n`);
    // Failures are grouped by their masked text, so every failed item is masked here.
    const failures = (0,report_causes/* groupFailures */.BR)(failed.map((item) => ({
        ...item,
        name: maskItemText(item.name),
        error: item.error === undefined ? undefined : maskItemText(item.error),
    })));
    const parts = [];
    if (failures.length > 0) {
        const failed = failures.reduce((n, f) => n + f.items.length, 0);
        parts.push(`### Failed (${failed})\n`);
        const rows = failures.slice(0, MAX_CAUSE_ROWS).map((f) => [
            (0,markdown/* inline */.mG)((0,markdown/* shortLine */.tl)(f.cause, CAUSE_WIDTH)),
            String(f.items.length),
            (0,report_causes/* firstNames */.d9)(f.items.map((i) => i.name), FIRST_NAMES, markdown/* inline */.mG),
        ]);
        parts.push((0,markdown/* table */.tp)(['Cause', 'Count', 'First names'], rows));
        if (failures.length > MAX_CAUSE_ROWS)
            parts.push(`_${failures.length - MAX_CAUSE_ROWS} more causes below._\n`);
        for (const failure of failures) {
            parts.push((0,markdown/* collapsedList */.Uy)(`${(0,markdown/* inlineHtml */.l0)((0,markdown/* shortLine */.tl)(failure.cause, CAUSE_WIDTH))}: ${failure.items.length}`, failure.items, listLines((text) => text).item, cutNote('failed')));
        }
    }
    if (report.preview || report.dryRun) {
        // The planned items by operation, in one pass over the plan (its items are made as they are listed).
        const byOperation = {
            upload: [],
            update: [],
            upsert: [],
            remove: [],
        };
        for (const item of report.planned)
            byOperation[(0,src_plan/* plannedOperation */.aZ)(item)].push(item);
        const { upload: uploads, update: updates, upsert: upserts, remove: removals } = byOperation;
        if (report.planned.length > 0)
            parts.push('### Plan\n');
        // The plan is masked as it is listed (redactDeep), not by `maskItemText`.
        parts.push((0,markdown/* collapsedList */.Uy)(`Would upload (${uploads.length})`, uploads, plannedLine, planCutNote));
        parts.push((0,markdown/* collapsedList */.Uy)(`Would update (${updates.length})`, updates, plannedLine, planCutNote));
        // Whether these are in the node is unknown: each is updated, or uploaded when the node lacks it.
        if (upserts.length > 0)
            parts.push((0,markdown/* collapsedList */.Uy)(`Would upsert (${upserts.length})`, upserts, plannedLine, planCutNote));
        parts.push((0,markdown/* collapsedList */.Uy)(`Would remove from answers: a placeholder replaces each (${removals.length})`, removals, (item) => (0,markdown/* inline */.mG)(item.name), planCutNote));
    }
    const others = uploaded.length + updated.length + removed.length + report.skipped.length + report.left.length;
    if (others > 0 && !report.preview && !report.dryRun)
        parts.push('### Everything else\n');
    parts.push((0,markdown/* collapsedList */.Uy)(`Uploaded (${uploaded.length})`, uploaded, lines.item, cutNote('uploaded')), (0,markdown/* collapsedList */.Uy)(`Updated (${updated.length})`, updated, lines.item, cutNote('updated')), (0,markdown/* collapsedList */.Uy)(`Unchanged or skipped (${report.skipped.length})`, report.skipped, lines.skipped, cutNote('skipped')), (0,markdown/* collapsedList */.Uy)(`Removed from answers: a placeholder replaced each (${removed.length})`, removed, lines.removed, cutNote('removed')), (0,markdown/* collapsedList */.Uy)(`Left in the knowledge base: remove them in the service by hand (${report.left.length})`, report.left, lines.left, cutNote('left')));
    doc.addAll(parts);
    return doc.toString();
}
/** The summary of a run that stopped before a result: why nothing (or not everything) ran. */
function renderStoppedSummary(title, why) {
    return `## ${inline(title)}\n\n${inline(shortLine(why, 4000))}\n`;
}

// EXTERNAL MODULE: ./src/service/cut.ts
var cut = __webpack_require__(44395);
;// CONCATENATED MODULE: ./src/report/output-budget.ts
// All outputs of one step within one budget. GitHub counts step outputs against the job's limit of
// 1 MiB, measured as UTF-16 (about 524,000 characters); a job over it fails at "Complete job" with
// every step green. One step keeps to a budget that leaves room for other steps, and says what it cut:
// the report file holds everything uncut.




/** A step output's size as GitHub approximates it: UTF-16 code units (JavaScript's `length`) of name and value. */
const outputSize = (name, value) => name.length + value.length;
/** The key of the object that ends a cut list (and marks other cut values); no document name is an object. */
const CUT_KEY = 'kb-sync-cut';
const count = (/* unused pure expression or super */ null && (formatCount));
/**
 * The closing element of a cut list: an object, never a string, so a step reading the array as names
 * cannot take the note for a name (`jq '.[] | strings'` gives the names alone).
 */
function cutListNote(missing, fileOutput) {
    return {
        [CUT_KEY]: missing,
        note: `… and ${count(missing)} more, left out to stay within GitHub's outputs limit; the file named by the "${fileOutput}" output lists all.`,
    };
}
/** `items` as a JSON array of at most `room` code units: whole when it fits, else a prefix and a note. */
function fitList(items, room, fileOutput, sizes) {
    // No text of the whole array is built before it is known to fit.
    sizes.lengthUpTo(room);
    if (sizes.whole !== undefined && sizes.whole <= room)
        return { value: JSON.stringify(items), kept: items.length };
    const note = JSON.stringify(cutListNote(items.length, fileOutput));
    let used = 2 + note.length;
    let kept = 0;
    while (kept < items.length && used + sizes.at(kept) + 1 <= room)
        used += sizes.at(kept++) + 1;
    const shown = [...items.slice(0, kept), cutListNote(items.length - kept, fileOutput)];
    return { value: JSON.stringify(shown), kept };
}
const itemSize = (item) => (JSON.stringify(item) ?? 'null').length;
/**
 * The JSON sizes of a list's items, measured in order and once each, only as far as asked: a list far
 * over the budget is measured up to what can be shown.
 */
class ItemSizes {
    items;
    sizes = [];
    /** The JSON array's length once every item is measured. */
    whole;
    constructor(items) {
        this.items = items;
    }
    at(index) {
        while (this.sizes.length <= index)
            this.sizes.push(itemSize(this.items[this.sizes.length]));
        return this.sizes[index];
    }
    /**
     * 1 + the items' sizes + 1 per item (the array's JSON length; 1 for an empty one) when that is at most
     * `cap`, else a number over `cap` (the items measured so far).
     */
    lengthUpTo(cap) {
        let length = 1 + this.sizes.reduce((n, size) => n + size + 1, 0);
        for (let index = this.sizes.length; index < this.items.length && length <= cap; index++)
            length += this.at(index) + 1;
        if (this.sizes.length === this.items.length)
            this.whole = Math.max(2, length);
        return length;
    }
}
/** `text` within `room` code units: its beginning and a note, never splitting a surrogate pair. */
function fitText(text, room, fileOutput, wholeBytes) {
    if (text.length <= room)
        return text;
    // The file holds all of the text, which is itself all of the output only when nothing was cut before.
    const note = (removed) => wholeBytes === undefined
        ? `\n…[cut by kb-sync: the last ${count(removed)} of ${count(text.length)} characters were removed; the file named by the "${fileOutput}" output holds all]`
        : `\n…[cut by kb-sync: the first ${count(text.length - removed)} characters of an output of ${count(wholeBytes)} bytes are kept; the file named by the "${fileOutput}" output holds its first ${count(Buffer.byteLength(text))} bytes]`;
    // The note is longest when its number has the most digits: reserve that.
    let end = Math.max(0, room - Math.max(note(0).length, note(text.length).length));
    if (end > 0 && /[\ud800-\udbff]/.test(text[end - 1]))
        end -= 1;
    return text.slice(0, end) + note(text.length - end);
}
/** JSON within `room` code units (cutJson measures UTF-8 bytes, never fewer than UTF-16 code units). */
function fitJson(value, room, fileOutput) {
    const text = JSON.stringify(value) ?? 'null';
    if (text.length <= room)
        return text;
    const cut = cutJson(value, room).text;
    if (cut.length <= room)
        return cut;
    return JSON.stringify({ [CUT_KEY]: `Too large for the outputs budget; see the "${fileOutput}" output.` });
}
function wholeSize(spec) {
    if ('count' in spec)
        return outputSize(spec.name, String(spec.count));
    if ('exact' in spec)
        return outputSize(spec.name, spec.exact);
    if ('text' in spec)
        return outputSize(spec.name, spec.text);
    return outputSize(spec.name, JSON.stringify(spec.json) ?? 'null');
}
/** The sizes the shared outputs are ordered by: a list measured item by item only as far as a share reaches. */
function sizeShared(shared, room) {
    const sized = shared.map(({ spec, index }) => ({
        spec,
        index,
        size: 0,
        items: 'list' in spec ? new ItemSizes(spec.list) : undefined,
    }));
    const sizes = needsWithin(sized, room, ({ spec, items }, cap) => 'list' in spec ? spec.name.length + items.lengthUpTo(cap) : wholeSize(spec));
    sized.forEach((s, at) => (s.size = sizes[at]));
    return sized;
}
/**
 * Fits every output within `budget` code units (names included), in the order given. Exact outputs are
 * kept whole; the others share what is left fairly: smallest first, each takes at most an equal share of
 * what remains, so one huge list cannot crowd out the others and what a small one leaves goes to the
 * rest. `fileOutput` names the output whose file holds everything uncut (the notes point to it).
 */
function fitOutputs(specs, budget, fileOutput) {
    const fitted = new Array(specs.length);
    let room = budget;
    const shared = [];
    specs.forEach((spec, index) => {
        if ('count' in spec) {
            fitted[index] = { name: spec.name, value: String(spec.count) };
            room -= outputSize(spec.name, String(spec.count));
        }
        else if ('exact' in spec) {
            fitted[index] = { name: spec.name, value: spec.exact };
            room -= outputSize(spec.name, spec.exact);
        }
        else
            shared.push({ spec, index });
    });
    const sized = sizeShared(shared, room);
    sized.sort((a, b) => a.size - b.size);
    sized.forEach(({ spec, index, items }, position) => {
        const share = Math.max(0, Math.floor(room / (sized.length - position))) - spec.name.length;
        const output = fitOne(spec, share, fileOutput, items);
        fitted[index] = output;
        room -= outputSize(output.name, output.value);
    });
    return fitted;
}
function fitOne(spec, room, fileOutput, items) {
    const { name } = spec;
    if ('list' in spec) {
        const { value, kept } = fitList(spec.list, room, fileOutput, items ?? new ItemSizes(spec.list));
        const total = spec.list.length;
        return kept === total
            ? { name, value }
            : { name, value, cut: `${count(total - kept)} of ${count(total)} items` };
    }
    if ('text' in spec) {
        const value = fitText(spec.text, room, fileOutput, spec.wholeBytes);
        return value === spec.text
            ? { name, value }
            : { name, value, cut: `${count(spec.text.length - value.length)} characters` };
    }
    if ('json' in spec) {
        const whole = JSON.stringify(spec.json) ?? 'null';
        const value = fitJson(spec.json, room, fileOutput);
        return value === whole ? { name, value } : { name, value, cut: 'long strings shortened' };
    }
    return 'count' in spec ? { name, value: String(spec.count) } : { name, value: spec.exact };
}
/**
 * The report file's fields: every output uncut under its own name (counts as numbers), so
 * `jq .uploaded` on the file gives what the `uploaded` output would hold without a budget.
 */
function fileFields(specs) {
    return specs.map((spec) => {
        if ('count' in spec)
            return [spec.name, spec.count];
        if ('exact' in spec)
            return [spec.name, spec.exact];
        if ('list' in spec)
            return [spec.name, spec.fileList ?? spec.list];
        if ('text' in spec)
            return [spec.name, spec.text];
        return [spec.name, spec.json ?? null];
    });
}
/** Every string of every output with the keys masked (before fitting, so sizes are what is written). */
function redactSpecs(specs, secrets) {
    return specs.map((spec) => redactDeep(spec, secrets));
}
/** Total size of fitted outputs, as GitHub counts it. */
const totalSize = (outputs) => outputs.reduce((n, output) => n + outputSize(output.name, output.value), 0);
/** One line naming each cut output and what it lost, for a warning; undefined when nothing was cut. */
function describeCuts(outputs, budget, file) {
    const cut = outputs.filter((output) => output.cut !== undefined);
    if (cut.length === 0)
        return undefined;
    return (`Outputs cut to stay within the outputs budget (${count(budget)} characters for all outputs of this step; ` +
        `GitHub fails a job whose outputs pass 1 MiB): ${cut.map((o) => `${o.name} (${o.cut} left out)`).join(', ')}. ` +
        `The counts are exact, and ${file} holds everything uncut.`);
}

// EXTERNAL MODULE: ./src/report/report-file.ts
var report_file = __webpack_require__(66757);
// EXTERNAL MODULE: ./src/report/planned.ts
var planned = __webpack_require__(89580);
// EXTERNAL MODULE: ./src/report/redact.ts
var redact = __webpack_require__(20649);
// EXTERNAL MODULE: ./src/history/since.ts
var since = __webpack_require__(48614);
// EXTERNAL MODULE: ./src/cli/console.ts
var console = __webpack_require__(81783);
// EXTERNAL MODULE: ./src/cli/errors.ts
var cli_errors = __webpack_require__(76675);
// EXTERNAL MODULE: ./src/cli/inputs.ts
var inputs = __webpack_require__(78885);
;// CONCATENATED MODULE: ./src/cli/progress.ts
// Progress of a long index run on stderr (stdout is for results): a redrawn bar on a terminal, else a
// line at every tenth of the requests, so a log file gets at most ten lines however long the run.

/** Runs with fewer requests end before progress would tell anything. */
const LONG_RUN_REQUESTS = 10;
const BAR_WIDTH = 24;
const REDRAW_MS = 100;
function progressReporter(stream = process.stderr) {
    return stream.isTTY ? barReporter(stream) : lineReporter(stream);
}
function progress_describe({ done, total, bytes }) {
    return `${done}/${total} batches (${Math.floor((done * 100) / total)}%), ${(0,units/* formatBytes */.z3)(bytes)} sent`;
}
function lineReporter(stream) {
    let printedTenths = 0;
    return (progress) => {
        if (progress.total < LONG_RUN_REQUESTS)
            return;
        const tenths = Math.floor((progress.done * 10) / progress.total);
        if (tenths <= printedTenths)
            return;
        printedTenths = tenths;
        stream.write(`progress: ${progress_describe(progress)}\n`);
    };
}
function barReporter(stream) {
    let drawnAt = 0;
    return (progress) => {
        if (progress.total < LONG_RUN_REQUESTS)
            return;
        const finished = progress.done >= progress.total;
        const now = Date.now();
        if (!finished && now - drawnAt < REDRAW_MS)
            return;
        drawnAt = now;
        const filled = Math.round((progress.done * BAR_WIDTH) / progress.total);
        const bar = '#'.repeat(filled) + '-'.repeat(BAR_WIDTH - filled);
        stream.write(`\r[${bar}] ${progress_describe(progress)}\x1b[K${finished ? '\n' : ''}`);
    };
}

;// CONCATENATED MODULE: ./src/state/writer.ts

/** The run that writes the record, from the runner's variables and the event's payload. */
function runnerWriter(env, payload) {
    const pullRequest = payload.pull_request;
    const workflow = /\.github\/workflows\/([^/@]+)@/.exec(env.GITHUB_WORKFLOW_REF ?? '')?.[1];
    return {
        ...(env.GITHUB_REPOSITORY ? { repository: env.GITHUB_REPOSITORY } : {}),
        ...(workflow ? { workflow } : {}),
        ...(positiveInteger(env.GITHUB_RUN_ID) ? { runId: positiveInteger(env.GITHUB_RUN_ID) } : {}),
        ...(positiveInteger(env.GITHUB_RUN_ATTEMPT)
            ? { runAttempt: positiveInteger(env.GITHUB_RUN_ATTEMPT) }
            : {}),
        ...(positiveInteger(env.GITHUB_RUN_NUMBER) ? { runNumber: positiveInteger(env.GITHUB_RUN_NUMBER) } : {}),
        ...(env.GITHUB_EVENT_NAME ? { event: env.GITHUB_EVENT_NAME } : {}),
        ...(env.GITHUB_SHA ? { commit: env.GITHUB_SHA } : {}),
        ...(typeof pullRequest?.number === 'number' ? { pullRequest: pullRequest.number } : {}),
    };
}

;// CONCATENATED MODULE: ./src/cli/record-keeping.ts
// The CLI keeps the knowledge base's record in a file (`--state-file PATH`): other CI systems, a laptop.
// On a runner `kb-sync status` reads the artifact the index action wrote.




/** The file store of `--state-file`, or undefined without the flag (nothing is read or recorded). */
async function fileRecordKeeping(flags) {
    if (typeof flags.stateFile !== 'string')
        return undefined;
    const [{ fileBytesStore }, { recordStore }] = await Promise.all([
        Promise.all(/* import() */[__webpack_require__.e(857), __webpack_require__.e(723)]).then(__webpack_require__.bind(__webpack_require__, 69723)),
        Promise.all(/* import() */[__webpack_require__.e(857), __webpack_require__.e(399)]).then(__webpack_require__.bind(__webpack_require__, 71399)),
    ]);
    return {
        store: recordStore(fileBytesStore((0,external_node_path_.resolve)(flags.stateFile))),
        writer: runnerWriter(process.env, {}),
    };
}
/**
 * On a runner (GITHUB_REPOSITORY, GITHUB_RUN_ID), the artifact the index action writes, read with
 * GITHUB_TOKEN: what `kb-sync status` compares with in a workflow step.
 */
async function runnerRecordKeeping(env, cancel) {
    const [owner, repo] = (env.GITHUB_REPOSITORY ?? '').split('/');
    const runId = positiveInteger(env.GITHUB_RUN_ID);
    if (!owner || !repo || runId === undefined)
        return undefined;
    const [{ ArtifactStore }, { recordStore }] = await Promise.all([
        Promise.all(/* import() */[__webpack_require__.e(780), __webpack_require__.e(351), __webpack_require__.e(758), __webpack_require__.e(878), __webpack_require__.e(877)]).then(__webpack_require__.bind(__webpack_require__, 73877)),
        Promise.all(/* import() */[__webpack_require__.e(857), __webpack_require__.e(399)]).then(__webpack_require__.bind(__webpack_require__, 71399)),
    ]);
    const store = new ArtifactStore({
        budget: (0,runner/* gitHubBudget */.Hu)(env, cancel),
        token: env.GITHUB_TOKEN?.trim() ?? '',
        repository: { owner, repo },
        runId,
        apiUrl: env.GITHUB_API_URL || undefined,
    });
    return { store: recordStore(store), writer: runnerWriter(env, {}) };
}

;// CONCATENATED MODULE: ./src/cli/status.ts




function statusLists(report) {
    const lists = { upload: [], update: [], blank: [], left: [], unchanged: 0 };
    for (const item of report.planned) {
        const operation = (0,src_plan/* plannedOperation */.aZ)(item);
        if (operation === 'remove')
            lists.blank.push(item.name);
        else if (operation === 'upload')
            lists.upload.push(item.name);
        else
            lists.update.push(item.name);
    }
    lists.left = report.left.map((document) => document.name);
    lists.unchanged = report.record?.unchanged ?? 0;
    return lists;
}
function statusText(report, lists) {
    const lines = [`Record: ${report.record?.from ?? 'none'}`];
    if (report.record?.settingsChanged?.length)
        lines.push(`Settings changed since the record: ${report.record.settingsChanged.join(', ')}`);
    const total = lists.upload.length + lists.update.length + lists.blank.length;
    lines.push(total === 0 && lists.left.length === 0
        ? `In step: the node holds what the checkout selects (${lists.unchanged} unchanged).`
        : `To upload ${lists.upload.length} · to update ${lists.update.length} · to blank ${lists.blank.length} · ` +
            `left ${lists.left.length} · unchanged ${lists.unchanged}`);
    for (const [label, names] of [
        ['upload', lists.upload],
        ['update', lists.update],
        ['blank', lists.blank],
        ['left', lists.left],
    ])
        for (const name of names)
            lines.push(`  ${label.padEnd(6)} ${(0,src_log/* displayName */.QC)(name)}`);
    return lines.join('\n');
}
/**
 * Runs the comparison. Throws a UsageError without a store to read, and an Error naming why when no record
 * can be read (there is nothing to compare with).
 */
async function statusReport(config, context, keeping) {
    if (!keeping)
        throw new cli_errors/* UsageError */.eb('kb-sync status needs the record to compare with: --state-file PATH (the file kb-sync index --state-file writes), ' +
            "or, in a workflow step, the index action's artifact (GITHUB_REPOSITORY, GITHUB_RUN_ID and GITHUB_TOKEN).");
    const report = await runIndexJob({ ...config, mode: 'auto', dryRun: true, fullSync: false }, {
        ...context,
        record: keeping,
    });
    if (report.record?.source !== 'state')
        throw new Error(`No record of this knowledge base to compare with: ${report.record?.why ?? 'none was read'}.`);
    return report;
}

;// CONCATENATED MODULE: ./src/cli/summary.ts
// What `kb-sync index` prints on stdout by default: a few lines a person reads at a glance. The markdown
// summary (--summary-file) and the per-file lines (--verbose) carry the detail.







/** The kind of a failure, for counting: the HTTP status or error code, else the message's first part. */
function failureCause(error) {
    if (!error)
        return 'unknown error';
    const status = /\bHTTP (\d{3})\b/.exec(error);
    if (status)
        return `HTTP ${status[1]}`;
    const code = /\b(E[A-Z]{3,}|UND_ERR_[A-Z_]+)\b/.exec(error);
    if (code)
        return code[1];
    const head = error.split(/[:;]/)[0].trim();
    return head.length > 80 ? `${head.slice(0, 79)}…` : head;
}
const SHOWN_CAUSES = 3;
const CAUSE_CHARS = 400;
/** `3 × HTTP 422, 1 × ECONNRESET`, most frequent first. */
function counted(values) {
    const counts = new Map();
    for (const value of values)
        counts.set(value, (counts.get(value) ?? 0) + 1);
    return [...counts]
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .map(([value, count]) => `${count} × ${(0,src_log/* displayName */.QC)(value)}`)
        .join(', ');
}
function indexSummaryText(report, options) {
    const outputs = (0,index_outputs/* indexOutputs */.$8)(report);
    const lines = [`Change set: ${(0,src_log/* displayName */.QC)(report.changeSource)}`];
    if (report.shard)
        lines.unshift(`Shard ${(0,select_shard/* shardLabel */.$_)(report.shard)}: only the documents and URLs whose names hash to it.`);
    if (report.sitemaps)
        lines.push(sitemapCountsLine(report.sitemaps));
    if (report.dryRun) {
        const counts = (0,src_plan/* plannedCounts */.$h)(report.planned);
        lines.push(`Dry run: ${report.planned.length} planned (${counts.upload} upload, ${counts.update} update` +
            `${counts.upsert > 0 ? `, ${counts.upsert} upsert` : ''}, ${counts.remove} remove from answers), ` +
            `${outputs.skipped.length} skipped, ${outputs.left.length} left in the knowledge base; nothing sent.`);
    }
    else {
        lines.push(`Uploaded ${outputs.uploaded.length}, updated ${outputs.updated.length}, skipped ${outputs.skipped.length}, ` +
            `failed ${outputs.failed.length}, removed from answers ${outputs.removed.length}, ` +
            `left in the knowledge base ${outputs.left.length} ` +
            `(${report.requests} ${report.requests === 1 ? 'request' : 'requests'}, ${(report.durationMs / 1000).toFixed(1)} s).`);
    }
    const failed = report.items.filter((item) => item.outcome === 'failed');
    if (failed.length > 0) {
        lines.push(`Failed by cause: ${counted(failed.map((item) => failureCause(item.error)))}.`);
        // What to do about it is in the cause's text (a refused key names the input to check): the
        // first few causes, one line each, without --verbose.
        const causes = (0,report_causes/* groupFailures */.BR)(report.items);
        for (const { cause, items } of causes.slice(0, SHOWN_CAUSES))
            lines.push(`  ${items.length} × ${(0,src_log/* displayName */.QC)((0,service_errors/* excerpt */.Kb)(cause, CAUSE_CHARS))}`);
        if (causes.length > SHOWN_CAUSES)
            lines.push(`  and ${causes.length - SHOWN_CAUSES} more causes.`);
    }
    if (report.skipped.length > 0)
        lines.push(`Skipped by reason: ${counted(report.skipped.map((item) => item.reason))}.`);
    for (const notice of report.notices)
        lines.push((0,src_log/* displayName */.QC)(notice));
    if (report.flowError)
        lines.push(`Flow run failed: ${(0,src_log/* displayName */.QC)(report.flowError)}`);
    if (report.flow)
        lines.push(`Flow answer:\n${report.flow.result}`);
    if (!options.verbose && (failed.length > 0 || report.skipped.length > 0 || report.dryRun))
        lines.push('Each file: --verbose; the markdown summary: --summary-file PATH.');
    return lines.join('\n');
}

;// CONCATENATED MODULE: ./src/cli/commands.ts
// `kb-sync index` and `status`: the same pipeline as the index action, flags instead of action inputs
// (`run` is run-command.ts, `serve` serve.ts), and what the commands share.

























const NO_EVENT = { eventName: '' };
/** What the config needs to know of the CLI: no event, and its own names for the settings. */
const cliContext = (flags) => ({ ...NO_EVENT, names: (0,inputs/* cliSettingNames */.Rk)(flags) });
/** A file system error's code (`EACCES`), else its text. */
function reasonOf(error) {
    return error instanceof Error && 'code' in error ? String(error.code) : String(error);
}
/** A bad `--summary-file`, `--report-file` or `--workspace` is a usage error before any request. */
function checkPaths(flags) {
    for (const [flag, file] of [
        ['--summary-file', flags.summaryFile],
        ['--report-file', flags.reportFile],
    ]) {
        if (typeof file !== 'string')
            continue;
        let problem;
        try {
            const stats = (0,external_node_fs_.statSync)(file, { throwIfNoEntry: false });
            // An existing file must be writable, and not a folder; a new one needs a writable folder.
            if (stats?.isDirectory())
                problem = 'EISDIR';
            else
                (0,external_node_fs_.accessSync)(stats ? file : (0,external_node_path_.dirname)((0,external_node_path_.resolve)(file)), external_node_fs_.constants.W_OK);
        }
        catch (error) {
            problem = reasonOf(error);
        }
        if (problem)
            throw new cli_errors/* UsageError */.eb(`${flag}: cannot write ${file} (${problem}).`);
    }
    if (typeof flags.workspace === 'string') {
        const stats = (0,external_node_fs_.statSync)(flags.workspace, { throwIfNoEntry: false });
        if (!stats?.isDirectory())
            throw new cli_errors/* UsageError */.eb(`--workspace: ${flags.workspace} is not a folder${stats ? '' : ' (ENOENT)'}.`);
    }
}
/** `--summary-file`: the markdown, made only when the flag asks for it (a long run's is not cheap). */
function writeSummaryFile(log, flags, render) {
    if (typeof flags.summaryFile !== 'string')
        return;
    const markdown = render();
    try {
        (0,external_node_fs_.writeFileSync)(flags.summaryFile, log.secrets.redact(markdown));
    }
    catch (error) {
        throw new cli_errors/* UsageError */.eb(`--summary-file: cannot write ${flags.summaryFile} (${reasonOf(error)}).`);
    }
}
/** `--report-file`: every output uncut, as the action's report file; a failure names the file and what was done. */
async function writeReportFileFlag(log, flags, specs, done) {
    if (typeof flags.reportFile !== 'string')
        return;
    try {
        await (0,report_file/* writeReportFile */.aS)(flags.reportFile, fileFields(specs), (text) => log.secrets.redact(text));
    }
    catch (error) {
        if (!(error instanceof report_file/* ReportFileError */.tG))
            throw error;
        throw new Error(`--report-file: ${error.message} This run: ${done}.`, { cause: error });
    }
}
function indexJson(report) {
    const flow = report.flow
        ? { result: report.flow.result, response: report.flow.response, outputs: (0,answer/* outputsOf */.Y)(report.flow.response) }
        : {};
    const base = { base: report.base?.sha ?? '', 'base-source': report.base?.source ?? 'none' };
    const shard = report.shard ? (0,select_shard/* shardLabel */.$_)(report.shard) : '';
    return { ...(0,index_outputs/* indexOutputs */.$8)(report), ...base, shard, planned: (0,planned/* plannedEntries */.N)(report), ...flow };
}
/**
 * The index config as the CLI gives it, read once: `--since` needs mode auto, and `--since last-success`
 * takes the workflow runs API's token from GITHUB_TOKEN, as a workflow step's environment has it.
 */
function readIndexCliConfig(flags) {
    const read = (0,inputs/* inputReader */.cN)(flags);
    const tokenFromEnvironment = flags.since === since/* LAST_SUCCESS */.t;
    const config = (0,index_config/* readIndexConfig */.nn)((name) => name === 'github-token' && tokenFromEnvironment
        ? read(name) || (process.env.GITHUB_TOKEN?.trim() ?? '')
        : read(name), cliContext(flags));
    if (typeof flags.since === 'string' && config.mode !== 'auto')
        throw new errors/* ConfigError */.xL([
            { input: 'since', message: `Option --since needs --mode auto (got --mode ${config.mode}).` },
        ]);
    return config;
}
/** `--since REF` or `--since last-success` (then this workflow run from the GITHUB_* variables). */
function sinceContext(flags, config, log) {
    if (typeof flags.since !== 'string')
        return {};
    if (flags.since !== since/* LAST_SUCCESS */.t)
        return { since: flags.since };
    const workflow = readWorkflowRun(process.env);
    if (!workflow)
        throw new errors/* ConfigError */.xL([
            {
                input: 'since',
                message: 'Option --since last-success needs the GITHUB_WORKFLOW_REF, GITHUB_REPOSITORY and GITHUB_REF variables of a workflow run; give a commit or ref instead.',
            },
        ]);
    log.addSecret(config.githubToken);
    return {
        since: since/* LAST_SUCCESS */.t,
        workflow,
        repository: workflow.ok ? { owner: workflow.run.owner, repo: workflow.run.repo } : undefined,
        apiUrl: process.env.GITHUB_API_URL || undefined,
    };
}
/** What the run did: the summary (or the JSON outputs) on stdout, the markdown to --summary-file. */
async function printIndexReport(report, flags, log) {
    const verbose = flags.verbose === true;
    // Each failed item with --verbose; the counts are the summary's (with --json, the log's).
    if (verbose)
        (0,index_outputs/* logIndexResult */.ez)(report, log, undefined, flags.json === true);
    (0,console/* printResult */.RS)(log, flags.json ? JSON.stringify(indexJson(report)) : indexSummaryText(report, { verbose }));
    writeSummaryFile(log, flags, () => {
        const summary = (0,redact/* redactForSummary */.T)(report, log.secrets);
        return renderIndexSummary(summary.report, undefined, summary.maskItemText);
    });
    await writeReportFileFlag(log, flags, (0,index_outputs/* indexOutputSpecs */.uf)(report), (0,index_outputs/* indexCountsLine */.J)(report));
}
/** What the index job is given off a runner: the workspace, no event, the run's signals and budget. */
function jobContext(flags, log, signal) {
    return {
        workspace: typeof flags.workspace === 'string' ? flags.workspace : process.cwd(),
        ...NO_EVENT,
        payload: {},
        log,
        signal,
        github: (0,runner/* gitHubBudget */.Hu)(process.env, signal),
        cutOff: cancellation/* runCutOff */.Nf,
    };
}
async function indexCommand(flags) {
    const log = (0,console/* commandLogger */.Ay)(flags);
    const signal = (0,runner/* cancellationSignal */.w6)(log);
    try {
        const config = readIndexCliConfig(flags);
        checkPaths(flags);
        const report = await runIndexJob(config, {
            ...jobContext(flags, log, signal),
            onProgress: progressReporter(),
            record: await fileRecordKeeping(flags),
            ...sinceContext(flags, config, log),
        });
        await printIndexReport(report, flags, log);
        if (report.flowError && flags.json)
            log.error(`The flow run after indexing failed: ${report.flowError}`);
        if ((0,index_outputs/* indexOutputs */.$8)(report).failed.length > 0 || report.flowError)
            process.exitCode = cli_errors/* EXIT_FAILURE */.w5;
    }
    catch (error) {
        // Ctrl-C: what was done (and every item not sent, as failed), then the cause.
        if (error instanceof IndexJobFailure && (0,cancellation/* cancellationOf */.zg)(signal))
            await printIndexReport(error.report, flags, log);
        (0,console/* reportError */.N7)(log, error);
    }
}
/** `kb-sync status`: the record against the checkout, nothing sent (cli/status.ts). */
async function statusCommand(flags) {
    const log = (0,console/* commandLogger */.Ay)(flags);
    const signal = (0,runner/* cancellationSignal */.w6)(log);
    try {
        const config = readIndexCliConfig({ ...flags, dryRun: true });
        checkPaths(flags);
        const keeping = (await fileRecordKeeping(flags)) ?? (await runnerRecordKeeping(process.env, signal));
        const report = await statusReport(config, jobContext(flags, log, signal), keeping);
        const lists = statusLists(report);
        (0,console/* printResult */.RS)(log, flags.json
            ? JSON.stringify({
                record: report.record?.from,
                settingsChanged: report.record?.settingsChanged ?? [],
                ...lists,
            })
            : statusText(report, lists));
    }
    catch (error) {
        (0,console/* reportError */.N7)(log, error);
    }
}


/***/ }),

/***/ 81783:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Ay: () => (/* binding */ commandLogger),
/* harmony export */   N7: () => (/* binding */ reportError),
/* harmony export */   RS: () => (/* binding */ printResult)
/* harmony export */ });
/* harmony import */ var _cancellation_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(34632);
/* harmony import */ var _log_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(25625);
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(76675);
/* harmony import */ var _inputs_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(78885);
// Where the CLI prints: results on stdout, diagnostics on stderr; keys redacted from both.




const writeStdout = process.stdout.write.bind(process.stdout);
/** Warnings, notices and errors always; progress of each step and per-file lines with --verbose only. */
function cliSink(verbose) {
    const line = (text) => process.stderr.write(`${text}\n`);
    return {
        info: (m) => verbose && line(m),
        debug: (m) => verbose && line(`debug: ${m}`),
        notice: (m) => line(`notice: ${m}`),
        warning: (m) => line(`warning: ${m}`),
        error: (m) => line(`error: ${m}`),
        startGroup: (n) => verbose && line(`== ${n}`),
        endGroup: () => undefined,
        mask: () => undefined,
    };
}
/**
 * The logger of an index or run command. Libraries that print through @actions/core (@actions/glob's
 * `::debug::` lines) write to stdout: that is sent to stderr, and the debug lines only with --verbose.
 */
function commandLogger(flags) {
    const verbose = flags.verbose === true;
    process.stdout.write = ((chunk) => {
        const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
        if (verbose || !text.startsWith('::debug::'))
            process.stderr.write(text);
        return true;
    });
    const log = new _log_js__WEBPACK_IMPORTED_MODULE_1__/* .Logger */ .Vy(cliSink(verbose));
    for (const key of (0,_inputs_js__WEBPACK_IMPORTED_MODULE_3__/* .keysOf */ .YD)(flags))
        log.addSecret(key);
    return log;
}
/** A result on stdout (the summary, the answer, JSON), keys redacted. */
function printResult(log, text) {
    writeStdout(`${log.secrets.redact(text)}\n`);
}
/** Prints an error as one line (one per bad input) and sets the exit status (130 after Ctrl-C). */
function reportError(log, error) {
    const { lines, status } = (0,_errors_js__WEBPACK_IMPORTED_MODULE_2__/* .describeError */ .Uc)(error);
    for (const line of lines)
        log.error(line);
    const cancelled = (0,_cancellation_js__WEBPACK_IMPORTED_MODULE_0__/* .cancellationOf */ .zg)(_cancellation_js__WEBPACK_IMPORTED_MODULE_0__/* .runCancellation */ .pc);
    process.exitCode = cancelled ? (0,_cancellation_js__WEBPACK_IMPORTED_MODULE_0__/* .cancelledExitStatus */ .i$)(cancelled) : status;
}


/***/ }),

/***/ 95620:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Au: () => (/* binding */ documentNameProblem),
/* harmony export */   Jk: () => (/* binding */ selectableNameProblem),
/* harmony export */   k3: () => (/* binding */ distinctDocumentNames),
/* harmony export */   rR: () => (/* binding */ byNameOrder),
/* harmony export */   xy: () => (/* binding */ wireFilename)
/* harmony export */ });
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(76760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _log_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(25625);
// Names the knowledge base can tell apart. A document reaches the service under its name as a multipart
// filename, which form-data (like browsers) escapes: `"` → %22, CR → %0D, LF → %0A, while `%` itself is
// left alone. So `a"b.md` and `a%22b.md` arrive as the same filename (and a service that undoes the
// escapes, case-insensitively as browsers' servers do, cannot tell `a%0Db.md` from `a%0db.md` either).
// The rule: a name with a control character, or one the client refuses (a backslash), is never sent (it
// cannot arrive as written); of names that would arrive as one, the first in code-unit order is sent and
// each other is skipped, naming both.


// C0 controls, DEL and C1 controls.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** The filename as it goes on the wire (form-data's escaping of a multipart filename). */
function wireFilename(name) {
    return name.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22');
}
/**
 * Names holding none of the escaped characters and no `%`: their key is the name itself. Every other key
 * holds a `%`, so such a name never shares its key with another name.
 */
const ESCAPABLE = /["\r\n%]/;
/** What a service that undoes the escapes would store: names with the same key are one document. */
function storedKey(name) {
    if (!ESCAPABLE.test(name))
        return name;
    return wireFilename(name).replace(/%(22|0d|0a)/gi, (escape) => escape.toUpperCase());
}
/**
 * Why form-data could not carry `name` as it is, or undefined. form-data percent-encodes CR, LF and `"`
 * in the filename (as browsers do) but also normalises the path and turns `\` into `/`: such a name
 * would arrive as a different document, so it is refused instead.
 */
function documentNameProblem(name) {
    if (name.length === 0)
        return 'is empty';
    if (name.includes('\0'))
        return 'contains a NUL character';
    if (name.includes('\\'))
        return 'contains a backslash, which multipart filenames turn into "/"';
    // Only a `//` or a `.` or `..` segment can make normalising change a name: the rest skip the call.
    if (/\/\/|(?:^|\/)\.\.?(?:\/|$)/.test(name) && node_path__WEBPACK_IMPORTED_MODULE_0___default().posix.normalize(name) !== name)
        return 'is not a normalised path (it has "." or ".." segments or "//")';
    return undefined;
}
// A lone surrogate: text that no UTF-8 file name decodes to (select/git/byte-names.ts decodes strictly).
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
/**
 * Why `name` can never be the name of a selected document, or undefined: what documentNameProblem and
 * distinctDocumentNames refuse, and what a selection never produces (a name is a file's path relative to
 * the workspace, decoded from UTF-8: never absolute, never above the workspace, never a folder). For
 * names that come from elsewhere than a selection, such as a stored record.
 */
function selectableNameProblem(name) {
    const problem = documentNameProblem(name);
    if (problem)
        return problem;
    if (CONTROL.test(name))
        return 'contains a control character';
    if (name.startsWith('/'))
        return 'is absolute';
    if (name === '.' || name === '..' || name.startsWith('..'))
        return 'is not inside the workspace';
    if (name.endsWith('/'))
        return 'ends with "/" (a folder, not a file)';
    if (LONE_SURROGATE.test(name))
        return 'is not valid Unicode text';
    return undefined;
}
/** Splits names into those that can be sent and those skipped, with the reason naming the other. */
function distinctDocumentNames(files) {
    const kept = [];
    const skipped = [];
    // Only names with an escapable character are looked up, not a table of every name.
    const firstByKey = new Map();
    for (const file of inNameOrder(files)) {
        if (CONTROL.test(file.name)) {
            skipped.push({
                kind: 'document',
                name: file.name,
                reason: 'bad-name',
                detail: 'the name contains a control character (such as a line break), which a multipart filename ' +
                    'cannot carry as written; rename the file to index it.',
            });
            continue;
        }
        // The names the client refuses to send (a backslash, in a selection): skipped here, not failed there.
        const problem = documentNameProblem(file.name);
        if (problem) {
            skipped.push({
                kind: 'document',
                name: file.name,
                reason: 'bad-name',
                detail: `the name ${problem}, so it would arrive as another document; rename the file to index it.`,
            });
            continue;
        }
        if (!ESCAPABLE.test(file.name)) {
            kept.push(file);
            continue;
        }
        const key = storedKey(file.name);
        const first = firstByKey.get(key);
        if (first) {
            skipped.push({
                kind: 'document',
                name: file.name,
                reason: 'name-conflict',
                detail: `reaches the service under the same name as ${(0,_log_js__WEBPACK_IMPORTED_MODULE_1__/* .displayName */ .QC)(first.name)} (multipart filenames ` +
                    `write " as %22), which is sent instead; rename one of them to index both.`,
            });
            continue;
        }
        firstByKey.set(key, file);
        kept.push(file);
    }
    return { kept, skipped };
}
/** Code-unit order of names: the same on every machine and locale. */
function byNameOrder(a, b) {
    return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
/** The files in code-unit name order: as they are when they come so (a selection), else a sorted copy. */
function inNameOrder(files) {
    for (let index = 1; index < files.length; index++)
        if (byNameOrder(files[index - 1], files[index]) > 0)
            return [...files].sort(byNameOrder);
    return files;
}


/***/ }),

/***/ 27939:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Vx: () => (/* binding */ readSmallSelectedFile),
/* harmony export */   jL: () => (/* binding */ FileChangedError),
/* harmony export */   yl: () => (/* binding */ openSelectedFile)
/* harmony export */ });
/* unused harmony export readSelectedFile */
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(73024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(51455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var node_stream__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(57075);
/* harmony import */ var node_stream__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__webpack_require__.n(node_stream__WEBPACK_IMPORTED_MODULE_2__);
/* harmony import */ var _log_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(25625);
/* harmony import */ var _chunk_release_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(20478);
// Reading a selected file for sending. Between selection and sending the file may have been replaced
// (by a FIFO, a link, a bigger file): the open handle is checked again and the read is bounded by the
// size that selection recorded, so what is sent is exactly the planned number of bytes or nothing.





/** The file on disk is no longer the one that was selected; the document is not sent. */
class FileChangedError extends Error {
}
const CHUNK = 64 * 1024;
// No following a link in the last component, no blocking on a FIFO.
const OPEN_FLAGS = node_fs__WEBPACK_IMPORTED_MODULE_0__.constants.O_RDONLY | node_fs__WEBPACK_IMPORTED_MODULE_0__.constants.O_NONBLOCK | node_fs__WEBPACK_IMPORTED_MODULE_0__.constants.O_NOFOLLOW;
/** The file could not be opened or read: `… could not be <what> (ENOENT).` */
function accessFailed(shown, what, error) {
    const code = error.code ?? 'error';
    return new FileChangedError(`${shown} could not be ${what} (${code}).`);
}
/** Why the opened file is not the selected one (not a regular file, another size), or undefined. */
function changedSinceSelected(stats, file) {
    if (stats.isFile() && stats.size === file.size)
        return undefined;
    const now = stats.isFile() ? `${stats.size} bytes` : 'not a regular file';
    return new FileChangedError(`${(0,_log_js__WEBPACK_IMPORTED_MODULE_3__/* .displayName */ .QC)(file.name)} changed since it was selected (${file.size} bytes, now ${now}).`);
}
/**
 * A stream of the file's bytes: exactly `file.size` of them, or an error. Opened without following a
 * link and without blocking on a FIFO; the handle must be a regular file of the selected size.
 * Give `file.size` as form-data's `knownLength`. Consume or destroy the stream: either closes the file.
 */
async function openSelectedFile(file) {
    const shown = (0,_log_js__WEBPACK_IMPORTED_MODULE_3__/* .displayName */ .QC)(file.name);
    let handle;
    try {
        handle = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.open)(file.path, OPEN_FLAGS);
    }
    catch (error) {
        throw accessFailed(shown, 'opened for sending', error);
    }
    const changed = changedSinceSelected(await handle.stat(), file);
    if (changed) {
        await handle.close();
        throw changed;
    }
    return new SelectedFileStream(handle, file.size, shown);
}
/**
 * The whole file at once, read synchronously, with the checks of openSelectedFile; the file is closed
 * before it returns. For small files only (the caller bounds the size): there the thread-pool round
 * trips of async open, read and close cost more than the reads themselves. Reading asks for one byte
 * more than the size, so growth is seen; too few bytes mean the file shrank. `into` (size + 1 bytes)
 * receives the bytes instead of a new buffer.
 */
function readSmallSelectedFile(file, into) {
    // The name is made only for an error: most files have none.
    let fd;
    try {
        fd = (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.openSync)(file.path, OPEN_FLAGS);
    }
    catch (error) {
        throw accessFailed((0,_log_js__WEBPACK_IMPORTED_MODULE_3__/* .displayName */ .QC)(file.name), 'opened for sending', error);
    }
    try {
        const changed = changedSinceSelected((0,node_fs__WEBPACK_IMPORTED_MODULE_0__.fstatSync)(fd), file);
        if (changed)
            throw changed;
        const buffer = into ?? Buffer.allocUnsafe(file.size + 1);
        if (buffer.length !== file.size + 1)
            throw new RangeError('readSmallSelectedFile needs size + 1 bytes');
        // The first read asks for size + 1 bytes: getting size means the file ends there (a regular file's
        // read comes back short only at its end), so no second read is made to find the end.
        let filled = 0;
        let bytesRead;
        do {
            bytesRead = (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.readSync)(fd, buffer, filled, buffer.length - filled, filled);
            filled += bytesRead;
        } while (bytesRead > 0 && filled < file.size);
        if (filled > file.size)
            throw new FileChangedError(`${(0,_log_js__WEBPACK_IMPORTED_MODULE_3__/* .displayName */ .QC)(file.name)} grew while it was being read.`);
        if (filled < file.size)
            throw new FileChangedError(`${(0,_log_js__WEBPACK_IMPORTED_MODULE_3__/* .displayName */ .QC)(file.name)} shrank while it was being read.`);
        return buffer.subarray(0, filled);
    }
    catch (error) {
        // Read at opening time, a read error fails the document as an open error does.
        if (error instanceof FileChangedError)
            throw error;
        throw accessFailed((0,_log_js__WEBPACK_IMPORTED_MODULE_3__/* .displayName */ .QC)(file.name), 'read', error);
    }
    finally {
        (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.closeSync)(fd);
    }
}
/**
 * The file's bytes straight from the handle, one read per chunk and no other stream layer. The last read
 * asks for one byte more than is left, so growth is seen without a read of its own; a read that comes
 * back empty too early means the file shrank. Either error destroys the stream; destroying closes the file.
 */
class SelectedFileStream extends node_stream__WEBPACK_IMPORTED_MODULE_2__.Readable {
    handle;
    size;
    shown;
    position = 0;
    constructor(handle, size, shown) {
        super({ highWaterMark: CHUNK });
        this.handle = handle;
        this.size = size;
        this.shown = shown;
    }
    _read() {
        const left = this.size - this.position;
        const buffer = Buffer.allocUnsafe(left <= CHUNK ? left + 1 : CHUNK);
        this.handle.read(buffer, 0, buffer.length, this.position).then(({ bytesRead }) => {
            if (this.destroyed)
                return;
            if (bytesRead > left)
                return this.destroy(new FileChangedError(`${this.shown} grew while it was being sent.`));
            if (bytesRead === 0 && left > 0)
                return this.destroy(new FileChangedError(`${this.shown} shrank while it was being sent.`));
            this.position += bytesRead;
            if (bytesRead > 0) {
                (0,_chunk_release_js__WEBPACK_IMPORTED_MODULE_4__/* .chunkStreamed */ .jK)(bytesRead);
                this.push(buffer.subarray(0, bytesRead));
            }
            if (this.position === this.size && bytesRead < buffer.length)
                this.push(null);
        }, (error) => this.destroy(error));
    }
    _destroy(error, callback) {
        this.handle.close().then(() => callback(error), () => callback(error));
    }
}
/** The whole file in memory, with the checks of openSelectedFile. */
async function readSelectedFile(file) {
    const chunks = [];
    for await (const chunk of await openSelectedFile(file))
        chunks.push(chunk);
    return Buffer.concat(chunks);
}


/***/ }),

/***/ 1500:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   A: () => (/* binding */ runFailure),
/* harmony export */   Y: () => (/* binding */ outputsOf)
/* harmony export */ });
/* harmony import */ var _service_errors_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(5756);
// What a run's answer says about the run itself. The real service answers HTTP 200 with `state`,
// `error` and `pause` next to the outputs: a run that did not complete is a failure whatever the status.

function described(value) {
    if (typeof value === 'string')
        return value;
    if (value !== null && typeof value === 'object') {
        const { message, detail } = value;
        if (typeof message === 'string')
            return message;
        if (typeof detail === 'string')
            return detail;
    }
    return JSON.stringify(value) ?? String(value);
}
const present = (value) => value !== undefined && value !== null;
/** Why the answer is a failed run (the service's own words, shortened), or undefined when it completed. */
function runFailure(answer) {
    const problems = [];
    if (present(answer.state) && answer.state !== 'COMPLETED')
        problems.push(`it ended in state ${(0,_service_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .excerpt */ .Kb)(described(answer.state))}`);
    if (present(answer.error))
        problems.push(`the service reported an error: ${(0,_service_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .excerpt */ .Kb)(described(answer.error))}`);
    if (present(answer.pause))
        problems.push(`it paused instead of completing (pause: ${(0,_service_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .excerpt */ .Kb)(described(answer.pause))})`);
    if (problems.length === 0)
        return undefined;
    const run = typeof answer.run_id === 'string' ? ` (run ${(0,_service_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .excerpt */ .Kb)(answer.run_id)})` : '';
    return `The flow run did not complete${run}: ${problems.join('; ')}.`;
}
/** The answer's `outputs` map, or an empty one when it has none. */
function outputsOf(answer) {
    if (answer === null || typeof answer !== 'object')
        return {};
    const outputs = answer.outputs;
    return outputs !== null && typeof outputs === 'object' && !Array.isArray(outputs)
        ? outputs
        : {};
}


/***/ }),

/***/ 71243:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   T: () => (/* binding */ Git),
/* harmony export */   X: () => (/* binding */ GitError)
/* harmony export */ });
/* harmony import */ var node_child_process__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(31421);
/* harmony import */ var node_child_process__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_child_process__WEBPACK_IMPORTED_MODULE_0__);
// Runs git with argument arrays, never through a shell: commit ids come from the event payload and
// paths may contain anything, so nothing is ever interpolated into a command line.

class GitError extends Error {
    args;
    exitCode;
    stderr;
    constructor(args, exitCode, stderr) {
        // A remote URL may carry credentials (https://user:token@host/...): they never reach a message.
        const lastLines = stderr
            .trim()
            .split('\n')
            .slice(-3)
            .join(' ')
            .replace(/\/\/[^/@\s]+@/g, '//***@');
        const detail = lastLines || `exit code ${exitCode}`;
        super(`git ${args[0] ?? ''} failed: ${detail}`);
        this.args = args;
        this.exitCode = exitCode;
        this.stderr = stderr;
        this.name = 'GitError';
    }
}
// Variables that would point git at another repository than the working directory's (they are set,
// for example, when the action runs inside a git hook).
const REPOSITORY_OVERRIDES = [
    'GIT_DIR',
    'GIT_WORK_TREE',
    'GIT_INDEX_FILE',
    'GIT_OBJECT_DIRECTORY',
    'GIT_ALTERNATE_OBJECT_DIRECTORIES',
    'GIT_COMMON_DIR',
    'GIT_NAMESPACE',
];
function gitEnvironment() {
    const env = { ...process.env };
    for (const name of REPOSITORY_OVERRIDES)
        delete env[name];
    // A job has no one to answer a credential prompt: fail instead of hanging.
    env.GIT_TERMINAL_PROMPT = '0';
    env.GCM_INTERACTIVE = 'never';
    // English messages in logs (with -z, paths are raw bytes whatever the locale).
    env.LC_ALL = 'C';
    return env;
}
// Process groups are POSIX; on Windows git is killed alone.
const OWN_PROCESS_GROUP = process.platform !== 'win32';
class Git {
    workingDirectory;
    constructor(workingDirectory) {
        this.workingDirectory = workingDirectory;
    }
    /**
     * Runs git and resolves with its exit code; rejects when git cannot be started, or with the signal's
     * reason on cancellation.
     */
    run(args, options = {}) {
        return new Promise((resolve, reject) => {
            const { signal } = options;
            if (signal?.aborted)
                return reject(signal.reason);
            const child = (0,node_child_process__WEBPACK_IMPORTED_MODULE_0__.spawn)('git', args, {
                cwd: this.workingDirectory,
                env: gitEnvironment(),
                stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
                // Its own process group, so that a kill reaches what git started too (upload-pack, ssh, a remote
                // helper): git does not end them when it is killed, and they would hold the network and our pipes.
                detached: OWN_PROCESS_GROUP,
                windowsHide: true,
            });
            const kill = () => {
                try {
                    if (OWN_PROCESS_GROUP && child.pid !== undefined)
                        process.kill(-child.pid, 'SIGTERM');
                    else
                        child.kill('SIGTERM');
                }
                catch {
                    // Already ended.
                }
            };
            if (options.input !== undefined) {
                // git may end before it has read everything (its exit code tells): a closed pipe is no error here.
                child.stdin.on('error', () => { });
                child.stdin.end(options.input);
            }
            const timer = options.timeoutMs === undefined ? undefined : setTimeout(kill, options.timeoutMs);
            const onAbort = () => {
                kill();
                child.stdout.destroy();
                child.stderr.destroy();
                reject(signal.reason);
            };
            signal?.addEventListener('abort', onAbort, { once: true });
            const stdout = [];
            const stderr = [];
            const onChunk = options.onStdout;
            child.stdout.on('data', (chunk) => {
                if (!onChunk)
                    return void stdout.push(chunk);
                try {
                    onChunk(chunk);
                }
                catch (error) {
                    kill();
                    reject(error);
                }
            });
            child.stderr.on('data', (chunk) => stderr.push(chunk));
            child.on('error', reject);
            child.on('close', (code, killedBy) => {
                clearTimeout(timer);
                signal?.removeEventListener('abort', onAbort);
                const stdoutBytes = Buffer.concat(stdout);
                // Made when asked: a listing of 100,000 files read as bytes is not also copied into a string.
                let text;
                resolve({
                    exitCode: code ?? (killedBy ? 128 : 1),
                    get stdout() {
                        return (text ??= stdoutBytes.toString('utf8'));
                    },
                    stdoutBytes,
                    stderr: Buffer.concat(stderr).toString('utf8'),
                });
            });
        });
    }
    /**
     * Runs git and hands its standard output to `onChunk` as it comes, without keeping it (a listing of
     * 100,000 files is ~7 MB); a non-zero exit is a GitError. An error thrown by `onChunk` ends git and
     * rejects with it.
     */
    async eachChunk(args, onChunk, options = {}) {
        const result = await this.run(args, { ...options, onStdout: onChunk });
        if (result.exitCode !== 0)
            throw new GitError(args, result.exitCode, result.stderr);
    }
    /** Runs git and returns its standard output; a non-zero exit is a GitError. */
    async exec(args, options = {}) {
        const result = await this.run(args, options);
        if (result.exitCode !== 0)
            throw new GitError(args, result.exitCode, result.stderr);
        return result.stdout;
    }
    /** Runs git and returns its standard output as bytes; a non-zero exit is a GitError. */
    async execBytes(args, options = {}) {
        const result = await this.run(args, options);
        if (result.exitCode !== 0)
            throw new GitError(args, result.exitCode, result.stderr);
        return result.stdoutBytes;
    }
    /**
     * The contents of the blobs these object names name (`<commit>:<path>`; a path starting with `./` is
     * relative to the working directory), by name, from one git process. A name that is missing or names no
     * blob is left out; so is one holding a line break, which git's batch input cannot carry, and every name
     * when git fails.
     */
    async blobs(names, options = {}) {
        const asked = names.filter((name) => !/[\r\n]/.test(name));
        const found = new Map();
        if (asked.length === 0)
            return found;
        const input = asked.map((name) => `${name}\n`).join('');
        const result = await this.run(['cat-file', '--batch'], { ...options, input });
        if (result.exitCode !== 0)
            return found;
        const out = result.stdoutBytes;
        // Per name, in order: `<id> <type> <size>`, a line break, the content and a line break; or
        // `<name> missing` (or `ambiguous`), whose last word is no size.
        let at = 0;
        for (const name of asked) {
            const end = out.indexOf(0x0a, at);
            if (end < 0)
                break;
            const header = out.toString('utf8', at, end).split(' ');
            at = end + 1;
            const size = Number(header.at(-1));
            if (header.length !== 3 || !Number.isSafeInteger(size))
                continue;
            if (header[1] === 'blob')
                found.set(name, out.subarray(at, at + size));
            at += size + 1;
        }
        return found;
    }
    /** The top folder of the working tree that contains the working directory (a GitError outside one). */
    async topLevel() {
        return (await this.exec(['rev-parse', '--show-toplevel'])).replace(/\n$/, '');
    }
    /** Whether the commit's object is in the local repository. */
    async hasCommit(sha) {
        const result = await this.run(['cat-file', '-e', `${sha}^{commit}`]);
        return result.exitCode === 0;
    }
    /**
     * Which of these commit ids (full ids, not refs) the local repository holds: one git process for all;
     * when git fails, each is asked on its own.
     */
    async presentCommits(ids) {
        const result = await this.run([
            'rev-list',
            '--no-walk',
            '--ignore-missing',
            ...ids.map((id) => `${id}^{commit}`),
        ]);
        if (result.exitCode === 0) {
            // git prints ids in small letters.
            const listed = new Set(result.stdout.split('\n'));
            return new Set(ids.filter((id) => listed.has(id.toLowerCase())));
        }
        const present = new Set();
        for (const id of ids)
            if (await this.hasCommit(id))
                present.add(id);
        return present;
    }
    /** The commit id a ref (branch, tag, `HEAD~2`, commit id) names, or undefined when it names none. */
    async resolveCommit(ref) {
        const result = await this.run(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]);
        return result.exitCode === 0 ? result.stdout.trim() : undefined;
    }
    /** The best common ancestor of two commits, or undefined when there is none in the local history. */
    async mergeBase(a, b) {
        const result = await this.run(['merge-base', '--end-of-options', a, b]);
        return result.exitCode === 0 ? result.stdout.trim() : undefined;
    }
    /** The committer time of a commit (`%cI`), or undefined when the commit is not in the repository. */
    async commitTime(sha) {
        const result = await this.run(['show', '-s', '--format=%cI', '--end-of-options', `${sha}^{commit}`]);
        const time = result.exitCode === 0 ? new Date(result.stdout.trim()) : undefined;
        return time && !Number.isNaN(time.getTime()) ? time : undefined;
    }
    async isShallow() {
        return (await this.exec(['rev-parse', '--is-shallow-repository'])).trim() === 'true';
    }
    /**
     * Fetches one commit with the remote's configured credentials, no tags. A shallow clone gets only
     * that commit; a complete one gets its history too, so it does not become shallow.
     */
    async fetchCommit(remote, sha, options = {}) {
        const depth = (await this.isShallow()) ? ['--depth=1'] : [];
        await this.exec(['fetch', '--no-tags', '--no-recurse-submodules', ...depth, remote, sha], options);
    }
    /**
     * The tree difference between two commits as `--raw -z` bytes: modes show submodules (gitlinks,
     * mode 160000) and paths stay the bytes git stores, whatever their encoding. The plumbing command
     * ignores user configuration such as colour or external diff drivers.
     */
    async diffRaw(before, after) {
        return this.execBytes(['diff-tree', '-r', '--raw', '--no-renames', '--no-abbrev', '-z', before, after]);
    }
    /** Every entry of a commit's tree as `ls-tree -r -z` bytes (submodules appear as one gitlink entry). */
    async listTree(commit) {
        return this.execBytes(['ls-tree', '-r', '-z', '--full-tree', commit]);
    }
    /** The working tree of the superproject when this checkout is a submodule's, else undefined. */
    async superproject() {
        const top = (await this.exec(['rev-parse', '--show-superproject-working-tree'])).replace(/\n$/, '');
        return top === '' ? undefined : top;
    }
}


/***/ }),

/***/ 62975:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   CX: () => (/* binding */ LookupBudget),
/* harmony export */   Sp: () => (/* binding */ readGitHubDeadline),
/* harmony export */   _h: () => (/* binding */ DEADLINE_VARIABLE),
/* harmony export */   yn: () => (/* binding */ GitHubUnanswered)
/* harmony export */ });
/* unused harmony exports DEFAULT_GITHUB_DEADLINE_MS, DEFAULT_REQUEST_TIMEOUT_MS, requestFailure */
/* harmony import */ var _cancellation_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(34632);
// One time budget for all of a run's GitHub requests (the runs lookups, the compare API, the pull
// request comment), made once per run and handed down. A GitHub API that accepts connections and never
// answers would otherwise cost each request its own timeout, one after the other (2.5 minutes and more
// before the sync went on). Every request waits at most what is left of the budget (and at most its own
// timeout); the first one that gets no answer in time ends the budget: later requests are not sent, and
// each caller goes straight on with its fallback.

/** All GitHub requests of a run together wait at most this long by default. */
const DEFAULT_GITHUB_DEADLINE_MS = 45_000;
/**
 * One request waits at most this long by default. GitHub itself ends a REST request after 10 s, so an
 * answer still missing after 20 s is not coming.
 */
const DEFAULT_REQUEST_TIMEOUT_MS = 20_000;
/** The variable that sets the budget (seconds): a smaller one for tests, a larger one for a slow server. */
const DEADLINE_VARIABLE = 'KB_SYNC_GITHUB_DEADLINE_SECONDS';
const MAX_DEADLINE_SECONDS = 600;
/** The request was not sent, or got no answer in time: GitHub's API is not asked again in this run. */
class GitHubUnanswered extends Error {
    code = 'GITHUB_UNANSWERED';
    constructor(message) {
        super(message);
        this.name = 'GitHubUnanswered';
    }
}
class LookupBudget {
    deadlineMs;
    requestTimeoutMs;
    cancel;
    /** Time spent with at least one request in flight, not counting the requests in flight now. */
    spentMs = 0;
    inFlight = 0;
    busySince = 0;
    unanswered;
    constructor(options = {}) {
        this.deadlineMs = options.deadlineMs ?? DEFAULT_GITHUB_DEADLINE_MS;
        this.requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
        this.cancel = options.cancel;
    }
    /** Why GitHub's API is not asked any more in this run; undefined while it may be. */
    get gaveUp() {
        return this.unanswered;
    }
    /** Rethrows the run's cancellation, if it came: a request it stopped is no failure of GitHub's. */
    throwIfCancelled() {
        this.cancel?.throwIfAborted();
    }
    /** Time spent waiting for GitHub so far (requests in flight at once count once). */
    spent() {
        return this.spentMs + (this.inFlight > 0 ? Date.now() - this.busySince : 0);
    }
    /**
     * Sends one request under the budget: `send` gets the signal to pass to it. Rejects with
     * GitHubUnanswered when the API was given up before (nothing is sent) or this request got no answer
     * in time (the API is given up), with the cancellation's reason when the run is cancelled, and with
     * the request's own error otherwise.
     */
    async request(send) {
        this.cancel?.throwIfAborted();
        if (this.unanswered)
            throw new GitHubUnanswered(this.unanswered);
        const left = this.deadlineMs - this.spent();
        if (left <= 0)
            throw this.giveUp(`GitHub's API used up the ${seconds(this.deadlineMs)} s this run gives its requests`);
        const timeoutMs = Math.min(this.requestTimeoutMs, left);
        const signal = (0,_cancellation_js__WEBPACK_IMPORTED_MODULE_0__/* .withTimeout */ .wj)(this.cancel, timeoutMs);
        if (this.inFlight++ === 0)
            this.busySince = Date.now();
        try {
            return await send(signal);
        }
        catch (error) {
            this.cancel?.throwIfAborted();
            if (signal.aborted)
                throw this.giveUp(`GitHub's API did not answer within ${seconds(timeoutMs)} s`);
            throw error;
        }
        finally {
            if (--this.inFlight === 0)
                this.spentMs += Date.now() - this.busySince;
        }
    }
    giveUp(why) {
        this.unanswered ??= `${why}; it is not asked again in this run`;
        return new GitHubUnanswered(this.unanswered);
    }
}
const seconds = (ms) => String(Math.round(ms / 100) / 10);
/**
 * The budget's length from KB_SYNC_GITHUB_DEADLINE_SECONDS (whole or decimal seconds, above 0, at most
 * 600); the default when it is unset or empty.
 */
function readGitHubDeadline(env = process.env) {
    const text = env[DEADLINE_VARIABLE]?.trim();
    if (!text)
        return { ok: true, deadlineMs: DEFAULT_GITHUB_DEADLINE_MS };
    const value = /^\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
    if (!(value > 0 && value <= MAX_DEADLINE_SECONDS))
        return {
            ok: false,
            why: `The variable ${DEADLINE_VARIABLE} must be a number of seconds above 0 and at most ` +
                `${MAX_DEADLINE_SECONDS} (got ${JSON.stringify(text.slice(0, 40))}).`,
        };
    return { ok: true, deadlineMs: Math.round(value * 1000) };
}
/** Why a GitHub request failed, in one line: its HTTP status when it had one, and its message's first line. */
function requestFailure(error) {
    const status = error?.status;
    const message = error instanceof Error ? error.message.split('\n', 1)[0] : String(error);
    return typeof status === 'number' ? `HTTP ${status}: ${message}` : message;
}


/***/ }),

/***/ 48614:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   t: () => (/* binding */ LAST_SUCCESS)
/* harmony export */ });
// The word `--since` takes for "the last successful run of this workflow". Its own module: the CLI reads
// it at every start, and change-base.ts (octokit, the compare API) loads only when a run needs a base.
const LAST_SUCCESS = 'last-success';


/***/ }),

/***/ 25625:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   JS: () => (/* binding */ consoleSink),
/* harmony export */   QC: () => (/* binding */ displayName),
/* harmony export */   Sb: () => (/* binding */ Secrets),
/* harmony export */   Vy: () => (/* binding */ Logger),
/* harmony export */   aj: () => (/* binding */ sanitize)
/* harmony export */ });
/* unused harmony export actionsSink */
/* harmony import */ var _actions_core__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(91659);
// The one way to print. Every message goes through `sanitize` (untrusted text must not become a
// workflow command) and `redact` (keys never reach a log, even where the runner does not mask: the CLI).

// Terminal escape sequences (CSI `ESC [ … final`, OSC `ESC ] … BEL|ST`, other two-character `ESC x`, and
// the one-byte C1 CSI) would recolour, hide or rewrite what a reader sees in the log.
const ESCAPE_SEQUENCE = 
// eslint-disable-next-line no-control-regex
/\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[ -~]?|\u009b[0-?]*[ -/]*[@-~]/g;
// Every other control character but tab and line feed (CR is turned into LF first).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
/**
 * Makes untrusted text (service errors, the flow's answer, file names in messages) safe to print:
 * terminal escape sequences and control characters are removed, and workflow commands are neutralised.
 * The runner acts on `::command::` at the start of a line (after white space) and on the legacy
 * `##[command]` anywhere in a line; a zero-width space keeps the text readable while the runner no longer
 * matches it.
 */
function sanitize(text) {
    // Lines are what the runner splits on (CR, LF), not what a JavaScript `^` with the m flag sees
    // (U+2028/U+2029 too); the white space it trims first is .NET's: JavaScript's `\s` plus NEL.
    return text
        .replace(/\r\n?/g, '\n')
        .replace(ESCAPE_SEQUENCE, '')
        .replace(CONTROL, '')
        .replace(/(^|\n)((?:[^\S\n]|\u0085)*):(?=:)/g, '$1$2:\u200b')
        .replace(/#(?=#\[)/g, '#\u200b');
}
// C0 and C1 controls and DEL, the Unicode line and paragraph separators, and the bidirectional marks
// and overrides that can make a name display as something else.
// eslint-disable-next-line no-control-regex
const UNDISPLAYABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;
/** A name shown on one line: control characters (CR, LF, ESC, …) made visible as escapes. */
function displayName(name) {
    return name.replace(UNDISPLAYABLE, (c) => {
        const code = c.charCodeAt(0);
        return code <= 0xff
            ? `\\x${code.toString(16).padStart(2, '0')}`
            : `\\u${code.toString(16).padStart(4, '0')}`;
    });
}
/** `*` unless a key contains it; then the first character from a fixed list that no key contains. */
function maskCharacter(forms) {
    const used = (c) => forms.some((form) => form.includes(c));
    for (const candidate of ['*', '\u2022', '#', '~'])
        if (!used(candidate))
            return candidate;
    let code = 0x2580;
    while (used(String.fromCharCode(code)))
        code += 1;
    return String.fromCharCode(code);
}
/**
 * Where kb-sync shortens a text (an excerpt, a quoted answer, a cut output), the kept part ends in `…`,
 * maybe followed by a note on the next line. A key cut there leaves only its beginning, which a
 * search for the whole key does not find.
 */
const CUT_MARK = '\u2026';
// Shorter key beginnings before a `…` are too common in ordinary text to mask, and give little away.
const MIN_CUT_HEAD = 4;
/** The stretches just before a `…` (and one line break) that are the beginning of a key. */
function cutKeyHeads(text, forms) {
    const heads = [];
    for (let mark = text.indexOf(CUT_MARK); mark >= 0; mark = text.indexOf(CUT_MARK, mark + 1)) {
        const end = text[mark - 1] === '\n' ? mark - 1 : mark;
        for (const form of forms) {
            for (let length = Math.min(form.length - 1, end); length >= MIN_CUT_HEAD; length--) {
                if (text.startsWith(form.slice(0, length), end - length)) {
                    heads.push([end - length, end]);
                    break;
                }
            }
        }
    }
    return heads;
}
class Secrets {
    // Distinct, in the order added; redact() runs for every string of a report, so no copy per call.
    forms = [];
    /** The length of the shortest form: no shorter text holds one whole. */
    shortest = Infinity;
    /**
     * Registers a secret in every form it could be printed in: raw, URL-encoded, inside a JSON string
     * (`"` and `\` escaped), base64, and base64 of the whole `Bearer` header value.
     */
    add(secret) {
        if (!secret)
            return;
        const forms = [
            secret,
            encodeURIComponent(secret),
            JSON.stringify(secret).slice(1, -1),
            Buffer.from(secret).toString('base64'),
            Buffer.from(`Bearer ${secret}`).toString('base64'),
        ];
        for (const form of forms)
            if (form.length > 0 && !this.forms.includes(form))
                this.forms.push(form);
        this.shortest = Math.min(...this.forms.map((form) => form.length));
    }
    values() {
        return [...this.forms];
    }
    /**
     * Replaces every stretch of text covered by an occurrence of a key (overlapping ones merged) with a
     * mask. The mask uses a character found in no key, so it cannot combine with the text around it into
     * a key again (a key `x*` masked with `***` after an `x` would reappear).
     */
    redact(text) {
        const forms = this.forms;
        // Most strings of a report (kinds, outcomes, short names) are shorter than every key.
        if (forms.length === 0 || (text.length < this.shortest && !text.includes(CUT_MARK)))
            return text;
        const covered = [];
        for (const form of forms) {
            for (let at = text.indexOf(form); at >= 0; at = text.indexOf(form, at + 1))
                covered.push([at, at + form.length]);
        }
        if (text.includes(CUT_MARK))
            covered.push(...cutKeyHeads(text, forms));
        if (covered.length === 0)
            return text;
        covered.sort((a, b) => a[0] - b[0]);
        const mask = maskCharacter(forms).repeat(3);
        let out = '';
        let done = 0;
        let index = 0;
        while (index < covered.length) {
            const start = covered[index][0];
            let end = covered[index][1];
            for (index += 1; index < covered.length && covered[index][0] < end; index += 1)
                end = Math.max(end, covered[index][1]);
            out += text.slice(done, start) + mask;
            done = end;
        }
        return out + text.slice(done);
    }
}
class Logger {
    sink;
    secrets;
    constructor(sink, secrets = new Secrets()) {
        this.sink = sink;
        this.secrets = secrets;
    }
    /** Registers a key with the runner and with our own redaction. Call before anything else is printed. */
    addSecret(secret) {
        if (!secret)
            return;
        const known = new Set(this.secrets.values());
        this.secrets.add(secret);
        for (const form of this.secrets.values())
            if (!known.has(form))
                this.sink.mask(form);
    }
    /**
     * Text safe to print, write to a summary or put in an error message. Redacted again once sanitized:
     * removing a control character from inside an echoed key would join it back together.
     */
    clean(text) {
        return this.secrets.redact(sanitize(this.secrets.redact(text)));
    }
    info(message) {
        this.sink.info(this.clean(message));
    }
    debug(message) {
        this.sink.debug(this.clean(message));
    }
    notice(message) {
        this.sink.notice(this.clean(message));
    }
    warning(message) {
        this.sink.warning(this.clean(message));
    }
    error(message) {
        this.sink.error(this.clean(message));
    }
    /**
     * A logger whose lines wait until `release`, then follow in order (and later ones go straight through):
     * for work that starts before what the log shows ahead of it has been printed.
     */
    held() {
        const waiting = [];
        let released = false;
        const hold = (write) => (released ? write() : void waiting.push(write));
        const sink = this.sink;
        const heldSink = {
            info: (m) => hold(() => sink.info(m)),
            debug: (m) => hold(() => sink.debug(m)),
            notice: (m) => hold(() => sink.notice(m)),
            warning: (m) => hold(() => sink.warning(m)),
            error: (m) => hold(() => sink.error(m)),
            startGroup: (n) => hold(() => sink.startGroup(n)),
            endGroup: () => hold(() => sink.endGroup()),
            // The runner must know a secret before any line that could hold it.
            mask: (secret) => sink.mask(secret),
        };
        return {
            log: new Logger(heldSink, this.secrets),
            release: () => {
                released = true;
                for (const write of waiting.splice(0))
                    write();
            },
        };
    }
    async group(name, work) {
        this.sink.startGroup(this.clean(name));
        try {
            return await work();
        }
        finally {
            this.sink.endGroup();
        }
    }
}
/** On the runner: through @actions/core, which emits annotations and groups. */
const actionsSink = {
    info: (m) => _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .info */ .pq(m),
    debug: (m) => _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .debug */ .Yz(m),
    notice: (m) => _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .notice */ .lm(m),
    warning: (m) => _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .warning */ .$e(m),
    error: (m) => _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .error */ .z3(m),
    startGroup: (n) => _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .startGroup */ .Oh(n),
    endGroup: () => _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .endGroup */ .N4(),
    mask: (s) => _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .setSecret */ .Pq(s),
};
/** For the CLI: plain lines; diagnostics on stderr so stdout stays for results. */
function consoleSink(options = {}) {
    return {
        info: (m) => process.stderr.write(`${m}\n`),
        debug: (m) => {
            if (options.verbose)
                process.stderr.write(`debug: ${m}\n`);
        },
        notice: (m) => process.stderr.write(`notice: ${m}\n`),
        warning: (m) => process.stderr.write(`warning: ${m}\n`),
        error: (m) => process.stderr.write(`error: ${m}\n`),
        startGroup: (n) => process.stderr.write(`== ${n}\n`),
        endGroup: () => undefined,
        mask: () => undefined,
    };
}


/***/ }),

/***/ 69270:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   b: () => (/* binding */ mapLimited)
/* harmony export */ });
/** Runs `work` on every item, at most `limit` at once; the results in the items' order. */
async function mapLimited(items, limit, work) {
    const results = new Array(items.length);
    let next = 0;
    const worker = async () => {
        while (next < items.length) {
            const index = next++;
            results[index] = await work(items[index]);
        }
    };
    await Promise.all(Array.from({ length: Math.max(0, Math.min(limit, items.length)) }, worker));
    return results;
}


/***/ }),

/***/ 30428:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Agent: () => (/* binding */ Agent),
/* harmony export */   ProxyAgent: () => (/* binding */ ProxyAgent),
/* harmony export */   fetch: () => (/* binding */ fetch)
/* harmony export */ });
/* harmony import */ var undici_lib_dispatcher_dispatcher_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(30883);
/* harmony import */ var undici_lib_dispatcher_dispatcher_js__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(undici_lib_dispatcher_dispatcher_js__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var undici_lib_api_index_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(56615);
/* harmony import */ var undici_lib_dispatcher_agent_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(57405);
/* harmony import */ var undici_lib_dispatcher_agent_js__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__webpack_require__.n(undici_lib_dispatcher_agent_js__WEBPACK_IMPORTED_MODULE_2__);
/* harmony import */ var undici_lib_dispatcher_proxy_agent_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(76672);
/* harmony import */ var undici_lib_dispatcher_proxy_agent_js__WEBPACK_IMPORTED_MODULE_3___default = /*#__PURE__*/__webpack_require__.n(undici_lib_dispatcher_proxy_agent_js__WEBPACK_IMPORTED_MODULE_3__);




// undici's root adds request(), stream(), pipeline(), connect() and upgrade() to every dispatcher the same way.
Object.assign((undici_lib_dispatcher_dispatcher_js__WEBPACK_IMPORTED_MODULE_0___default().prototype), undici_lib_api_index_js__WEBPACK_IMPORTED_MODULE_1__);
const Agent = (undici_lib_dispatcher_agent_js__WEBPACK_IMPORTED_MODULE_2___default());
const ProxyAgent = (undici_lib_dispatcher_proxy_agent_js__WEBPACK_IMPORTED_MODULE_3___default());
let fetchModule;
const fetch = async (input, init) => {
    // Its own chunk (~180 KB of undici's web layer): only octokit calls fetch, and kept in a bundle's main
    // file it would be compiled at every start (src/jobs/index-job.ts, decideChanges).
    fetchModule ??= (await __webpack_require__.e(/* import() */ 398).then(__webpack_require__.t.bind(__webpack_require__, 54398, 23)));
    return fetchModule.fetch(input, init);
};


/***/ }),

/***/ 21733:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  MP: () => (/* binding */ compareNames),
  lz: () => (/* binding */ fallbackNote),
  wE: () => (/* binding */ placeholderBatches),
  R4: () => (/* binding */ planSync),
  $h: () => (/* binding */ plannedCounts),
  Hs: () => (/* binding */ plannedItems),
  aZ: () => (/* binding */ plannedOperation),
  hd: () => (/* binding */ withDraftsFound)
});

// UNUSED EXPORTS: MAX_BATCH_BYTES, chunkFiles, draftDetail, inFolders, withoutDocuments

// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(76760);
var external_node_path_default = /*#__PURE__*/__webpack_require__.n(external_node_path_);
;// CONCATENATED MODULE: ./src/placeholders.ts
// What replaces a removed document in the knowledge base. The service has no delete, only update: a
// removed document is updated with a placeholder of its own format that has no text for retrieval to
// find. A sentence saying "this document was removed" is itself found: after a deletion, unrelated
// questions cited the removed names, and answers lost similarity (issue 38). So the body holds no word at
// all; the commit that removed it goes where the format keeps metadata, which a reader of the document
// sees and retrieval does not search (markdown's front matter, an HTML page's <head>, an XML attribute,
// AsciiDoc's attribute entries), or nowhere when the format has no such place (plain text, CSV, JSON,
// YAML, reStructuredText: any field of theirs is content). Pure: text in, text out.
//
// The placeholder never repeats the document's name or title: a question about the old topic must not
// find it either.

const escapeMarkup = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
// YAML front matter written without the YAML library, which the index action loads only to read front
// matter: the commit as a JSON string, which YAML reads as the same string (a commit id of digits only
// stays a string).
const markdown = (commit) => `---\nremoved: true\n${commit ? `commit: ${JSON.stringify(commit)}\n` : ''}---\n`;
const html = (commit) => '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Removed</title>\n' +
    (commit ? `<meta name="removed-by-commit" content="${escapeMarkup(commit)}">\n` : '') +
    '</head>\n<body></body>\n</html>\n';
const asciidoc = (commit) => `:removed: ${commit ?? ''}`.trimEnd() + '\n';
/** No metadata in the format: an empty document of it (a line break, so the upload is not 0 bytes). */
const blank = () => '\n';
// By extension (lower case). Formats without an entry (PDF, Office, images, archives, unknown ones)
// get no placeholder: no valid empty document of them can be written honestly here.
const FORMATS = {
    md: markdown,
    markdown,
    // Front matter is MDX's as well (Docusaurus, Astro, remark-frontmatter).
    mdx: markdown,
    txt: blank,
    text: blank,
    rst: blank,
    adoc: asciidoc,
    asciidoc,
    html,
    htm: html,
    xml: (commit) => `<?xml version="1.0" encoding="UTF-8"?>\n<removed${commit ? ` commit="${escapeMarkup(commit)}"` : ''}/>\n`,
    json: () => '{}\n',
    yaml: () => '{}\n',
    yml: () => '{}\n',
    csv: blank,
    tsv: blank,
};
/** The extensions (lower case, without the dot) that have a placeholder. */
const PLACEHOLDER_EXTENSIONS = Object.keys(FORMATS);
/**
 * The placeholder of a removed document, in the format its name's extension says, or undefined when
 * no valid placeholder of that format can be made (the document must then be removed by hand).
 * `commit` is the commit id the removal was synced at (a hex id, or undefined when unknown), kept in
 * the format's metadata where it has some.
 */
function placeholderFor(name, commit) {
    const extension = external_node_path_default().posix.extname(name).slice(1).toLowerCase();
    if (!Object.hasOwn(FORMATS, extension))
        return undefined;
    return FORMATS[extension](commit);
}

;// CONCATENATED MODULE: ./src/plan.ts

/** A request stays under this many bytes of file content unless one file alone is larger. */
const MAX_BATCH_BYTES = 32 * 1024 * 1024;
/** The skip detail of a file the site does not publish, from why (select/document/drafts.ts). */
function draftDetail(why) {
    return `${why}, so the site does not publish it; not sent (skip-drafts).`;
}
/** `upload`/`update` send what they say; `auto` syncs everything by upsert (update first, 404 → upload). */
function intentForMode(mode) {
    if (mode === 'upload')
        return { operation: 'upload', fallback: false };
    if (mode === 'update')
        return { operation: 'update', fallback: false };
    return UPSERT;
}
/** Whether the item is in the node is unknown: update or upload, whichever the node's answers call for. */
const UPSERT = { operation: 'update', fallback: true, stateUnknown: true };
function planSync(input) {
    const maxBatchBytes = input.maxBatchBytes ?? MAX_BATCH_BYTES;
    const modeIntent = intentForMode(input.mode);
    const changes = input.mode === 'auto' ? input.changes : { kind: 'all' };
    const drafts = input.drafts ?? new Map();
    const isDraft = (file) => drafts.has(file.name);
    const draftSkips = (files) => draftSkipsOf(files, drafts);
    let skipped = input.selection.skipped;
    let removed = [];
    let fileIntents;
    if (changes.kind === 'none') {
        fileIntents = [];
        skipped = [];
    }
    else if (changes.kind === 'all') {
        skipped = [...skipped, ...draftSkips(input.selection.files)];
        fileIntents = [{ files: input.selection.files, intent: modeIntent }];
        // Known removals (a push's own) are blanked; a name selected again is sent, not blanked.
        const known = 'removed' in changes ? (changes.removed ?? []) : [];
        if (known.length > 0) {
            const selected = new Set(input.selection.files.map((file) => file.name));
            removed = known.filter((name) => !selected.has(name)).sort(compareNames);
        }
    }
    else {
        // Only what the push changed: added → upload (409 → update), modified → update (404 → upload).
        // Below a folder whose changes are unknown, every file is sent like a modified one: by upsert.
        const added = new Set(changes.added);
        const modified = new Set(changes.modified);
        const inUnknown = inFolders(changes.everythingUnder ?? []);
        const undecodable = new Set((changes.undecodable ?? []).map((name) => name.shown));
        const changed = (name) => added.has(name) || modified.has(name) || inUnknown(name);
        skipped = skipped.filter((item) => item.kind === 'url' || changed(item.name) || undecodable.has(item.name));
        const addedFiles = input.selection.files.filter((f) => added.has(f.name));
        const changedFiles = input.selection.files.filter((f) => !added.has(f.name) && (modified.has(f.name) || inUnknown(f.name)));
        // A modified file that is a draft now was published before: its old content must stop answering.
        // Below a folder whose changes are unknown nothing says it changed: it is skipped like an added one.
        const unpublished = changedFiles.filter((f) => isDraft(f) && modified.has(f.name));
        skipped = [
            ...skipped,
            ...draftSkips([...addedFiles, ...changedFiles.filter((f) => !modified.has(f.name))]),
        ];
        removed = [...new Set([...changes.removed, ...unpublished.map((f) => f.name)])].sort(compareNames);
        // A present file removed from the node (a staging node's file that is no longer a document of the
        // checkout) ends in one output list, `removed` or `left`, not in `skipped` too.
        if (removed.length > 0) {
            const removing = new Set(removed);
            skipped = skipped.filter((item) => item.kind === 'url' || !removing.has(item.name));
        }
        fileIntents = [
            { files: addedFiles, intent: { operation: 'upload', fallback: true } },
            {
                files: changedFiles.filter((f) => modified.has(f.name)),
                intent: { operation: 'update', fallback: true },
            },
            // Below a folder whose changes are unknown: whether they are in the node is unknown too.
            { files: changedFiles.filter((f) => !modified.has(f.name)), intent: UPSERT },
        ];
    }
    const { placeholders, left } = removals(removed, input.removed ?? 'tombstone', input.removedBy);
    const batches = [];
    const refused = [];
    for (const { files, intent } of fileIntents) {
        // Without refused files (no Git LFS pointers), the files as they are: no copy of 100,000 of them.
        const sendable = !input.refused?.size
            ? files
            : files.filter((file) => {
                const cause = input.refused?.get(file.name);
                if (cause === undefined)
                    return true;
                refused.push({
                    kind: 'document',
                    name: file.name,
                    outcome: 'failed',
                    operation: intent.operation,
                    attempts: 0,
                    size: file.size,
                    error: cause,
                });
                return false;
            });
        for (const chunk of chunkFiles(sendable, input.batchSize, maxBatchBytes)) {
            batches.push({ kind: 'documents', ...intent, documents: chunk, bytes: totalBytes(chunk) });
        }
    }
    // URLs are not files of the push: websites change outside the repository, so they are synced on
    // every run that lists them.
    const urls = changes.kind === 'none' ? [] : input.urls;
    for (let i = 0; i < urls.length; i += input.batchSize) {
        batches.push({ kind: 'urls', ...modeIntent, urls: urls.slice(i, i + input.batchSize) });
    }
    // Drafts leave their batches after chunking: a full sync finds them while its first batches are
    // already being sent (DraftScanner in select/document/drafts.ts), and the batches it sends are the ones a dry
    // run shows.
    const sent = drafts.size > 0 ? withoutDocuments(batches, drafts) : batches;
    return { batches: sent, skipped, placeholders, left, refused };
}
function draftSkipsOf(files, drafts) {
    return files
        .filter((file) => drafts.has(file.name))
        .map((file) => ({
        kind: 'document',
        name: file.name,
        reason: 'draft',
        detail: draftDetail(drafts.get(file.name)),
    }));
}
/**
 * The plan of a sync of every selected file (changes `all`, or mode upload/update), planned without its
 * drafts, once they are known: what planSync gives with them (each skipped, then taken out of its batch),
 * made from that plan instead of planning again (the same plan when there are none).
 */
function withDraftsFound(plan, selection, drafts) {
    if (drafts.size === 0)
        return plan;
    return {
        ...plan,
        skipped: [...plan.skipped, ...draftSkipsOf(selection.files, drafts)],
        batches: withoutDocuments(plan.batches, drafts),
    };
}
/**
 * The batches without the named documents: each keeps its other documents (one fewer in a batch that
 * held a draft), and a batch left empty is not sent.
 */
function withoutDocuments(batches, names) {
    const kept = [];
    for (const batch of batches) {
        if (batch.kind !== 'documents' || !batch.documents.some((file) => names.has(file.name))) {
            kept.push(batch);
            continue;
        }
        const documents = batch.documents.filter((file) => !names.has(file.name));
        if (documents.length > 0)
            kept.push({ ...batch, documents, bytes: totalBytes(documents) });
    }
    return kept;
}
/** Each removed name blanked by a placeholder of its format, or left (keep, or no placeholder fits). */
function removals(names, policy, commit) {
    const placeholders = [];
    const left = [];
    for (const name of names) {
        const content = policy === 'tombstone' ? placeholderFor(name, commit) : undefined;
        if (content !== undefined)
            placeholders.push({ name, content });
        else
            left.push({ name, reason: policy === 'keep' ? 'keep' : 'format' });
    }
    return { placeholders, left };
}
/** The placeholders, written to disk as `files` (in plan order), as PATCH batches where 404 is success. */
function placeholderBatches(files, batchSize, maxBatchBytes = MAX_BATCH_BYTES) {
    return chunkFiles(files, batchSize, maxBatchBytes).map((chunk) => ({
        kind: 'documents',
        operation: 'update',
        fallback: false,
        documents: chunk,
        bytes: totalBytes(chunk),
        placeholders: true,
    }));
}
/** Whether a document name lies below one of the folders ('' is the whole workspace). */
function inFolders(folders) {
    if (folders.includes(''))
        return () => true;
    const prefixes = folders.map((folder) => `${folder}/`);
    return (name) => prefixes.some((prefix) => name.startsWith(prefix));
}
/** Consecutive chunks of at most `batchSize` files and `maxBytes` bytes; a larger file goes alone. */
function chunkFiles(files, batchSize, maxBytes) {
    const chunks = [];
    let current = [];
    let bytes = 0;
    for (const file of files) {
        const full = current.length >= batchSize || (current.length > 0 && bytes + file.size > maxBytes);
        if (full) {
            chunks.push(current);
            current = [];
            bytes = 0;
        }
        current.push(file);
        bytes += file.size;
    }
    if (current.length > 0)
        chunks.push(current);
    return chunks;
}
function totalBytes(files) {
    return files.reduce((sum, file) => sum + file.size, 0);
}
/** Code-unit order: the same on every machine and locale. */
function compareNames(a, b) {
    return a < b ? -1 : a > b ? 1 : 0;
}
/** What a plan shows for an item: `remove` for a placeholder, `upsert` when its state is unknown, else the operation sent first. */
function plannedOperation(item) {
    if (item.removal)
        return 'remove';
    return item.stateUnknown ? 'upsert' : item.operation;
}
/** How a planned item whose state the plan believes changes when the node answers otherwise. */
function fallbackNote(item) {
    if (!item.fallback || item.stateUnknown)
        return '';
    return item.operation === 'upload' ? ' (409 → update)' : ' (404 → upload)';
}
/** How many planned items show each operation. */
function plannedCounts(items) {
    const counts = { upload: 0, update: 0, upsert: 0, remove: 0 };
    for (const item of items)
        counts[plannedOperation(item)]++;
    return counts;
}
/** Everything the plan will send, for counting and for the dry-run listing; placeholders last. */
function plannedItems(plan) {
    let length = plan.placeholders.length;
    for (const batch of plan.batches)
        length += batch.kind === 'documents' ? batch.documents.length : batch.urls.length;
    return { length, [Symbol.iterator]: () => eachPlanned(plan) };
}
function* eachPlanned(plan) {
    for (const batch of plan.batches) {
        const { operation, fallback } = batch;
        if (batch.kind === 'documents')
            for (const d of batch.documents)
                yield batch.stateUnknown
                    ? { kind: 'document', name: d.name, operation, fallback, stateUnknown: true, size: d.size }
                    : { kind: 'document', name: d.name, operation, fallback, size: d.size };
        else
            for (const u of batch.urls)
                yield batch.stateUnknown
                    ? { kind: 'url', name: u, operation, fallback, stateUnknown: true }
                    : { kind: 'url', name: u, operation, fallback };
    }
    for (const placeholder of plan.placeholders)
        yield {
            kind: 'document',
            name: placeholder.name,
            operation: 'update',
            fallback: false,
            size: Buffer.byteLength(placeholder.content),
            removal: true,
        };
}


/***/ }),

/***/ 29264:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   A: () => (/* binding */ splitByOutcome),
/* harmony export */   U: () => (/* binding */ itemsByOutcome)
/* harmony export */ });
/** What `pick` makes of each item, in one list per outcome, in the items' order. */
function splitByOutcome(items, pick) {
    const counts = { uploaded: 0, updated: 0, removed: 0, failed: 0 };
    for (const item of items)
        counts[item.outcome] += 1;
    const lists = {
        uploaded: new Array(counts.uploaded),
        updated: new Array(counts.updated),
        removed: new Array(counts.removed),
        failed: new Array(counts.failed),
    };
    const filled = { uploaded: 0, updated: 0, removed: 0, failed: 0 };
    for (const item of items)
        lists[item.outcome][filled[item.outcome]++] = pick(item);
    return lists;
}
/** The items by outcome; when all ended alike (a sync that went well), their list is the items. */
function itemsByOutcome(items) {
    const only = items[0]?.outcome;
    if (only !== undefined && items.every((item) => item.outcome === only))
        return { uploaded: [], updated: [], removed: [], failed: [], [only]: items };
    return splitByOutcome(items, (item) => item);
}


/***/ }),

/***/ 40304:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   BR: () => (/* binding */ groupFailures),
/* harmony export */   d9: () => (/* binding */ firstNames)
/* harmony export */ });
/* unused harmony export causeOf */
const UNKNOWN = 'unknown error';
// "uploadDocuments POST /indexing/v0/documents/<flow>/<org>/<node> failed: <reason>": the ids fill the
// first hundred characters, so the cause leads with the reason and names the operation after it.
const REQUEST_FAILED = /^(\w+) (?:GET|POST|PATCH|PUT|DELETE) \S+ failed: ([\s\S]+)$/;
/** The text a failure is grouped and shown by: the reason first. */
function causeOf(error) {
    const text = error?.trim() || UNKNOWN;
    const request = REQUEST_FAILED.exec(text);
    return request ? `${request[2]} (${request[1]})` : text;
}
/** Causes, most items first (then first seen), each with its items in their original order. */
function groupFailures(items) {
    const byCause = new Map();
    for (const item of items) {
        if (item.outcome !== 'failed')
            continue;
        const cause = causeOf(item.error);
        const list = byCause.get(cause);
        if (list)
            list.push(item);
        else
            byCause.set(cause, [item]);
    }
    return [...byCause.entries()]
        .map(([cause, list]) => ({ cause, items: list }))
        .sort((a, b) => b.items.length - a.items.length);
}
/** "a.md, b.md, c.md and 12 more" */
function firstNames(names, count, show) {
    const shown = names.slice(0, count).map(show).join(', ');
    return names.length > count ? `${shown} and ${names.length - count} more` : shown;
}


/***/ }),

/***/ 8023:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   $O: () => (/* binding */ ERROR_SIGN),
/* harmony export */   Bp: () => (/* binding */ errorsOf),
/* harmony export */   DP: () => (/* binding */ layoutReport),
/* harmony export */   EX: () => (/* binding */ renderChecksSummary),
/* harmony export */   Jt: () => (/* binding */ SUMMARY_LIMIT),
/* harmony export */   KU: () => (/* binding */ anyJudged),
/* harmony export */   MT: () => (/* binding */ verdictLine),
/* harmony export */   Mr: () => (/* binding */ MIN_CUT_BYTES),
/* harmony export */   QR: () => (/* binding */ advisoryLine),
/* harmony export */   Ty: () => (/* binding */ markdownVerdictLine),
/* harmony export */   W2: () => (/* binding */ runsText),
/* harmony export */   ZM: () => (/* binding */ markdownAdvisoryLine),
/* harmony export */   dT: () => (/* binding */ quoteNeed),
/* harmony export */   gI: () => (/* binding */ quotedWithin),
/* harmony export */   j: () => (/* binding */ VERDICT_LABEL),
/* harmony export */   jp: () => (/* binding */ runsLine),
/* harmony export */   mI: () => (/* binding */ renderChecksTable),
/* harmony export */   nt: () => (/* binding */ verdictText)
/* harmony export */ });
/* unused harmony exports inReadingOrder, judgeCell, renderChecksReport */
/* harmony import */ var _checks_verdict_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(29948);
/* harmony import */ var _checks_judge_flow_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(11983);
/* harmony import */ var _service_cut_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(44395);
/* harmony import */ var _service_stream_json_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(58666);
/* harmony import */ var _markdown_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(14702);
// The checks as people read them, in the job summary and the pull-request comment alike: the verdict
// line (bold, with the counts), the runs, one table row per check, failed first (its question, verdict,
// runs passed of runs made, seconds, the first failed assertion), then each check's question, answer and
// failed assertions collapsed, the question and answer as quotes (they wrap). The two
// differ only in their heading, their size limit and where they send the reader for what was cut.





// One sign, one meaning, wherever checks are shown: ✅ passed, ❌ failed (below the threshold), ⚠️ the
// threshold met with failed checks (a warning), 💥 a run that errored (no answer to judge).
const ERROR_SIGN = '💥';
const VERDICT_LABEL = {
    passed: '✅ passed',
    failed: '❌ failed',
    error: `${ERROR_SIGN} error`,
};
const OUTCOME_ICON = { passed: '✅', warning: '⚠️', failed: '❌' };
// Failed checks named in the log's and the terminal's verdict line (verdictText); the table names them all.
const NAMED_CHECKS = 10;
const QUESTION_CELL = 100;
const ASSERTION_CELL = 160;
// A failed assertion in a collapsed block, and how many a block lists; the results file holds all.
const ASSERTION_LINE = 500;
const LISTED_ASSERTIONS = 20;
/** `2/3`, and which runs failed when the check ran more than once: `2/3 (run 3 failed)`. */
function runsText(result) {
    const made = (0,_checks_verdict_js__WEBPACK_IMPORTED_MODULE_4__/* .runsMade */ .oo)(result);
    const missed = result.runs.filter((run) => run.started && run.verdict !== 'passed').map((run) => run.run);
    const which = made > 1 && missed.length > 0
        ? ` (${missed.length === 1 ? 'run' : 'runs'} ${missed.join(', ')} failed)`
        : '';
    return `${(0,_checks_verdict_js__WEBPACK_IMPORTED_MODULE_4__/* .runsPassed */ .x5)(result)}/${made}${which}`;
}
function namesOf(names, quote) {
    const shown = names.slice(0, NAMED_CHECKS).map(quote).join(', ');
    return names.length > NAMED_CHECKS ? `${shown} and ${names.length - NAMED_CHECKS} more` : shown;
}
/**
 * The verdict in words, the same in the summary, the comment and the CLI:
 * `2 of 3 checks passed (66.7%); threshold 60% met with failed checks: "b".`
 */
function verdictText(verdict, quote = (name) => JSON.stringify(name)) {
    const total = verdict.passed + verdict.failed;
    const counts = `${verdict.passed} of ${total} checks passed (${verdict.percent.toFixed(1)}%)`;
    const failed = namesOf(verdict.failedNames, quote);
    switch ((0,_checks_verdict_js__WEBPACK_IMPORTED_MODULE_4__/* .outcomeOf */ .sG)(verdict)) {
        case 'passed':
            return `${counts}; threshold ${verdict.threshold}%.`;
        case 'warning':
            return `${counts}; threshold ${verdict.threshold}% met with failed checks: ${failed}.`;
        case 'failed':
            return `${counts}, below the threshold ${verdict.threshold}%. Failed checks: ${failed}.`;
    }
}
/** The verdict with its icon: ✅ all passed, ⚠️ threshold met with failures, ❌ below it. */
function verdictLine(verdict, quote) {
    return `${OUTCOME_ICON[(0,_checks_verdict_js__WEBPACK_IMPORTED_MODULE_4__/* .outcomeOf */ .sG)(verdict)]} ${verdictText(verdict, quote)}`;
}
/** `3 runs made; median 1.2 s, slowest 3.4 s.` (`, and 3 judge runs` with a judge flow). */
function runsLine(verdict) {
    const judge = verdict.judgeRuns > 0
        ? ` (and ${verdict.judgeRuns} judge ${verdict.judgeRuns === 1 ? 'run' : 'runs'})`
        : '';
    return (`${verdict.runs} ${verdict.runs === 1 ? 'run' : 'runs'} made${judge}; median ${verdict.medianSeconds.toFixed(1)} s, ` +
        `slowest ${verdict.slowestSeconds.toFixed(1)} s.`);
}
/** `1 failed, 2 errors`: the checks that did not pass, by verdict. */
function missedCounts(failed, errors) {
    const parts = [
        failed > 0 ? `${failed} failed` : '',
        errors > 0 ? `${errors} ${errors === 1 ? 'error' : 'errors'}` : '',
    ];
    return parts.filter((part) => part !== '').join(', ');
}
/**
 * The verdict in the summary and the comment, with its sign and counts; the checks that did not pass are
 * in the table, first, not named here (a long list of names buried the verdict). `errors`: how many of
 * the checks that did not pass are errors.
 * `❌ 1 of 3 checks passed (33.3%), below the threshold 100%: 1 failed, 1 error.`
 */
function markdownVerdictLine(verdict, errors) {
    const counts = `${verdict.passed} of ${verdict.passed + verdict.failed} checks passed (${verdict.percent.toFixed(1)}%)`;
    const missed = missedCounts(verdict.failed - errors, errors);
    switch ((0,_checks_verdict_js__WEBPACK_IMPORTED_MODULE_4__/* .outcomeOf */ .sG)(verdict)) {
        case 'passed':
            return `${OUTCOME_ICON.passed} ${counts}; threshold ${verdict.threshold}%.`;
        case 'warning':
            return `${OUTCOME_ICON.warning} ${counts}; threshold ${verdict.threshold}% met, ${missed}.`;
        case 'failed':
            return `${OUTCOME_ICON.failed} ${counts}, below the threshold ${verdict.threshold}%: ${missed}.`;
    }
}
/** Checks that errored. */
const errorsOf = (results) => results.filter((result) => result.verdict === 'error').length;
// The order a reviewer reads the rows in: what failed first, then what could not be judged, then the rest.
const VERDICT_ORDER = { failed: 0, error: 1, passed: 2 };
/** The checks in reading order: failed, errors, then passed; the suite's order within each. */
const inReadingOrder = (results) => [...results].sort((a, b) => VERDICT_ORDER[a.verdict] - VERDICT_ORDER[b.verdict]);
/**
 * The advisory checks, apart from the verdict: `Advisory: 2 failed ("a", "b"), 1 passed; not counted
 * toward the threshold.`; '' without advisory checks.
 */
function advisoryLine(verdict, quote = (name) => JSON.stringify(name)) {
    const { passed, failed, failedNames } = verdict.advisory;
    if (passed + failed === 0)
        return '';
    const parts = [
        ...(failed > 0 ? [`${failed} failed (${namesOf(failedNames, quote)})`] : []),
        ...(passed > 0 ? [`${passed} passed`] : []),
    ];
    return `Advisory: ${parts.join(', ')}; not counted toward the threshold nor failing the step.`;
}
/** The advisory line in markdown (a line of its own under the verdict), or ''. */
const markdownAdvisoryLine = (verdict) => {
    const line = advisoryLine(verdict, (name) => `"${(0,_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .inline */ .mG)((0,_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .shortLine */ .tl)(name, 80))}"`);
    return line === ''
        ? ''
        : `${line}

`;
};
// The judge's score and reason in a table cell.
const JUDGE_CELL = 120;
/** `0.85 · the answer gives the 14 days`: the judge's grade of the run shown, '' without one. */
const judgeCell = (result) => result.judge
    ? (0,_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .inlineFlowText */ .je)((0,_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .shortLine */ .tl)(`${(0,_checks_judge_flow_js__WEBPACK_IMPORTED_MODULE_0__/* .scoreText */ .QO)(result.judge.score)} · ${result.judge.reason}`, JUDGE_CELL))
    : '';
/** Whether any check was graded by the judge flow (the tables then have a Judge column). */
const anyJudged = (results) => results.some((result) => result.runs.some((run) => run.judgeSent));
/**
 * One row per check: check, question, verdict, runs, seconds, (the judge's grade,) first failed
 * assertion; advisory checks in a table of their own below.
 */
function renderChecksTable(results) {
    const judged = anyJudged(results);
    const tableOf = (rows) => (0,_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .table */ .tp)([
        'Check',
        'Question',
        'Verdict',
        'Runs',
        'Seconds',
        ...(judged ? ['Judge'] : []),
        'First failed assertion',
    ], rows.map((result) => [
        (0,_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .inline */ .mG)((0,_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .shortLine */ .tl)(result.name, 80)),
        (0,_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .inline */ .mG)((0,_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .shortLine */ .tl)(result.question, QUESTION_CELL)),
        VERDICT_LABEL[result.verdict],
        runsText(result),
        result.seconds.toFixed(1),
        ...(judged ? [judgeCell(result)] : []),
        result.failed.length > 0 ? (0,_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .inlineFlowText */ .je)((0,_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .shortLine */ .tl)(result.failed[0], ASSERTION_CELL)) : '',
    ]));
    const blocking = results.filter((result) => !result.advisory);
    const advisory = results.filter((result) => result.advisory);
    if (advisory.length === 0)
        return tableOf(blocking);
    const advisoryTable = `**Advisory checks** (not counted toward the threshold)\n\n${tableOf(advisory)}`;
    return blocking.length === 0 ? advisoryTable : `${tableOf(blocking)}\n${advisoryTable}`;
}
const blockTitle = (result) => `${(0,_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .inlineHtml */ .l0)((0,_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .shortLine */ .tl)(result.name, 80))} — ${VERDICT_LABEL[result.verdict]} · ${runsText(result)}` +
    (result.advisory ? ' · advisory' : '');
// Below this, a cut text would be its note alone.
const MIN_CUT_BYTES = 256;
function quoteNeed(text, room) {
    if ((0,_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .sizeOf */ .$d)(text) > 2 * room)
        return { need: (0,_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .sizeOf */ .$d)(text) };
    const whole = (0,_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .quoted */ .TL)(text);
    return { whole, need: (0,_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .sizeOf */ .$d)(whole) };
}
/**
 * `text` as a quote block (markdown.ts `quoted`) of at most `bytes`: whole when it fits, else the quote of
 * a beginning that does (a note at its end), '' when too little room for one. Escapes make a quote longer
 * than its text, by a share that depends on the text: a beginning is tried, then scaled by how far its
 * quote missed (2% short of it), a few quotes of at most `bytes` each; a huge answer is never quoted whole.
 * `known`: the text's quoteNeed, when worked out already.
 */
function quotedWithin(text, bytes, known = quoteNeed(text, bytes)) {
    if (known.whole !== undefined && known.need <= bytes)
        return known.whole;
    if (bytes < MIN_CUT_BYTES)
        return '';
    // Only a beginning of `bytes` can be kept: no try measures the rest again.
    const head = new _service_stream_json_js__WEBPACK_IMPORTED_MODULE_2__/* .CutString */ .wc(text.slice(0, bytes), text.length, (0,_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .sizeOf */ .$d)(text));
    const growth = known.whole === undefined ? 1 : known.need / Math.max(1, (0,_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .sizeOf */ .$d)(text));
    let keep = Math.min(bytes, Math.floor(bytes / growth));
    for (let tries = 0; tries < 20 && keep > 0; tries++) {
        const tried = (0,_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .quoted */ .TL)((0,_service_cut_js__WEBPACK_IMPORTED_MODULE_1__/* .cutText */ .IN)(head, keep).text);
        const size = (0,_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .sizeOf */ .$d)(tried);
        if (size <= bytes)
            return tried;
        keep = Math.min(keep - 1, Math.floor(keep * (bytes / size) * 0.98));
    }
    const note = (0,_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .quoted */ .TL)((0,_service_cut_js__WEBPACK_IMPORTED_MODULE_1__/* .cutText */ .IN)(head, 0).text);
    return (0,_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .sizeOf */ .$d)(note) <= bytes ? note : '';
}
/** One check collapsed: its question, the answer shown (of the first run that did not pass), its failed assertions. */
function checkBlock(result, room) {
    const failures = result.failed
        .slice(0, LISTED_ASSERTIONS)
        .map((failure) => `- ${(0,_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .inlineFlowText */ .je)((0,_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .shortLine */ .tl)(failure, ASSERTION_LINE))}`);
    if (result.failed.length > LISTED_ASSERTIONS)
        failures.push(`- _and ${result.failed.length - LISTED_ASSERTIONS} more; the results file lists all_`);
    const assertions = failures.length > 0 ? `\n\n**Failed assertions**\n\n${failures.join('\n')}` : '';
    const shownRun = result.runs.find((run) => run.verdict !== 'passed') ?? result.runs[result.runs.length - 1];
    const answerTitle = result.runs.length > 1 && shownRun ? `**Answer** (run ${shownRun.run})` : '**Answer**';
    const block = (question, answer) => (0,_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .details */ .zH)(blockTitle(result), `**Question**\n\n${question}\n\n${answerTitle}\n\n${answer}${assertions}`);
    // The question is short in practice: it gets what it needs up to a quarter; the answer the rest.
    const textRoom = Math.max(0, room - (0,_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .sizeOf */ .$d)(block('', '')));
    const question = quotedWithin(result.question, Math.floor(textRoom / 4));
    const answer = result.answer === '' ? '_No answer._' : quotedWithin(result.answer, textRoom - (0,_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .sizeOf */ .$d)(question));
    return block(question, answer);
}
/** The smallest block a check can have (its answer and question empty): below that it is left out. */
const emptyBlockSize = (result) => (0,_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .sizeOf */ .$d)(checkBlock({ ...result, question: '', answer: '' }, 0)) + MIN_CUT_BYTES;
function hiddenNote(count, what, options) {
    return `_${count} more ${what} not shown (to stay within GitHub's size limit); ${options.fullResultsAt} lists all._`;
}
/**
 * A report within `options.limit` bytes: the head, the table (at most half: rows past it are counted in
 * a note), then the blocks. Blocks whose empty form does not fit are left out; the others share the
 * rest equally, so the answers are what is cut first.
 */
function layoutReport(items, head, parts, options) {
    let shown = items;
    let table = parts.table(items);
    if ((0,_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .sizeOf */ .$d)(head + table) > options.limit / 2) {
        let size = (0,_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .sizeOf */ .$d)(head + parts.table([]));
        let kept = 0;
        for (const item of items) {
            size += (0,_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .sizeOf */ .$d)(parts.table([item])) - (0,_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .sizeOf */ .$d)(parts.table([]));
            if (size > options.limit / 2)
                break;
            kept += 1;
        }
        shown = items.slice(0, kept);
        table = `${parts.table(shown)}\n${hiddenNote(items.length - kept, 'checks', options)}\n`;
    }
    const top = `${head}\n${table}`;
    let room = options.limit - (0,_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .sizeOf */ .$d)(top) - 512;
    const blocked = [];
    for (const item of shown) {
        const { prepared, empty } = parts.prepare(item);
        if (empty > room)
            break;
        blocked.push({ item, prepared, empty });
        room -= empty;
    }
    const extra = Math.floor(room / Math.max(1, blocked.length));
    const blocks = blocked.map(({ item, prepared, empty }) => parts.block(item, prepared, empty + extra));
    const note = blocked.length < items.length
        ? `\n${hiddenNote(items.length - blocked.length, 'answers', options)}\n`
        : '';
    return `${top}\n${blocks.join('\n')}${note}`;
}
/**
 * The whole report within `options.limit` bytes: the verdict in one bold line, the table before the
 * answers (rows and blocks in reading order), answers cut first.
 */
function renderChecksReport(results, verdict, options) {
    const head = `${options.heading}\n\n**${markdownVerdictLine(verdict, errorsOf(results))}**\n\n${markdownAdvisoryLine(verdict)}${runsLine(verdict)}\n`;
    return layoutReport(inReadingOrder(results), head, {
        table: renderChecksTable,
        prepare: (result) => ({ prepared: undefined, empty: emptyBlockSize(result) }),
        block: (result, _, room) => checkBlock(result, room - MIN_CUT_BYTES),
    }, options);
}
/** The job summary of a suite: within GitHub's 1 MiB per step, answers included. */
const SUMMARY_LIMIT = 900 * 1024;
function renderChecksSummary(results, verdict) {
    return renderChecksReport(results, verdict, {
        heading: '### Flow checks',
        limit: SUMMARY_LIMIT,
        fullResultsAt: 'the file named by the `results-file` output',
    });
}


/***/ }),

/***/ 49046:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Ap: () => (/* binding */ flowSection)
/* harmony export */ });
/* unused harmony exports ANSWER_LIMIT, flowFailure */
/* harmony import */ var _checks_markdown_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8023);
/* harmony import */ var _markdown_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(14702);


const ANSWER_LIMIT = 64 * 1024;
function cut(text, limit) {
    if (text.length <= limit)
        return { text, note: '' };
    return {
        text: `${text.slice(0, limit)}…`,
        note: `\n_Cut to ${Math.round(limit / 1024)} KiB of ${Math.ceil(text.length / 1024)} KiB._\n`,
    };
}
/** The verdict line of the single question, as a suite of one shows it (bold), and what failed. */
function verdictPart(verdict, failed) {
    if (!verdict)
        return '';
    const list = failed.map((failure) => `- ${(0,_markdown_js__WEBPACK_IMPORTED_MODULE_1__/* .inlineFlowText */ .je)((0,_markdown_js__WEBPACK_IMPORTED_MODULE_1__/* .shortLine */ .tl)(failure, 500))}`).join('\n');
    return `**${(0,_checks_markdown_js__WEBPACK_IMPORTED_MODULE_0__/* .markdownVerdictLine */ .Ty)(verdict, 0)}**\n\n${failed.length > 0 ? `**Failed assertions**\n\n${list}\n\n` : ''}`;
}
/**
 * The verdict (when the run was judged: not the flow run after indexing), then the question and the
 * answer as quotes (they wrap), each cut at `limit` characters.
 */
function flowSection(flow, verdict, failed = [], limit = ANSWER_LIMIT) {
    const question = cut(flow.question, limit);
    const answer = cut(flow.result, limit);
    return (`### Flow run\n\n${verdictPart(verdict, failed)}Question:\n\n${(0,_markdown_js__WEBPACK_IMPORTED_MODULE_1__/* .quoted */ .TL)(question.text)}\n${question.note}\n` +
        `Answer:\n\n${(0,_markdown_js__WEBPACK_IMPORTED_MODULE_1__/* .quoted */ .TL)(answer.text)}\n${answer.note}`);
}
/** A run that failed: the verdict (an error), the question and the service's message. */
function flowFailure(question, message, verdict, limit = ANSWER_LIMIT) {
    const shown = cut(question, limit);
    return (`### Flow run failed\n\n**${markdownVerdictLine(verdict, verdict.failed)}**\n\n` +
        `Question:\n\n${quoted(shown.text)}\n${shown.note}\n` +
        `${fenced(message)}\n`);
}


/***/ }),

/***/ 45521:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   $8: () => (/* binding */ indexOutputs),
/* harmony export */   J: () => (/* binding */ indexCountsLine),
/* harmony export */   LL: () => (/* binding */ heldProgress),
/* harmony export */   ez: () => (/* binding */ logIndexResult),
/* harmony export */   fc: () => (/* binding */ logSkipped),
/* harmony export */   ot: () => (/* binding */ startProgress),
/* harmony export */   uf: () => (/* binding */ indexOutputSpecs),
/* harmony export */   wL: () => (/* binding */ flowOutputSpecs)
/* harmony export */ });
/* unused harmony export failedFlowOutputSpecs */
/* harmony import */ var _flow_answer_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1500);
/* harmony import */ var _units_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(61996);
/* harmony import */ var _log_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(25625);
/* harmony import */ var _by_outcome_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(29264);
/* harmony import */ var _causes_js__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(40304);
/* harmony import */ var _planned_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(89580);
/* harmony import */ var _select_shard_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(86768);







/** The lists of names by outcome, in one pass over the items. */
function indexOutputs(report) {
    const names = (0,_by_outcome_js__WEBPACK_IMPORTED_MODULE_5__/* .splitByOutcome */ .A)(report.items, (item) => item.name);
    // In this order: the outputs and the counts line list them so.
    return {
        uploaded: names.uploaded,
        updated: names.updated,
        skipped: report.skipped.map((s) => s.name),
        failed: names.failed,
        removed: names.removed,
        left: report.left.map((document) => document.name),
    };
}
/**
 * The index action's outputs (but `report-file`): the five lists, their exact counts, the base, and the
 * flow run's outputs when it ran. The report file holds the same fields uncut.
 */
function indexOutputSpecs(report, outputs = indexOutputs(report)) {
    const lists = Object.entries(outputs);
    const specs = [
        ...lists.map(([name, names]) => ({ name, list: names })),
        ...lists.map(([name, names]) => ({ name: `${name}-count`, count: names.length })),
        { name: 'base', exact: report.base?.sha ?? '' },
        { name: 'base-source', exact: report.base?.source ?? 'none' },
        { name: 'record', exact: report.record?.source === 'state' ? (report.record.from ?? '') : '' },
        { name: 'shard', exact: report.shard ? (0,_select_shard_js__WEBPACK_IMPORTED_MODULE_4__/* .shardLabel */ .$_)(report.shard) : '' },
        { name: 'pull-request-changed', exact: report.pullRequestChanged?.toString() ?? '' },
        ...(0,_planned_js__WEBPACK_IMPORTED_MODULE_3__/* .plannedOutputSpecs */ .e)(report),
    ];
    if (report.flow)
        specs.push(...flowOutputSpecs(report.flow));
    else if (report.flowError)
        specs.push(...failedFlowOutputSpecs(undefined));
    return specs;
}
/** `result`, `response` and `outputs` of a flow run (already cut under 1 MiB by the run). */
function flowOutputSpecs(flow) {
    return [
        { name: 'result', text: flow.result, wholeBytes: flow.resultBytes },
        { name: 'response', json: flow.response },
        { name: 'outputs', json: (0,_flow_answer_js__WEBPACK_IMPORTED_MODULE_0__/* .outputsOf */ .Y)(flow.response) },
    ];
}
/** The outputs of a run that failed: empty `result`, and the answer when the service gave one. */
function failedFlowOutputSpecs(response) {
    return [
        { name: 'result', exact: '' },
        response === undefined ? { name: 'response', exact: '' } : { name: 'response', json: response },
        { name: 'outputs', json: (0,_flow_answer_js__WEBPACK_IMPORTED_MODULE_0__/* .outputsOf */ .Y)(response) },
    ];
}
/** One line of counts: what the step did, for an error that must say it. */
function indexCountsLine(report, outputs = indexOutputs(report)) {
    // Never a bare "removed": it would read as deleted.
    const words = {
        removed: 'removed from answers',
        left: 'left in the knowledge base',
    };
    const counts = Object.entries(outputs).map(([name, names]) => `${words[name] ?? name} ${names.length}`);
    return `${report.dryRun ? 'dry run, nothing sent: ' : ''}${counts.join(', ')}`;
}
// GitHub shows 10 error annotations per step: one per cause, and the rest folded into the last one.
const ANNOTATED_CAUSES = 9;
const NAMES_PER_ANNOTATION = 5;
/**
 * One error annotation per cause (count and first names), every failed item as a plain log line, and a
 * closing count, so the log alone tells what happened and the annotations stay readable.
 */
function logIndexResult(report, log, outputs = indexOutputs(report), 
/** false: the counts are shown elsewhere (the CLI's summary), only the failures are logged. */
resultLine = true) {
    const failed = outputs.failed.length > 0 ? report.items.filter((i) => i.outcome === 'failed') : [];
    for (const item of failed) {
        log.info(`${item.kind} ${(0,_log_js__WEBPACK_IMPORTED_MODULE_2__/* .displayName */ .QC)(item.name)} failed after ${item.attempts} attempt(s): ${item.error ?? 'unknown error'}`);
    }
    const causes = (0,_causes_js__WEBPACK_IMPORTED_MODULE_6__/* .groupFailures */ .BR)(failed);
    const names = (items) => (0,_causes_js__WEBPACK_IMPORTED_MODULE_6__/* .firstNames */ .d9)(items.map((i) => i.name), NAMES_PER_ANNOTATION, _log_js__WEBPACK_IMPORTED_MODULE_2__/* .displayName */ .QC);
    for (const { cause, items } of causes.slice(0, ANNOTATED_CAUSES)) {
        log.error(`${items.length} item(s) failed: ${cause} (${names(items)}). The "failed" output and the job summary list all.`);
    }
    const rest = causes.slice(ANNOTATED_CAUSES);
    if (rest.length > 0) {
        const items = rest.flatMap((c) => c.items);
        log.error(`${items.length} more item(s) failed for ${rest.length} other cause(s) (${names(items)}); the job summary groups them by cause.`);
    }
    if (outputs.removed.length > 0) {
        log.notice(`${outputs.removed.length} removed document(s) no longer answer: a placeholder replaced each in the ` +
            `knowledge base (${names(report.items.filter((i) => i.outcome === 'removed'))}).`);
    }
    if (!resultLine)
        return;
    if (report.dryRun)
        log.notice(`Dry run: ${report.planned.length} planned, ${outputs.skipped.length} skipped, nothing sent.`);
    else
        log.info(`Uploaded ${outputs.uploaded.length}, updated ${outputs.updated.length}, skipped ${outputs.skipped.length}, ` +
            `failed ${outputs.failed.length}, removed from answers ${outputs.removed.length}, ` +
            `left in the knowledge base ${outputs.left.length}.`);
}
// Skips a user should act on (a warning); the others are expected and only logged.
const WARNED_SKIPS = new Set([
    'too-large',
    'outside-workspace',
    'unreadable',
    'bad-name',
    'name-conflict',
]);
const INDIVIDUAL_SKIP_WARNINGS = 5;
/** Every skip as a log line, and warning annotations (at most one per reason) for those that need attention. */
function logSkipped(skipped, log) {
    const warned = new Map();
    for (const item of skipped) {
        log.info(`Skipped ${(0,_log_js__WEBPACK_IMPORTED_MODULE_2__/* .displayName */ .QC)(item.name)}: ${item.detail}`);
        if (!WARNED_SKIPS.has(item.reason))
            continue;
        const list = warned.get(item.reason) ?? [];
        list.push(item);
        warned.set(item.reason, list);
    }
    // A few skips are each worth their own warning (name and reason); more are grouped by reason, since
    // GitHub shows only 10 warning annotations per step.
    const total = [...warned.values()].reduce((n, items) => n + items.length, 0);
    if (total <= INDIVIDUAL_SKIP_WARNINGS) {
        for (const item of [...warned.values()].flat())
            log.warning(`Skipped ${(0,_log_js__WEBPACK_IMPORTED_MODULE_2__/* .displayName */ .QC)(item.name)}: ${item.detail}`);
        return;
    }
    for (const items of warned.values()) {
        const first = items[0];
        const names = (0,_causes_js__WEBPACK_IMPORTED_MODULE_6__/* .firstNames */ .d9)(items.map((i) => i.name), NAMES_PER_ANNOTATION, _log_js__WEBPACK_IMPORTED_MODULE_2__/* .displayName */ .QC);
        log.warning(items.length === 1
            ? `Skipped ${(0,_log_js__WEBPACK_IMPORTED_MODULE_2__/* .displayName */ .QC)(first.name)}: ${first.detail}`
            : `Skipped ${items.length} files (${first.reason}; ${names}), e.g. ${(0,_log_js__WEBPACK_IMPORTED_MODULE_2__/* .displayName */ .QC)(first.name)}: ` +
                `${first.detail.replace(/\.$/, '')}. The "skipped" output and the job summary list all.`);
    }
}
/**
 * The send's progress, told to `forward` only once `show` is called (a sync that sends while it reads
 * its drafts logs its plan first): then the latest at once, and every later update as it comes.
 */
function heldProgress(forward) {
    let shown = false;
    let latest;
    return {
        update(progress) {
            latest = progress;
            if (shown)
                forward(progress);
        },
        show() {
            shown = true;
            if (latest)
                forward(latest);
        },
    };
}
/** One progress line at least every `intervalMs` while a long run goes on. */
function startProgress(log, total, intervalMs = 5000) {
    const started = Date.now();
    let done = 0;
    let bytes = 0;
    const print = () => {
        const seconds = Math.max((Date.now() - started) / 1000, 0.001);
        log.info(`Progress: ${done}/${total} batches done, ${(0,_units_js__WEBPACK_IMPORTED_MODULE_1__/* .formatBytes */ .z3)(bytes)} sent (${(0,_units_js__WEBPACK_IMPORTED_MODULE_1__/* .formatBytes */ .z3)(bytes / seconds)}/s)`);
    };
    const timer = setInterval(print, intervalMs);
    timer.unref();
    return {
        update(progress) {
            done = progress.done;
            bytes = progress.bytes;
        },
        stop() {
            clearInterval(timer);
        },
    };
}


/***/ }),

/***/ 14702:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  Yv: () => (/* binding */ BudgetedDocument),
  Uy: () => (/* binding */ collapsedList),
  zH: () => (/* binding */ details),
  mG: () => (/* binding */ inline),
  je: () => (/* binding */ inlineFlowText),
  l0: () => (/* binding */ inlineHtml),
  vd: () => (/* binding */ neutraliseReferences),
  TL: () => (/* binding */ quoted),
  tl: () => (/* binding */ shortLine),
  $d: () => (/* binding */ sizeOf),
  tp: () => (/* binding */ table)
});

// UNUSED EXPORTS: fenced, neutraliseMentions

// EXTERNAL MODULE: ./src/log.ts
var log = __webpack_require__(25625);
;// CONCATENATED MODULE: ./src/report/shared-room.ts
// Lists that share one room (the summary's collapsed lists, a step's outputs) are given max-min fair
// shares of it by what each needs. Measuring a need means making every line (or JSON item) of a list:
// for 100,000 documents, work and garbage for lines that are never shown.
/**
 * What each list needs of `room`, measured only as far as a share can reach: no share is larger than the
 * room, so a list is measured (`upTo`) until it is known to need more; when two or more do, their order
 * decides who gets a rounding unit, and those are measured whole (`upTo` with no cap).
 */
function needsWithin(lists, room, upTo) {
    const cap = Math.max(0, room);
    const needs = lists.map((list) => upTo(list, cap));
    if (needs.filter((need) => need > cap).length > 1)
        needs.forEach((need, index) => {
            if (need > cap)
                needs[index] = upTo(lists[index], Number.POSITIVE_INFINITY);
        });
    return needs;
}

;// CONCATENATED MODULE: ./src/report/markdown.ts
// Markdown pieces for the job summary and the pull-request comment. Untrusted text (file names,
// service errors, answers) only ever enters through `inline`, `inlineHtml` or `fenced`, so it cannot
// open HTML, break a table, close a fence or ping someone.


/** `@name` pings a person or a team on GitHub; a zero-width space after `@` keeps it readable and silent. */
function neutraliseMentions(text) {
    return text.replace(/@(?=[A-Za-z0-9_-])/g, '@\u200b');
}
const entities = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** One line of text inside HTML (`<summary>`): entities only, markdown is not parsed there. */
function inlineHtml(text) {
    return entities(neutraliseMentions((0,log/* displayName */.QC)(text)));
}
// Characters that no step of `inline` changes: a text made of them only (most file names) is its own
// markdown, found by one test instead of eight replacements per line of a long list.
const UNCHANGED_INLINE = /^[A-Za-z0-9 ./,:;=?%$^'"(){}-]*$/;
/** One line of text in markdown (a table cell, a list item): no HTML, no markup, no column breaks. */
function inline(text) {
    if (UNCHANGED_INLINE.test(text))
        return text;
    const escaped = neutraliseMentions((0,log/* displayName */.QC)(text)).replace(/([\\*_[\]#~!+])/g, '\\$1');
    return entities(escaped).replace(/\|/g, '&#124;').replace(/`/g, '&#96;');
}
/** At most `max` characters on one line, with an ellipsis when cut (errors must not widen a table). */
function shortLine(text, max) {
    const line = text.replace(/\s+/g, ' ').trim();
    return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}
/**
 * A fenced block that the content cannot close: the fence is longer than any backtick run inside.
 * Escape sequences and control characters (a flow's answer may carry them) are removed first.
 */
function fenced(raw) {
    const text = sanitize(raw);
    const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
    const fence = '`'.repeat(Math.max(3, longest + 1));
    return `${fence}text\n${neutraliseMentions(text)}\n${fence}`;
}
// What gives a line of prose a meaning in GitHub-flavoured markdown: emphasis and strikethrough, code, links
// and images, HTML and entities, headings, lists, quotes, tables, setext underlines, math. Each is made
// literal with a backslash (CommonMark escapes any ASCII punctuation).
const PROSE_MARKUP = /[\\`*_[\]<>&#+\-!|~=$]/g;
// An ordered list item (`1.`, `2)`) after its indent: its number is text, only the mark after it needs the escape.
const ORDERED_ITEM = /^([ \t]*\d{1,9})([.)])/gm;
const NO_BREAK_SPACE = '\u00a0';
// A commit id GitHub links: 7 to 40 hex characters standing alone (`a5c3785`, `jlord@a5c3785`,
// `owner/repo@a5c3785`). Cut into pieces of at most 6, none is an id whatever GitHub counts as its edge.
const COMMIT_ID = /(?<![0-9A-Za-z_])[0-9a-f]{7,40}(?![0-9A-Za-z_])/gi;
const COMMIT_ID_PIECE = /[0-9a-f]{1,6}/gi;
// GitHub links a bare hex run only when it is a commit of the repository. Nearly every commit id mixes
// digits and letters; a number (a phone number, an order id) or a word ("defaced") is left whole, so that
// copying it from the comment carries no invisible characters. After `@` it is a commit reference.
const MIXED_HEX = /^(?=.*\d)(?=.*[a-f])/i;
const breakCommitId = (id, offset, text) => MIXED_HEX.test(id) || /@\u200b?$/.test(text.slice(Math.max(0, offset - 2), offset))
    ? id.match(COMMIT_ID_PIECE).join('\u200b')
    : id;
/**
 * Links, mentions and references GitHub finds in the rendered text, where no escape is left: a zero-width
 * space after `@` (a mention, an e-mail address), after `#` or `GH-` before a number (an issue reference,
 * `owner/repo#12` included, which would also cross-link that issue), in `://` and after `www` (a bare
 * address GitHub would link), and every 6 characters of what may be a commit id.
 */
function neutraliseReferences(text) {
    return neutraliseMentions(text)
        .replace(/#(?=\d)/g, '#\u200b')
        .replace(/\b(GH-)(?=\d)/gi, '$1\u200b')
        .replace(/:(?=\/\/)/g, ':\u200b')
        .replace(/\b(www)(?=\.)/gi, '$1\u200b')
        .replace(COMMIT_ID, breakCommitId);
}
/**
 * `inline` for what a flow wrote (a judge's reason, a failure quoting an answer): its references and
 * addresses link nothing either, as in the quoted answers.
 */
function inlineFlowText(text) {
    return inline(neutraliseReferences(text));
}
/**
 * Untrusted prose (a flow's question or answer) as a quote block, which GitHub wraps (a fenced block does
 * not: a long answer would scroll sideways). Nothing in it renders as markdown or HTML, nothing links or
 * mentions: markup is escaped, a line's indent becomes no-break spaces (no indented code). Its line breaks
 * are kept (a backslash at a line's end), blank lines part paragraphs. Escape sequences and control
 * characters are removed first.
 */
function quoted(raw) {
    // Lines trimmed one by one and blank ones dropped at both ends by index: a pattern anchored at a line's
    // end would backtrack over a long run of spaces or line breaks in quadratic time.
    const lines = (0,log/* sanitize */.aj)(raw)
        .split('\n')
        .map((line) => line.trimEnd());
    let first = 0;
    while (first < lines.length && lines[first] === '')
        first++;
    let end = lines.length;
    while (end > first && lines[end - 1] === '')
        end--;
    if (first === end)
        return '>';
    const text = neutraliseReferences(lines.slice(first, end).join('\n'))
        .replace(PROSE_MARKUP, '\\$&')
        .replace(ORDERED_ITEM, '$1\\$2')
        .replace(/^[ \t]+/gm, (indent) => indent.replace(/ /g, NO_BREAK_SPACE).replace(/\t/g, NO_BREAK_SPACE.repeat(4)));
    return `> ${text.replace(/\n+/g, (breaks) => (breaks.length > 1 ? '\n>\n> ' : '\\\n> '))}`;
}
function table(header, rows) {
    const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
    for (const row of rows)
        lines.push(`| ${row.join(' | ')} |`);
    return lines.join('\n') + '\n';
}
/** A collapsed block; the summary line is HTML, the body markdown (hence the blank lines). */
function details(summaryHtml, body) {
    return `<details><summary>${summaryHtml}</summary>\n\n${body.trimEnd()}\n\n</details>\n`;
}
/** The size GitHub's limits are measured in is at most this (UTF-8 bytes ≥ UTF-16 characters). */
const sizeOf = (text) => Buffer.byteLength(text);
/**
 * A document assembled under a size limit, in reading order: what comes first is what matters most,
 * so later parts are the ones cut. Lists are cut item by item with a note saying how many are missing.
 */
class BudgetedDocument {
    limit;
    parts = [];
    used = 0;
    constructor(limit) {
        this.limit = limit;
    }
    get remaining() {
        return this.limit - this.used;
    }
    /** Adds the text when it fits, else nothing; says which. `bytes`: its size, when already known. */
    add(text, bytes = sizeOf(text)) {
        const size = bytes + 1;
        if (size > this.remaining)
            return false;
        this.parts.push(text);
        this.used += size;
        return true;
    }
    /**
     * Text and collapsed lists in order. The lists share what room is left fairly: the short ones are
     * shown whole and the long ones split the rest equally, so one huge list cannot push the others out
     * and no room is left unused while a list is cut. A cut list ends with a note.
     */
    addAll(parts) {
        const texts = parts.filter((p) => typeof p === 'string');
        const lists = parts.filter((p) => typeof p !== 'string');
        const textRoom = texts.reduce((n, t) => n + sizeOf(t) + 1, 0);
        const room = this.remaining - textRoom;
        const measured = lists.map(measuredList);
        const shares = fairShares(needsWithin(measured, room, measureUpTo), room);
        let list = 0;
        for (const part of parts) {
            if (typeof part === 'string') {
                this.add(part);
                continue;
            }
            const rendered = renderCollapsedList(part, shares[list], measured[list]);
            list++;
            if (rendered)
                this.add(rendered.text, rendered.bytes);
        }
    }
    toString() {
        return this.parts.join('\n');
    }
}
/** A collapsed list of `items`, each shown as `line` makes it. */
function collapsedList(summaryHtml, items, line, note) {
    return { summaryHtml, count: items.length, lineAt: (index) => line(items[index]), note };
}
/** Max-min fair shares of `room`: the smallest needs first, each at most an equal part of what is left. */
function fairShares(needs, room) {
    const shares = new Array(needs.length).fill(0);
    const order = needs.map((need, index) => ({ need, index })).sort((a, b) => a.need - b.need);
    let left = Math.max(0, room);
    order.forEach(({ need, index }, position) => {
        const share = Math.min(need, Math.floor(left / (order.length - position)));
        shares[index] = share;
        left -= share;
    });
    return shares;
}
const LIST_MARKUP = (list) => sizeOf(`<details><summary>${list.summaryHtml}</summary>\n\n`) + sizeOf('\n</details>\n') + NOTE_ROOM + 1;
const measuredList = (list) => ({
    list,
    need: list.count === 0 ? 0 : LIST_MARKUP(list),
    lines: [],
    sizes: [],
});
/**
 * The room a list needs (0 when empty: it is not shown), measured line by line until it passes `cap`: the
 * lines made are kept to be shown. With no cap (the lists over it compared, shared-room.ts) the lines past
 * the kept ones are made, measured and dropped.
 */
function measureUpTo(measured, cap) {
    const { list } = measured;
    if (list.count === 0)
        return 0;
    const keep = Number.isFinite(cap);
    for (let index = measured.lines.length; index < list.count && measured.need <= cap; index++) {
        const line = `- ${list.lineAt(index)}`;
        const size = sizeOf(line) + 1;
        if (keep) {
            measured.lines.push(line);
            measured.sizes.push(size);
        }
        measured.need += size;
    }
    return measured.need;
}
const NOTE_ROOM = 200;
/**
 * A `<details>` list within `room` bytes (items cut with a note), or undefined when even that does not
 * fit. `made` are its first lines, already made when it was measured.
 */
function renderCollapsedList(list, room, made) {
    if (list.count === 0)
        return undefined;
    const open = `<details><summary>${list.summaryHtml}</summary>\n\n`;
    const close = '\n</details>\n';
    let size = LIST_MARKUP(list);
    if (size > room)
        return undefined;
    // The lines made while measuring, cut or continued in place: a long list's lines are not copied.
    const lines = made.lines;
    let linesBytes = 0;
    let count = 0;
    for (; count < list.count; count++) {
        const line = lines[count] ?? `- ${list.lineAt(count)}`;
        const lineSize = made.sizes[count] ?? sizeOf(line) + 1;
        if (size + lineSize > room)
            break;
        lines[count] = line;
        size += lineSize;
        linesBytes += lineSize;
    }
    lines.length = count;
    const missing = list.count - count;
    const tail = missing > 0 ? `\n\n${list.note(missing)}\n` : '\n';
    // Each line's size counts the newline after it; joined, the last has none.
    const bytes = sizeOf(open) + Math.max(0, linesBytes - 1) + sizeOf(tail) + sizeOf(close);
    return { text: `${open}${lines.join('\n')}${tail}${close}`, bytes };
}


/***/ }),

/***/ 89580:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   N: () => (/* binding */ plannedEntries),
/* harmony export */   e: () => (/* binding */ plannedOutputSpecs)
/* harmony export */ });
/* harmony import */ var _plan_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(21733);

function plannedEntries(report) {
    if (!report.dryRun && !report.preview)
        return [];
    return Array.from(report.planned, (item) => ({ name: item.name, operation: (0,_plan_js__WEBPACK_IMPORTED_MODULE_0__/* .plannedOperation */ .aZ)(item) }));
}
function plannedOutputSpecs(report) {
    const planned = plannedEntries(report);
    return [
        { name: 'planned', list: planned },
        { name: 'planned-count', count: planned.length },
    ];
}


/***/ }),

/***/ 20649:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   K: () => (/* binding */ redactDeep),
/* harmony export */   T: () => (/* binding */ redactForSummary)
/* harmony export */ });
/**
 * Every string inside a value with the keys masked. Rendering escapes text (`_` becomes `\_`), after
 * which a key would no longer be found, so keys are removed before anything is rendered.
 */
function redactDeep(value, secrets) {
    if (typeof value === 'string')
        return secrets.redact(value);
    // A list or object in which nothing changed is returned as it is: a report of 100,000 documents is
    // not copied whole (twice: outputs and summary) only to find no key in it.
    if (Array.isArray(value)) {
        let out;
        for (let i = 0; i < value.length; i++) {
            const redacted = redactDeep(value[i], secrets);
            if (redacted !== value[i])
                (out ??= value.slice())[i] = redacted;
        }
        return (out ?? value);
    }
    if (isListView(value))
        return redactedView(value, secrets);
    if (value !== null && typeof value === 'object') {
        // Own enumerable keys, as Object.entries lists them, without a pair made per field of every item.
        const record = value;
        let out;
        for (const k in record) {
            if (!Object.prototype.propertyIsEnumerable.call(record, k))
                continue;
            const v = record[k];
            if (typeof v !== 'string' && (v === null || typeof v !== 'object'))
                continue;
            const redacted = redactDeep(v, secrets);
            if (redacted !== v)
                (out ??= { ...record })[k] = redacted;
        }
        return (out ?? value);
    }
    return value;
}
/** A list made item by item when it is iterated (the plan's items): not an array, not a Map or Set. */
function isListView(value) {
    return (value !== null &&
        typeof value === 'object' &&
        typeof value[Symbol.iterator] === 'function' &&
        typeof value.length === 'number' &&
        !ArrayBuffer.isView(value));
}
/** The same list, each item redacted as it is listed: nothing is copied until something reads it. */
function redactedView(view, secrets) {
    return {
        length: view.length,
        *[Symbol.iterator]() {
            for (const item of view)
                yield redactDeep(item, secrets);
        },
    };
}
/**
 * A report to render with its keys masked, in proportion to what is shown: every field now but the lists
 * of items (`items`, `skipped`, `left`), whose texts the renderer masks with `maskItemText` as it shows
 * each item. A run of 100,000 documents is not walked whole for a summary that lists part of it.
 */
function redactForSummary(report, secrets) {
    const { items, skipped, left, ...rest } = report;
    return {
        report: { ...redactDeep(rest, secrets), items, skipped, left },
        maskItemText: (text) => secrets.redact(text),
    };
}


/***/ }),

/***/ 66757:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   aS: () => (/* binding */ writeReportFile),
/* harmony export */   tG: () => (/* binding */ ReportFileError)
/* harmony export */ });
/* unused harmony export reportFilePath */
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(77598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(51455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(76760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_2__);
/* harmony import */ var _temp_folder_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(24658);
// The step's full result as a JSON file: every output uncut, under the same names, for a later step or
// actions/upload-artifact. Written piece by piece: 100,000 names never become one string in memory.




// Pieces are gathered up to this size before each write.
const CHUNK_CHARS = 64 * 1024;
/** A new file name in RUNNER_TEMP (the OS's temporary folder off a runner), unique per step. */
function reportFilePath(kind, env = process.env) {
    return join(tempFolder(env).path, `kb-sync-${kind}-${randomUUID()}.json`);
}
/** A file that could not be written, named, with the system's reason (ENOSPC, EACCES, …). */
class ReportFileError extends Error {
    path;
    reason;
    constructor(path, reason) {
        super(`The report file ${path} could not be written (${reason}).`);
        this.path = path;
        this.reason = reason;
        this.name = 'ReportFileError';
    }
}
/**
 * Writes `fields` as one JSON object to `path`; `redact` is applied to every piece of JSON text before it
 * is written (keys never reach the file). Throws a ReportFileError naming the file.
 */
async function writeReportFile(path, fields, redact = (text) => text) {
    let handle;
    try {
        handle = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.open)(path, 'w');
        const file = handle;
        // Pieces gather in memory and are written a chunk at a time: one await per chunk, not per name.
        let pending = '{';
        const flushIfFull = async () => {
            if (pending.length < CHUNK_CHARS)
                return;
            await file.write(pending);
            pending = '';
        };
        for (const [index, [name, value]] of fields.entries()) {
            pending += `${index > 0 ? ',' : ''}\n  ${JSON.stringify(name)}: `;
            if (!Array.isArray(value)) {
                pending += redact(JSON.stringify(value) ?? 'null');
                await flushIfFull();
                continue;
            }
            pending += '[';
            for (let at = 0; at < value.length; at++) {
                pending += `${at > 0 ? ',' : ''}\n    ${redact(JSON.stringify(value[at]) ?? 'null')}`;
                if (pending.length >= CHUNK_CHARS)
                    await flushIfFull();
            }
            pending += value.length > 0 ? '\n  ]' : ']';
        }
        pending += '\n}\n';
        await file.write(pending);
        await file.close();
        handle = undefined;
    }
    catch (error) {
        await handle?.close().catch(() => undefined);
        throw new ReportFileError(path, (0,_temp_folder_js__WEBPACK_IMPORTED_MODULE_3__/* .reasonOf */ .A3)(error));
    }
}


/***/ }),

/***/ 53271:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  gW: () => (/* binding */ DraftScanner),
  KS: () => (/* binding */ SECTION_FILES),
  i7: () => (/* binding */ findDrafts)
});

// UNUSED EXPORTS: FRONT_MATTER_MAX_BYTES, IN_DRAFTS_FOLDER, frontMatterOf, mayBeDraft

// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(76760);
var external_node_path_default = /*#__PURE__*/__webpack_require__.n(external_node_path_);
// EXTERNAL MODULE: external "node:timers/promises"
var promises_ = __webpack_require__(58500);
;// CONCATENATED MODULE: ./src/select/document/front-matter.ts
// Front matter at a document's very top, in the three forms Hugo reads (Jekyll, Docusaurus, MkDocs and
// Astro read the first): YAML between `---` lines, TOML between `+++` lines, a JSON object. Only the
// file's beginning is given; the parsers are loaded at the first front matter that needs them.
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const DASH = 0x2d;
const PLUS = 0x2b;
const BRACE = 0x7b;
/**
 * Whether the head may open with front matter (`---`, `+++` or `{` after an optional BOM): most documents
 * have none, and are not decoded at all.
 */
function mayOpenFrontMatter(head) {
    const start = head.subarray(0, UTF8_BOM.length).equals(UTF8_BOM) ? UTF8_BOM.length : 0;
    const first = head[start];
    if (first === BRACE)
        return true;
    if (first !== DASH && first !== PLUS)
        return false;
    return head[start + 1] === first && head[start + 2] === first;
}
/** The front matter at the top of `text` and its format, or undefined when it has none (or is not closed). */
function frontMatterOf(text) {
    const body = text.startsWith('\ufeff') ? text.slice(1) : text;
    if (body.startsWith('{')) {
        // A JSON object's first key (or its end); not MDX's `{/* … */}`, Liquid's `{%`, a template's `{{`.
        if (!/^\{\s*["}]/.test(body))
            return undefined;
        const end = jsonObjectEnd(body);
        return end === undefined ? undefined : { format: 'json', text: body.slice(0, end) };
    }
    const format = body.startsWith('+++') ? 'toml' : 'yaml';
    const fence = format === 'toml' ? '\\+\\+\\+' : '---';
    const opening = new RegExp(`^${fence}[ \\t]*\\r?\\n`).exec(body);
    if (!opening)
        return undefined;
    const rest = body.slice(opening[0].length);
    // The closing line alone on its line (for YAML, its document end `...` too).
    const closingFence = format === 'toml' ? fence : `(?:---|\\.\\.\\.)`;
    const closing = new RegExp(`^${closingFence}[ \\t]*(?:\\r?\\n|$)`, 'm').exec(rest);
    return closing ? { format, text: rest.slice(0, closing.index) } : undefined;
}
/** Where the JSON object that opens `text` ends (its closing brace, outside strings), if it does. */
function jsonObjectEnd(text) {
    let depth = 0;
    let inString = false;
    for (let i = 0; i < text.length; i++) {
        const c = text[i];
        if (inString) {
            if (c === '\\')
                i++;
            else if (c === '"')
                inString = false;
        }
        else if (c === '"')
            inString = true;
        else if (c === '{')
            depth++;
        else if (c === '}' && --depth === 0)
            return i + 1;
    }
    return undefined;
}
/** The parsers, each loaded at the first front matter of its format. */
class FrontMatterParsers {
    yaml;
    toml;
    /** Whether `format` can be parsed now, without loading its parser first. */
    ready(format) {
        return format === 'json' || (format === 'yaml' ? this.yaml : this.toml) !== undefined;
    }
    /**
     * Loads the parser of `format`. The YAML parser (~290 KB) and the TOML one are chunks of their own in
     * the bundles: most syncs have no front matter, and kept in the action's main file they would be
     * compiled at every start.
     */
    async load(format) {
        if (format === 'yaml')
            this.yaml ??= (await __webpack_require__.e(/* import() */ 815).then(__webpack_require__.t.bind(__webpack_require__, 38815, 19))).parse;
        else if (format === 'toml')
            this.toml ??= (await __webpack_require__.e(/* import() */ 292).then(__webpack_require__.bind(__webpack_require__, 3292))).parse;
    }
    /** The front matter's data; throws the parser's error when it does not parse (its parser must be ready). */
    parse({ format, text }) {
        if (format === 'json')
            return JSON.parse(text);
        if (format === 'toml')
            return this.toml(text);
        // YAML 1.1, as Hugo's and Jekyll's parsers read it (`draft: yes` is true); integers as BigInt, so that
        // an integer (Hugo: non-zero is true) is told apart from a float (Hugo: not a boolean).
        return this.yaml(text, { version: '1.1', intAsBigInt: true });
    }
}

;// CONCATENATED MODULE: ./src/select/document/publication.ts
// Whether a page's front matter keeps it out of the site, by the rules of the generators themselves
// (checked against `hugo list drafts|future|expired`, Hugo 0.111: __tests__/fixtures/hugo-site/README.md).
// Pure: the front matter's data, the cascade it inherits, and the run's clock in; a reason out.
/** The keys of a front matter object, lower-cased; empty when it is not an object. */
function paramsOf(data) {
    const params = new Map();
    if (typeof data !== 'object' || data === null || Array.isArray(data) || data instanceof Date)
        return params;
    for (const [key, value] of Object.entries(data)) {
        const lower = key.toLowerCase();
        if (!params.has(lower))
            params.set(lower, value);
    }
    return params;
}
/**
 * Hugo's reading of a value as a boolean (spf13/cast's ToBoolE): a boolean; an integer, true unless 0
 * (YAML integers only: the YAML parser gives them as BigInt; TOML and JSON numbers are not booleans to
 * Hugo); a string strconv.ParseBool takes; null is false. Anything else is no boolean (undefined).
 */
function hugoBoolean(value) {
    if (typeof value === 'boolean')
        return value;
    if (value === null)
        return false;
    if (typeof value === 'bigint')
        return value !== 0n;
    if (typeof value === 'string') {
        if (TRUE_STRINGS.has(value))
            return true;
        if (FALSE_STRINGS.has(value))
            return false;
    }
    return undefined;
}
const TRUE_STRINGS = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE_STRINGS = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);
// Hugo's default front matter date keys, in the order it looks for them.
const PUBLISH_DATE_KEYS = ['publishdate', 'pubdate', 'published', 'date'];
const EXPIRY_DATE_KEYS = ['expirydate', 'unpublishdate'];
/**
 * Why a page with these parameters is not published at `now`, or undefined when it is; `cascaded`: some
 * come from its sections' cascades (the reason says so).
 */
function unpublishedBecause(params, now, cascaded = false) {
    const says = cascaded ? "its section's cascade says" : 'its front matter says';
    const by = cascaded ? " (by its section's cascade)" : '';
    const draft = params.get('draft');
    const published = params.has('published') ? hugoBoolean(params.get('published')) : undefined;
    if (draft !== undefined) {
        // With both, Hugo goes by `draft` (and warns).
        if (hugoBoolean(draft) === true)
            return `${says} draft: ${shown(draft)}`;
    }
    else if (published === false) {
        return `${says} published: ${shown(params.get('published'))}`;
    }
    const publishDate = firstDate(params, PUBLISH_DATE_KEYS);
    if (publishDate && publishDate.date.getTime() > now.getTime())
        return `its ${publishDate.key} (${publishDate.date.toISOString()}) is in the future${by}`;
    const expiryDate = firstDate(params, EXPIRY_DATE_KEYS);
    if (expiryDate && expiryDate.date.getTime() < now.getTime())
        return `its ${expiryDate.key} (${expiryDate.date.toISOString()}) has passed${by}`;
    return undefined;
}
function shown(value) {
    return typeof value === 'string' ? JSON.stringify(value) : String(value);
}
function firstDate(params, keys) {
    for (const key of keys) {
        const date = dateOf(params.get(key));
        if (date)
            return { key: KEY_NAMES[key] ?? key, date };
    }
    return undefined;
}
const KEY_NAMES = { publishdate: 'publishDate', expirydate: 'expiryDate' };
// A date, a date and time, with an optional offset: what front matter writes (TOML and YAML dates come
// parsed already; JSON and quoted ones as strings). No offset is UTC, Hugo's default time zone.
const DATE_STRING = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?\s*(Z|z|[+-]\d{2}:?\d{2})?$/;
/** The instant a front matter value names, or undefined when it names none. */
function dateOf(value) {
    // As a plain Date: a TOML date prints itself as written.
    if (value instanceof Date)
        return Number.isNaN(value.getTime()) ? undefined : new Date(value.getTime());
    if (typeof value !== 'string')
        return undefined;
    const match = DATE_STRING.exec(value.trim());
    if (!match)
        return undefined;
    const [, year, month, day, hour = '00', minute = '00', second = '00', fraction = '', zone = 'Z'] = match;
    const offset = /^[Zz]$/.test(zone) ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
    const date = new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}${fraction}${offset}`);
    return Number.isNaN(date.getTime()) ? undefined : date;
}

// EXTERNAL MODULE: ./src/select/document/read-head.ts
var read_head = __webpack_require__(7413);
;// CONCATENATED MODULE: ./src/select/document/drafts.ts
// Unpublished pages (skip-drafts): a markdown or MDX file the site does not publish, by its front matter
// (YAML, TOML or JSON at its very top: `draft`, `published: false`, a future publish date, a past expiry
// date — publication.ts), by a Hugo section's `cascade` (its `_index.md`), or by its place (a Jekyll
// `_drafts` folder). Only the files' beginnings are read; front matter that does not parse is not a
// draft, and is reported so the author can fix it.






/** Front matter longer than this is not looked for: the file is not a draft. */
const FRONT_MATTER_MAX_BYTES = 64 * 1024;
const DRAFT_EXTENSIONS = new Set(['.md', '.markdown', '.mdx']);
/** Jekyll's drafts folder: whatever is in it is not published (at any depth: a site may be in a subfolder). */
const DRAFTS_FOLDER = '_drafts';
const IN_DRAFTS_FOLDER = `it is in a ${DRAFTS_FOLDER} folder (Jekyll's drafts)`;
/** The Hugo section files whose `cascade` a section's pages inherit. */
const SECTION_FILES = ['_index.md', '_index.markdown'];
/** Whether skip-drafts looks at this document's front matter (markdown and MDX). */
function mayBeDraft(name) {
    return DRAFT_EXTENSIONS.has(external_node_path_default().posix.extname(name).toLowerCase());
}
function inDraftsFolder(name) {
    return name.split('/').slice(0, -1).includes(DRAFTS_FOLDER);
}
/** A front matter that cannot be parsed until its parser is loaded. */
class NeedsParser {
    matter;
    constructor(matter) {
        this.matter = matter;
    }
}
/** Looks at one file: adds it to the scan's drafts or unparsable files (loads the parsers at need). */
class DraftReader {
    now;
    scan = { drafts: new Map(), unparsable: [] };
    buffer = Buffer.allocUnsafe(FRONT_MATTER_MAX_BYTES);
    parsers = new FrontMatterParsers();
    /** The cascade each folder's section file gives its pages, by absolute folder (none: no section file). */
    cascades = new Map();
    constructor(now) {
        this.now = now;
    }
    /** Whether the file is a draft; a promise only when a parser must be loaded first. */
    read(file) {
        const verdict = this.attempt(file);
        if (verdict instanceof NeedsParser)
            return this.parsers.load(verdict.matter.format).then(() => this.read(file));
        return verdict;
    }
    attempt(file) {
        if (inDraftsFolder(file.name))
            return this.found(file.name, IN_DRAFTS_FOLDER);
        if (!mayBeDraft(file.name))
            return false;
        const own = this.paramsOfFile(file.path, file.size);
        if (own instanceof NeedsParser)
            return own;
        const cascade = this.cascadeOf(file);
        if (cascade instanceof NeedsParser)
            return cascade;
        if (own !== undefined && 'why' in own) {
            this.scan.unparsable.push({ name: file.name, why: own.why });
            return false;
        }
        const params = new Map(own?.params);
        const ownWhy = unpublishedBecause(params, this.now);
        if (ownWhy !== undefined)
            return this.found(file.name, ownWhy);
        if (cascade.length === 0)
            return false;
        for (const inherited of cascade)
            for (const [key, value] of inherited)
                if (!params.has(key))
                    params.set(key, value);
        // The page's own keys first, then each cascade (nearest section first) fills the keys it does not set.
        const why = unpublishedBecause(params, this.now, true);
        return why === undefined ? false : this.found(file.name, why);
    }
    found(name, why) {
        this.scan.drafts.set(name, why);
        return true;
    }
    /** The parameters of a file's front matter (undefined: it has none). */
    paramsOfFile(file, size) {
        const head = (0,read_head/* readHead */.z)(file, this.buffer, size);
        if (!mayOpenFrontMatter(head))
            return undefined;
        const matter = frontMatterOf(head.toString('utf8'));
        if (matter === undefined)
            return undefined;
        if (!this.parsers.ready(matter.format))
            return new NeedsParser(matter);
        try {
            return { params: paramsOf(this.parsers.parse(matter)) };
        }
        catch (error) {
            const message = error instanceof Error ? error.message : String(error);
            return { why: message.split('\n')[0] };
        }
    }
    /**
     * The cascades a page inherits, nearest section first: the `cascade` of the section file in its folder
     * (a section file's own included, as Hugo does) and in each folder above, up to the workspace.
     */
    cascadeOf(file) {
        if (!file.path.endsWith(file.name))
            return [];
        const root = file.path.slice(0, file.path.length - file.name.length);
        const found = [];
        let folder = external_node_path_default().posix.dirname(file.name);
        for (;;) {
            const where = folder === '.' ? root : root + folder;
            let cascade = this.cascades.get(where);
            if (!this.cascades.has(where)) {
                const read = this.sectionCascade(where);
                if (read instanceof NeedsParser)
                    return read;
                this.cascades.set(where, (cascade = read));
            }
            if (cascade)
                found.push(cascade);
            if (folder === '.')
                return found;
            folder = external_node_path_default().posix.dirname(folder);
        }
    }
    /**
     * The cascade of a folder's section file: its `cascade` map, or the entries of a `cascade` list that
     * have no `_target` (a targeted entry is not applied: README, Drafts), nearest entry first.
     */
    sectionCascade(folder) {
        for (const name of SECTION_FILES) {
            const parsed = this.paramsOfFile(external_node_path_default().join(folder, name), FRONT_MATTER_MAX_BYTES);
            if (parsed instanceof NeedsParser)
                return parsed;
            if (parsed === undefined)
                continue;
            // A section file that does not parse gives no cascade (it is reported when it is selected itself).
            if ('why' in parsed)
                return undefined;
            const value = parsed.params.get('cascade');
            const entries = (Array.isArray(value) ? value : [value]).map(paramsOf).filter((p) => !p.has('_target'));
            const cascade = new Map();
            for (const entry of entries)
                for (const [key, v] of entry)
                    if (!cascade.has(key))
                        cascade.set(key, v);
            return cascade.size > 0 ? cascade : undefined;
        }
        return undefined;
    }
}
/** The drafts among the selected files, and the files whose front matter does not parse. */
async function findDrafts(files, now = new Date()) {
    const reader = new DraftReader(now);
    for (const file of files) {
        const verdict = reader.read(file);
        if (verdict instanceof Promise)
            await verdict;
    }
    return reader.scan;
}
/**
 * Files looked at between two turns of the event loop (~0.1 ms): answers and requests are not held. At
 * 100,000 documents 8–32 measured alike, 64 a little slower, 256 and 1,024 slower still (bench/README.md).
 */
const FILES_PER_TURN = 16;
/**
 * The drafts of batches of files, looked at in batch order in the background, a few files per turn of
 * the event loop: a sync sends its first batches while the later ones are still being looked at (the
 * system calls of 100,000 heads take ~0.5 s of a send's idle time instead of delaying its first request).
 * When a batch is waiting for its answer (the send caught up, as it does with a few thousand files),
 * the files up to it are looked at without giving turns.
 */
class DraftScanner {
    batches;
    /** Every draft and unparsable file once all batches have been looked at. */
    done;
    reader;
    draftsOf = new Map();
    scanned = 0;
    waiting = new Map();
    failure;
    constructor(batches, now = new Date()) {
        this.batches = batches;
        this.reader = new DraftReader(now);
        this.done = this.run();
        this.done.catch(() => undefined);
    }
    /** The drafts of batch `index`, once it has been looked at (none beyond the last batch). */
    async drafts(index) {
        if (index >= this.scanned && index < this.batches.length) {
            if (this.failure)
                throw this.failure.error;
            await new Promise((settle, fail) => {
                const waiters = this.waiting.get(index) ?? [];
                waiters.push({ settle, fail });
                this.waiting.set(index, waiters);
            });
        }
        return this.draftsOf.get(index) ?? NONE;
    }
    async run() {
        let sinceTurn = 0;
        try {
            for (const [index, files] of this.batches.entries()) {
                for (const file of files) {
                    let draft = this.reader.read(file);
                    if (draft instanceof Promise)
                        draft = await draft;
                    if (draft) {
                        const found = this.draftsOf.get(index) ?? new Set();
                        found.add(file.name);
                        this.draftsOf.set(index, found);
                    }
                    // A batch waiting for its answer cannot be sent before it: no turn is given until it has it.
                    if (++sinceTurn >= FILES_PER_TURN && this.waiting.size === 0) {
                        sinceTurn = 0;
                        await (0,promises_.setImmediate)();
                    }
                }
                this.scanned = index + 1;
                for (const waiter of this.waiting.get(index) ?? [])
                    waiter.settle();
                this.waiting.delete(index);
            }
        }
        catch (error) {
            // A bug must not leave a batch waiting forever: it fails with the error (and its items with it).
            this.failure = { error };
            for (const waiters of this.waiting.values())
                for (const waiter of waiters)
                    waiter.fail(error);
            this.waiting.clear();
            throw error;
        }
        return this.reader.scan;
    }
}
const NONE = new Set();


/***/ }),

/***/ 7413:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   z: () => (/* binding */ readHead)
/* harmony export */ });
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(73024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_0__);
// The first bytes of a selected file, read synchronously: the checks that look at a file's beginning
// (Git LFS pointers, draft front matter) read a few hundred bytes to 64 KiB of small files, where the
// thread-pool round trips of asynchronous reads cost more than the reads.

// As the read guard opens: no following a link, no blocking on a FIFO.
const OPEN_FLAGS = node_fs__WEBPACK_IMPORTED_MODULE_0__.constants.O_RDONLY | node_fs__WEBPACK_IMPORTED_MODULE_0__.constants.O_NONBLOCK | node_fs__WEBPACK_IMPORTED_MODULE_0__.constants.O_NOFOLLOW;
/**
 * Fills `buffer` from the file's start, up to `size` bytes (the size selection recorded: a file of that
 * size takes one read, without the read that would only find its end), and returns the part filled;
 * empty when the file cannot be read here (sending reads it again and reports why).
 */
function readHead(file, buffer, size) {
    let fd;
    try {
        fd = (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.openSync)(file, OPEN_FLAGS);
    }
    catch {
        return buffer.subarray(0, 0);
    }
    try {
        const wanted = Math.min(size, buffer.length);
        let filled = 0;
        let bytesRead;
        do {
            bytesRead = (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.readSync)(fd, buffer, filled, wanted - filled, filled);
            filled += bytesRead;
        } while (bytesRead > 0 && filled < wanted);
        return buffer.subarray(0, filled);
    }
    catch {
        return buffer.subarray(0, 0);
    }
    finally {
        (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.closeSync)(fd);
    }
}


/***/ }),

/***/ 50320:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Or: () => (/* binding */ lossyText),
/* harmony export */   Tv: () => (/* binding */ bytesShown),
/* harmony export */   Uq: () => (/* binding */ decodedName),
/* harmony export */   cJ: () => (/* binding */ byteName),
/* harmony export */   iB: () => (/* binding */ undecodableSkip),
/* harmony export */   lc: () => (/* binding */ byteNameOf),
/* harmony export */   q0: () => (/* binding */ decodePath)
/* harmony export */ });
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
/** The name's text, or undefined when its bytes are not valid UTF-8. */
function decodedName(bytes) {
    try {
        return strictUtf8.decode(bytes);
    }
    catch {
        return undefined;
    }
}
/** A name that is not valid UTF-8, shown with its undecodable bytes as `\xNN`. */
function bytesShown(bytes) {
    let shown = '';
    for (const byte of bytes) {
        shown +=
            byte >= 0x20 && byte < 0x7f && byte !== 0x5c
                ? String.fromCharCode(byte)
                : `\\x${byte.toString(16).padStart(2, '0')}`;
    }
    return shown;
}
/** The skip of a file or folder whose name is not valid UTF-8; `shown` is its path with bytesShown. */
function undecodableSkip(shown, isFolder) {
    return {
        kind: 'document',
        name: shown,
        reason: 'unreadable',
        detail: `${isFolder ? 'folder' : 'file'} name is not valid UTF-8, so it cannot be named as a document; rename it to index it.`,
    };
}
const byteName = (bytes) => bytes.toString('latin1');
/** The byte string of a text (its UTF-8 bytes). */
const byteNameOf = (text) => Buffer.from(text, 'utf8').toString('latin1');
/** The text of a byte string, invalid bytes replaced: for messages only. */
const lossyText = (name) => Buffer.from(name, 'latin1').toString('utf8');
/**
 * A `/`-separated byte string as a document name, or, when a segment is not valid UTF-8, as the
 * search would report it: the path up to the first such segment, that segment's bytes shown.
 */
function decodePath(name) {
    const whole = decodedName(Buffer.from(name, 'latin1'));
    if (whole !== undefined)
        return { name: whole };
    const segments = name.split('/');
    const decoded = [];
    for (const [index, segment] of segments.entries()) {
        const bytes = Buffer.from(segment, 'latin1');
        const text = decodedName(bytes);
        if (text !== undefined) {
            decoded.push(text);
            continue;
        }
        return {
            undecodable: {
                shown: [...decoded, bytesShown(bytes)].join('/'),
                lossy: lossyText(name),
                isFolder: index < segments.length - 1,
            },
        };
    }
    return { name: decoded.join('/') };
}


/***/ }),

/***/ 34381:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   B1: () => (/* binding */ GITLINK_MODE),
/* harmony export */   Ev: () => (/* binding */ parseTreeListing),
/* harmony export */   LP: () => (/* binding */ parseRawDiff),
/* harmony export */   Mq: () => (/* binding */ ABSENT_MODE)
/* harmony export */ });
/* harmony import */ var _byte_names_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(50320);
// Readers of git's `-z` tree output as bytes: `diff-tree --raw` (what changed, with modes, so submodules
// show as gitlinks) and `ls-tree -r` (what a commit holds). Paths stay byte strings (byte-names.ts).

/** A submodule's entry in a tree: the commit it points at, not a file. */
const GITLINK_MODE = '160000';
/** The mode of the side where a path does not exist. */
const ABSENT_MODE = '000000';
/** Splits NUL-ended fields (the last one ends with NUL too). */
function fields(output) {
    const parts = [];
    let start = 0;
    for (let end = output.indexOf(0, start); end !== -1; end = output.indexOf(0, start)) {
        parts.push(output.subarray(start, end));
        start = end + 1;
    }
    if (start < output.length)
        parts.push(output.subarray(start));
    return parts;
}
/** Reads `git diff-tree -r --raw --no-renames -z`: `:old new oldId newId status` NUL path NUL, per entry. */
function parseRawDiff(output) {
    const parts = fields(output);
    const entries = [];
    for (let i = 0; i < parts.length; i += 2) {
        const header = parts[i].toString('latin1');
        const match = /^:(\d{6}) (\d{6}) ([0-9a-f]+) ([0-9a-f]+) ([A-Z])\d*$/.exec(header);
        if (!match)
            throw new Error(`git diff-tree output has an unexpected entry "${header}"`);
        const path = parts[i + 1];
        if (path === undefined)
            throw new Error(`git diff-tree output ends after "${header}"`);
        const [, oldMode, newMode, oldId, newId, status] = match;
        entries.push({ oldMode, newMode, oldId, newId, status, path: (0,_byte_names_js__WEBPACK_IMPORTED_MODULE_0__/* .byteName */ .cJ)(path) });
    }
    return entries;
}
/** Reads `git ls-tree -r -z`: `mode type id` TAB path, NUL-ended. */
function parseTreeListing(output) {
    return fields(output).map((field) => {
        const tab = field.indexOf(0x09);
        const header = tab === -1 ? '' : field.subarray(0, tab).toString('latin1');
        const match = /^(\d{6}) \w+ ([0-9a-f]+)$/.exec(header);
        if (!match)
            throw new Error(`git ls-tree output has an unexpected entry "${field.toString('latin1')}"`);
        return { mode: match[1], id: match[2], path: (0,_byte_names_js__WEBPACK_IMPORTED_MODULE_0__/* .byteName */ .cJ)(field.subarray(tab + 1)) };
    });
}


/***/ }),

/***/ 4012:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   M: () => (/* binding */ insideName)
/* harmony export */ });
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(76760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_0__);
// Whether a path lies inside the workspace, and its document name there. Every candidate file passes
// through here, so the usual case (a clean path below the root) is answered without path.relative.

/** A `.`, `..` or empty segment, or a leading or trailing separator: what path.normalize would change. */
const UNNORMALISED = /(?:^|[\\/])\.{1,2}(?:[\\/]|$)|[\\/]{2}|^[\\/]|[\\/]$/;
/** The workspace-relative name with `/`, or undefined when the path is not inside the workspace. */
function insideName(root, target) {
    // Fast path for the usual candidate, a clean path below the root (path.relative resolves both paths
    // again: ~4 µs a file); anything else takes the general answer below.
    const prefix = root.endsWith((node_path__WEBPACK_IMPORTED_MODULE_0___default().sep)) ? root : root + (node_path__WEBPACK_IMPORTED_MODULE_0___default().sep);
    if (target.startsWith(prefix)) {
        const rest = target.slice(prefix.length);
        if (rest !== '' && !UNNORMALISED.test(rest))
            return (node_path__WEBPACK_IMPORTED_MODULE_0___default().sep) === '/' ? rest : rest.split((node_path__WEBPACK_IMPORTED_MODULE_0___default().sep)).join('/');
    }
    const relative = node_path__WEBPACK_IMPORTED_MODULE_0___default().relative(root, target);
    if (node_path__WEBPACK_IMPORTED_MODULE_0___default().isAbsolute(relative) || relative.split((node_path__WEBPACK_IMPORTED_MODULE_0___default().sep))[0] === '..')
        return undefined;
    return relative.split((node_path__WEBPACK_IMPORTED_MODULE_0___default().sep)).join('/');
}


/***/ }),

/***/ 2581:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  Nl: () => (/* binding */ ServiceClient),
  _7: () => (/* reexport */ errors/* ServiceError */._7),
  XQ: () => (/* binding */ namedOutput)
});

// UNUSED EXPORTS: ClientUsageError, DEFAULT_TIMEOUTS, INDEXING_ANSWER_BYTES, baseUrlProblem, contentTypeFor, pickOutput

// EXTERNAL MODULE: ./src/net/undici-lean.ts
var undici_lean = __webpack_require__(30428);
// EXTERNAL MODULE: ./src/service/cut.ts
var cut = __webpack_require__(44395);
// EXTERNAL MODULE: ./src/service/stream-json.ts
var stream_json = __webpack_require__(58666);
// EXTERNAL MODULE: ./src/log.ts
var log = __webpack_require__(25625);
// EXTERNAL MODULE: ./src/documents/read-guard.ts
var read_guard = __webpack_require__(27939);
// EXTERNAL MODULE: ./src/service/base-url.ts
var base_url = __webpack_require__(54126);
// EXTERNAL MODULE: ./src/service/errors.ts
var errors = __webpack_require__(5756);
// EXTERNAL MODULE: external "node:stream"
var external_node_stream_ = __webpack_require__(57075);
// EXTERNAL MODULE: ./src/chunk-release.ts
var chunk_release = __webpack_require__(20478);
// EXTERNAL MODULE: ./src/service/retry.ts
var retry = __webpack_require__(75585);
;// CONCATENATED MODULE: ./src/service/http.ts
// One HTTP exchange with the service: the request body streamed through a progress watchdog, the answer
// read with a size bound, and every way it can fail turned into one ServiceError with keys scrubbed.





function jsonBody(value) {
    const bytes = Buffer.from(JSON.stringify(value), 'utf8');
    return {
        contentType: 'application/json',
        length: bytes.length,
        writeTo: (destination) => void destination.end(bytes),
        dispose: () => undefined,
    };
}
// An error answer is only shown as an excerpt: reading more of it is pointless.
const ERROR_ANSWER_READ_LIMIT = 64 * 1024;
/** Aborts an upload whose body stops moving; armed when the body starts to flow, stopped once it is all out. */
class BodyWatchdog {
    idleMs;
    onIdle;
    timer;
    stopped = false;
    constructor(idleMs, onIdle) {
        this.idleMs = idleMs;
        this.onIdle = onIdle;
    }
    start() {
        if (this.stopped || this.timer)
            return;
        this.timer = setTimeout(() => {
            this.stopped = true;
            this.onIdle();
        }, this.idleMs);
        this.timer.unref();
    }
    touch() {
        this.timer?.refresh();
    }
    stop() {
        this.stopped = true;
        clearTimeout(this.timer);
    }
}
function headerValue(value) {
    return Array.isArray(value) ? value.join(', ') : value;
}
function errorCode(error) {
    if (typeof error !== 'object' || error === null)
        return undefined;
    const code = error.code;
    if (typeof code === 'string')
        return code;
    // Connecting to several addresses (happy eyeballs) fails with an AggregateError of the attempts.
    if (error instanceof AggregateError)
        return errorCode(error.errors[0]);
    return undefined;
}
function errorText(error) {
    return error instanceof Error ? error.message : String(error);
}
async function readText(body, limit) {
    const chunks = [];
    let length = 0;
    for await (const chunk of body) {
        const bytes = chunk;
        if (length + bytes.length > limit) {
            chunks.push(bytes.subarray(0, limit - length));
            body.destroy();
            return { text: Buffer.concat(chunks).toString('utf8'), complete: false };
        }
        chunks.push(bytes);
        length += bytes.length;
    }
    return { text: Buffer.concat(chunks).toString('utf8'), complete: true };
}
/** The answer's text when it comes whole within `withinMs` and `limit` bytes; otherwise '' (not waited for). */
async function readOptionalText(body, limit, withinMs) {
    const timer = setTimeout(() => body.destroy(new Error(`answer not read within ${withinMs} ms`)), withinMs);
    try {
        const { text, complete } = await readText(body, limit);
        return complete ? text : '';
    }
    catch {
        body.destroy();
        return '';
    }
    finally {
        clearTimeout(timer);
    }
}
/** What the answer's reader refused (kept apart from the connection's own failures while reading). */
class UnreadableAnswer extends Error {
    refusal;
    constructor(refusal) {
        super(errorText(refusal));
        this.refusal = refusal;
    }
}
function feed(reader, chunk) {
    try {
        reader.write(chunk);
    }
    catch (error) {
        throw new UnreadableAnswer(error);
    }
}
function finish(reader) {
    try {
        return reader.end();
    }
    catch (error) {
        throw new UnreadableAnswer(error);
    }
}
/** Sends one request and returns its 2xx answer; anything else throws a ServiceError. */
async function exchange(agent, secrets, call) {
    let bodySent = false;
    let bodyError;
    let idle = false;
    let answerStatus;
    /** A 2xx answer was read: the call succeeds. */
    let answered = false;
    const failure = (fields) => new errors/* ServiceError */._7({
        operation: call.operation,
        method: call.method,
        path: call.path,
        baseUrl: call.baseUrl,
        bodySent,
        ...fields,
    });
    if (call.signal?.aborted) {
        call.body.dispose();
        throw failure({ code: 'ABORTED', retryable: false, reason: 'aborted before the request was sent' });
    }
    // One controller for the request, which the caller's signal aborts too: AbortSignal.any made a signal
    // more per request, kept as a dependant of the run's signal until collected.
    const requestAbort = new AbortController();
    const signal = requestAbort.signal;
    const forwardAbort = () => requestAbort.abort(call.signal?.reason);
    const watchdog = new BodyWatchdog(call.bodyIdleMs, () => {
        idle = true;
        requestAbort.abort(new Error('the request body made no progress'));
    });
    // Counts progress as the bytes pass on towards the socket (undici pauses this stream when the socket
    // is full, so a stalled upload stops calling transform).
    const progress = new external_node_stream_.Transform({
        transform(chunk, _encoding, callback) {
            watchdog.touch();
            callback(null, chunk);
        },
    });
    // undici listens for errors only while the request runs; a file failing later must not crash the process.
    progress.on('error', () => undefined);
    progress.once('resume', () => watchdog.start());
    progress.once('end', () => {
        bodySent = true;
        watchdog.stop();
    });
    call.body.writeTo(progress, (error) => {
        bodyError ??= error;
        progress.destroy(error);
    });
    call.signal?.addEventListener('abort', forwardAbort, { once: true });
    try {
        const response = await agent.request({
            origin: call.url.origin,
            path: call.url.pathname,
            method: call.method,
            headers: {
                authorization: `Bearer ${call.key}`,
                'content-type': call.body.contentType,
                'content-length': String(call.body.length),
                accept: 'application/json',
                'user-agent': 'kb-sync',
            },
            body: progress,
            signal,
            headersTimeout: call.headersTimeoutMs,
            bodyTimeout: call.bodyIdleMs,
        });
        const status = response.statusCode;
        answerStatus = status;
        // Destroying the answer early (a redirect, an over-long answer) emits an abort error nobody waits for.
        response.body.on('error', () => undefined);
        if (status >= 300 && status < 400) {
            response.body.destroy();
            throw failure({
                status,
                code: 'REDIRECT',
                retryable: false,
                reason: `HTTP ${status}: redirects are not followed (the key is only sent to the base URL)`,
            });
        }
        const success = status >= 200 && status < 300;
        const contentType = headerValue(response.headers['content-type']) ?? '';
        if (success && call.readAnswer) {
            const reader = call.readAnswer();
            let value;
            try {
                for await (const chunk of response.body)
                    feed(reader, chunk);
                value = finish(reader);
            }
            catch (error) {
                if (!(error instanceof UnreadableAnswer))
                    throw error;
                response.body.destroy();
                throw failure({
                    status,
                    code: 'BAD_ANSWER',
                    retryable: false,
                    reason: `HTTP ${status}, but ${secrets.redact(errorText(error.refusal))}`,
                });
            }
            answered = true;
            return { status, contentType, text: '', value };
        }
        if (success && call.answerOptional) {
            const text = await readOptionalText(response.body, call.maxAnswerBytes, call.answerOptional.withinMs);
            answered = true;
            return { status, contentType, text };
        }
        const { text, complete } = await readText(response.body, success ? call.maxAnswerBytes : ERROR_ANSWER_READ_LIMIT);
        if (!success) {
            // A cut answer ends in `…`, so a key cut there is found by its beginning (Secrets.redact).
            const shown = (0,errors/* excerpt */.Kb)(secrets.redact(complete ? text : `${text}…`));
            const retryAfter = headerValue(response.headers['retry-after']);
            throw failure({
                status,
                body: shown,
                retryable: (0,retry/* isRetried */.mo)({ status }),
                retryAfter,
                reason: `HTTP ${status}${shown ? `: ${shown}` : ''}`,
            });
        }
        if (!complete) {
            throw failure({
                status,
                code: 'ANSWER_TOO_LARGE',
                retryable: false,
                reason: `HTTP ${status} with an answer longer than ${call.maxAnswerBytes} bytes`,
            });
        }
        answered = true;
        return { status, contentType, text };
    }
    catch (error) {
        if (error instanceof errors/* ServiceError */._7)
            throw error;
        throw unanswered(error);
    }
    finally {
        call.signal?.removeEventListener('abort', forwardAbort);
        watchdog.stop();
        progress.destroy();
        call.body.dispose();
        // A success after the whole body went out: the service read every byte, so nothing reads them again.
        if (answered && bodySent)
            call.body.reuse?.();
        (0,chunk_release/* requestFinished */.s$)();
    }
    function unanswered(error) {
        // What the service did is unknown when the body went out and no complete answer came back.
        const ambiguity = bodySent ? '; the whole request had been sent, so it may have been applied' : '';
        const during = answerStatus === undefined ? '' : `reading the HTTP ${answerStatus} answer: `;
        if (call.signal?.aborted)
            return failure({ code: 'ABORTED', retryable: false, reason: `aborted${ambiguity}` });
        if (idle) {
            return failure({
                code: 'BODY_IDLE_TIMEOUT',
                retryable: (0,retry/* isRetried */.mo)({ code: 'BODY_IDLE_TIMEOUT' }),
                reason: `BODY_IDLE_TIMEOUT: the request body made no progress for ${call.bodyIdleMs} ms`,
            });
        }
        if (bodyError) {
            const code = bodyError instanceof read_guard/* FileChangedError */.jL ? 'FILE_CHANGED' : 'FILE_READ_ERROR';
            return failure({ code, retryable: false, reason: `${code}: ${secrets.redact(bodyError.message)}` });
        }
        const code = errorCode(error) ?? (error instanceof Error ? error.name : 'ERROR');
        const detail = code === 'UND_ERR_HEADERS_TIMEOUT' ? `no answer within ${call.headersTimeoutMs} ms` : errorText(error);
        return failure({
            code,
            retryable: (0,retry/* isRetried */.mo)({ code }),
            reason: `${code}: ${during}${secrets.redact(detail)}${ambiguity}`,
        });
    }
}

// EXTERNAL MODULE: ./src/service/ids.ts
var service_ids = __webpack_require__(13317);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(77598);
// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(51455);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(76760);
var external_node_path_default = /*#__PURE__*/__webpack_require__.n(external_node_path_);
;// CONCATENATED MODULE: ./src/service/body-buffers.ts
// Buffers for the bodies of batches of small documents, used again once a request no longer needs them.
// A fresh buffer per batch lives outside V8's heap; it outlives a minor collection or two while its batch
// waits for a slot and is in flight, is promoted, and is freed only by a full collection, which V8 starts
// after ~64 MiB of such buffers: 100,000 documents sent as 4,000 fresh bodies peaked at 245 MiB against
// the 69 MiB of a one-file run (bench/README.md, issue 24). Used again, the bodies of the batches open at
// once are all there is, whatever the number of documents.
/** A buffer larger than this is not kept (a batch of small documents is 25 × 16 KiB by default). */
const KEPT_BYTES_MAX = 1024 * 1024;
/** Buffers kept for use again: (concurrency + batches opened ahead) × 2 at the default concurrency. */
const KEPT_MAX = 64;
/** Sizes are rounded up to this, so a buffer fits the next batch of about the same size. */
const GRAIN = 16 * 1024;
const kept = [];
/** The memory of the buffers handed out and not given back: only those can be given back, and once. */
const lent = new WeakSet();
/** `length` bytes (uninitialised), from a buffer kept for use again when one is large enough. */
function takeBuffer(length) {
    let best = -1;
    for (let i = 0; i < kept.length; i++)
        if (kept[i].length >= length && (best === -1 || kept[i].length < kept[best].length))
            best = i;
    // A new one has its own memory (not Node's shared 8 KiB pool), so giving it back hands back all of it.
    const buffer = best !== -1
        ? kept.splice(best, 1)[0]
        : Buffer.allocUnsafeSlow(Math.max(GRAIN, Math.ceil(length / GRAIN) * GRAIN));
    lent.add(buffer.buffer);
    return buffer.subarray(0, length);
}
/**
 * Gives back a buffer from takeBuffer that nothing reads or writes any more (its request was answered
 * with its whole body read). Anything else is left to the collector.
 */
function reuseBuffer(buffer) {
    const whole = buffer.buffer;
    if (!lent.has(whole))
        return;
    lent.delete(whole);
    if (whole.byteLength > KEPT_BYTES_MAX || kept.length >= KEPT_MAX)
        return;
    kept.push(Buffer.from(whole, 0, whole.byteLength));
}

// EXTERNAL MODULE: ./src/documents/document-names.ts
var document_names = __webpack_require__(95620);
;// CONCATENATED MODULE: ./src/service/multipart.ts
// The multipart body of the document operations: files are opened (and checked against their selected
// size) before the request starts; small ones are read whole right then, larger ones are streamed from
// disk only as the socket takes the bytes.








// Types the service is likely to index, by extension; anything else goes as opaque bytes.
const CONTENT_TYPES = {
    md: 'text/markdown',
    markdown: 'text/markdown',
    mdx: 'text/markdown',
    txt: 'text/plain',
    text: 'text/plain',
    html: 'text/html',
    htm: 'text/html',
    pdf: 'application/pdf',
    json: 'application/json',
    csv: 'text/csv',
    tsv: 'text/tab-separated-values',
    xml: 'application/xml',
    yaml: 'application/yaml',
    yml: 'application/yaml',
    rst: 'text/x-rst',
    adoc: 'text/asciidoc',
    rtf: 'application/rtf',
    doc: 'application/msword',
    docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    ppt: 'application/vnd.ms-powerpoint',
    pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    xls: 'application/vnd.ms-excel',
    xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    odt: 'application/vnd.oasis.opendocument.text',
    epub: 'application/epub+zip',
};
const DEFAULT_CONTENT_TYPE = 'application/octet-stream';
/** The part's content type, from the extension of the document name (case-insensitive). */
function contentTypeFor(name) {
    const extension = external_node_path_default().posix.extname(name).slice(1).toLowerCase();
    return Object.hasOwn(CONTENT_TYPES, extension) ? CONTENT_TYPES[extension] : DEFAULT_CONTENT_TYPE;
}
function partName(naming, index) {
    return naming === 'files' ? 'files' : `file${index + 1}`;
}
/** Refuses documents that cannot be sent as named (before any I/O). */
function checkDocuments(documents) {
    if (documents.length === 0)
        throw new errors/* ClientUsageError */.ZM('at least one document is needed');
    for (const document of documents) {
        const problem = (0,document_names/* documentNameProblem */.Au)(document.name);
        if (problem)
            throw new errors/* ClientUsageError */.ZM(`document name "${(0,log/* displayName */.QC)(document.name)}" ${problem}`);
        if (document.size !== undefined && !(Number.isSafeInteger(document.size) && document.size >= 0))
            throw new errors/* ClientUsageError */.ZM(`document "${(0,log/* displayName */.QC)(document.name)}" has an invalid size`);
    }
}
async function sizeOnDisk(document) {
    try {
        return (await (0,promises_.stat)(document.path)).size;
    }
    catch (error) {
        const code = error.code ?? 'error';
        throw new read_guard/* FileChangedError */.jL(`${(0,log/* displayName */.QC)(document.name)} could not be read (${code}).`);
    }
}
/**
 * Documents up to this size are read whole, synchronously, when their batch is opened: for small files
 * the thread-pool round trips of async open, read and close cost more than the reads. The bytes wait in
 * memory for the request slot, so at most batch size × (batches in flight + batches opened ahead) ×
 * 16 KiB are held: 25 × (16 + 16) × 16 KiB = 12.5 MiB at the default batch size and concurrency, plus
 * one copy per batch in flight laid out as its body (25 × 16 × 16 KiB = 6.25 MiB).
 */
const SMALL_DOCUMENT_BYTES = 16 * 1024;
/**
 * Opens every document at once (failing with the read guard's FileChangedError when one is no longer the
 * selected regular file of its size; then none stays open). Documents of at most SMALL_DOCUMENT_BYTES are
 * read whole and closed here; the others stay open as streams.
 */
async function openDocuments(documents) {
    // The small files of known size are read, one after another, into one buffer: each takes its size
    // plus the byte that shows growth, which the next file's bytes then overwrite.
    const isSmall = (size) => size !== undefined && size <= SMALL_DOCUMENT_BYTES;
    const smallBytes = documents.reduce((n, document) => n + (isSmall(document.size) ? document.size : 0), 0);
    const shared = smallBytes > 0 ? takeBuffer(smallBytes + 1) : undefined;
    if (shared && documents.every((document) => isSmall(document.size)))
        return readSmallDocuments(documents, shared);
    let offset = 0;
    const settled = await Promise.allSettled(documents.map(async (document) => {
        let into;
        if (shared && isSmall(document.size)) {
            into = shared.subarray(offset, offset + document.size + 1);
            offset += document.size;
        }
        const size = document.size ?? (await sizeOnDisk(document));
        const file = { name: document.name, path: document.path, size };
        const content = size <= SMALL_DOCUMENT_BYTES ? (0,read_guard/* readSmallSelectedFile */.Vx)(file, into) : await (0,read_guard/* openSelectedFile */.yl)(file);
        return { size, content };
    }));
    const opened = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    const dispose = () => {
        for (const { content } of opened)
            if (!Buffer.isBuffer(content))
                content.destroy();
    };
    const failed = settled.find((result) => result.status === 'rejected');
    if (failed) {
        dispose();
        throw failed.reason;
    }
    return {
        documents,
        contents: opened.map(({ content }) => content),
        sizes: opened.map(({ size }) => size),
        dispose,
        reuse: () => {
            if (shared)
                reuseBuffer(shared);
        },
    };
}
/**
 * The usual batch, small documents of known size only: read one after another, without a promise per
 * document (the first file that fails fails the batch, as in openDocuments).
 */
function readSmallDocuments(documents, shared) {
    const contents = [];
    let offset = 0;
    for (const document of documents) {
        contents.push((0,read_guard/* readSmallSelectedFile */.Vx)(document, shared.subarray(offset, offset + document.size + 1)));
        offset += document.size;
    }
    return {
        documents,
        contents,
        sizes: documents.map((document) => document.size),
        dispose: () => undefined,
        reuse: () => reuseBuffer(shared),
    };
}
/** Opens every document and returns the multipart body with its exact length. */
async function multipartBody(documents, naming) {
    return await bodyOf(await openDocuments(documents), naming);
}
/**
 * The multipart body of documents already opened; a streamed file is read as the socket takes the bytes.
 * A batch of small documents only, all in memory, is laid out as one buffer.
 */
async function bodyOf(opened, naming) {
    return opened.contents.every((content) => Buffer.isBuffer(content))
        ? bufferedBody(opened, opened.contents, naming)
        : await streamedBody(opened, naming);
}
const LINE_BREAK = Buffer.from('\r\n');
// A boundary must not occur in any part: 64 random bits per process, then a count, make each one new and
// unguessable, where 12 random bytes for every body cost ~7 µs (~40 ms of 20,000 documents' send).
let boundaryPrefix;
let boundariesMade = 0;
/**
 * form-data's layout, byte for byte (a test holds it to form-data's own output), without its three stream
 * layers per part, and the socket takes the body in one write instead of three per document: for 2,000
 * small documents the action's CPU went 0.62-0.68 -> 0.50-0.57 s (bench/README.md).
 */
function bufferedBody(opened, contents, naming) {
    boundaryPrefix ??= `--------------------------${(0,external_node_crypto_.randomBytes)(8).toString('hex')}`;
    const boundary = `${boundaryPrefix}${(boundariesMade++ % 2 ** 32).toString(16).padStart(8, '0')}`;
    const headers = opened.documents.map((document, index) => 
    // checkDocuments refused the names form-data would normalise, so the name goes as it is.
    `--${boundary}\r\n` +
        `Content-Disposition: form-data; name="${partName(naming, index)}"; ` +
        `filename="${(0,document_names/* wireFilename */.xy)(document.name)}"\r\n` +
        `Content-Type: ${contentTypeFor(document.name)}\r\n\r\n`);
    const closing = `--${boundary}--\r\n`;
    const length = headers.reduce((n, header, index) => n + Buffer.byteLength(header) + contents[index].length + LINE_BREAK.length, Buffer.byteLength(closing));
    // Laid out in a buffer used again after a successful answer (body-buffers.ts); the files' buffer is
    // given back as soon as its bytes are copied.
    const bytes = takeBuffer(length);
    let at = 0;
    for (const [index, header] of headers.entries()) {
        at += bytes.write(header, at);
        at += contents[index].copy(bytes, at);
        at += LINE_BREAK.copy(bytes, at);
    }
    bytes.write(closing, at);
    opened.reuse();
    return {
        contentType: `multipart/form-data; boundary=${boundary}`,
        length,
        // Not counted for chunk-release's collections: these bytes are used again, not left to the collector,
        // and a collection forced every few batches moved the objects of the requests in flight to the old
        // generation, which is collected only when it has grown far (100,000 documents: +100 MiB).
        writeTo(destination) {
            destination.end(bytes);
        },
        dispose: opened.dispose,
        reuse: () => reuseBuffer(bytes),
    };
}
async function streamedBody(opened, naming) {
    let form;
    try {
        // form-data and mime-db (~210 KB) are loaded at the first streamed file, from their own chunk in the
        // bundles: a sync of small files never uses them, and V8 would compile them at every start.
        const { default: Form } = await Promise.all(/* import() */[__webpack_require__.e(758), __webpack_require__.e(454)]).then(__webpack_require__.t.bind(__webpack_require__, 96454, 23));
        form = new Form();
        for (const [index, document] of opened.documents.entries()) {
            const content = opened.contents[index];
            // A function value makes form-data pipe a stream itself when its turn comes, without the
            // buffering wrapper it puts around streams appended directly.
            const value = Buffer.isBuffer(content) ? content : (next) => next(content);
            form.append(partName(naming, index), value, {
                filepath: document.name,
                contentType: contentTypeFor(document.name),
                knownLength: opened.sizes[index],
            });
        }
    }
    catch (error) {
        opened.dispose();
        throw error;
    }
    return {
        contentType: form.getHeaders()['content-type'],
        length: form.getLengthSync(),
        writeTo(destination, fail) {
            form.on('error', fail);
            form.pipe(destination);
        },
        dispose: opened.dispose,
    };
}

;// CONCATENATED MODULE: ./src/service/client.ts
// The wire format of the five operations of the service (../shared/SERVICE.md): the only place that builds
// a service URL, an Authorization header or a request body. One call sends one request; retries live
// above (send/send-plan.ts) and every call builds its body anew from the paths, so calling again is always safe.













const DEFAULT_TIMEOUTS = Object.freeze({
    connectMs: 10_000,
    uploadHeadersMs: 120_000,
    runHeadersMs: 300_000,
    bodyIdleMs: 60_000,
    indexingAnswerMs: 5_000,
});
/** At most this much of a successful indexing answer is read (see indexingAnswerMs). */
const INDEXING_ANSWER_BYTES = 64 * 1024;
// A run's answer is read as it arrives, each string kept only up to what a step output can hold
// (OUTPUT_LIMIT_BYTES characters are never fewer bytes), so memory does not grow with the answer: the
// strings of `outputs` together keep a few outputs' worth, the rest of the answer as much again, the
// named output and the short members of the answer (state, run_id) are kept on top, and an answer of
// more values than any flow gives is refused.
const KEPT_STRING_CHARS = cut/* OUTPUT_LIMIT_BYTES */._G;
const KEPT_CHARS = 4 * cut/* OUTPUT_LIMIT_BYTES */._G;
const MAX_ANSWER_VALUES = 1_000_000;
// What an Authorization header can carry without being rejected or split.
const KEY_PATTERN = /^[\x21-\x7e]+$/;
const OPERATIONS = {
    uploadUrls: { method: 'POST', area: 'indexing' },
    updateUrls: { method: 'PATCH', area: 'indexing' },
    uploadDocuments: { method: 'POST', area: 'indexing' },
    updateDocuments: { method: 'PATCH', area: 'indexing' },
    runFlow: { method: 'POST', area: 'run' },
};
class ServiceClient {
    origin;
    prefix;
    /** The base URL as errors name it: origin and path, without trailing slashes. */
    baseUrl;
    routes = new Map();
    agent;
    secrets = new log/* Secrets */.Sb();
    timeouts;
    privateKey;
    publicKey;
    constructor(options) {
        const problem = (0,base_url/* baseUrlProblem */.a)(options.baseUrl);
        if (problem)
            throw new errors/* ClientUsageError */.ZM(`base URL ${problem}`);
        const base = new URL((0,base_url/* normalizeBaseUrl */.q)(options.baseUrl));
        this.origin = base.origin;
        this.prefix = base.pathname.replace(/\/+$/, '');
        this.baseUrl = `${this.origin}${this.prefix}`;
        this.privateKey = checkedKey('private key', options.privateKey);
        this.publicKey = checkedKey('public key', options.publicKey);
        this.secrets.add(this.privateKey);
        this.secrets.add(this.publicKey);
        this.timeouts = { ...DEFAULT_TIMEOUTS, ...definedOnly(options.timeouts ?? {}) };
        for (const [name, value] of Object.entries(this.timeouts)) {
            if (!(Number.isFinite(value) && value > 0))
                throw new errors/* ClientUsageError */.ZM(`timeout ${name} must be positive`);
        }
        const connections = options.connections ?? 4;
        if (!(Number.isSafeInteger(connections) && connections >= 1))
            throw new errors/* ClientUsageError */.ZM('connections must be a positive integer');
        this.agent = new undici_lean.Agent({
            connections,
            connect: { timeout: this.timeouts.connectMs },
            headersTimeout: this.timeouts.uploadHeadersMs,
            bodyTimeout: this.timeouts.bodyIdleMs,
        });
    }
    uploadUrls(target, urls, options) {
        return this.sendUrls('uploadUrls', target, urls, options);
    }
    updateUrls(target, urls, options) {
        return this.sendUrls('updateUrls', target, urls, options);
    }
    uploadDocuments(target, documents, options) {
        return this.sendDocuments('uploadDocuments', 'files', target, documents, options);
    }
    updateDocuments(target, documents, options) {
        return this.sendDocuments('updateDocuments', 'numbered', target, documents, options);
    }
    /** `options.outputKey` names the output whose text is kept first (default `out-0`). */
    async runFlow(target, inputs, options) {
        const key = this.keyFor('runFlow');
        for (const [name, value] of Object.entries(inputs)) {
            if (typeof value !== 'string')
                throw new errors/* ClientUsageError */.ZM(`flow input "${name}" must be a string`);
        }
        const route = this.route('runFlow', ['inference', 'v0', 'run'], [target.orgId, target.flowId]);
        const answer = await this.send('runFlow', route, key, () => Promise.resolve(jsonBody(inputs)), {
            ...options,
            readAnswer: () => new stream_json/* StreamJsonReader */.mm({
                maxStringChars: KEPT_STRING_CHARS,
                maxKeptChars: KEPT_CHARS,
                maxValues: MAX_ANSWER_VALUES,
                priorityPath: ['outputs', options?.outputKey ?? 'out-0'],
                ownBudgetUnder: 'outputs',
            }),
        });
        const parsed = answer.value;
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
            throw new errors/* ServiceError */._7({
                operation: 'runFlow',
                method: 'POST',
                path: route.path,
                baseUrl: this.baseUrl,
                status: answer.status,
                body: '',
                retryable: false,
                bodySent: true,
                code: 'BAD_ANSWER',
                reason: `HTTP ${answer.status} with an answer that is not a JSON object`,
            });
        }
        return parsed;
    }
    /**
     * Opens a batch's files ahead of its request (hand the promise to the call as `opened`). Rejects with
     * the read guard's FileChangedError, which the call then reports as FILE_CHANGED.
     */
    openDocuments(documents) {
        return openDocuments(documents);
    }
    /** Closes the pooled connections (waits for calls in flight). */
    async close() {
        await this.agent.close();
    }
    async sendUrls(operation, target, urls, options) {
        const key = this.keyFor(operation);
        if (urls.length === 0)
            throw new errors/* ClientUsageError */.ZM('at least one URL is needed');
        if (urls.some((url) => typeof url !== 'string'))
            throw new errors/* ClientUsageError */.ZM('every URL must be a string');
        const route = this.indexingRoute(operation, 'urls', target);
        return toResponse(await this.send(operation, route, key, () => Promise.resolve(jsonBody(urls)), options));
    }
    async sendDocuments(operation, naming, target, documents, options) {
        const key = this.keyFor(operation);
        checkDocuments(documents);
        const route = this.indexingRoute(operation, 'documents', target);
        const opened = options?.opened;
        const buildBody = () => opened ? opened.then((files) => bodyOf(files, naming)) : multipartBody(documents, naming);
        return toResponse(await this.send(operation, route, key, buildBody, options));
    }
    async send(operation, route, key, buildBody, options = {}) {
        const { method, area } = OPERATIONS[operation];
        let body;
        try {
            body = await buildBody();
        }
        catch (error) {
            if (!(error instanceof read_guard/* FileChangedError */.jL))
                throw error;
            throw new errors/* ServiceError */._7({
                operation,
                method,
                path: route.path,
                baseUrl: this.baseUrl,
                retryable: false,
                bodySent: false,
                code: 'FILE_CHANGED',
                reason: `FILE_CHANGED: ${this.secrets.redact(error.message)}`,
            });
        }
        return exchange(this.agent, this.secrets, {
            operation,
            method,
            path: route.path,
            baseUrl: this.baseUrl,
            url: route.url,
            key,
            body,
            headersTimeoutMs: area === 'run' ? this.timeouts.runHeadersMs : this.timeouts.uploadHeadersMs,
            bodyIdleMs: this.timeouts.bodyIdleMs,
            maxAnswerBytes: INDEXING_ANSWER_BYTES,
            readAnswer: options.readAnswer,
            answerOptional: area === 'indexing' ? { withinMs: this.timeouts.indexingAnswerMs } : undefined,
            signal: options.signal,
        });
    }
    keyFor(operation) {
        const run = OPERATIONS[operation].area === 'run';
        const key = run ? this.publicKey : this.privateKey;
        if (key === undefined) {
            throw new errors/* ClientUsageError */.ZM(`${operation} needs the ${run ? 'public' : 'private'} key, and the client was created without it`);
        }
        return key;
    }
    indexingRoute(operation, kind, target) {
        return this.route(operation, ['indexing', 'v0', kind], [target.flowId, target.orgId, target.nodeId]);
    }
    /**
     * The URL of an operation. Each id is checked and encoded, then the parsed URL must still have exactly
     * the segments that were joined: nothing a URL parser reinterprets (dot segments, even percent-encoded)
     * may move the request, and its key, to another path.
     */
    route(operation, fixed, ids) {
        // Every request of a run goes to the same few routes: each is checked and parsed once.
        const key = `${operation}\0${fixed.join('/')}\0${ids.join('\0')}`;
        const known = this.routes.get(key);
        if (known)
            return known;
        const route = this.checkedRoute(operation, fixed, ids);
        this.routes.set(key, route);
        return route;
    }
    checkedRoute(operation, fixed, ids) {
        const labels = fixed[0] === 'indexing' ? ['flow id', 'org id', 'node id'] : ['org id', 'flow id'];
        ids.forEach((id, index) => {
            const problem = typeof id === 'string' ? (0,service_ids/* idProblem */.l)(id) : 'must be a string';
            if (problem)
                throw new errors/* ClientUsageError */.ZM(`${operation}: the ${labels[index]} ${problem}`);
        });
        const segments = [...fixed, ...ids.map(encodeURIComponent)];
        const path = `/${segments.join('/')}`;
        const url = new URL(`${this.prefix}${path}`, this.origin);
        const expected = [...this.prefix.split('/').filter(Boolean), ...segments];
        const actual = url.pathname.split('/').slice(1);
        if (url.origin !== this.origin ||
            url.search !== '' ||
            url.hash !== '' ||
            actual.length !== expected.length ||
            actual.some((segment, index) => segment !== expected[index])) {
            throw new errors/* ClientUsageError */.ZM(`${operation}: the ids do not make the expected path ${path}`);
        }
        return { path, url };
    }
}
function checkedKey(label, key) {
    if (key === undefined || key === '')
        return undefined;
    if (!KEY_PATTERN.test(key))
        throw new errors/* ClientUsageError */.ZM(`the ${label} must be one line of visible ASCII characters (not shown)`);
    return key;
}
function definedOnly(values) {
    return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}
function parseJson(text) {
    try {
        return JSON.parse(text);
    }
    catch {
        return undefined;
    }
}
function toResponse(answer) {
    if (answer.text === '')
        return { status: answer.status, body: '' };
    if (/[/+]json\b/i.test(answer.contentType)) {
        const parsed = parseJson(answer.text);
        if (parsed !== undefined)
            return { status: answer.status, body: parsed };
    }
    return { status: answer.status, body: answer.text };
}
/**
 * One named output of a flow answer (default `out-0`): a string as it is, any other value as JSON text.
 * Throws an Error naming the key and the keys the answer has when it is missing.
 */
function pickOutput(answer, key = 'out-0') {
    return String(namedOutput(answer, key));
}
/**
 * Like pickOutput, but a string the reader kept only in part stays a CutString, so that what is cut
 * from it can be told exactly.
 */
function namedOutput(answer, key = 'out-0') {
    const outputs = answer.outputs;
    if (typeof outputs !== 'object' || outputs === null || Array.isArray(outputs)) {
        throw new Error(`The flow's answer has no "outputs" object, so output "${key}" is missing.`);
    }
    if (!Object.hasOwn(outputs, key)) {
        const available = Object.keys(outputs);
        const listed = available.length > 0 ? available.map((name) => `"${name}"`).join(', ') : 'none';
        throw new Error(`The flow's answer has no output "${key}" (outputs: ${listed}).`);
    }
    const value = outputs[key];
    if (typeof value === 'string' || value instanceof stream_json/* CutString */.wc)
        return value;
    return JSON.stringify(value) ?? String(value);
}


/***/ }),

/***/ 44395:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   IN: () => (/* binding */ cutText),
/* harmony export */   _G: () => (/* binding */ OUTPUT_LIMIT_BYTES),
/* harmony export */   xQ: () => (/* binding */ cutJson)
/* harmony export */ });
/* unused harmony export utf8Prefix */
/* harmony import */ var _stream_json_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(58666);
/* harmony import */ var _units_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(61996);
// Keeps what the flow answered small enough for GitHub: one step output may hold at most 1 MiB, and a
// flow can answer far more. Text is cut at the end; JSON is cut inside its long strings so it stays JSON.
// Strings may arrive already cut by the answer's reader (CutString): only their beginning is there, and
// the notes still count what the whole string held.


/** What one output may hold: under GitHub's 1 MiB per output, with room for the cut notes. */
const OUTPUT_LIMIT_BYTES = 900 * 1024;
// Leaves room for the note appended to a cut text.
const NOTE_RESERVE = 256;
const count = _units_js__WEBPACK_IMPORTED_MODULE_1__/* .formatCount */ .B4;
/** The longest prefix of `text` that is at most `maxBytes` in UTF-8, never splitting a character. */
function utf8Prefix(text, maxBytes) {
    let head = text.slice(0, maxBytes);
    if (/[\ud800-\udbff]$/.test(head))
        head = head.slice(0, -1);
    const bytes = Buffer.from(head, 'utf8');
    if (bytes.length <= maxBytes)
        return head;
    let end = maxBytes;
    // Back up to the first byte of a UTF-8 sequence.
    while (end > 0 && (bytes[end] & 0xc0) === 0x80)
        end--;
    return bytes.subarray(0, end).toString('utf8');
}
/** `text` when it fits in `maxBytes`, else its beginning and a note saying how much was cut and where. */
function cutText(text, maxBytes = OUTPUT_LIMIT_BYTES) {
    const partial = text instanceof _stream_json_js__WEBPACK_IMPORTED_MODULE_0__/* .CutString */ .wc;
    const totalBytes = partial ? text.bytes : Buffer.byteLength(text, 'utf8');
    const kept = partial ? text.head : text;
    if (totalBytes <= maxBytes && !partial)
        return { text: kept, cutBytes: 0, totalBytes };
    const head = utf8Prefix(kept, Math.max(0, maxBytes - NOTE_RESERVE));
    const cutBytes = totalBytes - Buffer.byteLength(head, 'utf8');
    const note = `\n…[cut by kb-sync: the last ${count(cutBytes)} of ${count(totalBytes)} bytes were removed]`;
    return { text: head + note, cutBytes, totalBytes };
}
function shortenStrings(value, maxChars, tally) {
    if (value instanceof _stream_json_js__WEBPACK_IMPORTED_MODULE_0__/* .CutString */ .wc) {
        const kept = value.head.slice(0, maxChars);
        tally.strings += 1;
        tally.chars += value.length - kept.length;
        return `${kept}…[cut by kb-sync: ${count(value.length - kept.length)} of ${count(value.length)} characters removed]`;
    }
    if (typeof value === 'string') {
        if (value.length <= maxChars)
            return value;
        tally.strings += 1;
        tally.chars += value.length - maxChars;
        return `${value.slice(0, maxChars)}…[cut by kb-sync: ${count(value.length - maxChars)} of ${count(value.length)} characters removed]`;
    }
    if (Array.isArray(value))
        return value.map((item) => shortenStrings(item, maxChars, tally));
    if (value !== null && typeof value === 'object') {
        const out = {};
        for (const [key, item] of Object.entries(value))
            out[key] = shortenStrings(item, maxChars, tally);
        return out;
    }
    return value;
}
function attempt(value, maxChars) {
    const tally = { strings: 0, chars: 0 };
    const shortened = shortenStrings(value, maxChars, tally);
    return { value: shortened, text: JSON.stringify(shortened) ?? 'null', tally };
}
/**
 * `value` as JSON of at most `maxBytes`: when too long, every string value is shortened to the longest
 * length that makes the whole fit, each with a note of what was removed. A value too large even with
 * short strings (a huge array) becomes an object that says so and quotes the beginning of its JSON.
 */
function cutJson(value, maxBytes = OUTPUT_LIMIT_BYTES) {
    // Never stringify the value whole: strings longer than the limit could never be kept anyway.
    const first = attempt(value, maxBytes);
    const fits = (text) => Buffer.byteLength(text, 'utf8') <= maxBytes;
    if (fits(first.text))
        return {
            value: first.value,
            text: first.text,
            cutStrings: first.tally.strings,
            cutChars: first.tally.chars,
        };
    let low = 0;
    let high = maxBytes;
    let best;
    while (low <= high) {
        const middle = Math.floor((low + high) / 2);
        const tried = attempt(value, middle);
        if (fits(tried.text)) {
            best = tried;
            low = middle + 1;
        }
        else
            high = middle - 1;
    }
    if (best)
        return { value: best.value, text: best.text, cutStrings: best.tally.strings, cutChars: best.tally.chars };
    const whole = attempt(value, 0).text;
    // Quoting JSON inside JSON at most doubles it (every quote and backslash escaped).
    const excerpt = cutText(whole, Math.floor(maxBytes / 2) - 1024);
    const replacement = {
        'kb-sync-cut': `The JSON is too large for a step output (${count(excerpt.totalBytes)} bytes even with every string emptied); its beginning is in "excerpt".`,
        excerpt: excerpt.text,
    };
    const text = JSON.stringify(replacement);
    return { value: replacement, text, cutStrings: 0, cutChars: excerpt.cutBytes };
}


/***/ }),

/***/ 5756:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Kb: () => (/* binding */ excerpt),
/* harmony export */   Lc: () => (/* binding */ refusedConnectionNotice),
/* harmony export */   ZM: () => (/* binding */ ClientUsageError),
/* harmony export */   _7: () => (/* binding */ ServiceError),
/* harmony export */   bW: () => (/* binding */ nothingListening),
/* harmony export */   kW: () => (/* binding */ runRefusal)
/* harmony export */ });
/* unused harmony exports MAX_EXCERPT, KEY_REFUSED_STATUSES, refusedLocally, keyRefusal */
/* harmony import */ var _setting_names_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(81018);
/* harmony import */ var _net_loopback_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(71830);
// The one failure type of the service client, and the refusal raised before any I/O.


/** The caller asked for something the client will not send (a missing key, a bad id): nothing was sent. */
class ClientUsageError extends Error {
    constructor(message) {
        super(message);
        this.name = 'ClientUsageError';
    }
}
/** A call that did not succeed: answered with an error status, or no usable answer at all. */
class ServiceError extends Error {
    operation;
    method;
    path;
    baseUrl;
    /** Undefined when no answer came (network error, timeout, abort). */
    status;
    body;
    /** Sending retries it: the failure has a row in RETRY_RULES (service/retry.ts). */
    retryable;
    /** The raw `Retry-After` header of the answer, if any. */
    retryAfter;
    /** The whole request body went out before the failure: without an answer the call may have been applied. */
    bodySent;
    code;
    constructor(fields) {
        super(`${fields.operation} ${fields.method} ${fields.path} failed: ${fields.reason}`);
        this.name = 'ServiceError';
        this.operation = fields.operation;
        this.method = fields.method;
        this.path = fields.path;
        this.baseUrl = fields.baseUrl;
        this.status = fields.status;
        this.body = fields.body ?? '';
        this.retryable = fields.retryable;
        this.retryAfter = fields.retryAfter;
        this.bodySent = fields.bodySent;
        this.code = fields.code;
    }
}
const MAX_EXCERPT = 500;
/** At most `limit` characters of already scrubbed text, white space runs folded to one space. */
function excerpt(scrubbed, limit = MAX_EXCERPT) {
    const folded = scrubbed.replace(/\s+/g, ' ').trim();
    return folded.length <= limit ? folded : `${folded.slice(0, limit - 1)}…`;
}
/** Statuses that refuse the key, not the request: no other request with the same key can succeed. */
const KEY_REFUSED_STATUSES = new Set([401, 403]);
/**
 * The one cause given to every item when no other request of the run can succeed, or undefined when
 * only this request failed: the service refused the key, has no knowledge base where the ids point, or
 * nothing listens at a base URL on this machine (unless `retryLocalRefusal`: RetryPolicy, retry.ts).
 */
function runRefusal(error, names = _setting_names_js__WEBPACK_IMPORTED_MODULE_0__/* .ACTION_INPUT_NAMES */ .f, policy = {}) {
    return (keyRefusal(error, names) ??
        missingKnowledgeBase(error, names) ??
        (policy.retryLocalRefusal ? undefined : nothingListening(error, names)));
}
/** A connection refused by a service on this machine (localhost, 127.0.0.0/8, [::1]). */
function refusedLocally(error) {
    return error.code === 'ECONNREFUSED' && error.baseUrl !== undefined && (0,_net_loopback_js__WEBPACK_IMPORTED_MODULE_1__/* .isLoopbackHost */ .c)(hostOf(error.baseUrl));
}
/**
 * A refused connection to this machine: nothing listens at that port, and waiting for one would only
 * hide the cause for the whole retry-deadline (a wrong port in base-url, the emulator not started).
 */
function nothingListening(error, { ref }) {
    if (!refusedLocally(error))
        return undefined;
    // What to check first: a summary's table cuts a long cause.
    return (`Nothing is listening at ${error.baseUrl} (ECONNREFUSED): check ${ref('base-url')} (its port), or ` +
        'start the local service with `kb-sync serve`. A refused connection on this machine is not retried; ' +
        'nothing more was sent.');
}
/**
 * Told once, at the first refused connection: what is retried, until when, and what to check, so that
 * a wrong base URL does not look like a silent wait. `bound` is the setting whose time ends the retries.
 */
function refusedConnectionNotice(error, names, retries) {
    const where = error.baseUrl === undefined ? 'The service' : `The service at ${error.baseUrl}`;
    return (`${where} refused the connection (ECONNREFUSED). ${retries.what} until ${clockTime(retries.until)} ` +
        `(${names.ref(retries.bound)}, ${Math.round(retries.boundMs / 1000)} s). Check ${names.ref('base-url')}, ` +
        'and that the service is running there (the local emulator: `kb-sync serve`).');
}
function hostOf(url) {
    try {
        return new URL(url).hostname;
    }
    catch {
        return '';
    }
}
/** `12:49:03 UTC`: a moment a person compares with the clock of the log. */
function clockTime(at) {
    return `${new Date(at).toISOString().slice(11, 19)} UTC`;
}
/**
 * A 404 to a document upload: an upload adds documents, so it cannot be missing one; what is missing is
 * the path, the flow, organization and node the ids name (or the service at base-url). Every request of
 * the run goes to the same ids. Not for website uploads, where a service may answer 404 for a website.
 */
function missingKnowledgeBase(error, { ref }) {
    if (error.status !== 404 || error.operation !== 'uploadDocuments')
        return undefined;
    return (`The service has no knowledge base at ${error.path} (HTTP 404 to an upload). Check ` +
        `${ref('flow-id')}, ${ref('org-id')} and ${ref('node-id')} (and ${ref('base-url')}). Nothing more was ` +
        `sent. First answer: ${error.message}`);
}
/**
 * The one cause given to every item when the service refuses the key (401/403), or undefined for any
 * other failure. It names the input that holds the key and the kind of key the operation needs, and is
 * the same text for every item so reports can group by it.
 */
function keyRefusal(error, names = _setting_names_js__WEBPACK_IMPORTED_MODULE_0__/* .ACTION_INPUT_NAMES */ .f) {
    if (error.status === undefined || !KEY_REFUSED_STATUSES.has(error.status))
        return undefined;
    const run = error.operation === 'runFlow';
    const input = run ? 'public-key' : 'private-key';
    const kind = run ? 'public' : 'private';
    const other = run ? 'private' : 'public';
    const what = run ? 'Running a flow' : 'Indexing';
    return (`The service refused the key in ${names.the(input)} (HTTP ${error.status}). ${what} needs the ` +
        `organization's ${kind} key (not the ${other} one); check the secret behind ${names.ref(input)}. ` +
        `Nothing more was sent. First refusal: ${error.message}`);
}


/***/ }),

/***/ 58666:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   mm: () => (/* binding */ StreamJsonReader),
/* harmony export */   wc: () => (/* binding */ CutString)
/* harmony export */ });
/* unused harmony exports JsonSyntaxError, JsonLimitError, parseJsonCapped */
/* harmony import */ var _units_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(61996);
// Reads a JSON answer as it arrives and builds the value JSON.parse would, except that every string longer
// than a cap keeps only its beginning (a CutString that knows its full length). Memory then depends on the
// cap, not on how long the answer's strings are, and the cut notes can still say how much was removed.

const count = _units_js__WEBPACK_IMPORTED_MODULE_0__/* .formatCount */ .B4;
/** A string of the answer kept only in part: its first characters and the length of the whole. */
class CutString {
    head;
    length;
    bytes;
    constructor(
    /** The first characters (UTF-16 code units) of the string. */
    head, 
    /** The whole string's length in UTF-16 code units (what String#length would say). */
    length, 
    /** The whole string's length in UTF-8 bytes. */
    bytes) {
        this.head = head;
        this.length = length;
        this.bytes = bytes;
    }
    /** The kept beginning with a note of what was removed (also what JSON.stringify writes). */
    toString() {
        return `${this.head}…[cut by kb-sync: ${count(this.length - this.head.length)} of ${count(this.length)} characters removed]`;
    }
    toJSON() {
        return this.toString();
    }
}
/** The answer is not valid JSON (or nests deeper than allowed). */
class JsonSyntaxError extends Error {
    constructor(message) {
        super(message);
        this.name = 'JsonSyntaxError';
    }
}
/** The answer holds more than the reader keeps: too many values, or too much text in its keys. */
class JsonLimitError extends Error {
    constructor(message) {
        super(message);
        this.name = 'JsonLimitError';
    }
}
// A short string of the root object (a run's state, its id) is always kept whole.
const ROOT_FREE_CHARS = 1024;
const LITERALS = {
    t: { text: 'true', value: true },
    f: { text: 'false', value: false },
    n: { text: 'null', value: null },
};
const SIMPLE_ESCAPES = {
    '"': '"',
    '\\': '\\',
    '/': '/',
    b: '\b',
    f: '\f',
    n: '\n',
    r: '\r',
    t: '\t',
};
const NUMBER_PATTERN = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const NUMBER_CHARS = /[0-9+\-.eE]/;
// A number longer than this cannot be one a flow means; refusing it keeps memory bounded.
const MAX_NUMBER_CHARS = 4096;
// Where plain string content stops: the closing quote, an escape, or a control character (invalid).
// eslint-disable-next-line no-control-regex
const SPECIAL_IN_STRING = /["\\\u0000-\u001f]/g;
function isWhitespace(c) {
    return c === ' ' || c === '\n' || c === '\r' || c === '\t';
}
/** Feed it the answer's bytes with write(), then end() gives the value. */
class StreamJsonReader {
    decoder = new TextDecoder('utf-8', { ignoreBOM: true });
    maxChars;
    maxDepth;
    maxValues;
    priorityPath;
    label;
    ownBudgetUnder;
    budgets;
    values = 0;
    stack = [];
    expecting = 'value';
    token;
    root;
    /** Characters read so far, for error positions. */
    position = 0;
    constructor(options) {
        this.maxChars = options.maxStringChars;
        this.maxDepth = options.maxDepth ?? 512;
        this.maxValues = options.maxValues ?? Infinity;
        const budget = options.maxKeptChars ?? Infinity;
        this.budgets = { key: budget, under: budget, other: budget };
        this.ownBudgetUnder = options.ownBudgetUnder;
        this.priorityPath = options.priorityPath;
        this.label = options.label ?? 'the answer';
    }
    write(chunk) {
        this.read(this.decoder.decode(chunk, { stream: true }));
    }
    end() {
        this.read(this.decoder.decode());
        const token = this.token;
        if (token?.kind === 'number') {
            this.token = undefined;
            this.finishNumber(token.text);
        }
        if (this.expecting !== 'end' || this.token !== undefined) {
            throw this.error(this.position === 0 && this.expecting === 'value'
                ? 'it is empty'
                : 'it ends before the JSON is complete');
        }
        return this.root;
    }
    error(what) {
        return new JsonSyntaxError(`${this.label} is not valid JSON: ${what}`);
    }
    unexpected(c, at) {
        const shown = c < ' ' ? `U+${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}` : JSON.stringify(c);
        return this.error(`unexpected character ${shown} at position ${count(this.position + at)}`);
    }
    read(text) {
        let i = 0;
        while (i < text.length) {
            const token = this.token;
            if (token?.kind === 'string') {
                i = this.readString(token, text, i);
                continue;
            }
            const c = text[i];
            if (token?.kind === 'number') {
                if (NUMBER_CHARS.test(c)) {
                    token.text += c;
                    if (token.text.length > MAX_NUMBER_CHARS)
                        throw this.error(`a number longer than ${count(MAX_NUMBER_CHARS)} characters`);
                    i++;
                    continue;
                }
                this.token = undefined;
                this.finishNumber(token.text);
                continue;
            }
            if (token?.kind === 'literal') {
                if (c !== token.expected[token.text.length])
                    throw this.unexpected(c, i);
                token.text += c;
                i++;
                if (token.text === token.expected) {
                    this.token = undefined;
                    this.finishValue(token.value);
                }
                continue;
            }
            i++;
            if (isWhitespace(c))
                continue;
            switch (this.expecting) {
                case 'value':
                case 'value-or-close':
                    if (c === ']' && this.expecting === 'value-or-close')
                        this.close(c, i - 1);
                    else
                        this.startValue(c, i - 1);
                    break;
                case 'key':
                case 'key-or-close':
                    if (c === '"')
                        this.token = this.newString();
                    else if (c === '}' && this.expecting === 'key-or-close')
                        this.close(c, i - 1);
                    else
                        throw this.unexpected(c, i - 1);
                    break;
                case 'colon':
                    if (c !== ':')
                        throw this.unexpected(c, i - 1);
                    this.expecting = 'value';
                    break;
                case 'comma-or-close': {
                    const top = this.stack[this.stack.length - 1];
                    if (c === ',')
                        this.expecting = 'array' in top ? 'value' : 'key';
                    else if (c === ']' || c === '}')
                        this.close(c, i - 1);
                    else
                        throw this.unexpected(c, i - 1);
                    break;
                }
                case 'end':
                    throw this.unexpected(c, i - 1);
            }
        }
        this.position += text.length;
    }
    startValue(c, at) {
        if (c === '"')
            this.token = this.newString();
        else if (c === '-' || (c >= '0' && c <= '9'))
            this.token = { kind: 'number', text: c };
        else if (c in LITERALS)
            this.token = { kind: 'literal', text: c, expected: LITERALS[c].text, value: LITERALS[c].value };
        else if (c === '[' || c === '{') {
            if (this.stack.length >= this.maxDepth)
                throw this.error(`it nests deeper than ${this.maxDepth} levels`);
            const open = c === '[' ? { array: [] } : { object: {} };
            this.attach('array' in open ? open.array : open.object);
            this.stack.push(open);
            this.expecting = c === '[' ? 'value-or-close' : 'key-or-close';
        }
        else
            throw this.unexpected(c, at);
    }
    close(c, at) {
        const top = this.stack[this.stack.length - 1];
        if ((c === ']') !== 'array' in top)
            throw this.unexpected(c, at);
        this.stack.pop();
        this.expecting = this.stack.length === 0 ? 'end' : 'comma-or-close';
    }
    /** Places a value in its container (or as the root); containers are placed when they open. */
    attach(value) {
        if (++this.values > this.maxValues)
            throw new JsonLimitError(`${this.label} holds more than ${count(this.maxValues)} values, more than kb-sync reads`);
        const top = this.stack[this.stack.length - 1];
        if (top === undefined)
            this.root = value;
        else if ('array' in top)
            top.array.push(value);
        else {
            const key = top.key;
            // An own "__proto__" property, as JSON.parse makes, not a new prototype.
            if (key === '__proto__')
                Object.defineProperty(top.object, key, {
                    value,
                    writable: true,
                    enumerable: true,
                    configurable: true,
                });
            else
                top.object[key] = value;
        }
    }
    finishValue(value) {
        this.attach(value);
        this.expecting = this.stack.length === 0 ? 'end' : 'comma-or-close';
    }
    finishNumber(text) {
        if (!NUMBER_PATTERN.test(text))
            throw this.error(`${JSON.stringify(text)} is not a number`);
        this.finishValue(Number(text));
    }
    newString() {
        return {
            kind: 'string',
            parts: [],
            kept: 0,
            length: 0,
            bytes: 0,
            pool: this.poolOfNewString(),
            rootMember: this.stack.length === 1 && 'object' in this.stack[0] && !this.readingKey(),
            highSurrogate: false,
            escape: undefined,
        };
    }
    readingKey() {
        return this.expecting === 'key' || this.expecting === 'key-or-close';
    }
    poolOfNewString() {
        if (this.readingKey())
            return 'key';
        const first = this.stack[0];
        const under = first !== undefined && 'object' in first && first.key === this.ownBudgetUnder;
        const path = this.priorityPath;
        if (path &&
            this.stack.length === path.length &&
            this.stack.every((open, depth) => 'object' in open && open.key === path[depth]))
            return 'free';
        return under ? 'under' : 'other';
    }
    keep(token, text) {
        token.length += text.length;
        const wanted = Math.min(this.maxChars - token.kept, text.length);
        if (wanted <= 0)
            return;
        const pool = token.pool;
        let room = wanted;
        if (pool === 'key') {
            if (wanted > this.budgets.key)
                throw new JsonLimitError(`${this.label} has more text in its keys than kb-sync reads`);
            this.budgets.key -= wanted;
        }
        else if (pool !== 'free' && !(token.rootMember && token.kept + wanted <= ROOT_FREE_CHARS)) {
            room = Math.min(wanted, this.budgets[pool]);
            this.budgets[pool] -= room;
        }
        if (room <= 0)
            return;
        token.parts.push(room === text.length ? text : text.slice(0, room));
        token.kept += room;
    }
    /** Reads string content from `text[i]` on; returns where it stopped. */
    readString(token, text, i) {
        while (i < text.length) {
            if (token.escape !== undefined) {
                i = this.readEscape(token, text, i);
                continue;
            }
            SPECIAL_IN_STRING.lastIndex = i;
            const found = SPECIAL_IN_STRING.exec(text);
            const stop = found ? found.index : text.length;
            if (stop > i) {
                const plain = text.slice(i, stop);
                this.keep(token, plain);
                token.bytes += Buffer.byteLength(plain, 'utf8');
                token.highSurrogate = false;
            }
            if (!found)
                return text.length;
            const c = found[0];
            if (c === '"') {
                this.token = undefined;
                this.finishString(token);
                return stop + 1;
            }
            if (c === '\\') {
                token.escape = '';
                i = stop + 1;
                continue;
            }
            throw this.unexpected(c, stop);
        }
        return i;
    }
    readEscape(token, text, i) {
        const c = text[i];
        if (token.escape === '') {
            if (c === 'u') {
                token.escape = 'u';
                return i + 1;
            }
            const simple = SIMPLE_ESCAPES[c];
            if (simple === undefined)
                throw this.unexpected(c, i);
            token.escape = undefined;
            this.keep(token, simple);
            token.bytes += 1;
            token.highSurrogate = false;
            return i + 1;
        }
        if (!/[0-9a-fA-F]/.test(c))
            throw this.unexpected(c, i);
        token.escape += c;
        if (token.escape.length < 5)
            return i + 1;
        const unit = parseInt(token.escape.slice(1), 16);
        token.escape = undefined;
        this.keep(token, String.fromCharCode(unit));
        const high = unit >= 0xd800 && unit <= 0xdbff;
        const low = unit >= 0xdc00 && unit <= 0xdfff;
        // UTF-8: a pair is 4 bytes, a lone surrogate becomes U+FFFD (3 bytes); the high one counted 3 already.
        if (low && token.highSurrogate)
            token.bytes += 1;
        else
            token.bytes += unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3;
        token.highSurrogate = high;
        return i + 1;
    }
    finishString(token) {
        const head = token.parts.join('');
        if (this.expecting === 'key' || this.expecting === 'key-or-close') {
            const top = this.stack[this.stack.length - 1];
            top.key =
                head.length === token.length ? head : new CutString(head, token.length, token.bytes).toString();
            this.expecting = 'colon';
            return;
        }
        this.finishValue(head.length === token.length ? head : new CutString(head, token.length, token.bytes));
    }
}
/** Parses a whole JSON text with the reader (mainly for tests and small inputs). */
function parseJsonCapped(text, options) {
    const reader = new StreamJsonReader(options);
    reader.write(typeof text === 'string' ? Buffer.from(text, 'utf8') : text);
    return reader.end();
}


/***/ }),

/***/ 72180:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   y: () => (/* binding */ lastmodLatest)
/* harmony export */ });
// `<lastmod>` in W3C Datetime (YYYY, YYYY-MM, YYYY-MM-DD, or a date with a time and a time zone). A page
// is left out only when it certainly did not change after the base: a value is taken at the latest
// instant it can mean (the end of its year, month, day or minute; without a time zone, as if in the
// westernmost one), and a value that cannot be read counts as no lastmod: the page is sent.
const W3C_DATETIME = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:?\d{2})?)?)?)?$/;
// UTC−12 is the westernmost zone: a date there ends 12 hours after it ends in UTC.
const UNKNOWN_ZONE_MS = 12 * 3_600_000;
/** The latest instant (ms since the epoch) `lastmod` can mean, or undefined when it is not W3C Datetime. */
function lastmodLatest(lastmod) {
    const match = W3C_DATETIME.exec(lastmod.trim());
    if (!match)
        return undefined;
    const [, year, month, day, hour, minute, second, fraction, zone] = match;
    const y = Number(year);
    const mo = month === undefined ? undefined : Number(month) - 1;
    const d = day === undefined ? undefined : Number(day);
    if (mo !== undefined && (mo < 0 || mo > 11))
        return undefined;
    if (d !== undefined && (d < 1 || d > new Date(Date.UTC(y, mo + 1, 0)).getUTCDate()))
        return undefined;
    if (hour === undefined) {
        // The start of the next year, month or day in UTC, then as late as a time zone can make it.
        const end = mo === undefined
            ? Date.UTC(y + 1, 0, 1)
            : d === undefined
                ? Date.UTC(y, mo + 1, 1)
                : Date.UTC(y, mo, d + 1);
        return end - 1 + UNKNOWN_ZONE_MS;
    }
    const h = Number(hour);
    const mi = Number(minute);
    const s = second === undefined ? 59 : Number(second);
    if (h > 23 || mi > 59 || s > 60)
        return undefined;
    const ms = second === undefined ? 999 : fraction === undefined ? 999 : Number(`0.${fraction}`) * 1000;
    const local = Date.UTC(y, mo, d, h, mi, Math.min(s, 59), ms);
    if (zone === undefined)
        return local + UNKNOWN_ZONE_MS;
    if (zone === 'Z')
        return local;
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const offsetMs = (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
    // 10:00+02:00 is 08:00 UTC.
    return local - sign * offsetMs;
}


/***/ }),

/***/ 56994:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   C: () => (/* binding */ unchangedSinceSent),
/* harmony export */   i: () => (/* binding */ difference)
/* harmony export */ });
/* harmony import */ var _plan_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(21733);
/* harmony import */ var _sitemaps_lastmod_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(72180);
/* harmony import */ var _record_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(10388);
// The change set from the record: what the checkout selects now (desired: name → content id) minus what
// the node holds (the record). Pure, one pass over each side with hash lookups, so 100,000 names take
// milliseconds (bench: `npm run bench -- state`).



/**
 * The record's values are looked up as own properties only: a document may be named `constructor` or
 * `__proto__`, which a plain `held[name]` would find on Object.prototype.
 */
function heldOf(held, name) {
    return Object.hasOwn(held, name) ? held[name] : undefined;
}
/**
 * - selected and not held → upload;
 * - selected and held with the same content id → unchanged;
 * - selected and held with anything else → update: another id is other content; a placeholder must be
 *   replaced by the document; UNKNOWN (a request whose answer is not known, or an unreadable file's id)
 *   never equals anything, so it is sent again rather than trusted;
 * - held (an id or UNKNOWN) and not selected → blank: the node may hold content the checkout no longer
 *   has (UNKNOWN included: a placeholder that answers 404 costs one request, a document left answering
 *   would break the promise);
 * - held as a placeholder and not selected → already blank, nothing sent.
 */
function difference(desired, held) {
    const upload = [];
    const update = [];
    const blank = [];
    let unchanged = 0;
    let alreadyBlank = 0;
    for (const [name, id] of desired) {
        const holds = heldOf(held, name);
        if (holds === undefined)
            upload.push(name);
        else if (holds === id && holds !== _record_js__WEBPACK_IMPORTED_MODULE_1__/* .UNKNOWN */ .HV && holds !== _record_js__WEBPACK_IMPORTED_MODULE_1__/* .PLACEHOLDER */ .Kx)
            unchanged++;
        else
            update.push(name);
    }
    for (const name of Object.keys(held)) {
        if (desired.has(name))
            continue;
        if (held[name] === _record_js__WEBPACK_IMPORTED_MODULE_1__/* .PLACEHOLDER */ .Kx)
            alreadyBlank++;
        else
            blank.push(name);
    }
    return {
        upload: upload.sort(_plan_js__WEBPACK_IMPORTED_MODULE_0__/* .compareNames */ .MP),
        update: update.sort(_plan_js__WEBPACK_IMPORTED_MODULE_0__/* .compareNames */ .MP),
        blank: blank.sort(_plan_js__WEBPACK_IMPORTED_MODULE_0__/* .compareNames */ .MP),
        unchanged,
        alreadyBlank,
    };
}
/**
 * Whether a sitemap page is the one the node got when it was sent, so it need not be sent again. It is
 * sent again when:
 * - the node never got it (or its last send failed: the record then forgets it, next-record.ts);
 * - it has no `lastmod`, or one that cannot be read: nothing says it did not change since it was sent;
 * - its `lastmod`, taken at the latest instant it can mean (a date alone: the end of that day in the
 *   westernmost time zone, sitemaps/lastmod.ts), is after the time it was sent;
 * - its `lastmod` is not the one it had when it was sent: a page changed later on the day it was sent
 *   shows a new date-only `lastmod` that is not after the send once the day is over, and a site that
 *   moves `lastmod` back still changed the page.
 */
function unchangedSinceSent(page, held) {
    const sent = heldOf(held, page.url);
    if (sent === undefined || page.lastmod === undefined)
        return false;
    const latest = (0,_sitemaps_lastmod_js__WEBPACK_IMPORTED_MODULE_2__/* .lastmodLatest */ .y)(page.lastmod);
    const sentAt = Date.parse(sent.sentAt);
    return (latest !== undefined &&
        !Number.isNaN(sentAt) &&
        latest <= sentAt &&
        (sent.lastmod === undefined || sent.lastmod === page.lastmod));
}


/***/ }),

/***/ 10388:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   HV: () => (/* binding */ UNKNOWN),
/* harmony export */   Kx: () => (/* binding */ PLACEHOLDER),
/* harmony export */   M_: () => (/* binding */ recordKeyOf),
/* harmony export */   hl: () => (/* binding */ RECORD_VERSION)
/* harmony export */ });
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(77598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
// The knowledge base's record: what one node (or one shard of it) holds after a run, written by the run
// that wrote the node and read by the next one, so that its change set is what the checkout selects
// minus what the node holds, instead of a guess from git history. It holds names and ids, never content,
// keys, tokens or URLs' credentials.

/** The record's format; a record of another version is not used (the run falls back, and writes this one). */
const RECORD_VERSION = 1;
/** A document that holds a removed or unpublished document's placeholder. */
const PLACEHOLDER = 'placeholder';
/**
 * A document whose content in the node is not known: a request for it was sent (or was about to be) and
 * its answer is not known, or it failed. The next run sends it again (or blanks it).
 */
const UNKNOWN = 'unknown';
/**
 * The record's key: one per target and shard, the same on every runner and branch, safe as an artifact
 * name and a file name (no id of the target is shown: they are not secret, but a key need not say them).
 */
function recordKeyOf(target) {
    const digest = (0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.createHash)('sha256')
        .update(JSON.stringify([target.host.toLowerCase(), target.flowId, target.orgId, target.nodeId]))
        .digest('hex')
        .slice(0, 16);
    const shard = target.shard && target.shard.count > 1 ? `-shard-${target.shard.index}-of-${target.shard.count}` : '';
    return `kb-sync-state-${digest}${shard}`;
}


/***/ }),

/***/ 24658:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   A3: () => (/* binding */ reasonOf),
/* harmony export */   vg: () => (/* binding */ tempFolder),
/* harmony export */   yB: () => (/* binding */ unusableFolder)
/* harmony export */ });
/* harmony import */ var node_os__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(48161);
/* harmony import */ var node_os__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_os__WEBPACK_IMPORTED_MODULE_0__);
// Where a step writes its own files (placeholders, the report file): RUNNER_TEMP on a runner, which it
// empties after each job, the system's temporary folder elsewhere. An error names the folder by where it
// came from, so that it says which setting to fix.

function tempFolder(env = process.env) {
    const runnerTemp = env.RUNNER_TEMP;
    if (runnerTemp)
        return { path: runnerTemp, label: `RUNNER_TEMP (${runnerTemp})` };
    const system = (0,node_os__WEBPACK_IMPORTED_MODULE_0__.tmpdir)();
    return { path: system, label: `the temporary folder ${system}` };
}
/** What a user must fix when the folder cannot hold a file. */
function unusableFolder(folder) {
    return `${folder.label} must name a folder this step can write to`;
}
/** The system's reason for a failed file operation (ENOTDIR, EACCES, ENOSPC, …), else the message. */
// Duck-typed: errors from node:fs may come from another realm (a test's VM context).
const reasonOf = (error) => {
    const code = error?.code;
    if (typeof code === 'string')
        return code;
    return error instanceof Error ? error.message : String(error);
};


/***/ })

};
