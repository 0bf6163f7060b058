export const id = 946;
export const ids = [946];
export const modules = {

/***/ 25946:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   branchHead: () => (/* binding */ branchHead)
/* harmony export */ });
const COMMIT = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
async function branchHead(octokit, where, budget) {
    try {
        const { data } = await budget.request((signal) => octokit.rest.repos.getBranch({ ...where, request: { signal } }));
        const sha = data.commit?.sha;
        if (typeof sha === 'string' && COMMIT.test(sha))
            return { ok: true, sha };
        return { ok: false, why: `GitHub's answer for the branch ${where.branch} names no commit` };
    }
    catch (error) {
        budget.throwIfCancelled();
        const status = error?.status;
        const message = error instanceof Error ? error.message.split('\n', 1)[0] : String(error);
        return { ok: false, why: typeof status === 'number' ? `HTTP ${status}: ${message}` : message };
    }
}


/***/ })

};
