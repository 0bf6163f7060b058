export const id = 369;
export const ids = [369];
export const modules = {

/***/ 82369:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   detectPullRequestChanges: () => (/* binding */ detectPullRequestChanges)
/* harmony export */ });
/* harmony import */ var _model_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(10182);
/* harmony import */ var _changes_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(59198);
/* harmony import */ var _workspace_changes_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(24285);
// What merging a pull request would change among the selected files: the tree difference between the
// pull request's base and head commits (`base.sha..head.sha`), from git (fetching a commit the
// shallow checkout lacks), else from the compare API, else every selected file with a warning.



const short = (sha) => sha.slice(0, 12);
function readPullRequest(payload) {
    const pr = payload.pull_request;
    const text = (value) => (typeof value === 'string' ? value : '');
    return {
        number: typeof pr?.number === 'number' ? pr.number : undefined,
        base: text(pr?.base?.sha),
        head: text(pr?.head?.sha),
    };
}
/** `quiet`: the caller warns in its own words when the change set is unknown (decision `all`). */
async function detectPullRequestChanges(context, options = {}) {
    const { log } = context;
    const pr = readPullRequest(context.payload);
    const all = (reason) => {
        if (!options.quiet)
            log.warning(`Change detection: ${reason}`);
        return {
            ...pr,
            decision: { kind: 'all', source: 'full-sync', reason },
            description: `every selected file (${reason})`,
        };
    };
    // The ids are handed to git as arguments: anything but a commit id is refused.
    if (!_model_js__WEBPACK_IMPORTED_MODULE_2__/* .COMMIT_ID */ .G.test(pr.base) || !_model_js__WEBPACK_IMPORTED_MODULE_2__/* .COMMIT_ID */ .G.test(pr.head))
        return all('the pull_request payload has no valid base/head commit ids');
    const range = `${short(pr.base)}..${short(pr.head)}`;
    const git = await (0,_changes_js__WEBPACK_IMPORTED_MODULE_0__/* .changesFromGit */ .aB)(context.workspace, pr.base, pr.head, context.patterns, context.signal);
    if (git.ok)
        return {
            ...pr,
            decision: { kind: 'changes', source: git.fetched ? 'fetched-before' : 'git-diff', ...git.changes },
            description: `git diff of the pull request (${range})${git.fetched ? ', after fetching the base commit' : ''}`,
        };
    log.info(`Change detection: git cannot tell (${git.why})`);
    const layout = await (0,_changes_js__WEBPACK_IMPORTED_MODULE_0__/* .repositoryNamesLayout */ .FO)(context, pr.head);
    if (!layout.ok)
        return all(`the change set is unknown (${layout.why})`);
    const api = await (0,_changes_js__WEBPACK_IMPORTED_MODULE_0__/* .changesFromCompareApi */ .LW)(context, pr.base, pr.head);
    if (api.ok)
        return {
            ...pr,
            decision: {
                kind: 'changes',
                source: 'compare-api',
                ...(await (0,_workspace_changes_js__WEBPACK_IMPORTED_MODULE_1__/* .workspaceChangesFromNames */ .Xz)(api.changes, context.workspace, layout.location, "GitHub's compare API")),
            },
            description: `GitHub compare API for the pull request (${range})`,
        };
    const apiWhy = context.githubToken ? `compare API: ${api.why}` : 'no github-token for the compare API';
    return all(`the change set is unknown (git: ${git.why}; ${apiWhy})`);
}


/***/ })

};
