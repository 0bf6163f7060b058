export const id = 723;
export const ids = [723];
export const modules = {

/***/ 56344:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  xR: () => (/* binding */ MAX_RECORD_BYTES),
  eT: () => (/* binding */ decodeRecord),
  Ym: () => (/* binding */ encodeRecord)
});

// UNUSED EXPORTS: MAX_RECORD_JSON_BYTES

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

// EXTERNAL MODULE: ./src/config/errors.ts
var errors = __webpack_require__(37827);
// EXTERNAL MODULE: ./src/units.ts
var units = __webpack_require__(61996);
// EXTERNAL MODULE: ./src/config/urls.ts
var config_urls = __webpack_require__(92594);
// EXTERNAL MODULE: ./src/log.ts
var log = __webpack_require__(25625);
// EXTERNAL MODULE: ./src/documents/document-names.ts
var document_names = __webpack_require__(95620);
// EXTERNAL MODULE: ./src/sitemaps/lastmod.ts
var lastmod = __webpack_require__(72180);
// EXTERNAL MODULE: ./src/state/record.ts
var record = __webpack_require__(10388);
;// CONCATENATED MODULE: ./src/state/codec.ts
// The record's bytes: JSON, gzip-compressed. Whatever the store hands back (an artifact anyone with write
// access can replace, a file anyone can edit) is checked whole before any of it is used: its size while
// it is inflated (a gzip bomb stops at the bound), its JSON, its schema, its target, every name and id.
// A record that fails any check is not used at all: the run falls back to inferring the change set.









/**
 * The bounds of a stored record. 100,000 documents with 80-byte names and 64-digit ids are ~15 MiB of
 * JSON and ~4 MiB compressed (bench/README.md, "The record"): the bounds leave four times that, and keep
 * what a hostile record can cost (memory, time) to what reading the largest real one costs.
 */
const MAX_RECORD_BYTES = 16 * 1024 * 1024;
const MAX_RECORD_JSON_BYTES = 64 * 1024 * 1024;
/** JSON text compressed per part: at 100,000 documents the record's ~6 MB of JSON is never one string. */
const PART_CHARS = 1024 * 1024;
/** Entries given to JSON.stringify at once: one string per slice, not three per entry. */
const SLICE_ENTRIES = 1024;
/**
 * The record as gzip'd JSON: the same text as `JSON.stringify(record)`, made and compressed a part at a
 * time (each part a gzip member; gunzip reads the members as one stream). At 100,000 documents the whole
 * string and its bytes were ~20 MB of transient memory, twice a run (bench/README.md).
 */
function encodeRecord(record) {
    const members = [];
    let parts = [];
    let length = 0;
    // Each part's UTF-8 bytes in one buffer used again: gzipSync of a string makes a buffer of it per part,
    // outside the heap until a collection finds it (~6 MB at 100,000 documents, bench/README.md).
    let bytes = Buffer.allocUnsafe(0);
    const flush = () => {
        const text = parts.join('');
        const size = Buffer.byteLength(text);
        if (bytes.length < size)
            bytes = Buffer.allocUnsafe(size);
        bytes.write(text);
        members.push((0,external_node_zlib_.gzipSync)(bytes.subarray(0, size)));
        parts = [];
        length = 0;
    };
    const add = (part) => {
        parts.push(part);
        length += part.length;
        if (length >= PART_CHARS)
            flush();
    };
    const addEntries = (entries) => {
        let separator = '{';
        const keys = Object.keys(entries);
        for (let start = 0; start < keys.length; start += SLICE_ENTRIES) {
            // No prototype: a name such as `__proto__` is an entry like any other.
            const slice = Object.create(null);
            for (const key of keys.slice(start, start + SLICE_ENTRIES))
                slice[key] = entries[key];
            const text = JSON.stringify(slice);
            if (text === '{}')
                continue;
            add(separator + text.slice(1, -1));
            separator = ',';
        }
        add(separator === '{' ? '{}' : '}');
    };
    let separator = '{';
    for (const [key, value] of Object.entries(record)) {
        if (key === 'documents' || key === 'urls') {
            add(`${separator}${JSON.stringify(key)}:`);
            addEntries(value);
        }
        else {
            const text = JSON.stringify(value);
            if (text === undefined)
                continue;
            add(`${separator}${JSON.stringify(key)}:${text}`);
        }
        separator = ',';
    }
    add(separator === '{' ? '{}' : '}');
    flush();
    return members.length === 1 ? members[0] : Buffer.concat(members);
}
const CONTENT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const isHeldContent = (value) => value === record/* PLACEHOLDER */.Kx || value === record/* UNKNOWN */.HV || CONTENT_ID.test(value);
const codec_text = (max) => schemas/* string */.YjP().min(1).max(max);
const isoTime = datetime({ offset: true });
const CONTENT_RULE = `must be a content id (40 or 64 lowercase hex digits), "${record/* PLACEHOLDER */.Kx}" or "${record/* UNKNOWN */.HV}"`;
const isPlainObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
// The documents and URLs are checked in one pass of their own (checkedDocuments, checkedUrls): a schema
// per entry costs twice as much at 100,000 entries, and zod's records pass over a `__proto__` key.
const entries = schemas/* custom */.IeY(isPlainObject, { error: 'must be an object' });
// A sitemap's <lastmod> is W3C Datetime (a profile of ISO 8601 that allows a year or a date alone).
const codec_lastmod = schemas/* string */.YjP()
    .max(64)
    .refine((value) => (0,lastmod/* lastmodLatest */.y)(value) !== undefined && value.trim() === value, {
    error: 'must be a W3C Datetime (ISO 8601) time',
});
const recordSchema = schemas/* strictObject */.rej({
    version: schemas/* literal */.euz(record/* RECORD_VERSION */.hl),
    phase: schemas/* enum */.k5n(['pending', 'final']),
    target: schemas/* strictObject */.rej({
        host: codec_text(300),
        flowId: codec_text(200),
        orgId: codec_text(200),
        nodeId: codec_text(200),
        shard: schemas/* strictObject */.rej({ index: schemas/* int */.Whr().min(1), count: schemas/* int */.Whr().min(1).max(256) })
            .refine((shard) => shard.index <= shard.count, { error: 'index must be at most count' })
            .optional(),
    }),
    writtenBy: schemas/* strictObject */.rej({
        at: isoTime,
        repository: codec_text(300).optional(),
        workflow: codec_text(1024).optional(),
        runId: schemas/* int */.Whr().positive().optional(),
        runAttempt: schemas/* int */.Whr().positive().optional(),
        runNumber: schemas/* int */.Whr().positive().optional(),
        event: codec_text(100).optional(),
        commit: schemas/* string */.YjP().regex(CONTENT_ID, { error: 'must be 40 or 64 lowercase hex digits' }).optional(),
        pullRequest: schemas/* int */.Whr().positive().optional(),
    }),
    settings: schemas/* record */.g1P(schemas/* string */.YjP().regex(/^[a-z][a-z0-9-]{0,63}$/, { error: 'must be a setting name' }), schemas/* string */.YjP().regex(/^[0-9a-f]{12}$/, { error: 'must be 12 lowercase hex digits' })),
    documents: entries,
    urls: entries,
});
const heldUrl = schemas/* strictObject */.rej({ sentAt: isoTime, lastmod: codec_lastmod.optional() });
/**
 * The record in `bytes`, if every part of it is valid and it is the record of `expected` (its host
 * compared case-insensitively, the same shard); else why not. Never throws. Its `documents` and `urls`
 * have no prototype, so a lookup of any name (`constructor`, `__proto__`) answers only what the record holds.
 */
function decodeRecord(bytes, expected) {
    if (bytes.length > MAX_RECORD_BYTES)
        return {
            why: `over its size bound: ${(0,units/* formatCount */.B4)(bytes.length)} bytes compressed, more than ${(0,units/* formatBytes */.z3)(MAX_RECORD_BYTES)}`,
        };
    if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b)
        return { why: 'not gzip data' };
    let inflated;
    try {
        // The bound holds while inflating: a bomb stops at MAX_RECORD_JSON_BYTES, whatever it would expand to.
        inflated = (0,external_node_zlib_.gunzipSync)(bytes, { maxOutputLength: MAX_RECORD_JSON_BYTES });
    }
    catch (error) {
        const code = error.code;
        if (code === 'ERR_BUFFER_TOO_LARGE')
            return { why: `over its size bound: more than ${(0,units/* formatBytes */.z3)(MAX_RECORD_JSON_BYTES)} once decompressed` };
        return { why: `damaged gzip data (${typeof code === 'string' ? code : String(error)})` };
    }
    let json;
    try {
        json = new TextDecoder('utf-8', { fatal: true }).decode(inflated);
    }
    catch {
        return { why: 'not UTF-8 text once decompressed' };
    }
    let parsed;
    try {
        parsed = JSON.parse(json);
    }
    catch {
        return { why: 'not JSON once decompressed' };
    }
    if (!isPlainObject(parsed))
        return { why: 'not a JSON object' };
    if (parsed.version !== record/* RECORD_VERSION */.hl)
        return {
            why: typeof parsed.version === 'number'
                ? `a record of format version ${parsed.version} (this kb-sync reads version ${record/* RECORD_VERSION */.hl})`
                : 'a record without a readable format version',
        };
    const checked = recordSchema.safeParse(parsed);
    if (!checked.success)
        return { why: `an invalid record: ${issueText(checked.error.issues[0])}` };
    // zod's records pass over a `__proto__` key.
    if (Object.hasOwn(parsed.settings, '__proto__'))
        return { why: 'an invalid record: settings["__proto__"]: the key must be a setting name' };
    const otherTarget = targetDifference(checked.data.target, expected);
    if (otherTarget)
        return { why: otherTarget };
    const documents = checkedDocuments(checked.data.documents);
    if (typeof documents === 'string')
        return { why: `an invalid record: ${documents}` };
    const urls = checkedUrls(checked.data.urls);
    if (typeof urls === 'string')
        return { why: `an invalid record: ${urls}` };
    return { record: { ...checked.data, documents, urls } };
}
/** The documents without a prototype (a lookup answers only what the record holds), or what is wrong. */
function checkedDocuments(raw) {
    const documents = Object.create(null);
    for (const name of Object.keys(raw)) {
        const problem = (0,document_names/* selectableNameProblem */.Jk)(name);
        if (problem)
            return `documents[${quotedKey(name)}]: the name ${problem}`;
        const id = raw[name];
        if (typeof id !== 'string' || !isHeldContent(id))
            return `documents[${quotedKey(name)}]: ${CONTENT_RULE}`;
        documents[name] = id;
    }
    return documents;
}
/** The URLs without a prototype, or what is wrong; a URL's user info is never shown. */
function checkedUrls(raw) {
    const urls = Object.create(null);
    for (const url of Object.keys(raw)) {
        const problem = (0,config_urls/* urlEntryProblem */.vR)(url);
        if (problem)
            return `urls[${quotedKey(url)}]: the URL ${problem}`;
        const held = heldUrl.safeParse(raw[url]);
        if (!held.success)
            return issueText(held.error.issues[0], `urls[${quotedKey(url)}]`);
        urls[url] = held.data;
    }
    return urls;
}
/** One issue as a sentence part, naming where it is. */
function issueText(issue, within = '') {
    const where = [within, ...issue.path.map(String)].filter((part) => part !== '').join('.');
    const message = issue.code === 'invalid_key' && issue.issues[0]
        ? issue.issues[0].message
        : issue.code === 'unrecognized_keys'
            ? `unknown field ${quotedKey(issue.keys[0] ?? '')}`
            : issue.message;
    return where === '' ? message : `${where}: ${message}`;
}
const quotedKey = (key) => JSON.stringify(shown(key));
/** A key as a message may show it: user info removed, control characters escaped, at most 200 characters. */
function shown(key) {
    const clean = (0,log/* displayName */.QC)((0,errors/* withoutUserInfo */.sl)(key));
    return clean.length > 200 ? `${clean.slice(0, 200)}…` : clean;
}
function shardText(shard) {
    return shard && shard.count > 1 ? `${shard.index}/${shard.count}` : undefined;
}
/** Why a record of `found` is not the record of `expected`, or undefined when it is. */
function targetDifference(found, expected) {
    if (found.host.toLowerCase() !== expected.host.toLowerCase())
        return `the record of another service (host ${shown(found.host)}; this run's is ${shown(expected.host)})`;
    for (const [key, input] of [
        ['flowId', 'flow-id'],
        ['orgId', 'org-id'],
        ['nodeId', 'node-id'],
    ])
        if (found[key] !== expected[key])
            return `the record of another node (${input} ${shown(found[key])}; this run's is ${shown(expected[key])})`;
    const [foundShard, expectedShard] = [shardText(found.shard), shardText(expected.shard)];
    if (foundShard !== expectedShard)
        return `the record of ${foundShard ? `shard ${foundShard}` : 'the whole node'} (this run ${expectedShard ? `is shard ${expectedShard}` : 'writes the whole node'})`;
    return undefined;
}


/***/ }),

/***/ 69723:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   fileBytesStore: () => (/* binding */ fileBytesStore)
/* harmony export */ });
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(77598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(51455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(76760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_2__);
/* harmony import */ var _codec_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(56344);
/* harmony import */ var _units_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(61996);
/* harmony import */ var _temp_folder_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(24658);
// The record as one local file (the CLI's `--state-file PATH`: other CI systems, a laptop, the emulator).
// One file holds one record: the key is not part of the path, so a file given to runs of two targets (or
// two shards) holds the last one's record, and the other finds it unusable ("the record of another
// node") and falls back. Use one file per target and shard.






function fileBytesStore(path, operations = { rename: node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.rename }) {
    const where = `file ${path}`;
    return {
        description: where,
        async readNewest(_key, signal) {
            signal?.throwIfAborted();
            try {
                return await readBounded(path, where);
            }
            catch (error) {
                signal?.throwIfAborted();
                if ((0,_temp_folder_js__WEBPACK_IMPORTED_MODULE_5__/* .reasonOf */ .A3)(error) === 'ENOENT')
                    return { kind: 'missing', why: `there is no ${where} yet` };
                return { kind: 'unusable', why: `the ${where} cannot be read (${(0,_temp_folder_js__WEBPACK_IMPORTED_MODULE_5__/* .reasonOf */ .A3)(error)})` };
            }
        },
        async write(_key, bytes, signal) {
            signal?.throwIfAborted();
            // Written beside the record, then renamed over it: a reader (or a run killed mid-write) sees the
            // old record or the new one, never a part of one.
            const temporary = (0,node_path__WEBPACK_IMPORTED_MODULE_2__.join)((0,node_path__WEBPACK_IMPORTED_MODULE_2__.dirname)(path), `.${(0,node_path__WEBPACK_IMPORTED_MODULE_2__.basename)(path)}.${(0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.randomBytes)(6).toString('hex')}.tmp`);
            try {
                await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.mkdir)((0,node_path__WEBPACK_IMPORTED_MODULE_2__.dirname)(path), { recursive: true });
                await writeSynced(temporary, bytes);
                await operations.rename(temporary, path);
                return { ok: true, where };
            }
            catch (error) {
                await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.rm)(temporary, { force: true }).catch(() => undefined);
                signal?.throwIfAborted();
                return { ok: false, why: `the ${where} cannot be written (${(0,_temp_folder_js__WEBPACK_IMPORTED_MODULE_5__/* .reasonOf */ .A3)(error)})` };
            }
        },
    };
}
/** The file's bytes; a file over the record's bound is not read (the codec would refuse it anyway). */
async function readBounded(path, where) {
    const handle = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.open)(path, 'r');
    try {
        const { size } = await handle.stat();
        if (size > _codec_js__WEBPACK_IMPORTED_MODULE_3__/* .MAX_RECORD_BYTES */ .xR)
            return {
                kind: 'unusable',
                why: `the ${where} is over the record's size bound: ${(0,_units_js__WEBPACK_IMPORTED_MODULE_4__/* .formatCount */ .B4)(size)} bytes, more than ${(0,_units_js__WEBPACK_IMPORTED_MODULE_4__/* .formatBytes */ .z3)(_codec_js__WEBPACK_IMPORTED_MODULE_3__/* .MAX_RECORD_BYTES */ .xR)}`,
            };
        return { kind: 'found', bytes: await handle.readFile(), from: where };
    }
    finally {
        await handle.close();
    }
}
/** Writes and flushes the file, so that the rename never makes a file whose bytes are still in flight. */
async function writeSynced(path, bytes) {
    const handle = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.open)(path, 'wx', 0o644);
    try {
        await handle.writeFile(bytes);
        await handle.sync();
    }
    finally {
        await handle.close();
    }
}


/***/ })

};
