export const id = 316;
export const ids = [316];
export const modules = {

/***/ 88316:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   draftsBefore: () => (/* binding */ draftsBefore)
/* harmony export */ });
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(51455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(76760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var _git_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(45610);
/* harmony import */ var _map_limited_js__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(69270);
/* harmony import */ var _model_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(10182);
/* harmony import */ var _select_document_drafts_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(53271);
/* harmony import */ var _temp_folder_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(24658);
// Which changed drafts were drafts before the change too. Without a record of the node, a modified file
// that is a draft now is blanked because it may have been published before; when its version at the
// change set's base commit was a draft as well, by the same rules (select/document/drafts.ts: its front matter,
// the cascade of the section files above it as they were then, a _drafts folder), it never reached the
// knowledge base, and its placeholder would only be answered 404 (one more request, a batch searched in
// parts). Those are left alone, as the record leaves a draft it holds no content for.
//
// The base's versions are written to a temporary folder in the workspace's layout and judged there, so
// the cascade is read as it was. What cannot be read there (the base commit not in a shallow checkout, a
// file in a submodule, anything git refuses) counts as not a draft before: blanked, as before.







/** Files written at once: a push that changes a section's _index.md may judge a few hundred pages. */
const FILES_AT_ONCE = 8;
/** The names among `names` that were drafts at `base` too; empty when the base cannot be read. */
async function draftsBefore(input) {
    const { workspace, base, signal } = input;
    const names = input.names.filter(isPlainName);
    if (names.length === 0 || !_model_js__WEBPACK_IMPORTED_MODULE_5__/* .COMMIT_ID */ .G.test(base))
        return new Set();
    const git = new _git_js__WEBPACK_IMPORTED_MODULE_2__/* .Git */ .T(workspace);
    if (!(await git.hasCommit(base)))
        return new Set();
    const folder = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.mkdtemp)(node_path__WEBPACK_IMPORTED_MODULE_1___default().join((0,_temp_folder_js__WEBPACK_IMPORTED_MODULE_4__/* .tempFolder */ .vg)().path, 'kb-sync-before-'));
    try {
        // The pages, and the section files of every folder above them (their cascade), as they were.
        const wanted = new Set(names);
        for (const name of names)
            for (const above of foldersAbove(name))
                for (const section of _select_document_drafts_js__WEBPACK_IMPORTED_MODULE_3__/* .SECTION_FILES */ .KS)
                    wanted.add(above === '' ? section : `${above}/${section}`);
        // `<commit>:./<name>`: the name relative to the workspace, which may be a folder of the repository.
        const blobs = await git.blobs([...wanted].map((name) => `${base}:./${name}`), { signal });
        const written = await (0,_map_limited_js__WEBPACK_IMPORTED_MODULE_6__/* .mapLimited */ .b)([...wanted], FILES_AT_ONCE, async (name) => {
            const content = blobs.get(`${base}:./${name}`);
            if (content === undefined)
                return undefined;
            const file = node_path__WEBPACK_IMPORTED_MODULE_1___default().join(folder, ...name.split('/'));
            await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.mkdir)(node_path__WEBPACK_IMPORTED_MODULE_1___default().dirname(file), { recursive: true });
            await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.writeFile)(file, content);
            return { name, path: file, size: content.length };
        });
        const pages = written.filter((file) => file !== undefined);
        const pageNames = new Set(names);
        const scan = await (0,_select_document_drafts_js__WEBPACK_IMPORTED_MODULE_3__/* .findDrafts */ .i7)(pages.filter((file) => pageNames.has(file.name)), input.now);
        return new Set(scan.drafts.keys());
    }
    finally {
        await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.rm)(folder, { recursive: true, force: true });
    }
}
/** A relative name with no empty, `.` or `..` segment: one that stays inside the temporary folder. */
function isPlainName(name) {
    return (!node_path__WEBPACK_IMPORTED_MODULE_1___default().posix.isAbsolute(name) &&
        name.split('/').every((part) => part !== '' && part !== '.' && part !== '..'));
}
/** The folders above a name, nearest first, ending with the workspace's own (''). */
function foldersAbove(name) {
    const folders = [];
    let folder = node_path__WEBPACK_IMPORTED_MODULE_1___default().posix.dirname(name);
    while (folder !== '.') {
        folders.push(folder);
        folder = node_path__WEBPACK_IMPORTED_MODULE_1___default().posix.dirname(folder);
    }
    folders.push('');
    return folders;
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


/***/ })

};
