export const id = 606;
export const ids = [606];
export const modules = {

/***/ 82677:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   DD: () => (/* binding */ findLastSuccessfulRun),
/* harmony export */   Zd: () => (/* binding */ workflowRunPages),
/* harmony export */   t5: () => (/* binding */ DRY_RUN_MARKER)
/* harmony export */ });
/* unused harmony exports RUNS_PER_PAGE, MAX_PAGES, isListedRun, requestFailure */
/* harmony import */ var _model_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(10182);
/* harmony import */ var _lookup_budget_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(62975);
// The last successful run of this workflow on this branch: its commit is what the knowledge base
// last received in full, so the next change set is measured from it. A run counts when it succeeded
// (a failed item fails the step, so the run too), ran for the branch itself (not a pull request),
// was created before this run, and is not marked as a dry run in its title.


// Small pages: the previous run is nearly always the first entry, so one short answer is the usual case.
const RUNS_PER_PAGE = 10;
const MAX_PAGES = 10;
// Runs of these events never synced the branch: pull request runs preview or index the pull
// request's head. (A workflow_run or deployment_status run that succeeded synced it: the action refuses,
// and so fails, the ones that would not.)
const NOT_A_SYNC = new Set([
    'pull_request',
    'pull_request_target',
    'pull_request_review',
    'pull_request_review_comment',
    'merge_group',
]);
/** A run whose title (the workflow's `run-name`) carries this marker is not a base. */
const DRY_RUN_MARKER = '[dry-run]';
const WEB_URL = /^https?:\/\/[^\s<>()[\]]+$/;
// A type guard instead of a schema library: eight fields do not justify ~300 KB more in the bundle
// every run starts.
function isListedRun(value) {
    if (typeof value !== 'object' || value === null)
        return false;
    const run = value;
    const text = (field) => typeof field === 'string';
    const textOrNull = (field) => field === null || text(field);
    return (Number.isSafeInteger(run.id) &&
        run.id > 0 &&
        Number.isSafeInteger(run.run_number) &&
        text(run.head_sha) &&
        _model_js__WEBPACK_IMPORTED_MODULE_1__/* .COMMIT_ID */ .G.test(run.head_sha) &&
        textOrNull(run.head_branch) &&
        text(run.event) &&
        textOrNull(run.conclusion) &&
        (run.display_title === undefined || textOrNull(run.display_title)) &&
        text(run.html_url) &&
        WEB_URL.test(run.html_url));
}
function readRunsPage(data) {
    if (typeof data !== 'object' || data === null)
        return undefined;
    const { total_count: total, workflow_runs: runs } = data;
    if (typeof total !== 'number' || !Array.isArray(runs) || !runs.every(isListedRun))
        return undefined;
    return { total, runs };
}
function isSyncBase(run, workflow) {
    return (run.id !== workflow.runId &&
        (workflow.runNumber === undefined || run.run_number < workflow.runNumber) &&
        run.conclusion === 'success' &&
        run.head_branch === workflow.branch &&
        !NOT_A_SYNC.has(run.event) &&
        !(run.display_title ?? '').toLowerCase().includes(DRY_RUN_MARKER));
}
// What the API answers a token it does not accept (401) or one without `actions: read`: 403, or 404 as
// for a repository the token cannot see.
const REFUSALS = new Set([401, 403, 404]);
/** A 403 or 429 that is GitHub's rate limit (no requests left, or a wait asked for): it passes. */
function isRateLimit(status, headers) {
    if (status === 429)
        return true;
    if (status !== 403 || !headers)
        return false;
    return headers['x-ratelimit-remaining'] === '0' || headers['retry-after'] !== undefined;
}
function requestFailure(error) {
    const { status, response } = error;
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof _lookup_budget_js__WEBPACK_IMPORTED_MODULE_0__/* .GitHubUnanswered */ .yn)
        return { why: message };
    if (!response || typeof status !== 'number')
        return { why: `the request failed: ${message}` };
    if (isRateLimit(status, response.headers))
        return { why: `HTTP ${status}: ${message} (rate limited)` };
    if (!REFUSALS.has(status))
        return { why: `HTTP ${status}: ${message}` };
    const hint = status === 401
        ? 'github-token was not accepted; it needs `permissions: actions: read`'
        : 'the job needs `permissions: actions: read`; GitHub Enterprise Server may lack the endpoint';
    return { why: `HTTP ${status}: ${message} (${hint})`, refused: status };
}
/**
 * The workflow file's runs, newest first, a page at a time (at most MAX_PAGES), within the run's GitHub
 * budget. A failed request or an answer that is not a list ends the pages with its reason.
 */
async function* workflowRunPages(query, filters = {}) {
    const { workflow } = query;
    // Octokit loads with the first page asked for: a run that never asks (the CLI without `--since
    // last-success`, a push whose before commit is here) does not evaluate it at all.
    const { getOctokit } = await Promise.all(/* import() */[__webpack_require__.e(351), __webpack_require__.e(702)]).then(__webpack_require__.bind(__webpack_require__, 6702));
    const octokit = getOctokit(query.token, query.apiUrl);
    let seen = 0;
    for (let page = 1; page <= MAX_PAGES; page++) {
        let data;
        try {
            const response = await query.budget.request((signal) => octokit.rest.actions.listWorkflowRuns({
                owner: workflow.owner,
                repo: workflow.repo,
                workflow_id: workflow.workflowFile,
                ...filters,
                per_page: RUNS_PER_PAGE,
                page,
                request: { signal },
            }));
            data = response.data;
        }
        catch (error) {
            query.budget.throwIfCancelled();
            yield { ok: false, ...requestFailure(error) };
            return;
        }
        const parsed = readRunsPage(data);
        if (!parsed) {
            yield { ok: false, why: 'the answer is not a list of workflow runs' };
            return;
        }
        seen += parsed.runs.length;
        const last = parsed.runs.length < RUNS_PER_PAGE || seen >= parsed.total;
        yield { ok: true, runs: parsed.runs, seen, last };
        if (last)
            return;
    }
}
async function findLastSuccessfulRun(query) {
    const { workflow } = query;
    let seen = 0;
    const pages = workflowRunPages(query, {
        branch: workflow.branch,
        status: 'success',
        exclude_pull_requests: true,
    });
    for await (const page of pages) {
        if (!page.ok)
            return page;
        const base = page.runs.find((run) => isSyncBase(run, workflow));
        if (base)
            return {
                ok: true,
                run: {
                    id: base.id,
                    number: base.run_number,
                    sha: base.head_sha,
                    event: base.event,
                    url: base.html_url,
                },
            };
        seen = page.seen;
        if (page.last)
            return {
                ok: true,
                run: undefined,
                why: `no earlier successful run of ${workflow.workflowFile} on branch ${workflow.branch}`,
            };
    }
    return {
        ok: true,
        run: undefined,
        why: `none of the ${seen} newest successful runs of ${workflow.workflowFile} on branch ${workflow.branch} synced it`,
    };
}


/***/ }),

/***/ 38606:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   decideChangeBase: () => (/* binding */ decideChangeBase)
/* harmony export */ });
/* harmony import */ var _config_errors_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(37827);
/* harmony import */ var _git_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(71243);
/* harmony import */ var _since_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(48614);
/* harmony import */ var _github_last_success_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(82677);
/* harmony import */ var _model_js__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(10182);
/* harmony import */ var _changes_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(59198);
/* harmony import */ var _select_git_repository_location_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(41563);
// What `mode: auto` sends, measured from a base commit: the last successful sync of this workflow on
// this branch, so a failed run is healed by the next one and dispatch / schedule runs are incremental.
//
// Order of bases:
//   1. the last successful run's commit (GitHub REST API), diffed against the checkout with git;
//   2. when the API cannot answer (an outage, a timeout) or that commit cannot be fetched: the push's
//      before (detectChanges), with a warning;
//   3. otherwise every selected file.
// The API answering "no successful run yet" means nothing was synced: every selected file. The API
// refusing the token (no `actions: read`) also means every selected file: without the last sync, a
// push's own files would leave out whatever earlier runs did not send, with no end to it.
// Whenever a push sends every selected file (those two, and `full-sync: true`), the removals of its own
// before..after (git, payload lists, compare API) are blanked too: sending every file removes nothing,
// so without them a deleted document would keep being answered on every such run.







// Events whose runs sync the branch they run on; others keep today's rules. workflow_run and
// deployment_status run after a site deployed (config/site-events.ts says which are allowed).
const INCREMENTAL_EVENTS = new Set([
    'push',
    'workflow_dispatch',
    'schedule',
    'workflow_run',
    'deployment_status',
]);
const NO_BASE = { source: 'none', sha: '' };
const short = (sha) => sha.slice(0, 12);
function fullSync(reason) {
    return { decision: { kind: 'all', source: 'full-sync', reason }, base: NO_BASE, notices: [] };
}
async function lookUpLastSuccess(request) {
    const { workflow } = request;
    if (!workflow)
        return { kind: 'not-asked' };
    if (!workflow.ok)
        return { kind: 'unavailable', why: workflow.why };
    if (workflow.run.branch === '')
        return { kind: 'unavailable', why: 'the run is not for a branch' };
    if (!request.githubToken)
        return { kind: 'unavailable', why: 'no github-token' };
    request.log.addSecret(request.githubToken);
    const found = await (0,_github_last_success_js__WEBPACK_IMPORTED_MODULE_2__/* .findLastSuccessfulRun */ .DD)({
        workflow: workflow.run,
        token: request.githubToken,
        apiUrl: request.apiUrl,
        budget: request.github,
    });
    if (!found.ok && found.refused !== undefined)
        return { kind: 'refused', status: found.refused, why: `the workflow runs API refused: ${found.why}` };
    if (!found.ok)
        return { kind: 'unavailable', why: `the workflow runs API cannot answer: ${found.why}` };
    if (!found.run)
        return { kind: 'none-yet', why: found.why };
    return { kind: 'found', run: found.run };
}
/**
 * A sync of every selected file; on a push, with the removals of the push's own before..after when they
 * are known (else a line says deleted documents stay).
 */
async function everyFile(request, decided) {
    const { decision } = decided;
    // A new branch (no before) removed nothing.
    if (decision.kind !== 'all' ||
        request.eventName !== 'push' ||
        (0,_changes_js__WEBPACK_IMPORTED_MODULE_3__/* .pushWithNothingToIndex */ .JG)(request.payload) ||
        !(0,_changes_js__WEBPACK_IMPORTED_MODULE_3__/* .pushBefore */ .u1)(request.payload))
        return decided;
    const own = await (0,_changes_js__WEBPACK_IMPORTED_MODULE_3__/* .detectChanges */ .f8)(request, { quiet: true });
    if (own.kind !== 'changes') {
        request.log.info(`Change detection: the push's own removals are unknown (${own.reason}); documents it deleted stay ` +
            'in the knowledge base until a run knows them.');
        return decided;
    }
    if (own.removed.length === 0)
        return decided;
    request.log.info(`Change detection: the push's own before..after removes ${own.removed.length} file(s): they are blanked too.`);
    return { ...decided, decision: { ...decision, removed: own.removed } };
}
async function decideChangeBase(request) {
    if (request.fullSync)
        return everyFile(request, fullSync('input full-sync is true: every selected file'));
    if (request.since !== undefined && request.since !== _since_js__WEBPACK_IMPORTED_MODULE_5__/* .LAST_SUCCESS */ .t)
        return sinceRef(request, request.since);
    const isPush = request.eventName === 'push';
    if (isPush) {
        const nothing = (0,_changes_js__WEBPACK_IMPORTED_MODULE_3__/* .pushWithNothingToIndex */ .JG)(request.payload);
        if (nothing)
            return { decision: nothing, base: NO_BASE, notices: [] };
    }
    const notices = [];
    // A base other than the last sync can leave out what a failed run did not send: a warning.
    const warn = (message) => {
        request.log.warning(`Change detection: ${message}`);
        notices.push(message);
    };
    const fallback = isPush ? "the push's before commit" : 'every selected file';
    /** Why the last successful sync is not the base, for the summary's first line. */
    let notLastSuccess;
    if (request.since === _since_js__WEBPACK_IMPORTED_MODULE_5__/* .LAST_SUCCESS */ .t || INCREMENTAL_EVENTS.has(request.eventName)) {
        const last = await lookUpLastSuccess(request);
        if (last.kind === 'none-yet')
            return everyFile(request, fullSync(`${last.why}: every selected file`));
        if (last.kind === 'refused') {
            warn(`the last successful sync cannot be looked up (${last.why}); sending every selected file (by ` +
                'upsert) so the knowledge base is complete. Grant the job `permissions: actions: read` to send ' +
                'only what changed since the last sync.');
            const why = `the workflow runs API refused (HTTP ${last.status}), grant actions: read`;
            return everyFile(request, {
                decision: { kind: 'all', source: 'full-sync', reason: `${why}: every selected file` },
                base: { ...NO_BASE, why: `every selected file — ${why}` },
                notices,
            });
        }
        if (last.kind === 'unavailable') {
            warn(`the last successful sync cannot be looked up (${last.why}); using ${fallback}.`);
            notLastSuccess = `the last successful sync cannot be looked up (${last.why})`;
        }
        if (last.kind === 'found') {
            const { run } = last;
            // The push's after is the checkout's HEAD; an id that is not a commit id never reaches git.
            const after = request.payload.after;
            const head = isPush && typeof after === 'string' && _model_js__WEBPACK_IMPORTED_MODULE_6__/* .COMMIT_ID */ .G.test(after) ? after : 'HEAD';
            const diff = await (0,_changes_js__WEBPACK_IMPORTED_MODULE_3__/* .changesFromGit */ .aB)(request.workspace, run.sha, head, request.patterns, request.signal);
            if (diff.ok)
                return {
                    decision: { kind: 'changes', source: 'last-success', ...diff.changes },
                    base: {
                        source: 'last-success',
                        sha: run.sha,
                        run: { id: run.id, number: run.number, url: run.url },
                    },
                    notices,
                };
            warn(`the commit ${short(run.sha)} of the last successful sync (run #${run.number}) cannot be used ` +
                `(${diff.why}); using ${fallback}.`);
            notLastSuccess = `the commit ${short(run.sha)} of the last successful sync cannot be used (${diff.why})`;
        }
    }
    // The CLI has no event: without a base it syncs everything.
    const decided = request.eventName === ''
        ? fullSync(`${request.since === undefined ? 'no GitHub event, run outside a workflow' : 'no base commit'}: every selected file`)
        : await everythingOrPush(request);
    if (notLastSuccess === undefined)
        return { ...decided, notices };
    const used = decided.base.source === 'push' ? "the push's before commit" : 'every selected file';
    return { ...decided, base: { ...decided.base, why: `${used} — ${notLastSuccess}` }, notices };
}
/** Today's rules: the push's before..after (git, payload lists, compare API), else everything. */
async function everythingOrPush(request) {
    const decision = await (0,_changes_js__WEBPACK_IMPORTED_MODULE_3__/* .detectChanges */ .f8)(request);
    const before = (0,_changes_js__WEBPACK_IMPORTED_MODULE_3__/* .pushBefore */ .u1)(request.payload);
    const base = decision.kind === 'changes' && before ? { source: 'push', sha: before } : NO_BASE;
    return { decision, base };
}
/** `kb-sync index --since REF`: the tree difference REF..HEAD; a ref that names no commit is an error. */
async function sinceRef(request, ref) {
    const problem = (message) => new _config_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .ConfigError */ .xL([{ input: 'since', message: `Option --since ${(0,_config_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .quoted */ .TL)(ref)} ${message}.` }]);
    if (ref === '' || ref.startsWith('-'))
        throw problem('must be a commit id, a branch, a tag or last-success');
    const located = await (0,_select_git_repository_location_js__WEBPACK_IMPORTED_MODULE_4__/* .locateRepository */ .Z)(request.workspace, request.patterns ?? []);
    if (!located.ok)
        throw problem(`needs a git repository: ${located.why}`);
    const git = new _git_js__WEBPACK_IMPORTED_MODULE_1__/* .Git */ .T(located.location.root);
    const sha = await git.resolveCommit(ref);
    if (!sha && _model_js__WEBPACK_IMPORTED_MODULE_6__/* .COMMIT_ID */ .G.test(ref)) {
        // A depth-1 clone lacks older commits: fetch it as the push's before would be.
        const fetched = await (0,_changes_js__WEBPACK_IMPORTED_MODULE_3__/* .changesFromGit */ .aB)(request.workspace, ref, 'HEAD', request.patterns, request.signal);
        if (fetched.ok)
            return {
                decision: { kind: 'changes', source: 'since-ref', ...fetched.changes },
                base: { source: 'ref', sha: ref },
                notices: [],
            };
        throw problem(`is not a commit of the workspace's repository (${fetched.why})`);
    }
    if (!sha)
        throw problem(`names no commit in the git repository of ${request.workspace}`);
    const diff = await (0,_changes_js__WEBPACK_IMPORTED_MODULE_3__/* .changesFromGit */ .aB)(request.workspace, sha, 'HEAD', request.patterns, request.signal);
    if (!diff.ok)
        throw problem(`cannot be compared with HEAD: ${diff.why}`);
    return {
        decision: { kind: 'changes', source: 'since-ref', ...diff.changes },
        base: { source: 'ref', sha },
        notices: [],
    };
}


/***/ })

};
