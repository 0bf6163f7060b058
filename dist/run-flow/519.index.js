export const id = 519;
export const ids = [519];
export const modules = {

/***/ 51519:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  detectPullRequestChanges: () => (/* binding */ detectPullRequestChanges)
});

// EXTERNAL MODULE: ./src/model.ts
var model = __webpack_require__(10182);
// EXTERNAL MODULE: ./src/git.ts + 1 modules
var src_git = __webpack_require__(45610);
// EXTERNAL MODULE: ./src/github/lookup-budget.ts
var lookup_budget = __webpack_require__(62975);
;// CONCATENATED MODULE: ./src/history/change-sets.ts
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
function change_sets_foldCommitLists(commits) {
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
        return { ok: true, changes: changeSetFromPresence(forward.paths) };
    // `before` is not an ancestor of `after` (a force push): what the dropped commits changed since the
    // merge base differs between before and after too.
    const backward = await compareSide(octokit, request, request.after, request.before);
    if (!backward.ok)
        return { ok: false, why: `${backward.why} (comparing back from before)` };
    return { ok: true, changes: changeSetFromPresence(combineSides(forward.paths, backward.paths)) };
}

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(51455);
var promises_default = /*#__PURE__*/__webpack_require__.n(promises_);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(76760);
var external_node_path_default = /*#__PURE__*/__webpack_require__.n(external_node_path_);
;// CONCATENATED MODULE: ./src/select/inside-name.ts
// Whether a path lies inside the workspace, and its document name there. Every candidate file passes
// through here, so the usual case (a clean path below the root) is answered without path.relative.

/** A `.`, `..` or empty segment, or a leading or trailing separator: what path.normalize would change. */
const UNNORMALISED = /(?:^|[\\/])\.{1,2}(?:[\\/]|$)|[\\/]{2}|^[\\/]|[\\/]$/;
/** The workspace-relative name with `/`, or undefined when the path is not inside the workspace. */
function insideName(root, target) {
    // Fast path for the usual candidate, a clean path below the root (path.relative resolves both paths
    // again: ~4 µs a file); anything else takes the general answer below.
    const prefix = root.endsWith((external_node_path_default()).sep) ? root : root + (external_node_path_default()).sep;
    if (target.startsWith(prefix)) {
        const rest = target.slice(prefix.length);
        if (rest !== '' && !UNNORMALISED.test(rest))
            return (external_node_path_default()).sep === '/' ? rest : rest.split((external_node_path_default()).sep).join('/');
    }
    const relative = external_node_path_default().relative(root, target);
    if (external_node_path_default().isAbsolute(relative) || relative.split((external_node_path_default()).sep)[0] === '..')
        return undefined;
    return relative.split((external_node_path_default()).sep).join('/');
}

;// CONCATENATED MODULE: ./src/select/patterns.ts
// The `files` patterns: refused when they could reach outside the workspace, and rooted at the
// workspace before @actions/glob sees them (it would resolve a relative pattern against process.cwd()).
function parse(pattern) {
    let rest = pattern.trim();
    let negate = false;
    // @actions/glob trims again after every `!`, so `! /etc` is the absolute pattern `/etc`.
    while (rest.startsWith('!')) {
        negate = !negate;
        rest = rest.slice(1).trim();
    }
    const body = rest
        .split('/')
        .filter((segment, index, all) => segment !== '.' && (segment !== '' || index === all.length - 1))
        .join('/');
    return { negate, body: body === '/' ? '' : body };
}
/** A segment as the file system would see it: backslash escapes and one-character sets like `[.]` undone. */
function literalSegment(segment) {
    return segment.replace(/\[(.)\]/g, '$1').replace(/\\(.)/g, '$1');
}
/**
 * Why a `files` pattern is refused, or undefined when it is fine: it must stay relative to the workspace.
 * The caller turns the reason into an error that names the `files` input.
 */
function patternProblem(pattern) {
    if (pattern.includes('\0'))
        return 'contains a NUL character';
    if (/[\r\n]/.test(pattern))
        return 'contains a line break';
    let rest = pattern.trim();
    while (rest.startsWith('!'))
        rest = rest.slice(1).trim();
    if (rest === '')
        return 'is empty';
    if (rest.startsWith('/') || rest.startsWith('\\') || /^[A-Za-z]:/.test(rest))
        return 'is an absolute path (patterns are relative to the workspace)';
    if (rest.startsWith('~'))
        return 'starts with `~` (patterns are relative to the workspace)';
    if (rest.split('/').some((segment) => literalSegment(segment) === '..'))
        return 'has a `..` segment (patterns must stay inside the workspace)';
    return undefined;
}
/** Whether a `files` pattern excludes (its `!` prefixes, each trimmed after as @actions/glob does, are odd). */
function isNegatedPattern(pattern) {
    return parse(pattern).negate;
}
/** Escapes glob characters in a literal path, the way @actions/glob does for its own roots. */
function globEscape(literal) {
    return literal
        .replace(/\\/g, '\\\\')
        .replace(/(\[)(?=[^/]+\])/g, '[[]')
        .replace(/\?/g, '[?]')
        .replace(/\*/g, '[*]');
}
/** The pattern rooted at the (real, absolute) workspace, keeping its `!`. Call only when patternProblem is undefined. */
function rootedPattern(root, pattern) {
    const { negate, body } = parse(pattern);
    const base = globEscape(root.endsWith('/') ? root.slice(0, -1) : root);
    return `${negate ? '!' : ''}${base}/${body === '' ? '**' : body}`;
}
function hasGlobCharacters(body) {
    return /[*?[\\]/.test(body);
}
/** The leading segments of a pattern that hold no glob characters: the folder its search starts in. */
function literalPrefix(pattern) {
    const { body } = parse(pattern);
    const segments = body.split('/').filter((segment) => segment !== '');
    const firstGlob = segments.findIndex(hasGlobCharacters);
    return firstGlob === -1 ? segments : segments.slice(0, firstGlob);
}
/**
 * Names that an include pattern spells out literally (no glob characters): the user asked for exactly
 * that file, which is what lets a well-known secret file through.
 */
function literalNames(patterns) {
    const names = new Set();
    for (const pattern of patterns) {
        const { negate, body } = parse(pattern);
        if (!negate && body !== '' && !body.endsWith('/') && !hasGlobCharacters(body))
            names.add(body);
    }
    return names;
}

;// CONCATENATED MODULE: ./src/select/git/repository-location.ts





// Submodules inside submodules: a checkout deeper than this is not looked above.
const MAX_SUPERPROJECTS = 16;
/** The working trees holding `folder`: its own, then each superproject it is a submodule of (real paths). */
async function enclosingCheckouts(folder) {
    const chain = [];
    try {
        let level = await topAndSuperproject(folder);
        chain.push(await promises_default().realpath(level.top));
        for (let count = 0; count < MAX_SUPERPROJECTS && level.above; count++) {
            level = await topAndSuperproject(level.above);
            chain.push(await promises_default().realpath(level.top));
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
    const git = new src_git/* Git */.T(folder);
    if (!(await promises_default().realpath(folder)).includes('\n')) {
        const lines = (await git.exec(['rev-parse', '--show-toplevel', '--show-superproject-working-tree']))
            .replace(/\n$/, '')
            .split('\n');
        if (lines.length <= 2)
            return { top: lines[0], above: lines[1] || undefined };
    }
    const top = await git.topLevel();
    return { top, above: await new src_git/* Git */.T(top).superproject() };
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
        if (await new src_git/* Git */.T(top).hasCommit(commit))
            return { top, holdsCommit: true };
    return { top: chain[chain.length - 1], holdsCommit: false };
}
async function isFolder(candidate) {
    return (await promises_default().stat(candidate).catch(() => undefined))?.isDirectory() ?? false;
}
const hasGitEntry = async (folder) => (await promises_default().lstat(external_node_path_default().join(folder, '.git')).catch(() => undefined)) !== undefined;
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
        for (const segment of literalPrefix(pattern)) {
            folder = external_node_path_default().join(folder, segment);
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
        entries = await promises_default().readdir(root, { withFileTypes: true });
    }
    catch {
        return [];
    }
    const found = [];
    for (const entry of entries) {
        const folder = external_node_path_default().join(root, entry.name);
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
const relativeName = (root, target) => insideName(root, target) ?? '';
/**
 * Finds the repository that holds the selected files. When the patterns reach into several, the one
 * holding `commit` (the checked-out commit of the event) is taken and the others are listed.
 */
async function locateRepository(workspace, patterns, commit) {
    let root;
    try {
        root = await promises_default().realpath(workspace);
    }
    catch {
        return { ok: false, why: `the workspace ${workspace} does not exist`, ambiguous: false };
    }
    const around = await repositoryAround(await enclosingCheckouts(root), commit);
    const own = around?.top;
    const reached = await distinctTopLevels(await checkoutsAlongPatterns(root, patterns), own);
    const inWorkspace = (top) => top !== root && insideName(root, top) !== undefined;
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
            if (await new src_git/* Git */.T(top).hasCommit(commit))
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

;// CONCATENATED MODULE: ./src/select/git/byte-names.ts
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
/** The name's text, or undefined when its bytes are not valid UTF-8. */
function decodedName(bytes) {
    try {
        return strictUtf8.decode(bytes);
    }
    catch {
        return undefined;
    }
}
/** A name that is not valid UTF-8, shown with its undecodable bytes as `\xNN`. */
function bytesShown(bytes) {
    let shown = '';
    for (const byte of bytes) {
        shown +=
            byte >= 0x20 && byte < 0x7f && byte !== 0x5c
                ? String.fromCharCode(byte)
                : `\\x${byte.toString(16).padStart(2, '0')}`;
    }
    return shown;
}
/** The skip of a file or folder whose name is not valid UTF-8; `shown` is its path with bytesShown. */
function undecodableSkip(shown, isFolder) {
    return {
        kind: 'document',
        name: shown,
        reason: 'unreadable',
        detail: `${isFolder ? 'folder' : 'file'} name is not valid UTF-8, so it cannot be named as a document; rename it to index it.`,
    };
}
const byteName = (bytes) => bytes.toString('latin1');
/** The byte string of a text (its UTF-8 bytes). */
const byteNameOf = (text) => Buffer.from(text, 'utf8').toString('latin1');
/** The text of a byte string, invalid bytes replaced: for messages only. */
const lossyText = (name) => Buffer.from(name, 'latin1').toString('utf8');
/**
 * A `/`-separated byte string as a document name, or, when a segment is not valid UTF-8, as the
 * search would report it: the path up to the first such segment, that segment's bytes shown.
 */
function decodePath(name) {
    const whole = decodedName(Buffer.from(name, 'latin1'));
    if (whole !== undefined)
        return { name: whole };
    const segments = name.split('/');
    const decoded = [];
    for (const [index, segment] of segments.entries()) {
        const bytes = Buffer.from(segment, 'latin1');
        const text = decodedName(bytes);
        if (text !== undefined) {
            decoded.push(text);
            continue;
        }
        return {
            undecodable: {
                shown: [...decoded, bytesShown(bytes)].join('/'),
                lossy: lossyText(name),
                isFolder: index < segments.length - 1,
            },
        };
    }
    return { name: decoded.join('/') };
}

;// CONCATENATED MODULE: ./src/select/git/tree-output.ts
// Readers of git's `-z` tree output as bytes: `diff-tree --raw` (what changed, with modes, so submodules
// show as gitlinks) and `ls-tree -r` (what a commit holds). Paths stay byte strings (byte-names.ts).

/** A submodule's entry in a tree: the commit it points at, not a file. */
const GITLINK_MODE = '160000';
/** The mode of the side where a path does not exist. */
const ABSENT_MODE = '000000';
/** Splits NUL-ended fields (the last one ends with NUL too). */
function fields(output) {
    const parts = [];
    let start = 0;
    for (let end = output.indexOf(0, start); end !== -1; end = output.indexOf(0, start)) {
        parts.push(output.subarray(start, end));
        start = end + 1;
    }
    if (start < output.length)
        parts.push(output.subarray(start));
    return parts;
}
/** Reads `git diff-tree -r --raw --no-renames -z`: `:old new oldId newId status` NUL path NUL, per entry. */
function parseRawDiff(output) {
    const parts = fields(output);
    const entries = [];
    for (let i = 0; i < parts.length; i += 2) {
        const header = parts[i].toString('latin1');
        const match = /^:(\d{6}) (\d{6}) ([0-9a-f]+) ([0-9a-f]+) ([A-Z])\d*$/.exec(header);
        if (!match)
            throw new Error(`git diff-tree output has an unexpected entry "${header}"`);
        const path = parts[i + 1];
        if (path === undefined)
            throw new Error(`git diff-tree output ends after "${header}"`);
        const [, oldMode, newMode, oldId, newId, status] = match;
        entries.push({ oldMode, newMode, oldId, newId, status, path: byteName(path) });
    }
    return entries;
}
/** Reads `git ls-tree -r -z`: `mode type id` TAB path, NUL-ended. */
function parseTreeListing(output) {
    return fields(output).map((field) => {
        const tab = field.indexOf(0x09);
        const header = tab === -1 ? '' : field.subarray(0, tab).toString('latin1');
        const match = /^(\d{6}) \w+ ([0-9a-f]+)$/.exec(header);
        if (!match)
            throw new Error(`git ls-tree output has an unexpected entry "${field.toString('latin1')}"`);
        return { mode: match[1], id: match[2], path: byteName(field.subarray(tab + 1)) };
    });
}

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
    for (const entry of parseRawDiff(await git.diffRaw(before, after))) {
        const name = prefix + entry.path;
        const oldLink = entry.oldMode === GITLINK_MODE;
        const newLink = entry.newMode === GITLINK_MODE;
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
        if (!oldLink && entry.oldMode !== ABSENT_MODE)
            changes.removed.push(name);
        if (!newLink && entry.newMode !== ABSENT_MODE)
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
    const decoded = decodedName(Buffer.from(relative, 'latin1'));
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
    const label = lossyText(name);
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
    for (const entry of parseTreeListing(await git.listTree(commit))) {
        const name = prefix + entry.path;
        if (entry.mode !== GITLINK_MODE) {
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

;// CONCATENATED MODULE: ./src/history/workspace-changes.ts
// A repository's change set as document names: mapped to the workspace (repository-location.ts),
// decoded from git's bytes, with the folders whose changes are unknown (a submodule that cannot be
// read, another repository, a submodule the compare API shows as one entry) kept as `everythingUnder`
// so every selected file below them is sent, each with a warning naming the cause and the fix.





function byteMapping(location) {
    return new NameMapping(byteNameOf(location.workspaceInRepository), byteNameOf(location.repositoryInWorkspace));
}
function textMapping(location) {
    return new NameMapping(location.workspaceInRepository, location.repositoryInWorkspace);
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
        result.everythingUnder = sortedUnique(everythingUnder);
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
            const result = decodePath(mapped);
            if ('name' in result)
                decoded.push(result.name);
            else if (keepUndecodable)
                undecodable.set(result.undecodable.shown, result.undecodable);
        }
        return sortedUnique(decoded);
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
        const decoded = decodePath(mapped);
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
async function workspace_changes_workspaceChangesFromNames(changes, workspace, location, source) {
    const mapping = location ? textMapping(location) : new NameMapping('', '');
    const mapAll = (names) => sortedUnique(names.map((name) => mapping.name(name)).filter((name) => name !== undefined));
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
            const stats = await promises_default().lstat(external_node_path_default().join(workspace, ...name.split('/'))).catch(() => undefined);
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
    if (!COMMIT_ID.test(push.before) || !COMMIT_ID.test(push.after) || ZERO_COMMIT.test(push.after)) {
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
            ...(await workspaceChangesFromNames(lists.changes, context.workspace, layout.location, 'the push payload')),
        };
    log.info(`Change detection: payload lists not used (${lists.why})`);
    const api = await changesFromCompareApi(context, push.before, push.after);
    if (api.ok)
        return {
            kind: 'changes',
            source: 'compare-api',
            ...(await workspaceChangesFromNames(api.changes, context.workspace, layout.location, "GitHub's compare API")),
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
    return COMMIT_ID.test(before) && !ZERO_COMMIT.test(before) ? before : undefined;
}
/**
 * How GitHub's repository-relative names (compare API, payload lists) map to document names: through the
 * repository found for the selected files; as they are when no checkout is found (the workspace is
 * assumed to be the repository); not at all when the patterns reach into several repositories.
 */
async function repositoryNamesLayout(context, commit) {
    const located = await locateRepository(context.workspace, context.patterns ?? [], commit);
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
    const located = await locateRepository(workspace, patterns, after === 'HEAD' ? undefined : after);
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
            relevant: overlapsWorkspace(location),
        });
        return { ok: true, changes: workspaceChanges(raw, location), fetched, root: location.root };
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
        changes: foldCommitLists(commits),
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

;// CONCATENATED MODULE: ./src/history/pull-request-changes.ts
// What merging a pull request would change among the selected files: the tree difference between the
// pull request's base and head commits (`base.sha..head.sha`), from git (fetching a commit the
// shallow checkout lacks), else from the compare API, else every selected file with a warning.



const pull_request_changes_short = (sha) => sha.slice(0, 12);
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
    if (!model/* COMMIT_ID */.G.test(pr.base) || !model/* COMMIT_ID */.G.test(pr.head))
        return all('the pull_request payload has no valid base/head commit ids');
    const range = `${pull_request_changes_short(pr.base)}..${pull_request_changes_short(pr.head)}`;
    const git = await changesFromGit(context.workspace, pr.base, pr.head, context.patterns, context.signal);
    if (git.ok)
        return {
            ...pr,
            decision: { kind: 'changes', source: git.fetched ? 'fetched-before' : 'git-diff', ...git.changes },
            description: `git diff of the pull request (${range})${git.fetched ? ', after fetching the base commit' : ''}`,
        };
    log.info(`Change detection: git cannot tell (${git.why})`);
    const layout = await repositoryNamesLayout(context, pr.head);
    if (!layout.ok)
        return all(`the change set is unknown (${layout.why})`);
    const api = await changesFromCompareApi(context, pr.base, pr.head);
    if (api.ok)
        return {
            ...pr,
            decision: {
                kind: 'changes',
                source: 'compare-api',
                ...(await workspace_changes_workspaceChangesFromNames(api.changes, context.workspace, layout.location, "GitHub's compare API")),
            },
            description: `GitHub compare API for the pull request (${range})`,
        };
    const apiWhy = context.githubToken ? `compare API: ${api.why}` : 'no github-token for the compare API';
    return all(`the change set is unknown (git: ${git.why}; ${apiWhy})`);
}


/***/ })

};
