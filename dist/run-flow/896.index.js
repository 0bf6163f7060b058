export const id = 896;
export const ids = [896];
export const modules = {

/***/ 39896:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  readStoredBaseline: () => (/* binding */ readStoredBaseline),
  writeStoredBaseline: () => (/* binding */ writeStoredBaseline)
});

// UNUSED EXPORTS: BASELINE_VERSION, MAX_BASELINE_AGE_DAYS, MAX_BASELINE_BYTES, MAX_BASELINE_JSON_BYTES, baselineNameOf, decodeBaseline, encodeBaseline

// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(77598);
// EXTERNAL MODULE: external "node:zlib"
var external_node_zlib_ = __webpack_require__(38522);
// EXTERNAL MODULE: ./node_modules/zod/v4/classic/schemas.js + 11 modules
var schemas = __webpack_require__(92857);
// EXTERNAL MODULE: ./node_modules/zod/v4/core/api.js
var api = __webpack_require__(43759);
;// CONCATENATED MODULE: ./node_modules/zod/v4/classic/iso.js



function datetime(params) {
    return api/* _isoDateTime */.G1(schemas/* ZodISODateTime */.You, params);
}
function date(params) {
    return core._isoDate(ZodISODate, params);
}
function time(params) {
    return core._isoTime(ZodISOTime, params);
}
function duration(params) {
    return core._isoDuration(ZodISODuration, params);
}

// EXTERNAL MODULE: ./src/model.ts
var model = __webpack_require__(10182);
// EXTERNAL MODULE: ./src/units.ts
var units = __webpack_require__(61996);
;// CONCATENATED MODULE: ./src/state/baseline-record.ts
// The baseline flow's results kept per key (#36 §5): production answers change only when the base
// branch's documents or the checks change, so a pull request's pushes (and other pull requests on the
// same base commit) reuse them instead of running the baseline flow again. Kept in a store of bytes (the
// run's GitHub Actions artifact), one name per key; what a store hands back is checked whole before any
// of it is used, as the knowledge base's record is: a garbled, foreign or old one is not used.





/** The stored baseline's format; another version is not used (the baseline runs live and is stored again). */
const BASELINE_VERSION = 1;
/** A stored baseline older than this is stale: production's flow may have changed outside the repository. */
const MAX_BASELINE_AGE_DAYS = 7;
const MAX_BASELINE_BYTES = 16 * 1024 * 1024;
const MAX_BASELINE_JSON_BYTES = 64 * 1024 * 1024;
/** The key's fields in one fixed order: the same key is the same text on every runner. */
const keyText = (key) => JSON.stringify([
    BASELINE_VERSION,
    key.host.toLowerCase(),
    key.baseline.orgId,
    key.baseline.flowId,
    key.commit,
    key.checks,
    key.repeat,
    key.minPass ?? null,
    key.judge ? [key.judge.orgId, key.judge.flowId, key.judge.minScore] : null,
]);
/** The store's name of a key: the whole key digested, so another key is another artifact. */
function baselineNameOf(key) {
    return `kb-sync-baseline-${(0,external_node_crypto_.createHash)('sha256').update(keyText(key)).digest('hex').slice(0, 32)}`;
}
const baseline_record_text = (max) => schemas/* string */.YjP().max(max);
// A checks file is at most 1 MiB, and an answer is cut under 1 MiB before it is judged: no text of a
// result is longer; the whole is bounded by MAX_BASELINE_JSON_BYTES.
const LONGEST = 1024 * 1024;
const id = schemas/* string */.YjP().min(1).max(1_000);
const seconds = schemas/* number */.aig().min(0).finite();
const judgeGrade = schemas/* strictObject */.rej({
    verdict: schemas/* enum */.k5n(['pass', 'fail']),
    score: schemas/* number */.aig().min(0).max(1),
    reason: baseline_record_text(LONGEST),
    runId: id.optional(),
});
const verdict = schemas/* enum */.k5n(['passed', 'failed', 'error']);
const answer = baseline_record_text(LONGEST);
const runResult = schemas/* strictObject */.rej({
    run: schemas/* int */.Whr().min(1),
    verdict,
    failed: schemas/* array */.YOg(baseline_record_text(LONGEST)),
    answer,
    runId: id.optional(),
    seconds,
    started: schemas/* boolean */.zMY(),
    judge: judgeGrade.optional(),
    judgeSent: schemas/* boolean */.zMY().optional(),
});
const checkResult = schemas/* strictObject */.rej({
    name: baseline_record_text(LONGEST),
    question: baseline_record_text(LONGEST),
    verdict,
    failed: schemas/* array */.YOg(baseline_record_text(LONGEST)),
    answer,
    runId: id.optional(),
    seconds,
    runs: schemas/* array */.YOg(runResult).max(10),
    minPass: schemas/* int */.Whr().min(1).max(10),
    judge: judgeGrade.optional(),
    advisory: schemas/* boolean */.zMY().optional(),
});
const target = schemas/* strictObject */.rej({ orgId: id, flowId: id });
const storedSchema = schemas/* strictObject */.rej({
    version: schemas/* literal */.euz(BASELINE_VERSION),
    key: schemas/* strictObject */.rej({
        host: schemas/* string */.YjP().min(1).max(300),
        baseline: target,
        commit: schemas/* string */.YjP().regex(model/* OBJECT_ID */.S),
        checks: schemas/* string */.YjP().regex(/^[0-9a-f]{64}$/),
        repeat: schemas/* int */.Whr().min(1).max(10),
        minPass: schemas/* int */.Whr().min(1).max(10).optional(),
        judge: target
            .extend({ minScore: schemas/* number */.aig().min(0).max(1) })
            .strict()
            .optional(),
    }),
    measured: schemas/* strictObject */.rej({
        at: datetime({ offset: true }),
        baseRef: baseline_record_text(1_000).optional(),
        repository: baseline_record_text(300).optional(),
        runId: schemas/* int */.Whr().positive().optional(),
        runNumber: schemas/* int */.Whr().positive().optional(),
        pullRequest: schemas/* int */.Whr().positive().optional(),
    }),
    results: schemas/* array */.YOg(checkResult),
});
function encodeBaseline(stored) {
    return (0,external_node_zlib_.gzipSync)(JSON.stringify(stored));
}
/**
 * The stored baseline in `bytes` when it is whole, of `key`, of the checks named `names` (in order) and
 * younger than MAX_BASELINE_AGE_DAYS at `now`; else why not. Never throws.
 */
function decodeBaseline(bytes, key, names, now) {
    const unusable = (why) => ({ kind: 'unusable', why });
    if (bytes.length > MAX_BASELINE_BYTES)
        return unusable(`it is over its size bound (${(0,units/* formatCount */.B4)(bytes.length)} bytes, more than ${(0,units/* formatBytes */.z3)(MAX_BASELINE_BYTES)})`);
    let parsed;
    try {
        const json = (0,external_node_zlib_.gunzipSync)(bytes, { maxOutputLength: MAX_BASELINE_JSON_BYTES });
        parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(json));
    }
    catch {
        return unusable('it is not gzip-compressed JSON text within its size bound (garbled)');
    }
    const version = parsed?.version;
    if (typeof version === 'number' && version !== BASELINE_VERSION)
        return {
            kind: 'stale',
            why: `it is of format version ${version} (this kb-sync reads version ${BASELINE_VERSION})`,
        };
    const checked = storedSchema.safeParse(parsed);
    if (!checked.success) {
        const issue = checked.error.issues[0];
        return unusable(`it is not a stored baseline (${[...issue.path].join('.') || 'the whole'}: ${issue.message})`);
    }
    const stored = checked.data;
    // The name is a digest of the key; the key inside must be the key itself (not a planted artifact's).
    if (keyText(stored.key) !== keyText(key))
        return unusable('it holds the results of another key');
    const storedNames = stored.results.map((result) => result.name);
    if (storedNames.length !== names.length || storedNames.some((name, index) => name !== names[index]))
        return unusable("its checks are not this suite's checks");
    const age = now.getTime() - Date.parse(stored.measured.at);
    if (age > MAX_BASELINE_AGE_DAYS * 86_400_000)
        return {
            kind: 'stale',
            why: `it was measured ${Math.floor(age / 86_400_000)} days ago, more than ${MAX_BASELINE_AGE_DAYS} (the baseline flow may have changed since)`,
        };
    return { stored };
}
/** The stored baseline of `key` in `store`, or why there is none to use. Never throws but for cancellation. */
async function readStoredBaseline(store, key, names, now, signal) {
    const found = await store.readNewest(baselineNameOf(key), signal);
    if (found.kind !== 'found')
        return found;
    const decoded = decodeBaseline(found.bytes, key, names, now);
    if ('why' in decoded)
        return { kind: decoded.kind, why: `${found.from}: ${decoded.why}` };
    return { kind: 'found', stored: decoded.stored, from: found.from };
}
function writeStoredBaseline(store, stored, signal) {
    return store.write(baselineNameOf(stored.key), encodeBaseline(stored), signal);
}


/***/ })

};
