export const id = 198;
export const ids = [198];
export const modules = {

/***/ 33602:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   IV: () => (/* binding */ foldCommitLists),
/* harmony export */   M6: () => (/* binding */ changeSetFromPresence),
/* harmony export */   Z$: () => (/* binding */ sortedUnique)
/* harmony export */ });
// Pure builders of a push's net change set from per-commit lists (git's is read in tree-output.ts).
// They run in linear time (plus one sort per list) so a 10,000-file push costs milliseconds.
const byCodeUnit = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
function sortedUnique(names) {
    return [...new Set(names)].sort(byCodeUnit);
}
/** Classifies paths by presence: only after → added, both → modified, only before → removed. */
function changeSetFromPresence(paths) {
    const added = [];
    const modified = [];
    const removed = [];
    for (const [path, { before, after }] of paths) {
        if (before && after)
            modified.push(path);
        else if (after)
            added.push(path);
        else if (before)
            removed.push(path);
    }
    return {
        added: added.sort(byCodeUnit),
        modified: modified.sort(byCodeUnit),
        removed: removed.sort(byCodeUnit),
    };
}
/**
 * Folds per-commit added/modified/removed lists, oldest commit first, into the net change between the
 * state before the first commit and after the last: added then removed is nothing, removed then added
 * is modified, added then modified is added, modified then removed is removed.
 */
function foldCommitLists(commits) {
    const paths = new Map();
    // The first mention of a path tells whether it existed before the push; the last whether it exists after.
    const record = (path, existedBefore, existsAfter) => {
        const presence = paths.get(path);
        if (presence)
            presence.after = existsAfter;
        else
            paths.set(path, { before: existedBefore, after: existsAfter });
    };
    for (const commit of commits) {
        for (const path of commit.added ?? [])
            record(path, false, true);
        for (const path of commit.modified ?? [])
            record(path, true, true);
        for (const path of commit.removed ?? [])
            record(path, true, false);
    }
    return changeSetFromPresence(paths);
}


/***/ }),

/***/ 59198:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  LW: () => (/* binding */ changesFromCompareApi),
  aB: () => (/* binding */ changesFromGit),
  f8: () => (/* binding */ detectChanges),
  u1: () => (/* binding */ pushBefore),
  JG: () => (/* binding */ pushWithNothingToIndex),
  FO: () => (/* binding */ repositoryNamesLayout)
});

// UNUSED EXPORTS: foldCommitLists

// EXTERNAL MODULE: ./src/model.ts
var model = __webpack_require__(10182);
// EXTERNAL MODULE: ./src/git.ts + 1 modules
var src_git = __webpack_require__(45610);
// EXTERNAL MODULE: ./src/history/change-sets.ts
var change_sets = __webpack_require__(33602);
// EXTERNAL MODULE: ./src/github/lookup-budget.ts
var lookup_budget = __webpack_require__(62975);
;// CONCATENATED MODULE: ./src/history/compare-api.ts
// The change set from GitHub's compare REST API, for when the checkout cannot give it (no .git, the
// before commit cannot be fetched). The API compares from the merge base (`base...head`), which is the
// tree difference only when `before` is an ancestor of `after`; for a force push the other side is
// asked too, and the two lists are combined into the difference between `before` and `after`.


// GitHub's limits for one compare answer without paging: at most 300 files and 250 commits.
const COMPARE_MAX_FILES = 300;
const COMPARE_MAX_COMMITS = 250;
async function compareSide(octokit, request, base, head) {
    let data;
    try {
        const response = await request.budget.request((signal) => octokit.rest.repos.compareCommitsWithBasehead({
            owner: request.owner,
            repo: request.repo,
            basehead: `${base}...${head}`,
            request: { signal },
        }));
        data = response.data;
    }
    catch (error) {
        request.budget.throwIfCancelled();
        const message = error instanceof Error ? error.message : String(error);
        if (error instanceof lookup_budget/* GitHubUnanswered */.yn)
            return { ok: false, why: message };
        const status = error.status;
        return {
            ok: false,
            why: `the request failed${typeof status === 'number' ? ` (HTTP ${status})` : ''}: ${message}`,
        };
    }
    if (!Array.isArray(data.files))
        return { ok: false, why: 'the answer has no file list' };
    if (data.files.length >= COMPARE_MAX_FILES)
        return {
            ok: false,
            why: `the answer lists ${data.files.length} files, the API's limit is ${COMPARE_MAX_FILES}`,
        };
    if (data.total_commits > COMPARE_MAX_COMMITS)
        return {
            ok: false,
            why: `the comparison spans ${data.total_commits} commits, more than the ${COMPARE_MAX_COMMITS} the API lists`,
        };
    return { ok: true, paths: presenceOf(data.files), status: data.status };
}
function presenceOf(files) {
    const paths = new Map();
    // A path can appear twice (the old name of one rename and the new name of another): where it is
    // present is the union of what each entry says.
    const mark = (path, base, head) => {
        const presence = paths.get(path);
        if (presence) {
            presence.before ||= base;
            presence.after ||= head;
        }
        else
            paths.set(path, { before: base, after: head });
    };
    for (const file of files) {
        switch (file.status) {
            case 'added':
            case 'copied':
                mark(file.filename, false, true);
                break;
            case 'removed':
                mark(file.filename, true, false);
                break;
            case 'renamed':
                if (file.previous_filename)
                    mark(file.previous_filename, true, false);
                mark(file.filename, false, true);
                break;
            case 'unchanged':
                break;
            default: // modified, changed, and any status GitHub adds later: sending an update is safe
                mark(file.filename, true, true);
        }
    }
    return paths;
}
/** Combines merge-base→after and merge-base→before into before→after presence. */
function combineSides(toAfter, toBefore) {
    const combined = new Map();
    for (const path of new Set([...toAfter.keys(), ...toBefore.keys()])) {
        const afterSide = toAfter.get(path);
        const beforeSide = toBefore.get(path);
        // A path untouched on one side is, on that side, as it was at the merge base.
        combined.set(path, {
            before: beforeSide ? beforeSide.after : afterSide.before,
            after: afterSide ? afterSide.after : beforeSide.before,
        });
    }
    return combined;
}
async function compareViaApi(request) {
    // Loaded when the API is asked (see github/last-success.ts): change detection that git answers skips it.
    const { getOctokit } = await Promise.all(/* import() */[__webpack_require__.e(351), __webpack_require__.e(702)]).then(__webpack_require__.bind(__webpack_require__, 6702));
    const octokit = getOctokit(request.token, request.apiUrl);
    const forward = await compareSide(octokit, request, request.before, request.after);
    if (!forward.ok)
        return forward;
    if (forward.status === 'ahead' || forward.status === 'identical')
        return { ok: true, changes: (0,change_sets/* changeSetFromPresence */.M6)(forward.paths) };
    // `before` is not an ancestor of `after` (a force push): what the dropped commits changed since the
    // merge base differs between before and after too.
    const backward = await compareSide(octokit, request, request.after, request.before);
    if (!backward.ok)
        return { ok: false, why: `${backward.why} (comparing back from before)` };
    return { ok: true, changes: (0,change_sets/* changeSetFromPresence */.M6)(combineSides(forward.paths, backward.paths)) };
}

// EXTERNAL MODULE: ./src/select/git/repository-location.ts
var repository_location = __webpack_require__(41563);
// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(51455);
var promises_default = /*#__PURE__*/__webpack_require__.n(promises_);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(76760);
var external_node_path_default = /*#__PURE__*/__webpack_require__.n(external_node_path_);
// EXTERNAL MODULE: ./src/select/git/byte-names.ts
var byte_names = __webpack_require__(50320);
// EXTERNAL MODULE: ./src/select/git/tree-output.ts
var tree_output = __webpack_require__(34381);
;// CONCATENATED MODULE: ./src/history/submodule-changes.ts
// The tree difference of a repository with its submodules expanded. The superproject's diff shows a
// submodule as one gitlink entry (mode 160000: the commit it points at), which no glob matches; its
// files' changes are the diff inside the submodule's checkout between the old and the new commit,
// named below the submodule's path, nested submodules too. A submodule added or removed adds or
// removes the files of its commit. When a submodule's side cannot be read (not checked out, a commit
// that cannot be fetched), its folder is reported as unknown, with the cause and the fix, so every
// selected file below it is sent instead of none.





const CHECKOUT_FIX = 'set `submodules: true` (or `recursive`) on actions/checkout';
const HISTORY_FIX = "check out with `submodules: true` and `fetch-depth: 0` (it applies to submodules too), with a token that can read the submodule's repository";
const submodule_changes_short = (sha) => sha.slice(0, 12);
const messageOf = (error) => (error instanceof Error ? error.message : String(error));
async function diffWithSubmodules(git, before, after, options) {
    const changes = {
        added: [],
        modified: [],
        removed: [],
        unknownFolders: [],
        warnings: [],
    };
    await diffRepository(git, '', before, after, changes, options);
    return changes;
}
async function diffRepository(git, prefix, before, after, changes, options) {
    for (const entry of (0,tree_output/* parseRawDiff */.LP)(await git.diffRaw(before, after))) {
        const name = prefix + entry.path;
        const oldLink = entry.oldMode === tree_output/* GITLINK_MODE */.B1;
        const newLink = entry.newMode === tree_output/* GITLINK_MODE */.B1;
        if (!oldLink && !newLink) {
            if (entry.status === 'A')
                changes.added.push(name);
            else if (entry.status === 'D')
                changes.removed.push(name);
            else
                changes.modified.push(name);
            continue;
        }
        // A file replaced by a submodule, or the other way round: the file side is removed or added.
        if (!oldLink && entry.oldMode !== tree_output/* ABSENT_MODE */.Mq)
            changes.removed.push(name);
        if (!newLink && entry.newMode !== tree_output/* ABSENT_MODE */.Mq)
            changes.added.push(name);
        if (!options.relevant(name))
            continue;
        await submoduleChanged(git, entry.path, name, {
            old: oldLink ? entry.oldId : undefined,
            new: newLink ? entry.newId : undefined,
            changes,
            options,
        });
    }
}
/** The submodule's own checkout at `relative` inside the parent's working tree, when it is there. */
async function openSubmodule(parent, relative) {
    const decoded = (0,byte_names/* decodedName */.Uq)(Buffer.from(relative, 'latin1'));
    if (decoded === undefined)
        return undefined;
    const folder = external_node_path_default().join(parent.workingDirectory, ...decoded.split('/'));
    try {
        const real = await promises_default().realpath(folder);
        const sub = new src_git/* Git */.T(real);
        // An empty folder (not initialised) belongs to the parent's working tree.
        return (await promises_default().realpath(await sub.topLevel())) === real ? sub : undefined;
    }
    catch {
        return undefined;
    }
}
/** Why a commit cannot be had in the submodule's checkout (fetched when missing), or undefined. */
async function missingCommit(git, sha, options) {
    if (await git.hasCommit(sha))
        return undefined;
    try {
        await git.fetchCommit('origin', sha, { timeoutMs: options.fetchTimeoutMs, signal: options.signal });
    }
    catch (error) {
        options.signal?.throwIfAborted();
        return `its commit ${submodule_changes_short(sha)} is not in the checkout and fetching it failed: ${messageOf(error)}`;
    }
    return (await git.hasCommit(sha)) ? undefined : `its commit ${submodule_changes_short(sha)} is still missing after a fetch`;
}
async function submoduleChanged(parent, relative, name, step) {
    const { changes, options } = step;
    const label = (0,byte_names/* lossyText */.Or)(name);
    const unknown = (why, fix) => changes.unknownFolders.push({
        folder: name,
        why: `the submodule ${label}: ${why}, so every selected file below ${label}/ is sent; to fix: ${fix}`,
    });
    const sub = await openSubmodule(parent, relative);
    if (!sub) {
        if (step.new === undefined)
            changes.warnings.push(`the submodule ${label} was removed and its repository is not in the checkout: its files are not listed as removed`);
        else
            unknown('it is not checked out and what changed in it is unknown', CHECKOUT_FIX);
        return;
    }
    for (const sha of [step.old, step.new]) {
        if (sha === undefined)
            continue;
        const missing = await missingCommit(sub, sha, options);
        if (!missing)
            continue;
        if (step.new === undefined)
            changes.warnings.push(`the submodule ${label} was removed and ${missing}: its files are not listed as removed`);
        else
            unknown(missing, HISTORY_FIX);
        return;
    }
    if (step.old !== undefined && step.new !== undefined)
        await diffRepository(sub, `${name}/`, step.old, step.new, changes, options);
    else if (step.new !== undefined)
        await listFiles(sub, `${name}/`, step.new, 'added', step);
    else if (step.old !== undefined)
        await listFiles(sub, `${name}/`, step.old, 'removed', step);
}
/** Every file of a submodule's commit (nested submodules' too) as added or removed. */
async function listFiles(git, prefix, commit, side, step) {
    for (const entry of (0,tree_output/* parseTreeListing */.Ev)(await git.listTree(commit))) {
        const name = prefix + entry.path;
        if (entry.mode !== tree_output/* GITLINK_MODE */.B1) {
            step.changes[side].push(name);
            continue;
        }
        if (!step.options.relevant(name))
            continue;
        await submoduleChanged(git, entry.path, name, {
            ...step,
            old: side === 'removed' ? entry.id : undefined,
            new: side === 'added' ? entry.id : undefined,
        });
    }
}

// EXTERNAL MODULE: ./src/history/workspace-changes.ts
var workspace_changes = __webpack_require__(24285);
;// CONCATENATED MODULE: ./src/history/changes.ts








const ZERO_COMMIT = /^0+$/;
// GitHub puts at most 2048 commits in a push payload: a list of that length may be cut short.
const PAYLOAD_MAX_COMMITS = 2048;
const FETCH_TIMEOUT_MS = 120_000;
const DEFAULT_API_URL = 'https://api.github.com';
function readPush(payload) {
    const text = (value) => (typeof value === 'string' ? value : '');
    return {
        ref: text(payload.ref),
        before: text(payload.before),
        after: text(payload.after),
        deleted: payload.deleted === true,
        forced: payload.forced,
        commits: payload.commits,
    };
}
const changes_short = (sha) => sha.slice(0, 12);
const changes_messageOf = (error) => (error instanceof Error ? error.message : String(error));
/** `quiet`: the caller says in its own words what an unknown change set means (no warnings). */
async function detectChanges(context, options = {}) {
    const log = options.quiet ? quietLog(context.log) : context.log;
    if (context.eventName !== 'push') {
        const why = context.eventName
            ? `${context.eventName} event, not a push`
            : 'no GitHub event, run outside a workflow';
        return { kind: 'all', source: 'full-sync', reason: `${why}: every selected file` };
    }
    const push = readPush(context.payload);
    const nothing = pushWithNothingToIndex(context.payload);
    if (nothing)
        return nothing;
    if (push.before === '' || ZERO_COMMIT.test(push.before))
        return {
            kind: 'all',
            source: 'full-sync',
            reason: `first push of ${push.ref || 'the branch'}: every selected file`,
        };
    // The ids are handed to git as arguments: anything but a commit id (an option, a range) is refused.
    if (!model/* COMMIT_ID */.G.test(push.before) || !model/* COMMIT_ID */.G.test(push.after) || ZERO_COMMIT.test(push.after)) {
        const reason = 'the push payload has no valid before/after commit ids: every selected file';
        log.warning(`Change detection: ${reason}`);
        return { kind: 'all', source: 'full-sync', reason };
    }
    const git = await changesFromGit(context.workspace, push.before, push.after, context.patterns, context.signal);
    if (git.ok)
        return { kind: 'changes', source: git.fetched ? 'fetched-before' : 'git-diff', ...git.changes };
    log.info(`Change detection: git cannot tell (${git.why})`);
    const layout = await repositoryNamesLayout(context, push.after);
    if (!layout.ok) {
        // git failed for the same reason: the repository of the selected files is not known.
        const reason = `the change set is unknown (${layout.why}): every selected file`;
        log.warning(`Change detection: ${reason}`);
        return { kind: 'all', source: 'full-sync', reason };
    }
    const lists = changesFromPayloadLists(push);
    if (lists.ok)
        return {
            kind: 'changes',
            source: 'payload',
            ...(await (0,workspace_changes/* workspaceChangesFromNames */.Xz)(lists.changes, context.workspace, layout.location, 'the push payload')),
        };
    log.info(`Change detection: payload lists not used (${lists.why})`);
    const api = await changesFromCompareApi(context, push.before, push.after);
    if (api.ok)
        return {
            kind: 'changes',
            source: 'compare-api',
            ...(await (0,workspace_changes/* workspaceChangesFromNames */.Xz)(api.changes, context.workspace, layout.location, "GitHub's compare API")),
        };
    const reason = `the change set is unknown (git: ${git.why}; compare API: ${api.why}): every selected file`;
    log.warning(`Change detection: ${reason}`);
    return { kind: 'all', source: 'full-sync', reason };
}
/** The log with its warnings as info lines. */
function quietLog(log) {
    return { info: (message) => log.info(message), warning: (message) => log.info(message) };
}
/** A tag push or a branch deletion: nothing to index. */
function pushWithNothingToIndex(payload) {
    const push = readPush(payload);
    if (push.ref.startsWith('refs/tags/'))
        return { kind: 'none', reason: `tag push (${push.ref}): nothing to index` };
    if (push.deleted)
        return { kind: 'none', reason: `branch deleted (${push.ref}): nothing to index` };
    return undefined;
}
/** The push's `before`, when it is a commit id (not the zero id of a new branch). */
function pushBefore(payload) {
    const { before } = readPush(payload);
    return model/* COMMIT_ID */.G.test(before) && !ZERO_COMMIT.test(before) ? before : undefined;
}
/**
 * How GitHub's repository-relative names (compare API, payload lists) map to document names: through the
 * repository found for the selected files; as they are when no checkout is found (the workspace is
 * assumed to be the repository); not at all when the patterns reach into several repositories.
 */
async function repositoryNamesLayout(context, commit) {
    const located = await (0,repository_location/* locateRepository */.Z)(context.workspace, context.patterns ?? [], commit);
    if (located.ok)
        return { ok: true, location: located.location };
    return located.ambiguous ? { ok: false, why: located.why } : { ok: true };
}
/**
 * The tree difference before..after in the repository that holds the selected files, submodules
 * expanded and names mapped to the workspace, fetching from origin either commit the checkout lacks.
 * `after` may be `HEAD`.
 */
async function changesFromGit(workspace, before, after, patterns = [], signal) {
    const located = await (0,repository_location/* locateRepository */.Z)(workspace, patterns, after === 'HEAD' ? undefined : after);
    if (!located.ok)
        return { ok: false, why: located.why };
    const { location } = located;
    const git = new src_git/* Git */.T(location.root);
    try {
        // Locating the repository may have found `after` in it already; the other commit ids are looked up
        // together (`after` may be HEAD, asked on its own).
        const present = new Set(located.holdsCommit === true ? [after] : []);
        const ids = [before, after].filter((sha) => !present.has(sha) && model/* COMMIT_ID */.G.test(sha));
        if (ids.length > 0)
            for (const sha of await git.presentCommits(ids))
                present.add(sha);
        let fetched = false;
        for (const sha of [before, after]) {
            // A fetch of `before` into a complete clone brings its history: `after` is asked again.
            if (present.has(sha) || ((fetched || !model/* COMMIT_ID */.G.test(sha)) && (await git.hasCommit(sha))))
                continue;
            try {
                await git.fetchCommit('origin', sha, { timeoutMs: FETCH_TIMEOUT_MS, signal });
            }
            catch (error) {
                signal?.throwIfAborted();
                return {
                    ok: false,
                    why: `commit ${changes_short(sha)} is not in the checkout and fetching it failed: ${changes_messageOf(error)}`,
                };
            }
            if (!(await git.hasCommit(sha)))
                return { ok: false, why: `commit ${changes_short(sha)} is still missing after a fetch` };
            if (sha === before)
                fetched = true;
        }
        const raw = await diffWithSubmodules(git, before, after, {
            fetchTimeoutMs: FETCH_TIMEOUT_MS,
            signal,
            relevant: (0,workspace_changes/* overlapsWorkspace */.yT)(location),
        });
        return { ok: true, changes: (0,workspace_changes/* workspaceChanges */.Rn)(raw, location), fetched, root: location.root };
    }
    catch (error) {
        signal?.throwIfAborted();
        return { ok: false, why: changes_messageOf(error) };
    }
}
function isStringList(value) {
    return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
function changesFromPayloadLists(push) {
    if (push.forced !== false)
        return { ok: false, why: 'the push was forced or does not say' };
    const commits = push.commits;
    if (!Array.isArray(commits) || commits.length === 0)
        return { ok: false, why: 'the payload lists no commits' };
    if (commits.length >= PAYLOAD_MAX_COMMITS)
        return { ok: false, why: `the payload lists ${commits.length} commits and may be cut short` };
    const complete = commits.every((commit) => {
        if (typeof commit !== 'object' || commit === null)
            return false;
        const { added, modified, removed } = commit;
        return isStringList(added) && isStringList(modified) && isStringList(removed);
    });
    if (!complete)
        return { ok: false, why: 'its commits carry no added/modified/removed lists' };
    return {
        ok: true,
        changes: (0,change_sets/* foldCommitLists */.IV)(commits),
    };
}
/** The compare API's change set (repository names), when a repository and a token are known. */
async function changesFromCompareApi(context, before, after) {
    if (!context.repository)
        return { ok: false, why: 'no repository is known' };
    if (!context.githubToken)
        return { ok: false, why: 'no github-token' };
    context.log.addSecret(context.githubToken);
    return compareViaApi({
        ...context.repository,
        before,
        after,
        token: context.githubToken,
        apiUrl: context.apiUrl || DEFAULT_API_URL,
        budget: context.github,
    });
}


/***/ }),

/***/ 24285:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Rn: () => (/* binding */ workspaceChanges),
/* harmony export */   Xz: () => (/* binding */ workspaceChangesFromNames),
/* harmony export */   yT: () => (/* binding */ overlapsWorkspace)
/* harmony export */ });
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(51455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(76760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var _select_git_byte_names_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(50320);
/* harmony import */ var _change_sets_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(33602);
/* harmony import */ var _select_git_repository_location_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(41563);
// A repository's change set as document names: mapped to the workspace (repository-location.ts),
// decoded from git's bytes, with the folders whose changes are unknown (a submodule that cannot be
// read, another repository, a submodule the compare API shows as one entry) kept as `everythingUnder`
// so every selected file below them is sent, each with a warning naming the cause and the fix.





function byteMapping(location) {
    return new _select_git_repository_location_js__WEBPACK_IMPORTED_MODULE_3__/* .NameMapping */ .k((0,_select_git_byte_names_js__WEBPACK_IMPORTED_MODULE_2__/* .byteNameOf */ .lc)(location.workspaceInRepository), (0,_select_git_byte_names_js__WEBPACK_IMPORTED_MODULE_2__/* .byteNameOf */ .lc)(location.repositoryInWorkspace));
}
function textMapping(location) {
    return new _select_git_repository_location_js__WEBPACK_IMPORTED_MODULE_3__/* .NameMapping */ .k(location.workspaceInRepository, location.repositoryInWorkspace);
}
/** Whether a repository folder (byte string) overlaps the workspace: submodules elsewhere are not opened. */
function overlapsWorkspace(location) {
    const mapping = byteMapping(location);
    return (folder) => mapping.folder(folder) !== undefined;
}
function otherRepositoryWarning(folder) {
    return (`${folder} is another git repository than the one compared (a second checkout): ` +
        `what changed in it is unknown, so every selected file below ${folder}/ is sent`);
}
function withOptional(changes, everythingUnder, undecodable, warnings) {
    const result = { ...changes };
    if (everythingUnder.length > 0)
        result.everythingUnder = (0,_change_sets_js__WEBPACK_IMPORTED_MODULE_4__/* .sortedUnique */ .Z$)(everythingUnder);
    if (undecodable.length > 0)
        result.undecodable = undecodable;
    if (warnings.length > 0)
        result.warnings = warnings;
    return result;
}
/** git's change set (byte strings, repository-relative) as document names. */
function workspaceChanges(raw, location) {
    const mapping = byteMapping(location);
    const undecodable = new Map();
    const decodeAll = (names, keepUndecodable) => {
        const decoded = [];
        for (const name of names) {
            const mapped = mapping.name(name);
            if (mapped === undefined)
                continue;
            const result = (0,_select_git_byte_names_js__WEBPACK_IMPORTED_MODULE_2__/* .decodePath */ .q0)(mapped);
            if ('name' in result)
                decoded.push(result.name);
            else if (keepUndecodable)
                undecodable.set(result.undecodable.shown, result.undecodable);
        }
        return (0,_change_sets_js__WEBPACK_IMPORTED_MODULE_4__/* .sortedUnique */ .Z$)(decoded);
    };
    const changes = {
        added: decodeAll(raw.added, true),
        modified: decodeAll(raw.modified, true),
        removed: decodeAll(raw.removed, false),
    };
    const everythingUnder = [];
    const warnings = [...raw.warnings];
    for (const { folder, why } of raw.unknownFolders) {
        const mapped = mapping.folder(folder);
        if (mapped === undefined)
            continue;
        const decoded = (0,_select_git_byte_names_js__WEBPACK_IMPORTED_MODULE_2__/* .decodePath */ .q0)(mapped);
        // A folder whose name is not UTF-8 holds no document the search could name.
        if (!('name' in decoded))
            continue;
        everythingUnder.push(decoded.name);
        warnings.push(why);
    }
    for (const folder of location.otherRepositories) {
        everythingUnder.push(folder);
        warnings.push(otherRepositoryWarning(folder));
    }
    const unnamed = [...undecodable.values()].sort((a, b) => a.shown < b.shown ? -1 : a.shown > b.shown ? 1 : 0);
    return withOptional(changes, everythingUnder, unnamed, warnings);
}
/**
 * A change set from GitHub (the compare API, the payload's lists: repository-relative text names) as
 * document names. Those sources show a submodule as one entry: a changed name that is a folder in the
 * workspace is one, and every selected file below it is sent.
 */
async function workspaceChangesFromNames(changes, workspace, location, source) {
    const mapping = location ? textMapping(location) : new _select_git_repository_location_js__WEBPACK_IMPORTED_MODULE_3__/* .NameMapping */ .k('', '');
    const mapAll = (names) => (0,_change_sets_js__WEBPACK_IMPORTED_MODULE_4__/* .sortedUnique */ .Z$)(names.map((name) => mapping.name(name)).filter((name) => name !== undefined));
    const mapped = {
        added: mapAll(changes.added),
        modified: mapAll(changes.modified),
        removed: mapAll(changes.removed),
    };
    const everythingUnder = [];
    const warnings = [];
    const files = { added: [], modified: [], removed: mapped.removed };
    for (const side of ['added', 'modified']) {
        for (const name of mapped[side]) {
            // A submodule is a real folder; a link to one is a file of the repository.
            const stats = await node_fs_promises__WEBPACK_IMPORTED_MODULE_0___default().lstat(node_path__WEBPACK_IMPORTED_MODULE_1___default().join(workspace, ...name.split('/'))).catch(() => undefined);
            if (!stats?.isDirectory()) {
                files[side].push(name);
                continue;
            }
            everythingUnder.push(name);
            warnings.push(`${source} shows the submodule ${name} as one entry, not its files: every selected file below ` +
                `${name}/ is sent (keep the checkout's .git and set \`submodules: true\` so git can compare inside it)`);
        }
    }
    for (const folder of location?.otherRepositories ?? []) {
        everythingUnder.push(folder);
        warnings.push(otherRepositoryWarning(folder));
    }
    return withOptional(files, everythingUnder, [], warnings);
}


/***/ }),

/***/ 10182:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   G: () => (/* binding */ COMMIT_ID)
/* harmony export */ });
/* unused harmony export OBJECT_ID */
// The typed values handed from one pipeline stage to the next:
// inputs ──► selection ──► plan ──► send ──► report
/** A full commit id: SHA-1 (40 hex digits) or SHA-256 (64). */
const COMMIT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i;
/** A full object id as git and GitHub's API write it: lowercase, SHA-1 or SHA-256. */
const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;


/***/ }),

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
/* harmony import */ var _git_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(45610);
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


/***/ })

};
