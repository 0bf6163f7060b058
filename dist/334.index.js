export const id = 334;
export const ids = [334];
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

/***/ 28334:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  detectStagingChanges: () => (/* binding */ detectStagingChanges)
});

// UNUSED EXPORTS: MAX_RUNS_SINCE

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(51455);
var promises_default = /*#__PURE__*/__webpack_require__.n(promises_);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(76760);
var external_node_path_default = /*#__PURE__*/__webpack_require__.n(external_node_path_);
// EXTERNAL MODULE: ./src/model.ts
var model = __webpack_require__(10182);
// EXTERNAL MODULE: ./src/github/last-success.ts
var last_success = __webpack_require__(82677);
;// CONCATENATED MODULE: ./src/github/staging-runs.ts
// What a staging node may hold, from the runs of this workflow file on any branch and event: the last
// successful run left every selected document as its checkout had it, and each run after it that
// failed or was cancelled may have sent some of its own. The list is in order of creation, so an older
// run re-run after it (listed further down, with a later start) may have written the node too: those
// on the same page are counted. Runs marked as dry runs sent nothing.


/** Conclusions of runs that may have sent part of their change set before they ended. */
const PARTIAL = new Set(['failure', 'cancelled', 'timed_out']);
function readPullRequests(value) {
    if (!Array.isArray(value))
        return [];
    const found = [];
    for (const entry of value) {
        const pr = entry;
        const base = pr?.base?.sha;
        const head = pr?.head?.sha;
        // The ids are handed to git as arguments: anything but a commit id is left out.
        if (typeof base !== 'string' || typeof head !== 'string')
            continue;
        if (!model/* COMMIT_ID */.G.test(base) || !model/* COMMIT_ID */.G.test(head))
            continue;
        found.push({ number: typeof pr?.number === 'number' ? pr.number : 0, base, head });
    }
    return found;
}
function stagingRun(run) {
    return {
        id: run.id,
        number: run.run_number,
        event: run.event,
        sha: run.head_sha,
        pullRequests: readPullRequests(run.pull_requests),
        url: run.html_url,
    };
}
function isEarlierRun(run, workflow) {
    return (run.id !== workflow.runId && (workflow.runNumber === undefined || run.run_number < workflow.runNumber));
}
const isDryRun = (run) => (run.display_title ?? '').toLowerCase().includes(last_success/* DRY_RUN_MARKER */.t5);
/** When the run's latest attempt started (ms), or NaN when the answer does not say. */
function startedAt(run) {
    const started = run.run_started_at;
    return typeof started === 'string' ? Date.parse(started) : Number.NaN;
}
/** Older runs on the page whose latest attempt started after `last`'s and that may have sent something. */
function reRunSince(older, last, workflow) {
    const lastStarted = startedAt(last);
    return older.filter((run) => isEarlierRun(run, workflow) &&
        !isDryRun(run) &&
        startedAt(run) > lastStarted &&
        (run.conclusion === 'success' || (run.conclusion !== null && PARTIAL.has(run.conclusion))));
}
async function findStagingRuns(query) {
    const { workflow } = query;
    const since = [];
    let seen = 0;
    // No branch, status or event filter: a run of any pull request, or of main, may have synced the node;
    // and no exclude_pull_requests, whose lists name what a pull_request run merged.
    for await (const page of (0,last_success/* workflowRunPages */.Zd)(query)) {
        if (!page.ok)
            return page;
        const runs = page.runs;
        for (const [index, run] of runs.entries()) {
            if (!isEarlierRun(run, workflow) || isDryRun(run))
                continue;
            if (run.conclusion === 'success') {
                const reRun = reRunSince(runs.slice(index + 1), run, workflow);
                return { ok: true, lastSuccess: stagingRun(run), since: [...since, ...reRun.map(stagingRun)] };
            }
            if (run.conclusion !== null && PARTIAL.has(run.conclusion))
                since.push(stagingRun(run));
        }
        seen = page.seen;
        if (page.last)
            return { ok: true, since, why: `no earlier successful run of ${workflow.workflowFile}` };
    }
    return {
        ok: false,
        why: `none of the ${seen} newest runs of ${workflow.workflowFile} succeeded`,
    };
}

// EXTERNAL MODULE: ./src/git.ts + 1 modules
var src_git = __webpack_require__(45610);
// EXTERNAL MODULE: ./src/history/change-sets.ts
var change_sets = __webpack_require__(33602);
// EXTERNAL MODULE: ./src/history/changes.ts + 2 modules
var changes = __webpack_require__(59198);
// EXTERNAL MODULE: ./src/select/git/repository-location.ts
var repository_location = __webpack_require__(41563);
// EXTERNAL MODULE: ./src/history/workspace-changes.ts
var workspace_changes = __webpack_require__(24285);
;// CONCATENATED MODULE: ./src/history/staging-changes.ts
// The change set of a staging node (`pull-request: index`): after the sync, every selected document in
// the node has this checkout's content, and every other name it may hold is removed — whatever pull
// request, or push, synced the node before.
//
// What the node may hold comes from the runs of this workflow file (staging-runs.ts): the last
// successful run's checkout, and for some names that of a run that failed part-way or re-ran since. A pull
// request's checkout is the merge of its base and head, so it differs from its base only in names
// that also differ between base and head. The names that can differ from this checkout are therefore,
// for each such run:
//   - a pull_request run: base..HEAD ∪ base..head (its base and head as the runs API lists them),
//     narrowed to merge-base..head when the checkout has the whole history (a shallow one may have a
//     wrong merge base; base..head holds every name merge-base..head does whose merge differs);
//   - any other run (push, dispatch): its commit..HEAD.
// Each pair is a tree difference from git (fetching what a shallow checkout lacks), else GitHub's
// compare API, with HEAD read as this pull request's base..head. Every name found is then sent from
// the checkout by upsert when present (its state in the node is unknown), and is removed when absent.
// Where that cannot be worked out, every selected file is sent by upsert, with a warning; the names the
// pull request itself removes (its base..head, and on `synchronize` its head's before..after) that this
// checkout lacks are removed even so: no name absent from the checkout belongs in the node.









/** More runs than this that may have written the node since the last success: every selected file. */
const MAX_RUNS_SINCE = 20;
const staging_changes_short = (sha) => sha.slice(0, 12);
const messageOf = (error) => (error instanceof Error ? error.message : String(error));
function runName(run) {
    const numbers = run.pullRequests.map((pr) => `#${pr.number}`).join(', ');
    return `run #${run.number} (${numbers ? `pull request ${numbers}` : run.event})`;
}
async function stagingRuns(context) {
    const { workflow } = context;
    if (!workflow)
        return { ok: false, why: 'not on a runner, so no earlier run is known' };
    if (!workflow.ok)
        return { ok: false, why: workflow.why };
    if (!context.githubToken)
        return { ok: false, why: 'no github-token to list the earlier runs' };
    context.log.addSecret(context.githubToken);
    const found = await findStagingRuns({
        workflow: workflow.run,
        token: context.githubToken,
        apiUrl: context.apiUrl,
        budget: context.github,
    });
    if (!found.ok)
        return {
            ok: false,
            why: `the workflow runs API cannot answer: ${found.why}${found.refused ? ' (grant `permissions: actions: read`)' : ''}`,
        };
    if (!found.lastSuccess)
        return { ok: false, why: found.why ?? 'no earlier successful run' };
    if (found.since.length > MAX_RUNS_SINCE)
        return {
            ok: false,
            why: `${found.since.length} runs since the last successful one failed, were cancelled or re-ran`,
        };
    return { ok: true, value: { last: found.lastSuccess, since: found.since } };
}
/** The commit pairs whose differences cover every name the runs may have left unlike this checkout. */
function pairsOf(runs) {
    const pairs = new Map();
    const add = (from, to) => {
        if (from !== to)
            pairs.set(`${from}..${to}`, { from, to });
    };
    for (const run of runs) {
        if (!run.event.startsWith('pull_request')) {
            add(run.sha, 'HEAD');
            continue;
        }
        // GitHub leaves the list empty for a fork's pull request: what that run merged is unknown.
        if (run.pullRequests.length === 0)
            return {
                ok: false,
                why: `${runName(run)} lists no pull request (a fork's?), so what it synced is unknown`,
            };
        for (const pr of run.pullRequests) {
            add(pr.base, 'HEAD');
            add(pr.base, pr.head);
        }
    }
    return { ok: true, value: [...pairs.values()] };
}
function readPullRequest(payload) {
    const pr = payload.pull_request;
    const base = pr?.base?.sha;
    const head = pr?.head?.sha;
    if (typeof base !== 'string' || typeof head !== 'string')
        return undefined;
    return model/* COMMIT_ID */.G.test(base) && model/* COMMIT_ID */.G.test(head) ? { base, head } : undefined;
}
/**
 * A pull request's own names: from its merge base when the checkout holds the whole history and both
 * commits (a full clone), else from its base (more names, the same ones among those that matter).
 */
async function narrowed(pair, fullHistory) {
    if (pair.to === 'HEAD')
        return pair;
    const git = await fullHistory();
    if (!git)
        return pair;
    try {
        if (!(await git.hasCommit(pair.from)) || !(await git.hasCommit(pair.to)))
            return pair;
        const base = await git.mergeBase(pair.from, pair.to);
        return base && model/* COMMIT_ID */.G.test(base) ? { from: base, to: pair.to } : pair;
    }
    catch {
        return pair;
    }
}
/** The repository of the selected files when it holds its whole history (not shallow), else undefined. */
async function completeRepository(context) {
    const located = await (0,repository_location/* locateRepository */.Z)(context.workspace, context.patterns ?? []);
    if (!located.ok)
        return undefined;
    const git = new src_git/* Git */.T(located.location.root);
    return (await git.isShallow().catch(() => true)) ? undefined : git;
}
/** One pair from the compare API; HEAD (the merge GitHub made) is read as this pull request's base..head. */
async function pairFromCompareApi(context, pair) {
    let steps = [pair];
    if (pair.to === 'HEAD') {
        const pr = readPullRequest(context.payload);
        if (!pr)
            return { ok: false, why: 'the pull_request payload has no valid base/head commit ids' };
        steps = [
            { from: pair.from, to: pr.base },
            { from: pr.base, to: pr.head },
        ].filter((step) => step.from !== step.to);
    }
    const layout = await (0,changes/* repositoryNamesLayout */.FO)(context, steps.at(-1)?.to ?? pair.from);
    if (!layout.ok)
        return { ok: false, why: layout.why };
    const found = [];
    for (const step of steps) {
        const api = await (0,changes/* changesFromCompareApi */.LW)(context, step.from, step.to);
        if (!api.ok)
            return { ok: false, why: api.why };
        found.push(await (0,workspace_changes/* workspaceChangesFromNames */.Xz)(api.changes, context.workspace, layout.location, "GitHub's compare API"));
    }
    return { ok: true, value: found };
}
/** Every name of the pairs' differences, present in the checkout → sent by upsert, absent → removed. */
async function classify(workspace, parts) {
    const names = (0,change_sets/* sortedUnique */.Z$)(parts.flatMap((part) => [...part.added, ...part.modified, ...part.removed]));
    const present = [];
    const removed = [];
    const everythingUnder = parts.flatMap((part) => part.everythingUnder ?? []);
    for (const name of names) {
        const stats = await promises_default().lstat(external_node_path_default().join(workspace, ...name.split('/'))).catch(() => undefined);
        if (!stats)
            removed.push(name);
        // A submodule the compare API shows as one entry: every selected file below it.
        else if (stats.isDirectory())
            everythingUnder.push(name);
        else
            present.push(name);
    }
    const undecodable = new Map();
    for (const part of parts)
        for (const name of part.undecodable ?? [])
            undecodable.set(name.shown, name);
    const warnings = [...new Set(parts.flatMap((part) => part.warnings ?? []))];
    return {
        kind: 'changes',
        source: 'staging',
        added: [],
        // "modified" is sent as an update that becomes an upload on 404: an upsert, whatever the node holds.
        modified: present,
        removed,
        ...(everythingUnder.length > 0 ? { everythingUnder: (0,change_sets/* sortedUnique */.Z$)(everythingUnder) } : {}),
        ...(undecodable.size > 0 ? { undecodable: [...undecodable.values()] } : {}),
        ...(warnings.length > 0 ? { warnings } : {}),
    };
}
/** The pull request's own ranges: base..head, and on `synchronize` its head before..after this push. */
function ownPairs(payload) {
    const pairs = [];
    const pr = readPullRequest(payload);
    if (pr && pr.base !== pr.head)
        pairs.push({ from: pr.base, to: pr.head });
    const { action, before, after } = payload;
    if (action === 'synchronize' &&
        typeof before === 'string' &&
        typeof after === 'string' &&
        model/* COMMIT_ID */.G.test(before) &&
        model/* COMMIT_ID */.G.test(after) &&
        before !== after)
        pairs.push({ from: before, to: after });
    return pairs;
}
/** The names the pull request's own ranges hold that this checkout lacks, or why they are unknown. */
async function ownRemovals(context) {
    const parts = [];
    for (const pair of ownPairs(context.payload)) {
        const compared = await pairChanges(context, pair);
        if (!compared.ok)
            return compared;
        parts.push(...compared.value.parts);
    }
    return { ok: true, value: (await classify(context.workspace, parts)).removed };
}
/** One pair's differences: git (fetching what the checkout lacks), else the compare API. */
async function pairChanges(context, pair) {
    const git = await (0,changes/* changesFromGit */.aB)(context.workspace, pair.from, pair.to, context.patterns, context.signal);
    if (git.ok)
        return { ok: true, value: { parts: [git.changes], api: false } };
    const range = `${staging_changes_short(pair.from)}..${pair.to === 'HEAD' ? 'HEAD' : staging_changes_short(pair.to)}`;
    context.log.info(`Change detection: git cannot tell ${range} (${git.why})`);
    const compared = context.githubToken
        ? await pairFromCompareApi(context, pair).catch((error) => {
            context.signal?.throwIfAborted();
            return { ok: false, why: messageOf(error) };
        })
        : { ok: false, why: 'no github-token for the compare API' };
    if (!compared.ok)
        return { ok: false, why: `${range}: git: ${git.why}; compare API: ${compared.why}` };
    return { ok: true, value: { parts: compared.value, api: true } };
}
/**
 * Every selected file by upsert, and the names the pull request itself removes that the checkout lacks
 * (when they are known).
 */
async function everyFile(context, reason, lead) {
    const own = await ownRemovals(context);
    const decision = { kind: 'all', source: 'full-sync', reason };
    const describe = (removing) => `${lead}; ${removing}earlier pull requests' extra documents may remain`;
    if (!own.ok) {
        context.log.info(`Change detection: the names this pull request removes are unknown (${own.why}); none is removed.`);
        return { decision, description: describe('') };
    }
    if (own.value.length === 0)
        return { decision, description: describe('') };
    return {
        decision: { ...decision, removed: own.value },
        description: describe('the names this pull request removes are removed; '),
    };
}
async function detectStagingChanges(context) {
    const { log } = context;
    const all = (why) => {
        log.warning(`Change detection: what the staging node holds is unknown (${why}); every selected file is sent by ` +
            'upsert, and documents that earlier pull requests added and this checkout lacks may remain.');
        return everyFile(context, `what the staging node holds is unknown (${why})`, `every selected file by upsert — what the node holds is unknown (${why})`);
    };
    if (context.fullSync) {
        const reason = 'input full-sync is true';
        log.info(`Change detection: ${reason}: every selected file by upsert; only the names this pull request ` +
            'removes are removed.');
        return everyFile(context, `${reason}: every selected file`, `every selected file by upsert (${reason})`);
    }
    const runs = await stagingRuns(context);
    if (!runs.ok)
        return all(runs.why);
    const { last, since } = runs.value;
    const pairs = pairsOf([last, ...since]);
    if (!pairs.ok)
        return all(pairs.why);
    const parts = [];
    let api = false;
    // Asked once for every pair: where the repository is and whether it is shallow.
    let complete;
    const fullHistory = () => (complete ??= completeRepository(context));
    for (const listed of pairs.value) {
        const compared = await pairChanges(context, await narrowed(listed, fullHistory));
        if (!compared.ok)
            return all(compared.why);
        parts.push(...compared.value.parts);
        api ||= compared.value.api;
    }
    const decision = await classify(context.workspace, parts);
    const after = since.length > 0 ? ` and the ${since.length} run(s) that failed part-way or re-ran since` : '';
    return {
        decision,
        description: `the names that can differ from what the last successful sync, ${runName(last)},${after} left in ` +
            `the node, sent from this checkout (${api ? "git and GitHub's compare API" : 'git diff'})`,
    };
}


/***/ })

};
