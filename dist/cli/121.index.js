export const id = 121;
export const ids = [121];
export const modules = {

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
/* harmony import */ var _git_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(71243);
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
