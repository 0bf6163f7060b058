export const id = 877;
export const ids = [877,702];
export const modules = {

/***/ 6702:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   getOctokit: () => (/* binding */ getOctokit)
/* harmony export */ });
/* unused harmony export DEFAULT_API_URL */
/* harmony import */ var _actions_github__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(61351);
// The one way this project reaches GitHub's REST API: @actions/github's octokit, pointed at the
// runner's GITHUB_API_URL (GitHub Enterprise Server, or a local test server).

const DEFAULT_API_URL = 'https://api.github.com';
function getOctokit(token, apiUrl) {
    return (0,_actions_github__WEBPACK_IMPORTED_MODULE_0__/* .getOctokit */ .Q)(token, { baseUrl: apiUrl || process.env.GITHUB_API_URL || DEFAULT_API_URL });
}


/***/ }),

/***/ 73877:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  ArtifactStore: () => (/* binding */ ArtifactStore),
  MAX_ARTIFACT_BYTES: () => (/* binding */ MAX_ARTIFACT_BYTES),
  RECORD_FILE: () => (/* binding */ RECORD_FILE),
  pendingName: () => (/* binding */ pendingName)
});

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(51455);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(76760);
// EXTERNAL MODULE: ./node_modules/@actions/artifact/lib/artifact.js + 284 modules
var artifact = __webpack_require__(26878);
// EXTERNAL MODULE: ./src/github/lookup-budget.ts
var lookup_budget = __webpack_require__(62975);
// EXTERNAL MODULE: ./src/github/octokit.ts
var github_octokit = __webpack_require__(6702);
// EXTERNAL MODULE: ./src/temp-folder.ts
var temp_folder = __webpack_require__(24658);
;// CONCATENATED MODULE: ./src/state/artifact-host.ts
// Whether GitHub's artifact storage exists where the run is: @actions/artifact (v2 and later) refuses a
// GITHUB_SERVER_URL whose host is not github.com, *.ghe.com or *.localhost. Kept apart from the client so
// that the action can tell without loading it.
/** Why the artifact service cannot be used from here, before any request; undefined when it can. */
function artifactHostProblem(env = process.env) {
    const server = env.GITHUB_SERVER_URL || 'https://github.com';
    let host;
    try {
        host = new URL(server).hostname.toLowerCase();
    }
    catch {
        return `GITHUB_SERVER_URL (${server}) is not a URL`;
    }
    if (host === 'github.com' || host.endsWith('.ghe.com') || host.endsWith('.localhost'))
        return undefined;
    return (`GitHub Enterprise Server (${host}) has no artifact storage that @actions/artifact v2 and later can use ` +
        '(github.com and GHE.com only)');
}

;// CONCATENATED MODULE: ./src/state/artifact-store.ts
// The record kept as GitHub Actions artifacts: written with the official @actions/artifact client (the
// runtime token every JavaScript action has), found by name across the repository (the REST listing by
// name, `actions: read`) and downloaded with the same client. Load this module with `await import()`
// only: the client and its dependencies (Azure's blob client, archiver, protobuf) are large, and only
// runs that keep a record need them.
//
// Facts of @actions/artifact 6.2.1 this module is shaped by:
// - no request of the client has a timeout or a signal: every call is raced against the run's GitHub
//   budget, so a hung service costs the run at most the budget (the abandoned call is left to fail alone);
// - a download retries a failing blob read 5 times, 5 s apart; the budget bounds that too;
// - it refuses GitHub Enterprise Server (GITHUB_SERVER_URL not github.com, *.ghe.com or *.localhost);
// - artifact names are unique per workflow run, not per attempt: a re-run (or a second job writing the
//   same target) conflicts with the name an earlier attempt wrote (409), so the earlier artifact of this
//   run is deleted and the upload tried once more, as upload-artifact's `overwrite` does;
// - its download reaches GitHub's REST API at the GITHUB_API_URL that was set when @actions/github was
//   first imported.







/**
 * A run's first write of a key (the pending record) goes under this name, its second (the final record)
 * under the key itself: one run cannot upload one name twice. The reader takes the newer of the two.
 */
const pendingName = (key) => `${key}-pending`;
/** The one file inside a record's artifact. */
const RECORD_FILE = 'record.json.gz';
/** An artifact larger than this is not downloaded (a record of 100,000 documents is a few MB). */
const MAX_ARTIFACT_BYTES = 64 * 1024 * 1024;
/** Names listed per request: the newest matter, the rest are older runs' records. */
const LISTED = 100;
class ArtifactStore {
    options;
    description = 'GitHub Actions artifact';
    client = new artifact/* DefaultArtifactClient */.t9();
    /** Writes made per key in this run: the first is the pending name, the second the key. */
    writes = new Map();
    /** The names of this run's artifacts before its first write (a re-run attempt finds its earlier ones). */
    earlier;
    constructor(options) {
        this.options = options;
    }
    get maxBytes() {
        return this.options.maxBytes ?? MAX_ARTIFACT_BYTES;
    }
    async readNewest(key, signal) {
        const unavailable = artifactHostProblem();
        if (unavailable)
            return { kind: 'unusable', why: unavailable };
        if (!this.options.token)
            return { kind: 'unusable', why: 'no github-token to list the artifacts with' };
        const names = this.options.writeOnce ? [key] : [key, pendingName(key)];
        const listings = await Promise.all(names.map((name) => this.list(name, signal)));
        for (const listing of listings)
            if (!listing.ok)
                return { kind: 'unusable', why: listing.why };
        const listed = listings.flatMap((listing) => (listing.ok ? listing.artifacts : []));
        const ours = listed.filter(isOfThisRepository);
        const ignored = ours.length < listed.length
            ? ` (${listed.length - ours.length} artifact(s) of that name from forks' pull request runs ignored: ` +
                'they cannot write the knowledge base)'
            : '';
        if (ignored)
            this.options.log?.debug(`Record ${key}:${ignored}`);
        const newest = ours.sort(newestFirst)[0];
        if (!newest)
            return { kind: 'missing', why: `no artifact named ${key}: no record yet, or it expired${ignored}` };
        const from = `artifact ${newest.name} of run ${newest.workflow_run?.id} (${newest.created_at})`;
        // An older record is not the node's state: the run that wrote the expired one changed it since.
        if (newest.expired)
            return {
                kind: 'missing',
                why: `the newest record, ${from}, expired${newest.expires_at ? ` on ${newest.expires_at}` : ''}`,
            };
        if (newest.size_in_bytes > this.maxBytes)
            return { kind: 'unusable', why: `${from} is ${newest.size_in_bytes} bytes, over ${this.maxBytes}` };
        return this.download(newest, from, signal);
    }
    async write(key, bytes, signal) {
        const unavailable = artifactHostProblem() ?? runtimeProblem();
        if (unavailable)
            return { ok: false, why: unavailable };
        const count = (this.writes.get(key) ?? 0) + 1;
        const most = this.options.writeOnce ? 1 : 2;
        if (count > most)
            return {
                ok: false,
                why: `the artifact ${key} was written ${most === 1 ? 'once' : 'twice'} in this run already`,
            };
        this.writes.set(key, count);
        const name = count === 1 && !this.options.writeOnce ? pendingName(key) : key;
        const folder = await this.privateFolder();
        if (!folder.ok)
            return { ok: false, why: folder.why };
        try {
            const file = (0,external_node_path_.join)(folder.path, RECORD_FILE);
            await (0,promises_.writeFile)(file, bytes);
            // Level 0: the record is gzip already.
            const upload = () => this.call(() => this.client.uploadArtifact(name, [file], folder.path, {
                retentionDays: this.options.retentionDays,
                compressionLevel: 0,
            }), signal);
            const replace = () => this.call(() => this.client.deleteArtifact(name), signal);
            // Deleted before the upload, not after a refused one: the client reports every refused upload as a
            // warning of the run, which a re-run would otherwise show twice.
            if ((await this.earlierInRun(signal)).delete(name)) {
                this.options.log?.info(`An earlier attempt of this run wrote the artifact ${name}: it is replaced.`);
                await replace();
            }
            let uploaded;
            try {
                uploaded = await upload();
            }
            catch (error) {
                if (!isNameConflict(error))
                    throw error;
                // Written since this run's artifacts were listed (another job), or reserved by an upload that was
                // never finalized (which no listing shows, so it cannot be deleted).
                try {
                    await replace();
                    uploaded = await upload();
                }
                catch (second) {
                    this.rethrowCancellation(signal);
                    return {
                        ok: false,
                        why: `an artifact named ${name} already exists in this workflow run (an earlier attempt's, or another ` +
                            `job's writing the same target) and could not be replaced: ${failureOf(second)}`,
                    };
                }
            }
            return { ok: true, where: `artifact ${name} of run ${this.options.runId} (id ${uploaded.id})` };
        }
        catch (error) {
            this.rethrowCancellation(signal);
            return { ok: false, why: `the artifact ${name} was not uploaded: ${failureOf(error)}` };
        }
        finally {
            await (0,promises_.rm)(folder.path, { recursive: true, force: true });
        }
    }
    /**
     * The names this workflow run already holds, listed once: an artifact name is unique per run, not per
     * attempt, so a re-run (or another job writing the same target) finds the names it is about to write.
     */
    async earlierInRun(signal) {
        if (!this.earlier) {
            const { artifacts } = await this.call(() => this.client.listArtifacts(), signal);
            this.earlier = new Set(artifacts.map((artifact) => artifact.name));
        }
        return this.earlier;
    }
    async list(name, signal) {
        const { owner, repo } = this.options.repository;
        const octokit = (0,github_octokit.getOctokit)(this.options.token, this.options.apiUrl);
        try {
            const { data } = await this.options.budget.request((budgetSignal) => octokit.rest.actions.listArtifactsForRepo({
                owner,
                repo,
                name,
                per_page: LISTED,
                request: { signal: signal ? AbortSignal.any([budgetSignal, signal]) : budgetSignal },
            }));
            const artifacts = data.artifacts;
            if (!Array.isArray(artifacts) || !artifacts.every(isListedArtifact))
                return { ok: false, why: `GitHub's list of artifacts named ${name} is not a list of artifacts` };
            // Only the exact name: a server that ignores the filter must not hand over another target's record.
            return { ok: true, artifacts: artifacts.filter((artifact) => artifact.name === name) };
        }
        catch (error) {
            this.rethrowCancellation(signal);
            return { ok: false, why: `the artifacts named ${name} could not be listed: ${listingFailure(error)}` };
        }
    }
    async download(artifact, from, signal) {
        const { owner, repo } = this.options.repository;
        const folder = await this.privateFolder();
        if (!folder.ok)
            return { kind: 'unusable', why: folder.why };
        try {
            await this.call(() => this.client.downloadArtifact(artifact.id, {
                path: folder.path,
                findBy: {
                    token: this.options.token,
                    workflowRunId: artifact.workflow_run?.id ?? 0,
                    repositoryOwner: owner,
                    repositoryName: repo,
                },
            }), signal);
            const files = await filesIn(folder.path);
            if (files.length !== 1)
                return { kind: 'unusable', why: `${from} holds ${files.length} files, not the one record file` };
            const size = (await (0,promises_.stat)(files[0])).size;
            if (size > this.maxBytes)
                return { kind: 'unusable', why: `${from} holds a file of ${size} bytes, over ${this.maxBytes}` };
            return { kind: 'found', bytes: await (0,promises_.readFile)(files[0]), from };
        }
        catch (error) {
            this.rethrowCancellation(signal);
            return { kind: 'unusable', why: `${from} could not be downloaded: ${failureOf(error)}` };
        }
        finally {
            await (0,promises_.rm)(folder.path, { recursive: true, force: true });
        }
    }
    /** One call of the artifact client under the budget; it has no signal, so it is raced against one. */
    call(work, signal) {
        return this.options.budget.request((budgetSignal) => raced(work(), signal ? AbortSignal.any([budgetSignal, signal]) : budgetSignal));
    }
    rethrowCancellation(signal) {
        this.options.budget.throwIfCancelled();
        signal?.throwIfAborted();
    }
    /** A folder of this call's own in RUNNER_TEMP (or the system's), removed by the caller. */
    async privateFolder() {
        const folder = (0,temp_folder/* tempFolder */.vg)();
        try {
            return { ok: true, path: await (0,promises_.mkdtemp)((0,external_node_path_.join)(folder.path, 'kb-sync-record-')) };
        }
        catch (error) {
            return {
                ok: false,
                why: `no folder for the record's file (${(0,temp_folder/* reasonOf */.A3)(error)}): ${folder.label} must be writable`,
            };
        }
    }
}
/** What an upload needs from the runner: its runtime token and the results service's URL. */
function runtimeProblem(env = process.env) {
    const missing = ['ACTIONS_RUNTIME_TOKEN', 'ACTIONS_RESULTS_URL'].filter((name) => !env[name]);
    if (missing.length > 0)
        return (`${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not set: the runner gives them to ` +
            'JavaScript actions only (not to `run:` steps or container actions), and nothing else can upload an artifact');
    try {
        new URL(env.ACTIONS_RESULTS_URL);
    }
    catch {
        return 'ACTIONS_RESULTS_URL is not a URL';
    }
    return undefined;
}
/** Resolves or rejects as `work` does, or rejects with the signal's reason once it aborts. */
function raced(work, signal) {
    // An abandoned call may still fail later: that failure is no longer anyone's.
    work.catch(() => undefined);
    if (signal.aborted)
        return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
        const abort = () => reject(signal.reason);
        signal.addEventListener('abort', abort, { once: true });
        work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
    });
}
function isListedArtifact(value) {
    if (typeof value !== 'object' || value === null)
        return false;
    const a = value;
    return (Number.isSafeInteger(a.id) &&
        typeof a.name === 'string' &&
        typeof a.size_in_bytes === 'number' &&
        typeof a.expired === 'boolean' &&
        typeof a.created_at === 'string' &&
        (a.workflow_run === undefined || a.workflow_run === null || typeof a.workflow_run === 'object'));
}
/**
 * A fork's pull request run runs in this repository and may upload artifacts of any name, but has no key
 * to write the knowledge base: its artifacts are never a record (an artifact of no known run neither).
 */
function isOfThisRepository(artifact) {
    const run = artifact.workflow_run;
    return (typeof run?.id === 'number' &&
        typeof run.repository_id === 'number' &&
        run.head_repository_id === run.repository_id);
}
/** Newest first: by creation time (whole seconds on GitHub), then by id, which grows with each artifact. */
const newestFirst = (a, b) => Date.parse(b.created_at) - Date.parse(a.created_at) || b.id - a.id;
const isNameConflict = (error) => error instanceof Error && /\(409\)|already exists/.test(error.message);
function failureOf(error) {
    if (error instanceof lookup_budget/* GitHubUnanswered */.yn)
        return error.message;
    if (error instanceof artifact/* GHESNotSupportedError */.jK)
        return 'GitHub Enterprise Server has no artifact storage this client can use';
    if (error instanceof artifact/* UsageError */.eb)
        return "the repository's artifact storage quota is used up";
    return error instanceof Error ? firstLine(error.message) : String(error);
}
/** The listing's failure; a refusal names the permission to grant. */
function listingFailure(error) {
    const status = error.status;
    if (error instanceof lookup_budget/* GitHubUnanswered */.yn || typeof status !== 'number')
        return failureOf(error);
    const headers = error.response?.headers;
    if (status === 429 ||
        (status === 403 && (headers?.['x-ratelimit-remaining'] === '0' || headers?.['retry-after'])))
        return `HTTP ${status}: GitHub's rate limit (${failureOf(error)})`;
    if (status === 401)
        return `HTTP 401: github-token was not accepted (it needs \`actions: read\`)`;
    if (status === 403 || status === 404)
        return `HTTP ${status}: the job needs \`permissions: actions: read\` to read the record of earlier runs`;
    return `HTTP ${status}: ${failureOf(error)}`;
}
const firstLine = (text) => text.split('\n', 1)[0];
/** The regular files below a folder (an artifact's zip may hold folders). */
async function filesIn(folder) {
    const entries = await (0,promises_.readdir)(folder, { withFileTypes: true, recursive: true });
    return entries.filter((entry) => entry.isFile()).map((entry) => (0,external_node_path_.join)(entry.parentPath, entry.name));
}


/***/ })

};
