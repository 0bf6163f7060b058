export const id = 946;
export const ids = [946];
export const modules = {

/***/ 25946:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   branchHead: () => (/* binding */ branchHead)
/* harmony export */ });
/* harmony import */ var _lookup_budget_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(62975);
/* harmony import */ var _model_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(10182);
// The commit a branch is at now (`repos/{owner}/{repo}/branches/{branch}`): the stored baseline's key is
// the base branch's head, and an event's `pull_request.base.sha` may lag behind it (it is set when the
// pull request is updated, not when its base branch moves).


async function branchHead(octokit, where, budget) {
    try {
        const { data } = await budget.request((signal) => octokit.rest.repos.getBranch({ ...where, request: { signal } }));
        const sha = data.commit?.sha;
        if (typeof sha === 'string' && _model_js__WEBPACK_IMPORTED_MODULE_1__/* .OBJECT_ID */ .S.test(sha))
            return { ok: true, sha };
        return { ok: false, why: `GitHub's answer for the branch ${where.branch} names no commit` };
    }
    catch (error) {
        budget.throwIfCancelled();
        return { ok: false, why: (0,_lookup_budget_js__WEBPACK_IMPORTED_MODULE_0__/* .requestFailure */ .SU)(error) };
    }
}


/***/ })

};
