export const id = 121;
export const ids = [121];
export const modules = {

/***/ 48121:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   removalCommit: () => (/* binding */ removalCommit)
/* harmony export */ });
/* harmony import */ var _git_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(71243);
/* harmony import */ var _model_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(10182);
/* harmony import */ var _repository_location_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(41563);
// The commit a run's removals are synced at, named in each placeholder ("removed … by commit X"): the
// push's `after`, the pull request's head, else the checkout's HEAD (a dispatch or schedule run, the CLI).



async function removalCommit(workspace, patterns, payload) {
    const pullRequest = payload.pull_request;
    for (const candidate of [payload.after, pullRequest?.head?.sha])
        if (typeof candidate === 'string' && _model_js__WEBPACK_IMPORTED_MODULE_2__/* .COMMIT_ID */ .G.test(candidate) && !/^0+$/.test(candidate))
            return candidate.toLowerCase();
    const located = await (0,_repository_location_js__WEBPACK_IMPORTED_MODULE_1__/* .locateRepository */ .Z)(workspace, patterns);
    if (!located.ok)
        return undefined;
    try {
        return await new _git_js__WEBPACK_IMPORTED_MODULE_0__/* .Git */ .T(located.location.root).resolveCommit('HEAD');
    }
    catch {
        return undefined;
    }
}


/***/ })

};
