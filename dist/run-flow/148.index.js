export const id = 148;
export const ids = [148];
export const modules = {

/***/ 12148:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   pullRequestBase: () => (/* binding */ pullRequestBase)
/* harmony export */ });
/* harmony import */ var _lookup_budget_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(62975);
/* harmony import */ var _model_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(10182);
// The base branch of a pull request, asked of GitHub (`repos/{owner}/{repo}/pulls/{number}`): a comment
// on a pull request (`issue_comment`) names the pull request but not its base, which the stored
// baseline's key needs.


async function pullRequestBase(octokit, where, budget) {
    try {
        const { data } = await budget.request((signal) => octokit.rest.pulls.get({
            owner: where.owner,
            repo: where.repo,
            pull_number: where.pullNumber,
            request: { signal },
        }));
        const base = data.base;
        if (typeof base?.sha === 'string' &&
            _model_js__WEBPACK_IMPORTED_MODULE_1__/* .OBJECT_ID */ .S.test(base.sha) &&
            typeof base.ref === 'string' &&
            base.ref !== '')
            return { ok: true, commit: base.sha, ref: base.ref };
        return { ok: false, why: `GitHub's answer for pull request #${where.pullNumber} names no base branch` };
    }
    catch (error) {
        budget.throwIfCancelled();
        return { ok: false, why: (0,_lookup_budget_js__WEBPACK_IMPORTED_MODULE_0__/* .requestFailure */ .SU)(error) };
    }
}


/***/ })

};
