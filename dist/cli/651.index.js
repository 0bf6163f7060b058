export const id = 651;
export const ids = [651];
export const modules = {

/***/ 41563:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Z: () => (/* binding */ locateRepository),
/* harmony export */   k: () => (/* binding */ NameMapping)
/* harmony export */ });
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(51455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(76760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var _git_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(71243);
/* harmony import */ var _inside_name_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(4012);
/* harmony import */ var _patterns_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(77525);





// Submodules inside submodules: a checkout deeper than this is not looked above.
const MAX_SUPERPROJECTS = 16;
/** The working trees holding `folder`: its own, then each superproject it is a submodule of (real paths). */
async function enclosingCheckouts(folder) {
    const chain = [];
    try {
        let level = await topAndSuperproject(folder);
        chain.push(await node_fs_promises__WEBPACK_IMPORTED_MODULE_0___default().realpath(level.top));
        for (let count = 0; count < MAX_SUPERPROJECTS && level.above; count++) {
            level = await topAndSuperproject(level.above);
            chain.push(await node_fs_promises__WEBPACK_IMPORTED_MODULE_0___default().realpath(level.top));
        }
    }
    catch {
        // Not in a working tree (or git cannot tell): what was found so far.
    }
    return chain;
}
/**
 * The top of the working tree holding `folder`, and the superproject's when it is a submodule's: one
 * git process, whose two lines can be told apart when no path holds a line break (then two processes).
 */
async function topAndSuperproject(folder) {
    const git = new _git_js__WEBPACK_IMPORTED_MODULE_2__/* .Git */ .T(folder);
    if (!(await node_fs_promises__WEBPACK_IMPORTED_MODULE_0___default().realpath(folder)).includes('\n')) {
        const lines = (await git.exec(['rev-parse', '--show-toplevel', '--show-superproject-working-tree']))
            .replace(/\n$/, '')
            .split('\n');
        if (lines.length <= 2)
            return { top: lines[0], above: lines[1] || undefined };
    }
    const top = await git.topLevel();
    return { top, above: await new _git_js__WEBPACK_IMPORTED_MODULE_2__/* .Git */ .T(top).superproject() };
}
/**
 * Of the working trees around the workspace, the one the compared commits belong to: the innermost
 * that holds `commit` (a push's commit is the superproject's even for a workspace inside a submodule),
 * else the outermost; without a commit (`--since REF..HEAD`) the innermost, where the user stands.
 */
async function repositoryAround(chain, commit) {
    if (chain.length === 0)
        return undefined;
    // One working tree is the answer whichever commit it holds: git is not asked.
    if (commit === undefined || chain.length === 1)
        return { top: chain[0] };
    for (const top of chain)
        if (await new _git_js__WEBPACK_IMPORTED_MODULE_2__/* .Git */ .T(top).hasCommit(commit))
            return { top, holdsCommit: true };
    return { top: chain[chain.length - 1], holdsCommit: false };
}
async function isFolder(candidate) {
    return (await node_fs_promises__WEBPACK_IMPORTED_MODULE_0___default().stat(candidate).catch(() => undefined))?.isDirectory() ?? false;
}
const hasGitEntry = async (folder) => (await node_fs_promises__WEBPACK_IMPORTED_MODULE_0___default().lstat(node_path__WEBPACK_IMPORTED_MODULE_1___default().join(folder, '.git')).catch(() => undefined)) !== undefined;
/**
 * Checkouts (folders below the workspace holding a `.git` folder or file) along each include pattern's
 * literal prefix: a nested repository or a submodule starts at one. Found with a few stats, so git is
 * asked only about those few folders, however many patterns there are.
 */
async function checkoutsAlongPatterns(root, patterns) {
    const found = new Set();
    const checked = new Set();
    for (const pattern of patterns) {
        if (pattern.trim().startsWith('!'))
            continue;
        let folder = root;
        for (const segment of (0,_patterns_js__WEBPACK_IMPORTED_MODULE_4__/* .literalPrefix */ .Qz)(pattern)) {
            folder = node_path__WEBPACK_IMPORTED_MODULE_1___default().join(folder, segment);
            if (checked.has(folder))
                continue;
            checked.add(folder);
            if (!(await isFolder(folder)))
                break;
            if (await hasGitEntry(folder))
                found.add(folder);
        }
    }
    return [...found];
}
/** Folders directly in the workspace that hold a checkout (a `.git` folder or file). */
async function checkoutsInWorkspace(root) {
    let entries;
    try {
        entries = await node_fs_promises__WEBPACK_IMPORTED_MODULE_0___default().readdir(root, { withFileTypes: true });
    }
    catch {
        return [];
    }
    const found = [];
    for (const entry of entries) {
        const folder = node_path__WEBPACK_IMPORTED_MODULE_1___default().join(root, entry.name);
        if (entry.isDirectory() && (await hasGitEntry(folder)))
            found.push(folder);
    }
    return found;
}
/** The outermost working tree of each checkout, unless it belongs to `own` (a submodule of it). */
async function distinctTopLevels(folders, own) {
    const tops = new Set();
    for (const folder of folders) {
        const chain = await enclosingCheckouts(folder);
        if (chain.length === 0 || (own !== undefined && chain.includes(own)))
            continue;
        tops.add(chain[chain.length - 1]);
    }
    return [...tops];
}
const relativeName = (root, target) => (0,_inside_name_js__WEBPACK_IMPORTED_MODULE_3__/* .insideName */ .M)(root, target) ?? '';
/**
 * Finds the repository that holds the selected files. When the patterns reach into several, the one
 * holding `commit` (the checked-out commit of the event) is taken and the others are listed.
 */
async function locateRepository(workspace, patterns, commit) {
    let root;
    try {
        root = await node_fs_promises__WEBPACK_IMPORTED_MODULE_0___default().realpath(workspace);
    }
    catch {
        return { ok: false, why: `the workspace ${workspace} does not exist`, ambiguous: false };
    }
    const around = await repositoryAround(await enclosingCheckouts(root), commit);
    const own = around?.top;
    const reached = await distinctTopLevels(await checkoutsAlongPatterns(root, patterns), own);
    const inWorkspace = (top) => top !== root && (0,_inside_name_js__WEBPACK_IMPORTED_MODULE_3__/* .insideName */ .M)(root, top) !== undefined;
    if (own) {
        const others = reached.filter(inWorkspace).map((top) => relativeName(root, top));
        return {
            ok: true,
            location: {
                root: own,
                workspaceInRepository: relativeName(own, root),
                repositoryInWorkspace: '',
                otherRepositories: others.sort(),
            },
            ...(around.holdsCommit === undefined ? {} : { holdsCommit: around.holdsCommit }),
        };
    }
    let candidates = reached.filter(inWorkspace);
    if (candidates.length === 0)
        candidates = (await distinctTopLevels(await checkoutsInWorkspace(root))).filter(inWorkspace);
    if (candidates.length === 0)
        return {
            ok: false,
            why: `${workspace} is not a git repository, and no folder that the files patterns name is in one`,
            ambiguous: false,
        };
    let chosen = candidates;
    let holdsCommit;
    if (candidates.length > 1 && commit) {
        const holding = [];
        for (const top of candidates)
            if (await new _git_js__WEBPACK_IMPORTED_MODULE_2__/* .Git */ .T(top).hasCommit(commit))
                holding.push(top);
        chosen = holding;
        holdsCommit = true;
    }
    if (chosen.length !== 1) {
        const names = candidates.map((top) => relativeName(root, top)).sort();
        return {
            ok: false,
            why: `the files patterns reach into several git repositories (${names.join(', ')}) and none alone holds the compared commit`,
            ambiguous: true,
        };
    }
    const [top] = chosen;
    return {
        ok: true,
        location: {
            root: top,
            workspaceInRepository: '',
            repositoryInWorkspace: relativeName(root, top),
            otherRepositories: candidates
                .filter((other) => other !== top)
                .map((other) => relativeName(root, other))
                .sort(),
        },
        ...(holdsCommit === undefined ? {} : { holdsCommit }),
    };
}
/** Turns repository-relative names into workspace-relative ones (text or byte strings alike). */
class NameMapping {
    inside;
    outside;
    /** Prefixes without their trailing `/`, in the representation of the names mapped. */
    constructor(workspaceInRepository, repositoryInWorkspace) {
        this.inside = workspaceInRepository;
        this.outside = repositoryInWorkspace;
    }
    /** The document name of a repository path, or undefined when it lies outside the workspace. */
    name(repositoryName) {
        if (this.outside)
            return `${this.outside}/${repositoryName}`;
        if (!this.inside)
            return repositoryName;
        const prefix = `${this.inside}/`;
        return repositoryName.startsWith(prefix) ? repositoryName.slice(prefix.length) : undefined;
    }
    /**
     * The workspace folder of a repository folder: '' when the workspace lies inside it (all of the
     * workspace), undefined when the two do not overlap.
     */
    folder(repositoryFolder) {
        if (this.outside || !this.inside)
            return this.name(repositoryFolder);
        if (this.inside === repositoryFolder || this.inside.startsWith(`${repositoryFolder}/`))
            return '';
        return this.name(repositoryFolder);
    }
}


/***/ }),

/***/ 83651:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  syncSitemaps: () => (/* binding */ syncSitemaps)
});

// EXTERNAL MODULE: ./src/config/errors.ts
var errors = __webpack_require__(37827);
// EXTERNAL MODULE: ./src/git.ts
var git = __webpack_require__(71243);
// EXTERNAL MODULE: ./src/select/git/repository-location.ts
var repository_location = __webpack_require__(41563);
// EXTERNAL MODULE: external "node:util"
var external_node_util_ = __webpack_require__(57975);
// EXTERNAL MODULE: external "node:zlib"
var external_node_zlib_ = __webpack_require__(38522);
// EXTERNAL MODULE: ./src/net/undici-lean.ts
var undici_lean = __webpack_require__(30428);
// EXTERNAL MODULE: ./src/units.ts
var units = __webpack_require__(61996);
// EXTERNAL MODULE: ./src/config/sitemap-address.ts
var sitemap_address = __webpack_require__(82280);
;// CONCATENATED MODULE: ./src/sitemaps/fetch.ts
// Fetching one sitemap. Its own HTTP agent, apart from the service client's, so that nothing of the
// service (its key, its base URL) can reach a sitemap's host: the request carries no Authorization, no
// cookie, no user info. Redirects are followed by hand, and only on the same origin; the time and the size
// (compressed as sent, and uncompressed while inflating) are bounded, so a hostile or broken host can
// neither hold the run nor fill its memory.





const gunzipBounded = (0,external_node_util_.promisify)(external_node_zlib_.gunzip);
/** The sitemaps protocol's limit: 50 MB uncompressed per sitemap. */
const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;
/** Headers and body of one sitemap, redirects included. */
const SITEMAP_DEADLINE_MS = 60_000;
const MAX_REDIRECTS = 5;
// A .xml.gz served with Content-Encoding: gzip is compressed twice; more layers than that are not a sitemap.
const MAX_GZIP_LAYERS = 2;
/** Why a sitemap could not be read: a sentence about the sitemap, without its URL. */
class SitemapError extends Error {
    constructor(reason) {
        super(reason);
        this.name = 'SitemapError';
    }
}
/** The agent sitemaps are fetched with: never the service client's. */
function sitemapAgent(connectTimeoutMs = 10_000) {
    return new undici_lean.Agent({ connections: 4, connect: { timeout: connectTimeoutMs } });
}
// Deliberately no Authorization, Cookie or proxy credentials: a sitemap's host is a stranger.
const HEADERS = {
    accept: 'application/xml, text/xml;q=0.9, application/gzip;q=0.8, */*;q=0.5',
    'accept-encoding': 'gzip',
    'user-agent': 'kb-sync (sitemaps)',
};
const isGzip = (bytes) => bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
/** The sitemap's bytes, inflated when gzip; a SitemapError says why it cannot be had. */
async function fetchSitemap(agent, address, options = {}) {
    const problem = (0,sitemap_address/* sitemapUrlProblem */.o)(address);
    if (problem)
        throw new SitemapError(`is refused: its URL ${problem}`);
    const maxBytes = options.maxBytes ?? MAX_SITEMAP_BYTES;
    const deadlineMs = options.deadlineMs ?? SITEMAP_DEADLINE_MS;
    const deadline = AbortSignal.timeout(deadlineMs);
    const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
    try {
        const raw = await download(agent, address, maxBytes, signal);
        return await inflate(raw, maxBytes);
    }
    catch (error) {
        if (options.signal?.aborted)
            throw options.signal.reason;
        if (deadline.aborted)
            throw new SitemapError(`was not read within ${deadlineMs / 1000} s`);
        if (error instanceof SitemapError)
            throw error;
        const code = error.code;
        const text = error instanceof Error ? error.message : String(error);
        throw new SitemapError(`could not be fetched: ${typeof code === 'string' ? `${code}: ` : ''}${text}`);
    }
}
async function download(agent, address, maxBytes, signal) {
    const origin = new URL(address).origin;
    let url = new URL(address);
    for (let redirects = 0;; redirects++) {
        const response = await agent.request({
            origin: url.origin,
            path: `${url.pathname}${url.search}`,
            method: 'GET',
            headers: HEADERS,
            signal,
        });
        response.body.on('error', () => undefined);
        const status = response.statusCode;
        if (status >= 300 && status < 400) {
            response.body.destroy();
            const location = response.headers.location;
            if (typeof location !== 'string')
                throw new SitemapError(`answered HTTP ${status} without a Location`);
            if (redirects >= MAX_REDIRECTS)
                throw new SitemapError(`redirected more than ${MAX_REDIRECTS} times`);
            let next;
            try {
                next = new URL(location, url).href;
            }
            catch {
                throw new SitemapError(`answered HTTP ${status} with a Location that is not a URL`);
            }
            const refused = (0,sitemap_address/* followProblem */.V)(next, origin);
            if (refused)
                throw new SitemapError(`redirects (HTTP ${status}) to a URL that ${refused}: not followed`);
            url = new URL(next);
            continue;
        }
        if (status < 200 || status >= 300) {
            response.body.destroy();
            throw new SitemapError(`answered HTTP ${status}`);
        }
        return readBounded(response.body, maxBytes);
    }
}
async function readBounded(body, maxBytes) {
    const chunks = [];
    let length = 0;
    for await (const chunk of body) {
        length += chunk.length;
        if (length > maxBytes) {
            body.destroy();
            throw new SitemapError(`is larger than ${(0,units/* formatBytes */.z3)(maxBytes)} (the sitemaps protocol's limit)`);
        }
        chunks.push(chunk);
    }
    return Buffer.concat(chunks);
}
async function inflate(raw, maxBytes) {
    let bytes = raw;
    for (let layer = 0; layer < MAX_GZIP_LAYERS && isGzip(bytes); layer++) {
        try {
            // zlib stops inflating past maxOutputLength: a small bomb never grows beyond the bound in memory.
            bytes = await gunzipBounded(bytes, { maxOutputLength: maxBytes });
        }
        catch (error) {
            if (error.code === 'ERR_BUFFER_TOO_LARGE')
                throw new SitemapError(`is larger than ${(0,units/* formatBytes */.z3)(maxBytes)} once uncompressed (the sitemaps protocol's limit)`);
            throw new SitemapError(`is not valid gzip: ${error instanceof Error ? error.message : String(error)}`);
        }
    }
    return bytes;
}

// EXTERNAL MODULE: ./node_modules/fast-xml-parser/src/xmlparser/XMLParser.js + 23 modules
var XMLParser = __webpack_require__(41143);
// EXTERNAL MODULE: ./node_modules/fast-xml-parser/src/fxp.js
var fxp = __webpack_require__(75824);
;// CONCATENATED MODULE: ./src/sitemaps/parse.ts
// A sitemap's XML → its page URLs (a `urlset`) or the sitemaps it lists (a `sitemapindex`).
// Entities: a sitemap never needs a DOCTYPE, and a DOCTYPE is how entity expansion attacks (billion
// laughs, external entities) get in, so a document with one is refused before it is parsed. The parser
// expands no entity at all; the five predefined XML entities and character references are decoded here,
// where nothing can define more.



/** The sitemaps protocol's limit: 50,000 URLs per sitemap (and sitemaps per index). */
const MAX_SITEMAP_ENTRIES = 50_000;
const CDATA = '#cdata';
const TEXT = '#text';
const parser = new XMLParser/* default */.A({
    ignoreAttributes: true,
    ignoreDeclaration: true,
    ignorePiTags: true,
    removeNSPrefix: true,
    parseTagValue: false,
    processEntities: false,
    htmlEntities: false,
    trimValues: true,
    cdataPropName: CDATA,
    textNodeName: TEXT,
    isArray: (name) => name === 'url' || name === 'sitemap',
});
const PREDEFINED = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const REFERENCE = /&(?:#x([0-9a-fA-F]{1,6})|#([0-9]{1,7})|(amp|lt|gt|quot|apos));/g;
function decodeReferences(text) {
    return text.replace(REFERENCE, (whole, hex, decimal, name) => {
        if (name)
            return PREDEFINED[name];
        const code = hex !== undefined ? parseInt(hex, 16) : Number(decimal);
        return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    });
}
/** An element's text: text decoded, CDATA as written. */
function textOf(value) {
    if (typeof value === 'string')
        return decodeReferences(value).trim();
    if (typeof value !== 'object' || value === null || Array.isArray(value))
        return undefined;
    const node = value;
    const text = typeof node[TEXT] === 'string' ? decodeReferences(node[TEXT]) : '';
    const cdata = [node[CDATA]].flat().filter((part) => typeof part === 'string');
    return `${text}${cdata.join('')}`.trim() || undefined;
}
// Counted before parsing, so a sitemap of millions of tiny entries is refused before it becomes objects.
const ENTRY_START = /<(?:[A-Za-z_][\w.-]*:)?(?:url|sitemap)[\s>/]/g;
function countEntries(text) {
    let count = 0;
    ENTRY_START.lastIndex = 0;
    while (ENTRY_START.exec(text) !== null)
        count++;
    return count;
}
function tooMany(what, max) {
    return new SitemapError(`lists more than ${(0,units/* formatCount */.B4)(max)} ${what} (the sitemaps protocol's limit)`);
}
/** The document's objects; a SitemapError for whatever the validator or the parser rejects. */
function parseXml(text) {
    let valid;
    try {
        valid = fxp/* XMLValidator */.iI.validate(text);
        if (valid === true)
            return parser.parse(text);
    }
    catch (error) {
        // The parser's own limits (more than 100 nested elements, …) and its bugs throw plain errors.
        const message = error instanceof Error ? error.message : String(error);
        throw new SitemapError(`could not be parsed as XML: ${message.split('\n')[0].slice(0, 200)}`);
    }
    const { msg, line, col } = valid.err;
    const where = line !== undefined ? ` (line ${line}${col !== undefined ? `, column ${col}` : ''})` : '';
    throw new SitemapError(`is not well-formed XML: ${msg.slice(0, 200)}${where}`);
}
/** Parses a sitemap or a sitemap index; a SitemapError says why the bytes are not one. */
function parseSitemap(bytes, maxEntries = MAX_SITEMAP_ENTRIES) {
    const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
    if (/<!DOCTYPE/i.test(text))
        throw new SitemapError('contains a DOCTYPE (refused: a sitemap needs none, and entity declarations are unsafe)');
    if (countEntries(text) > maxEntries)
        throw tooMany('entries', maxEntries);
    if (text.trim() === '')
        throw new SitemapError('is empty');
    const document = parseXml(text);
    const roots = Object.keys(document);
    const root = roots.length === 1 ? roots[0] : undefined;
    const body = root === undefined ? undefined : document[root];
    const children = (name) => {
        if (typeof body !== 'object' || body === null)
            return [];
        const list = body[name];
        return Array.isArray(list) ? list : [];
    };
    const field = (entry, name) => typeof entry === 'object' && entry !== null ? textOf(entry[name]) : undefined;
    if (root === 'urlset') {
        const entries = children('url');
        if (entries.length > maxEntries)
            throw tooMany('URLs', maxEntries);
        const pages = [];
        for (const entry of entries) {
            const loc = field(entry, 'loc');
            if (!loc)
                continue;
            const lastmod = field(entry, 'lastmod');
            pages.push(lastmod ? { loc, lastmod } : { loc });
        }
        return { kind: 'urlset', pages };
    }
    if (root === 'sitemapindex') {
        const entries = children('sitemap');
        if (entries.length > maxEntries)
            throw tooMany('sitemaps', maxEntries);
        const sitemaps = entries.map((entry) => field(entry, 'loc')).filter((loc) => !!loc);
        return { kind: 'index', sitemaps };
    }
    const found = root === undefined ? `${roots.length} root elements` : `<${root.slice(0, 40)}>`;
    throw new SitemapError(`is neither a <urlset> nor a <sitemapindex> (found ${found})`);
}

// EXTERNAL MODULE: ./src/map-limited.ts
var map_limited = __webpack_require__(69270);
;// CONCATENATED MODULE: ./src/sitemaps/read.ts





/** Sitemap indexes are followed this many levels below the listed sitemap. */
const MAX_NESTING = 3;
/** Bounds of one run, whatever the indexes list: sitemaps fetched, and pages kept. */
const MAX_SITEMAPS_PER_RUN = 1000;
const MAX_PAGES_PER_RUN = 200_000;
/** All sitemaps of a run together: a host that answers slowly cannot hold the run for hours. */
const SITEMAPS_DEADLINE_MS = 10 * 60_000;
// Sitemaps fetched at once (a large index lists many).
const PARALLEL_FETCHES = 4;
function failure(pending, why) {
    const by = pending.listedBy ? ` (listed by ${pending.listedBy})` : '';
    return { sitemap: pending.sitemap, listedBy: pending.listedBy, cause: `The sitemap ${why}${by}` };
}
function oneLine(error) {
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return text.split('\n')[0].slice(0, 200);
}
async function readSitemaps(sitemaps, options) {
    const maxSitemaps = options.maxSitemaps ?? MAX_SITEMAPS_PER_RUN;
    const maxPages = options.maxPages ?? MAX_PAGES_PER_RUN;
    const totalDeadlineMs = options.totalDeadlineMs ?? SITEMAPS_DEADLINE_MS;
    const overall = AbortSignal.timeout(totalDeadlineMs);
    const signal = options.signal ? AbortSignal.any([options.signal, overall]) : overall;
    const lateness = `was not read: reading the sitemaps took longer than ${totalDeadlineMs / 1000} s in all`;
    const result = { pages: [], read: 0, failures: [] };
    const visited = new Set();
    let fetched = 0;
    // Level by level: the listed sitemaps, then what their indexes list, and so on.
    let level = sitemaps.map((sitemap) => ({ sitemap, origin: new URL(sitemap).origin, depth: 0 }));
    while (level.length > 0) {
        const fresh = level.filter((pending) => !visited.has(pending.sitemap) && visited.add(pending.sitemap));
        const room = Math.max(0, maxSitemaps - fetched);
        // Past the run's bound: one failure for each index whose sitemaps were left unread.
        const unread = new Map();
        for (const pending of fresh.slice(room)) {
            const by = pending.listedBy ?? pending.sitemap;
            unread.set(by, (unread.get(by) ?? 0) + 1);
        }
        for (const [by, count] of unread)
            result.failures.push(failure({ sitemap: by, origin: '', depth: 0 }, `lists ${count} sitemap(s) that were not read: the run reads at most ${maxSitemaps} sitemaps`));
        const now = fresh.slice(0, room);
        fetched += now.length;
        const outcomes = await (0,map_limited/* mapLimited */.b)(now, PARALLEL_FETCHES, async (pending) => {
            try {
                const bytes = await fetchSitemap(options.agent, pending.sitemap, { ...options, signal });
                return { pending, parsed: parseSitemap(bytes) };
            }
            catch (error) {
                // Only the run's own cancellation ends the reading; anything else — a parser's throw, a stack
                // overflow on a hostile nesting — is this sitemap's failure, and the others are still read.
                if (options.signal?.aborted)
                    throw error;
                if (error instanceof SitemapError)
                    return { failure: failure(pending, error.message) };
                if (overall.aborted)
                    return { failure: failure(pending, lateness) };
                return { failure: failure(pending, `could not be read: ${oneLine(error)}`) };
            }
        });
        const next = [];
        for (const outcome of outcomes) {
            if ('failure' in outcome) {
                result.failures.push(outcome.failure);
                continue;
            }
            const { pending, parsed } = outcome;
            if (parsed.kind === 'urlset') {
                if (result.pages.length + parsed.pages.length > maxPages) {
                    result.failures.push(failure(pending, `was not used: its ${parsed.pages.length} pages would pass the run's bound of ${maxPages} pages`));
                    continue;
                }
                for (const page of parsed.pages)
                    result.pages.push(page);
                result.read++;
                options.onRead?.(pending.sitemap, `${parsed.pages.length} page(s)`);
                continue;
            }
            if (pending.depth >= MAX_NESTING) {
                result.failures.push(failure(pending, `is a sitemap index ${MAX_NESTING} levels below the listed sitemap: indexes are followed ${MAX_NESTING} ` +
                    `levels deep, so its ${parsed.sitemaps.length} sitemap(s) were not read`));
                continue;
            }
            const checked = parsed.sitemaps.map((listed) => ({
                listed,
                problem: (0,sitemap_address/* followProblem */.V)(listed, pending.origin),
            }));
            const refused = checked.filter((entry) => entry.problem !== undefined);
            if (refused.length > 0)
                result.failures.push(failure(pending, `lists ${refused.length} sitemap(s) that were not read, e.g. ${(0,errors/* quoted */.TL)((0,errors/* withoutUserInfo */.sl)(refused[0].listed))}: its URL ` +
                    `${refused[0].problem}`));
            result.read++;
            options.onRead?.(pending.sitemap, `sitemap index of ${parsed.sitemaps.length} sitemap(s)`);
            for (const { listed, problem } of checked)
                if (problem === undefined)
                    next.push({
                        sitemap: listed,
                        origin: pending.origin,
                        depth: pending.depth + 1,
                        listedBy: pending.sitemap,
                    });
        }
        level = next;
    }
    return result;
}

// EXTERNAL MODULE: ./node_modules/minimatch/dist/esm/index.js + 7 modules
var esm = __webpack_require__(33581);
// EXTERNAL MODULE: ./src/config/urls.ts
var urls = __webpack_require__(92594);
// EXTERNAL MODULE: ./src/sitemaps/lastmod.ts
var lastmod = __webpack_require__(72180);
// EXTERNAL MODULE: ./src/state/difference.ts
var difference = __webpack_require__(56994);
;// CONCATENATED MODULE: ./src/sitemaps/select.ts
// Which of the sitemaps' pages are synced: valid URLs, kept by `url-include` / `url-exclude`, not already
// in `urls` (nor listed twice), and, when a base is known, changed after it by their `<lastmod>`. Pure.





const SHOWN_INVALID = 5;
/**
 * Whether a URL matches one of the glob patterns (minimatch, `*` stops at `/`, `**` crosses it). As for
 * `files`, a pattern also matches everything below what it matches: `https://x.com/blog` takes its pages.
 */
function urlMatcher(patterns) {
    const options = { dot: true, nocomment: true, nonegate: true };
    const matchers = patterns.flatMap((pattern) => {
        const bare = pattern.replace(/\/+$/, '');
        return [new esm/* Minimatch */.VR(bare, options), new esm/* Minimatch */.VR(`${bare}/**`, options)];
    });
    return (url) => matchers.some((matcher) => matcher.match(url));
}
/** A URL's identity for deduplication: as the URL parser writes it (host case, default port, `%` case). */
function identity(url) {
    return new URL(url).href;
}
function selectPages(pages, rules) {
    const included = rules.include.length > 0 ? urlMatcher(rules.include) : () => true;
    const excluded = urlMatcher(rules.exclude);
    const seen = new Set(rules.known.map(identity));
    const selection = {
        urls: [],
        listed: 0,
        filtered: 0,
        unchanged: 0,
        duplicates: 0,
        lastmods: new Map(),
        invalid: [],
        invalidCount: 0,
    };
    for (const page of pages) {
        selection.listed++;
        if ((0,urls/* urlEntryProblem */.vR)(page.loc)) {
            selection.invalidCount++;
            if (selection.invalid.length < SHOWN_INVALID)
                selection.invalid.push((0,errors/* withoutUserInfo */.sl)(page.loc));
            continue;
        }
        if (!included(page.loc) || excluded(page.loc)) {
            selection.filtered++;
            continue;
        }
        const id = identity(page.loc);
        if (seen.has(id)) {
            selection.duplicates++;
            continue;
        }
        seen.add(id);
        const latest = page.lastmod === undefined ? undefined : (0,lastmod/* lastmodLatest */.y)(page.lastmod);
        const unchanged = rules.held
            ? (0,difference/* unchangedSinceSent */.C)({ url: page.loc, lastmod: page.lastmod }, rules.held)
            : rules.changedAfter !== undefined && latest !== undefined && latest <= rules.changedAfter;
        if (unchanged) {
            selection.unchanged++;
            continue;
        }
        selection.urls.push(page.loc);
        if (page.lastmod !== undefined)
            selection.lastmods.set(page.loc, page.lastmod);
    }
    return selection;
}

;// CONCATENATED MODULE: ./src/sitemaps/sync.ts
// The `sitemaps` input as selection: the pages to sync like `urls`, what was left out and why, and one
// failed item per sitemap that could not be read (the run fails; everything else still syncs).






/** The committer time of the base commit, or why it is unknown. */
async function baseTime(workspace, sha) {
    const located = await (0,repository_location/* locateRepository */.Z)(workspace, []);
    if (!located.ok)
        return { ok: false, why: located.why };
    const time = await new git/* Git */.T(located.location.root).commitTime(sha);
    return time
        ? { ok: true, time }
        : { ok: false, why: `the commit ${sha.slice(0, 12)} is not in the checkout` };
}
async function syncSitemaps(request) {
    const { log } = request;
    const notices = [];
    let since;
    if (request.base && request.base.source !== 'none' && request.base.sha) {
        const found = await baseTime(request.workspace, request.base.sha);
        if (found.ok)
            since = found.time;
        else {
            const message = `Sitemaps: every listed page is synced, lastmod is not compared: the base commit's time is unknown (${found.why}).`;
            log.warning(message);
            notices.push(message);
        }
    }
    if (since)
        log.info(`Pages are synced when their lastmod is after ${since.toISOString()} (the base commit's time).`);
    const agent = sitemapAgent();
    const read = await readSitemaps(request.sitemaps, {
        ...request.fetch,
        agent,
        signal: request.signal,
        onRead: (sitemap, what) => log.info(`${sitemap}: ${what}`),
    }).finally(() => agent.close());
    const pages = selectPages(read.pages, {
        include: request.include,
        exclude: request.exclude,
        known: request.known,
        changedAfter: since?.getTime(),
        held: request.sent,
    });
    if (pages.invalidCount > 0) {
        const message = `Sitemaps: ${pages.invalidCount} listed page(s) are not usable URLs (http or https, no user info, ` +
            `no white space) and were left out, e.g. ${pages.invalid.map(errors/* quoted */.TL).join(', ')}.`;
        log.warning(message);
        notices.push(message);
    }
    const failures = read.failures.map((failure) => {
        // Annotated with the other failures when the run ends.
        log.info(`${failure.sitemap}: ${failure.cause}`);
        return {
            kind: 'url',
            name: failure.sitemap,
            outcome: 'failed',
            operation: request.operation,
            attempts: 0,
            error: failure.cause,
        };
    });
    const counts = {
        read: read.read,
        failed: failures.length,
        listed: pages.listed,
        filtered: pages.filtered,
        unchanged: pages.unchanged,
        duplicates: pages.duplicates,
        invalid: pages.invalidCount,
        synced: pages.urls.length,
        ...(since ? { since: since.toISOString() } : {}),
    };
    return { urls: pages.urls, failures, counts, notices, lastmods: pages.lastmods };
}


/***/ })

};
