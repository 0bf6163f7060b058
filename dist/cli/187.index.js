export const id = 187;
export const ids = [187];
export const modules = {

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

/***/ 63570:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  serveCommand: () => (/* binding */ serveCommand)
});

// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(77598);
// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(73024);
// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(51455);
// EXTERNAL MODULE: external "node:http"
var external_node_http_ = __webpack_require__(37067);
// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __webpack_require__(48161);
var external_node_os_default = /*#__PURE__*/__webpack_require__.n(external_node_os_);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(76760);
var external_node_path_default = /*#__PURE__*/__webpack_require__.n(external_node_path_);
;// CONCATENATED MODULE: ./src/emulator/faults.ts
// Fault injection: which requests the emulator answers with a transient failure instead of the truth.
// The choice is reproducible: an explicit per-request decision (tests), else a seeded PRNG drawn once
// per request in arrival order, so one seed gives the same fault sequence on every run.
const ALL_FAULT_KINDS = [
    'rate-limit',
    'server-error',
    'unavailable',
    'reset-before',
    'reset-after',
];
/** mulberry32: a tiny, well-known 32-bit PRNG; good enough to spread faults, and seedable. */
function seededRandom(seed) {
    let state = seed >>> 0;
    return () => {
        state = (state + 0x6d2b79f5) >>> 0;
        let t = state;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}
function checkFaultSettings(settings) {
    const rate = settings.faultRate ?? 0;
    if (!(Number.isFinite(rate) && rate >= 0 && rate <= 1))
        throw new RangeError(`faultRate must be a number from 0 to 1 (got ${String(settings.faultRate)})`);
    if (settings.seed !== undefined && !Number.isFinite(settings.seed))
        throw new RangeError('seed must be a finite number');
    const kinds = settings.faultKinds;
    if (kinds !== undefined) {
        if (kinds.length === 0)
            throw new RangeError('faultKinds must not be empty');
        const unknown = kinds.filter((kind) => !ALL_FAULT_KINDS.includes(kind));
        if (unknown.length > 0)
            throw new RangeError(`unknown fault kinds: ${unknown.join(', ')}`);
    }
}
function createFaultPicker(settings) {
    checkFaultSettings(settings);
    const { inject } = settings;
    if (inject)
        return (request) => inject(request);
    const rate = settings.faultRate ?? 0;
    const kinds = settings.faultKinds ?? ALL_FAULT_KINDS;
    const random = seededRandom(settings.seed ?? 1);
    return () => {
        // Two draws per request whatever the outcome, so the sequence depends on the seed and the
        // request count only.
        const hit = random() < rate;
        const kind = kinds[Math.floor(random() * kinds.length)];
        return hit ? kind : undefined;
    };
}

// EXTERNAL MODULE: ./node_modules/minisearch/dist/es/index.js
var es = __webpack_require__(72150);
;// CONCATENATED MODULE: ./src/emulator/flow.ts
// The emulator's flow: a small but real retrieval over the flow's knowledge bases. Text documents
// (markdown, plain text, HTML and XML without their tags, JSON, YAML, CSV) are split into passages (by
// headings and blank lines) and ranked against the question with MiniSearch (BM25+); other documents
// are listed by name, indexed URLs by value (never fetched: the emulator makes no network calls).
// Only what a reader of a document sees is searched, not its metadata (searchableText), and a block
// without a word is no passage: a removed document's placeholder has neither, so, as in a real index,
// no question finds it. It is told by having nothing to search, not by a marker the emulator knows.



const TOP_PASSAGES = 3;
const TEXT_EXTENSIONS = new Set([
    '.md',
    '.markdown',
    '.mdx',
    '.txt',
    '.text',
    '.rst',
    '.adoc',
    '.html',
    '.htm',
    '.xml',
    '.json',
    '.yaml',
    '.yml',
    '.csv',
    '.tsv',
]);
const TEXT_TYPES = new Set([
    'text/markdown',
    'text/plain',
    'text/x-rst',
    'text/html',
    'application/xml',
    'application/json',
    'application/yaml',
    'text/csv',
    'text/tab-separated-values',
]);
const MARKUP_EXTENSIONS = new Set(['.html', '.htm', '.xml']);
const HTML_EXTENSIONS = new Set(['.html', '.htm']);
const MARKDOWN_EXTENSIONS = new Set(['.md', '.markdown', '.mdx']);
const ASCIIDOC_EXTENSIONS = new Set(['.adoc', '.asciidoc']);
/** Text formats are searched; anything else (PDF, Office files, images) is listed by name only. */
function isTextDocument(name, contentType) {
    const type = contentType.split(';')[0].trim().toLowerCase();
    if (TEXT_TYPES.has(type))
        return true;
    return TEXT_EXTENSIONS.has(external_node_path_default().posix.extname(name).toLowerCase());
}
// YAML (`---`) or TOML (`+++`) front matter at the very top, up to its closing line.
const FRONT_MATTER = /^\ufeff?(---|\+\+\+)[ \t]*\r?\n(?:[\s\S]*?\r?\n)?(?:\1|\.\.\.)[ \t]*(?:\r?\n|$)/;
// An AsciiDoc attribute entry (`:name: value`, `:name!:`), a line of its own.
const ATTRIBUTE_ENTRY = /^:!?\w[\w-]*!?:(?:[ \t].*)?$/gm;
/**
 * The words of a text document a reader sees, which is what retrieval searches: not its metadata —
 * markdown's front matter, an HTML page's <head>, AsciiDoc's attribute entries — and HTML and XML
 * without their tags and attributes (each tag ends a passage). A removed document's placeholder keeps
 * its commit there (placeholders.ts), so it has no words here, and is never found.
 */
function searchableText(name, text) {
    const extension = external_node_path_default().posix.extname(name).toLowerCase();
    if (MARKDOWN_EXTENSIONS.has(extension))
        return text.replace(FRONT_MATTER, '');
    if (ASCIIDOC_EXTENSIONS.has(extension))
        return text.replace(ATTRIBUTE_ENTRY, '');
    if (!MARKUP_EXTENSIONS.has(extension))
        return text;
    const body = HTML_EXTENSIONS.has(extension)
        ? text.replace(/<head\b[^>]*>[\s\S]*?<\/head\s*>/gi, '\n\n')
        : text;
    return body
        .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '\n\n')
        .replace(/<[^>]*>/g, '\n\n')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, '&');
}
const WORD = /[\p{L}\p{N}]/u;
const HEADING = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/;
/** Splits text into passages: blocks between blank lines, each remembering the heading above it. */
function splitPassages(document, text) {
    const passages = [];
    let heading = '';
    let block = [];
    const flush = () => {
        const body = block.join('\n').trim();
        // A block without a letter or a digit (`{}`, a rule, punctuation) has nothing to be found by.
        if (WORD.test(body))
            passages.push({ document, heading, text: body });
        block = [];
    };
    for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
        const match = HEADING.exec(line);
        if (match) {
            flush();
            heading = match[1];
        }
        else if (line.trim() === '') {
            flush();
        }
        else {
            block.push(line);
        }
    }
    flush();
    return passages;
}
// Words that carry no meaning for ranking (the question is natural language).
const STOP_WORDS = new Set(('a an and are as at be by can do does for from how i if in is it of on or so that the this to ' +
    'was what when where which who why will with you your my me we our').split(' '));
function processTerm(term) {
    const lower = term.toLowerCase();
    return STOP_WORDS.has(lower) ? null : lower;
}
/** The best passages for the question, best first. */
function rankPassages(question, passages, limit = TOP_PASSAGES) {
    const index = new es/* default */.A({
        fields: ['heading', 'text'],
        processTerm,
        searchOptions: {
            boost: { heading: 1.5 },
            prefix: (term) => term.length > 3,
            fuzzy: (term) => (term.length > 5 ? 0.2 : false),
            combineWith: 'OR',
        },
    });
    index.addAll(passages.map((passage, id) => ({ id, heading: passage.heading, text: passage.text })));
    return index
        .search(question)
        .slice(0, limit)
        .map((result) => passages[result.id]);
}
/** The question of a run: `in-0`, then every other input, one per line. */
function questionOf(inputs) {
    const rest = Object.entries(inputs)
        .filter(([key]) => key !== 'in-0')
        .map(([, value]) => value);
    return [inputs['in-0'] ?? '', ...rest].filter((part) => part.trim() !== '').join('\n');
}
function describe(passage, rank) {
    const where = passage.heading ? `${passage.document} (${passage.heading})` : passage.document;
    return `[${rank}] ${where}\n${passage.text}`;
}
/** What a flow answers on a run that missed: as if retrieval found nothing (a real flow's bad day). */
const MISSED_ANSWER = 'No passage of the indexed documents matches the question.';
/**
 * Decides which runs of a question miss, so repeats of one question can be answered differently. Each
 * question has its own seeded sequence (mulberry32 seeded with `seed` and the question's hash), drawn
 * once per run of that question in arrival order: the nth run of a question misses or not whatever the
 * other questions do, so a suite run at any concurrency gives the same answers per check.
 */
function createMissPicker(seed, missRate) {
    const sequences = new Map();
    return (question) => {
        let next = sequences.get(question);
        if (!next) {
            next = seededRandom((seed ^ hashOf(question)) >>> 0);
            sequences.set(question, next);
        }
        return next() < missRate;
    };
}
/** FNV-1a over UTF-16 code units: a stable 32-bit hash of the question. */
function hashOf(text) {
    let hash = 0x811c9dc5;
    for (let i = 0; i < text.length; i++)
        hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
    return hash >>> 0;
}
function flowRunAnswer(question, knowledge, flowName, runId, missed = false) {
    const { text, cited } = missed
        ? { text: MISSED_ANSWER, cited: [] }
        : composeAnswer(question, knowledge, flowName);
    return {
        outputs: { 'out-0': text },
        run_id: runId,
        state: 'COMPLETED',
        error: null,
        pause: null,
        citations: cited.map((passage) => ({ document: passage.document, heading: passage.heading })),
    };
}
/** The text of `out-0` for a question over a flow's knowledge. */
function answerQuestion(question, knowledge, flowName) {
    return composeAnswer(question, knowledge, flowName).text;
}
function composeAnswer(question, knowledge, flowName) {
    const textDocuments = knowledge.documents.filter((document) => document.text !== undefined);
    const otherDocuments = knowledge.documents.filter((document) => document.text === undefined);
    if (knowledge.documents.length === 0 && knowledge.urls.length === 0)
        return { text: `No documents indexed: the knowledge bases of ${flowName} are empty.`, cited: [] };
    const sections = [];
    let cited = [];
    if (question === '') {
        sections.push('No question was given (input "in-0" is empty).');
    }
    else {
        const passages = textDocuments.flatMap((document) => splitPassages(document.name, searchableText(document.name, document.text ?? '')));
        cited = rankPassages(question, passages);
        if (cited.length > 0)
            sections.push(cited.map((passage, i) => describe(passage, i + 1)).join('\n\n'));
        else if (textDocuments.length > 0)
            sections.push('No passage of the indexed documents matches the question.');
        else
            sections.push('No text documents are indexed to search.');
    }
    if (otherDocuments.length > 0)
        sections.push(`Other documents (not searched):\n${otherDocuments.map((document) => `- ${document.name}`).join('\n')}`);
    if (knowledge.urls.length > 0)
        sections.push(`Indexed websites (not fetched):\n${knowledge.urls.map((url) => `- ${url}`).join('\n')}`);
    return { text: sections.join('\n\n'), cited };
}
/**
 * The emulator's judge flow (`judgeFlows`): grades `in-1` (the answer) by the key terms of `in-2` (the
 * rubric) found in it — the phrases in double quotes, else every word of three letters or more that is
 * not a stop word. Its score is the share found (two decimals), its verdict pass from one half up. Not a
 * model: a deterministic stand-in, so repeats and score thresholds are tested for real. Answers in the
 * shape the README's "Judge flow" section defines, as JSON text in `out-0`.
 */
function judgeRunAnswer(inputs, runId) {
    const answer = (inputs['in-1'] ?? '').toLowerCase();
    const terms = keyTermsOf(inputs['in-2'] ?? '');
    const missing = terms.filter((term) => !containsTerm(answer, term));
    const score = terms.length === 0 ? 0 : Math.round(((terms.length - missing.length) / terms.length) * 100) / 100;
    const reason = terms.length === 0
        ? 'The rubric names no key term to look for.'
        : missing.length === 0
            ? `The answer has every key term of the rubric (${terms.length}).`
            : `The answer has ${terms.length - missing.length} of ${terms.length} key terms of the rubric; ` +
                `missing: ${missing.map((term) => JSON.stringify(term)).join(', ')}.`;
    const grade = { verdict: score >= 0.5 ? 'pass' : 'fail', score, reason };
    return {
        outputs: { 'out-0': JSON.stringify(grade) },
        run_id: runId,
        state: 'COMPLETED',
        error: null,
        pause: null,
        citations: [],
    };
}
function keyTermsOf(rubric) {
    const quoted = [...rubric.matchAll(/"([^"]+)"/g)].map((match) => match[1].trim().toLowerCase());
    if (quoted.length > 0)
        return [...new Set(quoted.filter((term) => term !== ''))];
    const words = rubric.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [];
    return [...new Set(words.filter((word) => !STOP_WORDS.has(word)))];
}
/** The term as whole words of the (lower-cased) answer. */
function containsTerm(answer, term) {
    let from = answer.indexOf(term);
    while (from >= 0) {
        const before = answer[from - 1];
        const after = answer[from + term.length];
        const edge = (char) => char === undefined || !/[\p{L}\p{N}]/u.test(char);
        if (edge(before) && edge(after))
            return true;
        from = answer.indexOf(term, from + 1);
    }
    return false;
}

;// CONCATENATED MODULE: ./src/emulator/index-lag.ts
const keyOf = (kb) => JSON.stringify([kb.flowId, kb.orgId, kb.nodeId]);
class IndexLag {
    delayMs;
    now;
    pending = new Map();
    constructor(delayMs, now = Date.now) {
        this.delayMs = delayMs;
        this.now = now;
    }
    /** Called with the knowledge base as it is, just before a change to it is applied. */
    async changing(kb, current) {
        if (this.delayMs <= 0)
            return;
        const changes = this.notAnswerable(kb);
        changes.push({ answerableAt: this.now() + this.delayMs, before: await current() });
        this.pending.set(keyOf(kb), changes);
    }
    /** What a flow answers from for this knowledge base now: undefined means its current documents. */
    answered(kb) {
        return this.notAnswerable(kb)[0]?.before;
    }
    /** The changes not answerable yet, oldest first (the answerable ones are forgotten). */
    notAnswerable(kb) {
        const key = keyOf(kb);
        const now = this.now();
        const changes = (this.pending.get(key) ?? []).filter((change) => change.answerableAt > now);
        if (changes.length === 0)
            this.pending.delete(key);
        else
            this.pending.set(key, changes);
        return changes;
    }
}

;// CONCATENATED MODULE: ./src/emulator/knowledge.ts
// What a flow reads from a knowledge base of the emulator: its text documents with their text, and its URLs.


/** Bytes of each text document the flow reads: enough for docs, bounded for memory. */
const FLOW_TEXT_LIMIT = 2 * 1024 * 1024;
async function readTextPrefix(file, limit) {
    const handle = await (0,promises_.open)(file, 'r');
    try {
        const buffer = Buffer.alloc(limit);
        const { bytesRead } = await handle.read(buffer, 0, limit, 0);
        return buffer.subarray(0, bytesRead).toString('utf8');
    }
    finally {
        await handle.close();
    }
}
/** A knowledge base's documents (text documents with their text) and URLs, as a flow reads them now. */
async function knowledgeOf(store, kb) {
    const documents = [];
    for (const document of store.documents(kb)) {
        const text = isTextDocument(document.name, document.contentType)
            ? await readTextPrefix(store.contentPath(kb, document.name), FLOW_TEXT_LIMIT)
            : undefined;
        documents.push({ nodeId: kb.nodeId, name: document.name, contentType: document.contentType, text });
    }
    return { documents, urls: store.urls(kb) };
}

;// CONCATENATED MODULE: ./src/emulator/options.ts
// The emulator's settings, and their check before it starts.

function checkOptions(options) {
    if (typeof options.privateKey !== 'string' || options.privateKey.trim() === '')
        throw new TypeError('privateKey must be a non-empty string');
    if (typeof options.publicKey !== 'string' || options.publicKey.trim() === '')
        throw new TypeError('publicKey must be a non-empty string');
    if (options.privateKey === options.publicKey)
        throw new TypeError('privateKey and publicKey must differ');
    const latency = options.latencyMs ?? 0;
    if (!(Number.isFinite(latency) && latency >= 0))
        throw new RangeError('latencyMs must be a number >= 0');
    const retryAfter = options.retryAfterSeconds ?? 1;
    if (!(Number.isInteger(retryAfter) && retryAfter >= 0))
        throw new RangeError('retryAfterSeconds must be an integer >= 0');
    checkFaultSettings(options);
    const missRate = options.missRate ?? 0;
    if (!(Number.isFinite(missRate) && missRate >= 0 && missRate <= 1))
        throw new RangeError('missRate must be a number from 0 to 1');
    const indexDelay = options.indexDelayMs ?? 0;
    if (!(Number.isFinite(indexDelay) && indexDelay >= 0))
        throw new RangeError('indexDelayMs must be a number >= 0');
}

// EXTERNAL MODULE: external "node:stream/promises"
var external_node_stream_promises_ = __webpack_require__(46466);
;// CONCATENATED MODULE: ./src/emulator/request-body.ts

function bearerToken(header) {
    const match = /^Bearer[ \t]+(\S.*?)\s*$/i.exec(header ?? '');
    return match?.[1];
}
/** Reads the rest of the body and throws it away, so the client can finish sending before the answer. */
async function drain(request) {
    if (request.readableEnded)
        return;
    request.resume();
    await (0,external_node_stream_promises_.finished)(request).catch(() => undefined);
}
async function readBody(request, limit) {
    const chunks = [];
    let size = 0;
    for await (const chunk of request) {
        size += chunk.length;
        if (size > limit) {
            await drain(request);
            return undefined;
        }
        chunks.push(chunk);
    }
    return Buffer.concat(chunks);
}

// EXTERNAL MODULE: ./src/service/ids.ts
var ids = __webpack_require__(13317);
;// CONCATENATED MODULE: ./src/emulator/routes.ts
// The routes of the emulator: which operation a request path names, with its ids (the client's id rule).

function decodeId(segment) {
    try {
        const id = decodeURIComponent(segment);
        return (0,ids/* idProblem */.l)(id) === undefined ? id : undefined;
    }
    catch {
        return undefined;
    }
}
/** The route of a raw request path, or undefined (404). Ids follow the client's own id rule. */
function matchRoute(rawPath) {
    const segments = rawPath.split('/');
    if (segments[0] !== '')
        return undefined;
    const [, area, version, operation, ...ids] = segments;
    const decoded = ids.map(decodeId);
    if (decoded.some((id) => id === undefined))
        return undefined;
    if (area === 'indexing' && version === 'v0' && (operation === 'urls' || operation === 'documents')) {
        if (decoded.length !== 3)
            return undefined;
        const [flowId, orgId, nodeId] = decoded;
        return { operation, kb: { flowId, orgId, nodeId }, allow: 'POST, PATCH' };
    }
    if (area === 'inference' && version === 'v0' && operation === 'run') {
        if (decoded.length !== 2)
            return undefined;
        const [orgId, flowId] = decoded;
        return { operation, orgId, flowId, allow: 'POST' };
    }
    return undefined;
}

// EXTERNAL MODULE: external "node:stream"
var external_node_stream_ = __webpack_require__(57075);
// EXTERNAL MODULE: ./node_modules/busboy/lib/index.js
var lib = __webpack_require__(680);
var lib_default = /*#__PURE__*/__webpack_require__.n(lib);
;// CONCATENATED MODULE: ./src/emulator/multipart.ts
// Receives a multipart body part by part, streaming every file part to a temp file while hashing it,
// so memory stays flat whatever the upload size. The caller decides what the parts mean.







/**
 * Browsers and form-data (>= 4.0.6) percent-encode CR, LF and `"` in a multipart filename (WHATWG
 * HTML); undoing exactly those three gives back the name the client meant.
 */
function decodeFilename(raw) {
    return raw.replace(/%0D|%0A|%22/gi, (escape) => decodeURIComponent(escape));
}
const ABORTED = 'the client aborted the request';
/** Set up before any await: a request that closes while we wait for the disk has to be seen as aborted. */
function whenAborted(request) {
    return new Promise((resolve) => {
        request.on('close', () => {
            if (!request.complete)
                resolve(ABORTED);
        });
    });
}
async function receiveMultipart(request, tempDir) {
    const aborted = whenAborted(request);
    await (0,promises_.mkdir)(tempDir, { recursive: true });
    const parts = [];
    const writes = [];
    let parser;
    try {
        // preservePath: names are repo-relative paths, not basenames. utf8: clients send raw UTF-8 names.
        parser = lib_default()({ headers: request.headers, preservePath: true, defParamCharset: 'utf8' });
    }
    catch (error) {
        request.resume();
        return { ok: false, problem: error.message };
    }
    const parsed = new Promise((resolve) => {
        parser.on('file', (field, stream, info) => {
            const filename = info.filename === undefined || info.filename === '' ? undefined : info.filename;
            const part = {
                field,
                filename: filename === undefined ? undefined : decodeFilename(filename),
                contentType: info.mimeType,
                size: 0,
                sha256: '',
                tempPath: external_node_path_default().join(tempDir, `${(0,external_node_crypto_.randomUUID)()}.part`),
            };
            parts.push(part);
            const hash = (0,external_node_crypto_.createHash)('sha256');
            const meter = new external_node_stream_.Transform({
                transform(chunk, _encoding, callback) {
                    hash.update(chunk);
                    part.size += chunk.length;
                    callback(null, chunk);
                },
            });
            const sink = (0,external_node_fs_.createWriteStream)(part.tempPath);
            // A destroyed pipeline settles before the file's open has finished; removing the file before then
            // would leave it behind, so a write counts as settled only once its file is closed.
            const closed = new Promise((resolve) => sink.once('close', () => resolve()));
            writes.push((0,external_node_stream_promises_.pipeline)(stream, meter, sink)
                .then(() => {
                part.sha256 = hash.digest('hex');
            })
                .finally(() => closed));
        });
        parser.on('field', (field, value, info) => {
            parts.push({
                field,
                filename: undefined,
                contentType: info.mimeType,
                size: Buffer.byteLength(value),
                sha256: (0,external_node_crypto_.createHash)('sha256').update(value).digest('hex'),
                tempPath: undefined,
            });
        });
        parser.on('close', () => resolve(undefined));
        parser.on('error', (error) => resolve(error.message));
    });
    request.pipe(parser);
    const problem = await Promise.race([parsed, aborted]);
    if (problem !== undefined) {
        request.unpipe(parser);
        // Ends a file part cut off mid-way, so its temp file write settles instead of waiting forever.
        parser.destroy(new Error(problem));
    }
    const written = await Promise.allSettled(writes);
    const failed = written.find((result) => result.status === 'rejected');
    if (problem !== undefined || failed) {
        request.unpipe(parser);
        request.resume();
        await discardParts(parts);
        const reason = problem ?? String(failed.reason);
        return { ok: false, problem: reason };
    }
    return { ok: true, parts };
}
async function discardParts(parts) {
    await Promise.all(parts.map((part) => (part.tempPath ? (0,promises_.rm)(part.tempPath, { force: true }) : undefined)));
}

;// CONCATENATED MODULE: ./src/emulator/store.ts
// The emulator's knowledge bases on disk, one per (flow, org, node):
//   <dataDir>/kb/<flow>/<org>/<node>/index.jsonl     journal: one line per applied change, naming the
//                                                    documents (metadata) and URLs it set
//   <dataDir>/kb/<flow>/<org>/<node>/content/<sha256 of the name>
// Document names may hold any character (newlines, quotes, "/", non-ASCII), so a name is never used as
// a path: the content file is named by the hash of the name. Ids are safe path segments (checked by
// the server with the client's own id rule before they get here).
// Every change is all-or-nothing: the whole request is checked against the index first, then applied,
// with one writer per knowledge base at a time. The index lives in memory; each applied change appends
// one journal line (only the entries it set) before the answer, so a request costs what it changed,
// not the size of the node, and a data directory reopened later replays the journal.




function parseJournalLine(line) {
    if (line === '')
        return undefined;
    try {
        return JSON.parse(line);
    }
    catch {
        return undefined;
    }
}
function contentFileName(name) {
    return (0,external_node_crypto_.createHash)('sha256').update(name, 'utf8').digest('hex');
}
class EmulatorStore {
    dataDir;
    beforeChange;
    cache = new Map();
    locks = new Map();
    /**
     * `beforeChange` runs inside the knowledge base's turn, once a change is accepted and before it is
     * applied: it sees the knowledge base exactly as the change found it.
     */
    constructor(dataDir, beforeChange) {
        this.dataDir = dataDir;
        this.beforeChange = beforeChange;
    }
    /** Where received uploads wait; same filesystem as the store, so accepting one is a rename. */
    get tempDir() {
        return external_node_path_default().join(this.dataDir, 'tmp');
    }
    kbDir(id) {
        return external_node_path_default().join(this.dataDir, 'kb', id.flowId, id.orgId, id.nodeId);
    }
    load(id) {
        const key = this.kbDir(id);
        const cached = this.cache.get(key);
        if (cached)
            return cached;
        const kb = { documents: new Map(), urls: new Map(), made: false };
        const journal = external_node_path_default().join(key, 'index.jsonl');
        if ((0,external_node_fs_.existsSync)(journal)) {
            kb.made = true;
            const text = (0,external_node_fs_.readFileSync)(journal, 'utf8');
            // A line cut short by a crash mid-append was never answered as applied: it is skipped, and the next
            // line starts on a line of its own.
            kb.torn = text !== '' && !text.endsWith('\n');
            for (const line of text.split('\n')) {
                const entry = parseJournalLine(line);
                for (const document of entry?.documents ?? [])
                    kb.documents.set(document.name, document);
                for (const url of entry?.urls ?? [])
                    kb.urls.set(url.url, url);
            }
        }
        this.cache.set(key, kb);
        return kb;
    }
    async makeFolders(id, kb) {
        if (kb.made)
            return;
        await (0,promises_.mkdir)(external_node_path_default().join(this.kbDir(id), 'content'), { recursive: true });
        kb.made = true;
    }
    /** Durable before the caller answers: the change is applied only once its line is written. */
    async record(id, kb, entry) {
        const line = `${kb.torn ? '\n' : ''}${JSON.stringify(entry)}\n`;
        await (0,promises_.appendFile)(external_node_path_default().join(this.kbDir(id), 'index.jsonl'), line);
        kb.torn = false;
    }
    async exclusive(id, work) {
        const key = this.kbDir(id);
        const previous = this.locks.get(key) ?? Promise.resolve();
        const next = previous.then(work, work);
        const settled = next.catch(() => undefined);
        this.locks.set(key, settled);
        try {
            return await next;
        }
        finally {
            if (this.locks.get(key) === settled)
                this.locks.delete(key);
        }
    }
    documents(id) {
        return [...this.load(id).documents.values()]
            .map((document) => ({ ...document }))
            .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    }
    urls(id) {
        return [...this.load(id).urls.keys()].sort();
    }
    contentPath(id, name) {
        return external_node_path_default().join(this.kbDir(id), 'content', contentFileName(name));
    }
    /** Node ids with a knowledge base under (flow, org), sorted. */
    nodeIds(flowId, orgId) {
        const dir = external_node_path_default().join(this.dataDir, 'kb', flowId, orgId);
        if (!(0,external_node_fs_.existsSync)(dir))
            return [];
        return (0,external_node_fs_.readdirSync)(dir, { withFileTypes: true })
            .filter((entry) => entry.isDirectory())
            .map((entry) => entry.name)
            .sort();
    }
    /**
     * Creates (POST) or replaces (PATCH) documents, all or none: a create of an existing name or an
     * update of a missing one changes nothing and names the offenders. Temp files of a refused request
     * are left to the caller.
     */
    changeDocuments(id, mode, received) {
        return this.exclusive(id, async () => {
            const kb = this.load(id);
            const conflict = conflicts(kb.documents, mode, received.map((document) => document.name));
            if (conflict)
                return conflict;
            await this.beforeChange?.(id);
            await this.makeFolders(id, kb);
            const changed = [];
            for (const document of received) {
                await (0,promises_.rename)(document.tempPath, this.contentPath(id, document.name));
                const before = kb.documents.get(document.name);
                changed.push({
                    name: document.name,
                    size: document.size,
                    sha256: document.sha256,
                    contentType: document.contentType,
                    created: (before?.created ?? 0) + (mode === 'create' ? 1 : 0),
                    updated: (before?.updated ?? 0) + (mode === 'update' ? 1 : 0),
                });
            }
            await this.record(id, kb, { documents: changed });
            for (const document of changed)
                kb.documents.set(document.name, document);
            return { ok: true, names: received.map((document) => document.name) };
        });
    }
    /** Adds (POST) or refreshes (PATCH) URLs, all or none, like documents. */
    changeUrls(id, mode, urls) {
        return this.exclusive(id, async () => {
            const kb = this.load(id);
            const conflict = conflicts(kb.urls, mode, urls);
            if (conflict)
                return conflict;
            await this.beforeChange?.(id);
            await this.makeFolders(id, kb);
            const changed = urls.map((url) => {
                const before = kb.urls.get(url);
                return {
                    url,
                    created: (before?.created ?? 0) + (mode === 'create' ? 1 : 0),
                    updated: (before?.updated ?? 0) + (mode === 'update' ? 1 : 0),
                };
            });
            await this.record(id, kb, { urls: changed });
            for (const entry of changed)
                kb.urls.set(entry.url, entry);
            return { ok: true, names: urls };
        });
    }
    async discard(received) {
        await Promise.all(received.map((document) => (0,promises_.rm)(document.tempPath, { force: true })));
    }
}
function conflicts(existing, mode, keys) {
    if (mode === 'create') {
        const taken = keys.filter((key) => existing.has(key));
        return taken.length > 0 ? { ok: false, reason: 'exists', names: taken } : undefined;
    }
    const missing = keys.filter((key) => !existing.has(key));
    return missing.length > 0 ? { ok: false, reason: 'missing', names: missing } : undefined;
}

;// CONCATENATED MODULE: ./src/emulator/validation.ts
const ok = (value) => ({ ok: true, value });
const fail = (...issues) => ({ ok: false, issues });
/** The media type of a Content-Type header, lower-cased, without parameters. */
function mediaType(header) {
    return (header ?? '').split(';')[0].trim().toLowerCase();
}
function checkJsonContentType(header) {
    if (mediaType(header) === 'application/json')
        return undefined;
    return {
        loc: ['header', 'content-type'],
        msg: `Content-Type must be application/json (got ${header ? JSON.stringify(header) : 'none'})`,
        type: 'content_type',
    };
}
function checkMultipartContentType(header) {
    if (mediaType(header) === 'multipart/form-data' && /;\s*boundary=/i.test(header ?? ''))
        return undefined;
    return {
        loc: ['header', 'content-type'],
        msg: `Content-Type must be multipart/form-data with a boundary (got ${header ? JSON.stringify(header) : 'none'})`,
        type: 'content_type',
    };
}
function parseJson(text) {
    try {
        return ok(JSON.parse(text));
    }
    catch (error) {
        return fail({
            loc: ['body'],
            msg: `JSON decode error: ${error.message}`,
            type: 'json_invalid',
        });
    }
}
function isHttpUrl(value) {
    if (!URL.canParse(value))
        return false;
    const { protocol, hostname } = new URL(value);
    return (protocol === 'http:' || protocol === 'https:') && hostname.length > 0;
}
/** A URL body: a non-empty JSON array of distinct http(s) URL strings. */
function checkUrlList(body) {
    if (!Array.isArray(body))
        return fail({ loc: ['body'], msg: 'Input should be a valid list', type: 'list_type' });
    if (body.length === 0)
        return fail({
            loc: ['body'],
            msg: 'List should have at least 1 item after validation, not 0',
            type: 'too_short',
        });
    const issues = [];
    const seen = new Set();
    body.forEach((item, index) => {
        if (typeof item !== 'string') {
            issues.push({ loc: ['body', index], msg: 'Input should be a valid string', type: 'string_type' });
        }
        else if (!isHttpUrl(item)) {
            issues.push({
                loc: ['body', index],
                msg: 'Input should be a valid URL with the scheme http or https',
                type: 'url_parsing',
            });
        }
        else if (seen.has(item)) {
            issues.push({ loc: ['body', index], msg: 'Duplicate URL in one request', type: 'value_error' });
        }
        if (typeof item === 'string')
            seen.add(item);
    });
    return issues.length > 0 ? fail(...issues) : ok(body);
}
/** A run body: a JSON object whose values are all strings. */
function checkRunInputs(body) {
    if (typeof body !== 'object' || body === null || Array.isArray(body))
        return fail({ loc: ['body'], msg: 'Input should be a valid dictionary', type: 'dict_type' });
    const issues = Object.entries(body)
        .filter(([, value]) => typeof value !== 'string')
        .map(([key]) => ({ loc: ['body', key], msg: 'Input should be a valid string', type: 'string_type' }));
    return issues.length > 0 ? fail(...issues) : ok(body);
}
/**
 * The file parts of a document request. Upload (POST): every part is named `files`. Update (PATCH):
 * parts are named `file1`, `file2`, … in order. Every part has a filename; names are distinct.
 */
function checkDocumentParts(parts, mode, rejectDocument) {
    const expectedField = mode === 'create' ? 'files' : 'file1';
    if (parts.length === 0)
        return [
            { loc: ['body', expectedField], msg: 'Field required: no file part in the body', type: 'missing' },
        ];
    const issues = [];
    const seen = new Set();
    parts.forEach((part, index) => {
        const expected = mode === 'create' ? 'files' : `file${index + 1}`;
        if (part.field !== expected) {
            issues.push({
                loc: ['body', part.field],
                msg: mode === 'create'
                    ? `Unexpected part "${part.field}": every upload part must be named "files"`
                    : `Unexpected part "${part.field}" at position ${index + 1}: update parts must be named file1..fileN in order (expected "${expected}")`,
                type: 'value_error',
            });
        }
        if (part.filename === undefined) {
            issues.push({
                loc: ['body', part.field],
                msg: "Value error, Expected UploadFile, received: <class 'str'> (the part has no filename)",
                type: 'value_error',
            });
            return;
        }
        if (seen.has(part.filename)) {
            issues.push({
                loc: ['body', part.field],
                msg: `Duplicate document name ${JSON.stringify(part.filename)} in one request`,
                type: 'value_error',
            });
        }
        seen.add(part.filename);
        const rejection = rejectDocument?.(part.filename);
        if (rejection !== undefined)
            issues.push({ loc: ['body', part.field], msg: rejection, type: 'value_error' });
    });
    return issues;
}

;// CONCATENATED MODULE: ./src/emulator/server.ts
// The local emulator of the indexing/inference service: the five operations of the contract over real
// HTTP, with the checks the contract implies, a store on disk, a retrieval flow, injectable latency and
// faults, and a request log for tests.
//
// Documented choices (the contract shows no responses):
// - Success: 200 with {"uploaded": [...]} (POST) or {"updated": [...]} (PATCH) naming the documents or
//   URLs; the run answers {"outputs": {"out-0": "..."}, "run_id": "<uuid>", "state": "COMPLETED", "error": null,
//   "pause": null, "citations": [...]}.
// - POST of a document name / URL that exists: 409; PATCH of one that does not: 404. A request is applied
//   all-or-nothing; the detail names every offender.
// - Errors are FastAPI-style: {"detail": "..."} (401/403/404/405/409/413/429/500/503) and
//   {"detail": [{"loc", "msg", "type"}]} for validation (422).
// - 401/403 details deliberately echo the token received, like a careless real service might: it lets
//   tests prove that clients scrub keys from the errors they show.
















/** Largest JSON body accepted (URL lists and run inputs). */
const JSON_BODY_LIMIT = 16 * 1024 * 1024;
const detail = (status, message, headers) => ({
    status,
    body: { detail: message },
    headers,
});
const invalid = (issues) => ({ status: 422, body: { detail: issues } });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
class EmulatorServer {
    options;
    seq = 0;
    log = [];
    logFile;
    pickFault;
    missed;
    store;
    lag;
    constructor(options, dataDir) {
        this.options = options;
        this.lag = new IndexLag(options.indexDelayMs ?? 0);
        this.store = new EmulatorStore(dataDir, (kb) => this.lag.changing(kb, () => knowledgeOf(this.store, kb)));
        this.logFile = external_node_path_default().join(this.store.dataDir, 'requests.jsonl');
        this.pickFault = createFaultPicker(options);
        this.missed = createMissPicker(options.seed ?? 0, options.missRate ?? 0);
    }
    requests() {
        return structuredClone(this.log);
    }
    record(entry) {
        this.log.push(entry);
        (0,external_node_fs_.appendFileSync)(this.logFile, `${JSON.stringify(entry)}\n`);
    }
    keyKind(token) {
        if (token === undefined)
            return 'none';
        if (token === this.options.privateKey)
            return 'private';
        if (token === this.options.publicKey)
            return 'public';
        return 'unknown';
    }
    async handle(request, response) {
        const rawPath = (request.url ?? '').split('?')[0];
        const method = request.method ?? '';
        const token = bearerToken(request.headers.authorization);
        const entry = {
            seq: ++this.seq,
            time: new Date().toISOString(),
            method,
            path: rawPath,
            status: null,
            key: this.keyKind(token),
            applied: false,
        };
        const fault = this.pickFault({ method, path: rawPath, seq: entry.seq });
        if (fault)
            entry.fault = fault;
        if (fault === 'reset-before') {
            await this.delay();
            this.record(entry);
            request.socket.destroy();
            return;
        }
        let answer;
        if (fault === 'rate-limit' || fault === 'server-error' || fault === 'unavailable') {
            await drain(request);
            answer = this.faultAnswer(fault);
        }
        else {
            try {
                answer = await this.route(request, rawPath, method, token, entry);
            }
            catch (error) {
                await drain(request);
                answer = detail(500, `Internal emulator error: ${error.message}`);
            }
        }
        await this.delay();
        if (fault === 'reset-after' || response.destroyed || request.socket.destroyed) {
            this.record(entry);
            request.socket.destroy();
            return;
        }
        entry.status = answer.status;
        this.record(entry);
        const body = JSON.stringify(answer.body);
        response.writeHead(answer.status, {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            ...answer.headers,
        });
        response.end(body);
    }
    exists(route) {
        const flows = this.options.flows;
        if (!flows)
            return true;
        return route.operation === 'run'
            ? flows.some((f) => f.orgId === route.orgId && f.flowId === route.flowId)
            : flows.some((f) => f.orgId === route.kb.orgId && f.flowId === route.kb.flowId && f.nodeId === route.kb.nodeId);
    }
    delay() {
        const ms = this.options.latencyMs ?? 0;
        return ms > 0 ? sleep(ms) : Promise.resolve();
    }
    faultAnswer(fault) {
        const retryAfter = { 'retry-after': String(this.options.retryAfterSeconds ?? 1) };
        if (fault === 'rate-limit')
            return detail(429, 'Too many requests (injected fault)', retryAfter);
        if (fault === 'unavailable')
            return detail(503, 'Service unavailable (injected fault)', retryAfter);
        return detail(500, 'Internal server error (injected fault)');
    }
    async route(request, rawPath, method, token, entry) {
        const route = matchRoute(rawPath);
        if (!route || !this.exists(route)) {
            await drain(request);
            return detail(404, 'Not Found');
        }
        const methodAllowed = route.operation === 'run' ? method === 'POST' : method === 'POST' || method === 'PATCH';
        if (!methodAllowed) {
            await drain(request);
            return detail(405, 'Method Not Allowed', { allow: route.allow });
        }
        const denied = this.authorize(route, token, entry.key);
        if (denied) {
            await drain(request);
            return denied;
        }
        const mode = method === 'POST' ? 'create' : 'update';
        if (route.operation === 'run')
            return this.run(request, route.flowId, route.orgId, entry);
        if (route.operation === 'documents')
            return this.documents(request, route.kb, mode, entry);
        return this.urls(request, route.kb, mode, entry);
    }
    authorize(route, token, kind) {
        const needed = route.operation === 'run' ? 'public' : 'private';
        const bearer = { 'www-authenticate': 'Bearer' };
        if (kind === 'none')
            return detail(401, 'Not authenticated: send "Authorization: Bearer <key>"', bearer);
        if (kind === 'unknown')
            return detail(401, `Invalid API key "${token}"`, bearer);
        if (kind !== needed) {
            const operation = route.operation === 'run' ? 'running a flow' : 'indexing';
            return detail(403, `The ${kind} key "${token}" cannot be used for ${operation}; it needs the ${needed} key`);
        }
        return undefined;
    }
    async readJson(request) {
        const typeIssue = checkJsonContentType(request.headers['content-type']);
        if (typeIssue) {
            await drain(request);
            return invalid([typeIssue]);
        }
        const body = await readBody(request, JSON_BODY_LIMIT);
        if (body === undefined)
            return detail(413, `Request body larger than ${JSON_BODY_LIMIT} bytes`);
        return parseJson(body.toString('utf8'));
    }
    async urls(request, kb, mode, entry) {
        const json = await this.readJson(request);
        if ('status' in json)
            return json;
        if (!json.ok)
            return invalid(json.issues);
        const checked = checkUrlList(json.value);
        if (!checked.ok)
            return invalid(checked.issues);
        entry.urls = checked.value;
        const result = await this.store.changeUrls(kb, mode, checked.value);
        if (!result.ok)
            return conflictAnswer(result.reason, 'URLs', result.names);
        entry.applied = true;
        return { status: 200, body: mode === 'create' ? { uploaded: result.names } : { updated: result.names } };
    }
    async documents(request, kb, mode, entry) {
        const typeIssue = checkMultipartContentType(request.headers['content-type']);
        if (typeIssue) {
            await drain(request);
            return invalid([typeIssue]);
        }
        const received = await receiveMultipart(request, this.store.tempDir);
        if (!received.ok)
            return invalid([
                { loc: ['body'], msg: `Malformed multipart body: ${received.problem}`, type: 'value_error' },
            ]);
        const { parts } = received;
        entry.documents = parts.map(partInfo);
        const issues = checkDocumentParts(parts, mode, this.options.rejectDocument);
        if (issues.length > 0) {
            await discardParts(parts);
            return invalid(issues);
        }
        const documents = parts.map(asReceivedDocument);
        const result = await this.store.changeDocuments(kb, mode, documents);
        if (!result.ok) {
            await this.store.discard(documents);
            return conflictAnswer(result.reason, 'Documents', result.names);
        }
        entry.applied = true;
        return { status: 200, body: mode === 'create' ? { uploaded: result.names } : { updated: result.names } };
    }
    async run(request, flowId, orgId, entry) {
        const json = await this.readJson(request);
        if ('status' in json)
            return json;
        if (!json.ok)
            return invalid(json.issues);
        const checked = checkRunInputs(json.value);
        if (!checked.ok)
            return invalid(checked.issues);
        entry.inputs = checked.value;
        if (this.options.judgeFlows?.includes(flowId))
            return { status: 200, body: judgeRunAnswer(checked.value, (0,external_node_crypto_.randomUUID)()) };
        const documents = [];
        const urls = [];
        for (const nodeId of this.store.nodeIds(flowId, orgId)) {
            const kb = { flowId, orgId, nodeId };
            const knowledge = this.lag.answered(kb) ?? (await knowledgeOf(this.store, kb));
            documents.push(...knowledge.documents);
            urls.push(...knowledge.urls);
        }
        const question = questionOf(checked.value);
        const answer = flowRunAnswer(question, { documents, urls }, `flow ${flowId} in org ${orgId}`, (0,external_node_crypto_.randomUUID)(), this.missed(question));
        return { status: 200, body: answer };
    }
}
function partInfo(part) {
    return {
        field: part.field,
        filename: part.filename ?? '',
        size: part.size,
        sha256: part.sha256,
        contentType: part.contentType,
    };
}
function asReceivedDocument(part) {
    return {
        name: part.filename,
        size: part.size,
        sha256: part.sha256,
        contentType: part.contentType,
        tempPath: part.tempPath,
    };
}
function conflictAnswer(reason, what, names) {
    const list = names.map((name) => JSON.stringify(name)).join(', ');
    return reason === 'exists'
        ? detail(409, `${what} already in the knowledge base (POST does not replace; use PATCH): ${list}`)
        : detail(404, `${what} not in the knowledge base (PATCH only replaces; use POST): ${list}`);
}
function listen(server, port, host) {
    return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
            server.off('error', reject);
            resolve(server.address());
        });
    });
}
async function startEmulator(options) {
    checkOptions(options);
    const ownsDataDir = options.dataDir === undefined;
    const dataDir = options.dataDir
        ? external_node_path_default().resolve(options.dataDir)
        : await (0,promises_.mkdtemp)(external_node_path_default().join(external_node_os_default().tmpdir(), 'kb-sync-emulator-'));
    let emulator;
    let server;
    let address;
    try {
        await (0,promises_.mkdir)(dataDir, { recursive: true });
        emulator = new EmulatorServer(options, dataDir);
        server = (0,external_node_http_.createServer)((request, response) => {
            emulator.handle(request, response).catch(() => request.socket.destroy());
        });
        // Large uploads may take longer than Node's default whole-request timeout.
        server.requestTimeout = 0;
        address = await listen(server, options.port ?? 0, options.host ?? '127.0.0.1');
    }
    catch (error) {
        // Whatever fails once the temp directory exists (a port in use) removes it.
        if (ownsDataDir)
            await (0,promises_.rm)(dataDir, { recursive: true, force: true });
        throw error;
    }
    const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    let closing;
    return {
        url: `http://${urlHost}:${address.port}`,
        dataDir,
        requests: () => emulator.requests(),
        documents: (flowId, orgId, nodeId) => emulator.store
            .documents({ flowId, orgId, nodeId })
            .map(({ name, size, sha256, created, updated }) => ({ name, size, sha256, created, updated })),
        urls: (flowId, orgId, nodeId) => emulator.store.urls({ flowId, orgId, nodeId }),
        close: () => {
            closing ??= (async () => {
                const closed = new Promise((resolve) => server.close(() => resolve()));
                server.closeAllConnections();
                await closed;
                if (ownsDataDir)
                    await (0,promises_.rm)(dataDir, { recursive: true, force: true });
            })();
            return closing;
        },
    };
}

// EXTERNAL MODULE: ./src/log.ts
var src_log = __webpack_require__(25625);
// EXTERNAL MODULE: ./src/cli/console.ts
var console = __webpack_require__(81783);
// EXTERNAL MODULE: ./src/cli/errors.ts
var errors = __webpack_require__(76675);
;// CONCATENATED MODULE: ./src/cli/serve.ts
// `kb-sync serve`: the emulator of the service, in a module of its own so that it starts without the
// pipelines' code (ready in ~0.11 s of CPU instead of ~0.22: CONTRIBUTING, "Where the suite's time goes").





async function serveCommand(flags) {
    const log = new src_log/* Logger */.Vy((0,src_log/* consoleSink */.JS)());
    const generated = (env) => process.env[env] || (0,external_node_crypto_.randomBytes)(18).toString('base64url');
    const privateKey = flags.privateKey ?? generated('KB_SYNC_PRIVATE_KEY');
    const publicKey = flags.publicKey ?? generated('KB_SYNC_PUBLIC_KEY');
    if (privateKey === publicKey) {
        (0,console/* reportError */.N7)(log, new errors/* UsageError */.eb('--public-key must differ from --private-key (the keys tell the operations apart).'));
        return;
    }
    let emulator;
    try {
        emulator = await startEmulator({
            port: flags.port,
            host: flags.host,
            dataDir: flags.dataDir,
            privateKey,
            publicKey,
            latencyMs: flags.latency,
            faultRate: flags.faultRate,
            seed: flags.seed,
            missRate: flags.missRate,
            indexDelayMs: flags.indexDelay === undefined ? undefined : flags.indexDelay * 1000,
            flows: flags.flow,
            judgeFlows: flags.judgeFlow,
        });
    }
    catch (error) {
        const code = error instanceof Error && 'code' in error ? ` (${String(error.code)})` : '';
        const message = error instanceof Error ? error.message : String(error);
        log.error(`cannot start the emulator on ${flags.host}:${flags.port}${code}: ${message}`);
        process.exitCode = code ? errors/* EXIT_FAILURE */.w5 : errors/* EXIT_USAGE */.Ri;
        return;
    }
    // The emulator's keys are local, made-up keys: printing them is how a person uses the emulator.
    if (!process.env.KB_SYNC_PRIVATE_KEY && flags.privateKey === undefined)
        log.info(`private key: ${privateKey}`);
    if (!process.env.KB_SYNC_PUBLIC_KEY && flags.publicKey === undefined)
        log.info(`public key: ${publicKey}`);
    log.info(`data directory: ${emulator.dataDir}`);
    if (flags.indexDelay)
        log.info(`index delay: ${flags.indexDelay} s after each upload or update`);
    if (flags.flow)
        log.info(`flows: ${flags.flow.map((f) => `${f.orgId}/${f.flowId}/${f.nodeId}`).join(', ')}`);
    if (flags.judgeFlow)
        log.info(`judge flows: ${flags.judgeFlow.join(', ')}`);
    process.stdout.write(`${emulator.url}\n`);
    const stop = () => void emulator.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
}


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


/***/ })

};
