export const id = 702;
export const ids = [702];
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


/***/ })

};
