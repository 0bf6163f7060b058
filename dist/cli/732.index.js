export const id = 732;
export const ids = [732,139];
export const modules = {

/***/ 20732:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  runCommand: () => (/* binding */ runCommand)
});

// EXTERNAL MODULE: ./src/actions/runner.ts + 1 modules
var runner = __webpack_require__(33553);
// EXTERNAL MODULE: ./src/cancellation.ts
var cancellation = __webpack_require__(34632);
// EXTERNAL MODULE: external "node:perf_hooks"
var external_node_perf_hooks_ = __webpack_require__(643);
// EXTERNAL MODULE: ./src/service/cut.ts
var cut = __webpack_require__(44395);
// EXTERNAL MODULE: ./src/checks/verdict.ts
var checks_verdict = __webpack_require__(29948);
// EXTERNAL MODULE: ./node_modules/fastest-levenshtein/mod.js
var mod = __webpack_require__(21916);
;// CONCATENATED MODULE: ./src/checks/similarity.ts
// `similar`: how close an answer is to a reference answer, as the normalised Levenshtein ratio
// 1 - distance / max(length): 1 for the same text, 0 for texts with nothing in common. Both texts are
// trimmed first; lengths are counted in UTF-16 code units, as JavaScript strings are.
//
// The distance costs (answer length × reference length) steps, all on the thread that also waits for
// the other checks' answers: a 900,000-character answer against a 10,000-character reference blocks it
// for seconds. `similarityJudged` keeps the cost bounded without changing a verdict it can decide:
// - the distance is at least the difference of the lengths, so the ratio is at most shorter / longer;
//   when that is below the minimum the check fails on the lengths alone, with no distance computed;
// - otherwise the distance is computed in full when the two lengths multiplied are at most
//   MAX_COMPARED_PAIRS (every answer up to 20,000 characters against the longest reference allowed);
// - past it (a long answer and a minimum under 0.5), the answer's beginning is compared and the rest of
//   it counted as changed: a lower bound of the ratio, so a pass is certain and a failure says so.

// About 40 ms here (bench: a 20,000 × 10,000 comparison); the reference is at most 10,000 characters.
const MAX_COMPARED_PAIRS = 200_000_000;
/** The normalised Levenshtein ratio of two texts, 0–1 (two empty texts are the same: 1). */
function similarity(answer, reference) {
    const a = answer.trim();
    const b = reference.trim();
    const longest = Math.max(a.length, b.length);
    if (longest === 0)
        return 1;
    return 1 - (0,mod/* distance */.Io)(a, b) / longest;
}
/** The similarity of the answer to the reference as far as `minimum` needs it, at a bounded cost. */
function similarityJudged(answer, reference, minimum) {
    const a = answer.trim();
    const b = reference.trim();
    const longest = Math.max(a.length, b.length);
    if (longest === 0)
        return { kind: 'exact', score: 1 };
    const bound = Math.min(a.length, b.length) / longest;
    if (bound < minimum)
        return { kind: 'at-most', score: bound, length: a.length };
    if (a.length * b.length <= MAX_COMPARED_PAIRS)
        return { kind: 'exact', score: similarity(a, b) };
    // The answer is the longer text here (the reference is at most 10,000 characters).
    const compared = Math.max(b.length, Math.floor(MAX_COMPARED_PAIRS / Math.max(1, b.length)));
    const head = beginning(a, compared);
    const score = 1 - ((0,mod/* distance */.Io)(head, b) + (a.length - head.length)) / longest;
    return { kind: 'at-least', score, compared: head.length, length: a.length };
}
/** The first `chars` UTF-16 units of `text`, never ending inside a surrogate pair. */
function beginning(text, chars) {
    const head = text.slice(0, chars);
    return /[\ud800-\udbff]$/.test(head) ? head.slice(0, -1) : head;
}
/**
 * A ratio with two decimals, rounded down: a score just under the minimum never shows as equal to it
 * (0.799 against 0.80 shows 0.79).
 */
function formatRatio(ratio) {
    return (Math.floor(ratio * 100 + 1e-9) / 100).toFixed(2);
}

;// CONCATENATED MODULE: ./src/checks/baseline.ts
// Before and after: each check run on the baseline flow (before) and on the flow (after), and what the
// pull request changed — a check fixed, regressed, still passing, still failing, or an error on a side.

// The ratio is of the answers' beginnings: Levenshtein is quadratic, and two answers of a megabyte
// would take minutes. Which answers are the same is judged on the whole text.
const SIMILARITY_CHARS = 10_000;
/** A run that errored on either side says nothing about the change: the verdict is an error, not a guess. */
function changeOf(before, after) {
    if (before === 'error' || after === 'error')
        return 'error';
    if (before === after)
        return after === 'passed' ? 'still-passing' : 'still-failing';
    return after === 'passed' ? 'fixed' : 'regressed';
}
/** The two sides paired by position (both ran the same checks in the same order). */
function compareResults(before, after) {
    if (before.length !== after.length)
        throw new Error(`${before.length} results before against ${after.length} after`);
    return after.map((result, index) => ({
        name: result.name,
        question: result.question,
        before: before[index],
        after: result,
        change: changeOf(before[index].verdict, result.verdict),
        similarity: similarity(before[index].answer.slice(0, SIMILARITY_CHARS), result.answer.slice(0, SIMILARITY_CHARS)),
        unchanged: before[index].answer.trim() === result.answer.trim(),
    }));
}
function changeSummary(compared) {
    const named = (change) => compared.filter((c) => c.change === change).map((c) => c.name);
    return {
        fixed: named('fixed'),
        regressed: named('regressed'),
        advisoryRegressed: compared
            .filter((c) => c.change === 'regressed' && c.after.advisory)
            .map((c) => c.name),
        stillPassing: named('still-passing').length,
        stillFailing: named('still-failing').length,
        errors: named('error').length,
    };
}
/** The regressions that fail `fail-on: regression`: advisory checks never do. */
const blockingRegressions = (summary) => summary.regressed.length - summary.advisoryRegressed.length;
const checks = (n) => `${n} ${n === 1 ? 'check' : 'checks'}`;
/** "This pull request fixes 2 checks and breaks 1 (advisory).", or that no verdict changed. */
function changeSentence(summary) {
    const fixed = summary.fixed.length;
    const broken = summary.regressed.length;
    const advisory = summary.advisoryRegressed.length;
    const which = advisory === 0
        ? ''
        : advisory < broken
            ? ` (${advisory} advisory)`
            : ` (${broken === 1 ? 'advisory' : 'all advisory'})`;
    const errors = summary.errors > 0 ? ` ${checks(summary.errors)} could not be compared (a run failed on one side).` : '';
    if (fixed > 0 && broken > 0)
        return `This pull request fixes ${checks(fixed)} and breaks ${broken}${which}.${errors}`;
    if (fixed > 0)
        return `This pull request fixes ${checks(fixed)} and breaks none.${errors}`;
    if (broken > 0)
        return `This pull request breaks ${checks(broken)}${which} and fixes none.${errors}`;
    return `This pull request changes no check's verdict.${errors}`;
}

;// CONCATENATED MODULE: ./src/report/checks-results.ts
// The checks suite as data: the `results` output (JSON, answers as excerpts, within the outputs budget)
// and the results file (every run's whole answer, assertions and timings).



// The answer's beginning kept in the `results` output.
const EXCERPT_CHARS = 500;
function excerpt(answer) {
    return answer.length <= EXCERPT_CHARS ? answer : `${answer.slice(0, EXCERPT_CHARS)}…`;
}
/** The judge flow's grade as the outputs hold it. */
const judgeEntry = (judge) => ({
    verdict: judge.verdict,
    score: judge.score,
    reason: judge.reason,
    run_id: judge.runId ?? null,
});
function runEntry(run, whole) {
    return {
        run: run.run,
        verdict: run.verdict,
        failed: run.failed,
        ...(whole ? { answer: run.answer } : { excerpt: excerpt(run.answer) }),
        run_id: run.runId ?? null,
        seconds: run.seconds,
        started: run.started,
        ...(run.judge ? { judge: judgeEntry(run.judge) } : {}),
    };
}
/**
 * One entry per check: what the `results` output holds (answers as excerpts), or with `whole` what the
 * results file holds (every run's whole answer).
 */
function checksResultEntries(results, whole = false) {
    return results.map((result) => ({
        name: result.name,
        question: result.question,
        verdict: result.verdict,
        runs_passed: (0,checks_verdict/* runsPassed */.x5)(result),
        runs_made: (0,checks_verdict/* runsMade */.oo)(result),
        min_pass: result.minPass,
        failed: result.failed,
        excerpt: excerpt(result.answer),
        run_id: result.runId ?? null,
        seconds: result.seconds,
        ...(result.judge ? { judge: judgeEntry(result.judge) } : {}),
        ...(result.advisory ? { advisory: true } : {}),
        runs: result.runs.map((run) => runEntry(run, whole)),
    }));
}
/** The step's outputs of a suite: counts, the results (the file holds every run whole) and the run times. */
function checksOutputSpecs(results, verdict) {
    return [
        { name: 'passed', count: verdict.passed },
        { name: 'failed', count: verdict.failed },
        { name: 'results', list: checksResultEntries(results), fileList: checksResultEntries(results, true) },
    ];
}
/** The results as one JSON text under 1 MiB (`kb-sync run --json`). */
function checksResultsJson(results) {
    return (0,cut/* cutJson */.xQ)(checksResultEntries(results), cut/* OUTPUT_LIMIT_BYTES */._G).text;
}
/** One entry per check compared: the change, the similarity of the answers, and each side's entry. */
function comparedResultEntries(compared, whole = false) {
    const before = checksResultEntries(compared.map((c) => c.before), whole);
    const after = checksResultEntries(compared.map((c) => c.after), whole);
    return compared.map((c, index) => ({
        name: c.name,
        question: c.question,
        change: c.change,
        similarity: Math.round(c.similarity * 1000) / 1000,
        answer_unchanged: c.unchanged,
        before: before[index],
        after: after[index],
    }));
}
/**
 * The outputs of a suite compared with a baseline: the names fixed and regressed with their counts, the
 * after side's counts, and the results (the file holds both sides' every answer whole).
 */
function comparedOutputSpecs(compared, verdict) {
    const { fixed, regressed } = changeSummary(compared);
    return [
        { name: 'fixed-count', count: fixed.length },
        { name: 'regressed-count', count: regressed.length },
        { name: 'passed', count: verdict.passed },
        { name: 'failed', count: verdict.failed },
        { name: 'regressed', list: regressed },
        { name: 'fixed', list: fixed },
        {
            name: 'results',
            list: comparedResultEntries(compared),
            fileList: comparedResultEntries(compared, true),
        },
    ];
}
/** The compared results as one JSON text under 1 MiB (`kb-sync run --baseline-flow-id … --json`). */
function comparedResultsJson(compared) {
    return (0,cut/* cutJson */.xQ)(comparedResultEntries(compared), cut/* OUTPUT_LIMIT_BYTES */._G).text;
}
/** The `skipped` output of a step that ran. */
const NOT_SKIPPED = { name: 'skipped', exact: 'false' };
/**
 * The outputs of a step that ran nothing under the skip rule (`documents-changed`): every count 0, every
 * list empty, `result`, `response` and `outputs` empty, and `skipped` true.
 */
function skippedOutputSpecs() {
    return [
        ...['passed', 'failed', 'fixed-count', 'regressed-count'].map((name) => ({ name, count: 0 })),
        ...['fixed', 'regressed', 'results'].map((name) => ({ name, list: [] })),
        ...['result', 'response', 'outputs'].map((name) => ({ name, exact: '' })),
        { name: 'skipped', exact: 'true' },
    ];
}

// EXTERNAL MODULE: ./node_modules/diff/libesm/diff/word.js + 2 modules
var word = __webpack_require__(34440);
;// CONCATENATED MODULE: ./src/checks/word-diff.ts
// Which words of an answer a pull request changed: a word-level diff (jsdiff) of the before and after
// answers, or why none is worth showing. White space does not count as a change (a reflowed paragraph
// is the same answer); the parts keep the after answer's white space.

// The diff compares at most this many characters of each answer: the work grows with the length times
// the words changed, so with the square of the length for two answers worded differently (two such
// answers of 3,000 characters take ~40 ms on Node, of 10,000 about ten times as long).
const DIFF_CHARS = 3_000;
// Below this share of words in common, a diff is mostly struck-through text next to underlined text,
// harder to read than the two answers one after the other.
const MIN_SHARED_WORDS = 0.4;
/** The first `chars` UTF-16 units of `text`, never ending inside a surrogate pair. */
function word_diff_beginning(text, chars) {
    const head = text.slice(0, chars);
    return /[\ud800-\udbff]$/.test(head) ? head.slice(0, -1) : head;
}
/** Words and punctuation marks as jsdiff compares them (its tokens carry the white space around them). */
const wordsOf = (text) => word/* wordDiff */.sw
    .tokenize(text)
    .map((token) => token.trim())
    .filter((token) => token !== '');
/**
 * At most the share of words a diff could keep in common: the words the two texts have in common
 * counted as a multiset, order ignored. Cheap, and never below the diff's own share.
 */
function sharedWordsAtMost(before, after) {
    const counts = new Map();
    for (const word of before)
        counts.set(word, (counts.get(word) ?? 0) + 1);
    let common = 0;
    for (const word of after) {
        const left = counts.get(word) ?? 0;
        if (left > 0) {
            common += 1;
            counts.set(word, left - 1);
        }
    }
    return (2 * common) / (before.length + after.length);
}
/** The word-level diff of two answers (compared trimmed), or why there is none to show. */
function wordDiffOf(beforeAnswer, afterAnswer) {
    const partial = Math.max(beforeAnswer.trim().length, afterAnswer.trim().length) > DIFF_CHARS;
    const before = word_diff_beginning(beforeAnswer.trim(), DIFF_CHARS);
    const after = word_diff_beginning(afterAnswer.trim(), DIFF_CHARS);
    if (before === '')
        return { kind: 'no-answer', side: 'before' };
    if (after === '')
        return { kind: 'no-answer', side: 'after' };
    const beforeWords = wordsOf(before);
    const afterWords = wordsOf(after);
    const total = beforeWords.length + afterWords.length;
    if (sharedWordsAtMost(beforeWords, afterWords) < MIN_SHARED_WORDS)
        return { kind: 'dissimilar' };
    // The share in common is 1 - changed / total, so more changed words than this means too few in
    // common: jsdiff then stops early and answers undefined. (The epsilon keeps 0.6 × 10 from being 5.99….)
    const maxEditLength = Math.floor((1 - MIN_SHARED_WORDS) * total + 1e-9);
    const changes = (0,word/* diffWords */.b2)(before, after, { maxEditLength });
    if (!changes)
        return { kind: 'dissimilar' };
    const parts = changes.map((change) => ({
        text: change.value,
        change: change.added ? 'added' : change.removed ? 'removed' : 'same',
    }));
    // Two beginnings end at different places of the same text: what follows their last common words
    // is where the cut fell, not a change.
    if (partial)
        while (parts.length > 0 && parts[parts.length - 1].change !== 'same')
            parts.pop();
    if (parts.every((part) => part.change === 'same'))
        return { kind: 'same-words', partial };
    return { kind: 'diff', parts, partial };
}

// EXTERNAL MODULE: ./src/log.ts
var log = __webpack_require__(25625);
// EXTERNAL MODULE: ./src/checks/judge-flow.ts
var judge_flow = __webpack_require__(11983);
// EXTERNAL MODULE: ./src/report/checks-markdown.ts
var checks_markdown = __webpack_require__(8023);
// EXTERNAL MODULE: ./src/report/markdown.ts + 1 modules
var markdown = __webpack_require__(14702);
// EXTERNAL MODULE: ./src/units.ts
var units = __webpack_require__(61996);
;// CONCATENATED MODULE: ./src/report/word-diff-html.ts
// The word-level diff of a check's two answers in markdown for GitHub: removed words in <del> (struck
// through), added words in <ins><b> (underlined and bold), and between words replaced by others an arrow
// with spaces, so the two never run together ("~~1 hour~~24 hours"); GitHub's sanitiser keeps these tags
// and no colour. An HTML paragraph with <br> for the answers' line breaks, rather than a <pre> or a `diff`
// block: those do not wrap, and a changed word in a long line of prose would sit off screen; the exact
// text is in the quoted answers that follow. No line of the paragraph is blank (each line break ends in
// <br>), so the HTML block cannot end early and let markdown parse the answers.



const OPEN = { removed: '<del>', added: '<ins><b>' };
const CLOSE = { removed: '</del>', added: '</b></ins>' };
// Between removed words and the words that replace them.
const REPLACED_BY = ' → ';
// Less room than this for the diff's words and it is left out: a few words say nothing.
const MIN_DIFF_BYTES = 256;
const HEADING = `**Word-level diff**: <del>only before</del>${REPLACED_BY}<ins><b>only after</b></ins>`;
const LEFT_OUT = "_The word-level diff is left out to stay within GitHub's size limit._";
const CUT_NOTE = "_The diff is cut here to stay within GitHub's size limit; the answers follow._";
const PARTIAL_NOTE = `_The diff compares the first ${(0,units/* formatCount */.B4)(DIFF_CHARS)} characters of each answer._`;
/** Answer text inside HTML: entities for what could open a tag or an entity, line breaks kept. */
const textHtml = (text) => (0,markdown/* neutraliseReferences */.vd)(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\n/g, '<br>\n');
/** A part as HTML; `replacing`: added words right after removed ones, which the arrow leads. */
function partHtml(part, replacing, text = part.text) {
    const html = textHtml(text);
    if (part.change === 'same')
        return html;
    return `${replacing ? REPLACED_BY : ''}${OPEN[part.change]}${html}${CLOSE[part.change]}`;
}
/** Whether part `index` holds the words that replace the removed ones just before it. */
const replaces = (parts, index) => parts[index].change === 'added' && index > 0 && parts[index - 1].change === 'removed';
/** The longest beginning of the part whose HTML fits in `room` bytes (whole characters, tags closed). */
function partWithin(part, replacing, room) {
    let low = 0;
    let high = Math.min(part.text.length, room);
    while (low < high) {
        const middle = Math.ceil((low + high) / 2);
        if ((0,markdown/* sizeOf */.$d)(partHtml(part, replacing, part.text.slice(0, middle))) <= room)
            low = middle;
        else
            high = middle - 1;
    }
    let text = part.text.slice(0, low);
    if (/[\ud800-\udbff]$/.test(text))
        text = text.slice(0, -1);
    return text === '' ? '' : partHtml(part, replacing, text);
}
function notes(partial, cut) {
    const lines = [partial ? PARTIAL_NOTE : '', cut ? CUT_NOTE : ''].filter((line) => line !== '');
    return lines.length === 0 ? '' : `\n\n${lines.join(' ')}`;
}
const paragraph = (html, partial, cut) => `${HEADING}\n\n<p>\n${html}${cut ? '…' : ''}\n</p>${notes(partial, cut)}`;
/** Why a check shows no diff, in one line. */
function whyNone(diff) {
    if (diff.kind === 'no-answer')
        return `_No word-level diff: the ${diff.side} side has no answer._`;
    if (diff.kind === 'same-words')
        return diff.partial
            ? `_No word differs in the first ${(0,units/* formatCount */.B4)(DIFF_CHARS)} characters of the answers; the change is further on._`
            : '_The two answers have the same words; only white space differs._';
    return `_No word-level diff: the two answers have less than ${MIN_SHARED_WORDS * 100}% of their words in common, so they are shown one after the other._`;
}
/**
 * The diff section of a changed check within `room` bytes: the heading, the diff (cut at the end with a
 * note when it does not fit, never inside a tag or an entity), or one line saying why there is none.
 * Never larger than `max(room, sizeOf(wordDiffSection(diff, 0)))`: with too little room it is one line.
 */
function wordDiffSection(diff, room) {
    if (diff.kind !== 'diff')
        return whyNone(diff);
    const parts = diff.parts.map((part, index) => partHtml(part, replaces(diff.parts, index)));
    const whole = paragraph(parts.join(''), diff.partial, false);
    if ((0,markdown/* sizeOf */.$d)(whole) <= room)
        return whole;
    let left = room - (0,markdown/* sizeOf */.$d)(paragraph('', diff.partial, true));
    if (left < MIN_DIFF_BYTES)
        return LEFT_OUT;
    const html = [];
    for (const [index, full] of parts.entries()) {
        if ((0,markdown/* sizeOf */.$d)(full) <= left) {
            html.push(full);
            left -= (0,markdown/* sizeOf */.$d)(full);
            continue;
        }
        html.push(partWithin(diff.parts[index], replaces(diff.parts, index), left));
        break;
    }
    return paragraph(html.join(''), diff.partial, true);
}

;// CONCATENATED MODULE: ./src/report/baseline-markdown.ts
// A suite compared with its baseline flow, as people read it in the job summary, the pull-request comment
// and the CLI alike: the change in one bold sentence, one row per check, regressed first (question, change,
// before, after, how similar the two answers are), then each check collapsed: the word-level diff of its
// two answers (or why there is none), then the two answers one after the other, as quotes (they wrap).









const CHANGE_LABEL = {
    fixed: '🟢 fixed',
    regressed: '🔴 regressed',
    'still-passing': '✅ still passing',
    'still-failing': '❌ still failing',
    error: `${checks_markdown/* ERROR_SIGN */.$O} error`,
};
// The order a reviewer reads the rows in: what this pull request broke, what still fails, what could not
// be compared, then what it fixed and what still passes.
const CHANGE_ORDER = {
    regressed: 0,
    'still-failing': 1,
    error: 2,
    fixed: 3,
    'still-passing': 4,
};
/** The checks in reading order (CHANGE_ORDER); the suite's order within each. */
const inReadingOrder = (compared) => [...compared].sort((a, b) => CHANGE_ORDER[a.change] - CHANGE_ORDER[b.change]);
const QUESTION_CELL = 100;
const ASSERTION_LINE = 300;
// Failed assertions listed per side in a collapsed block; the results file holds all.
const LISTED_ASSERTIONS = 5;
function leadIcon(summary) {
    if (blockingRegressions(summary) > 0)
        return '🔴';
    if (summary.regressed.length > 0)
        return '⚠️';
    if (summary.fixed.length > 0)
        return '🟢';
    if (summary.errors > 0)
        return checks_markdown/* ERROR_SIGN */.$O;
    return summary.stillFailing > 0 ? '❌' : '✅';
}
/** "🔴 This pull request fixes 2 checks and breaks 1." */
function leadLine(compared) {
    const summary = changeSummary(compared);
    return `${leadIcon(summary)} ${changeSentence(summary)}`;
}
/**
 * The after side's verdict: judged against the threshold when that is what fails the step, else only
 * counted (a threshold that does not decide should not read as a failure).
 */
function afterText(verdict, failOn) {
    if (failOn === 'threshold')
        return (0,checks_markdown/* verdictText */.nt)(verdict);
    return `${verdict.passed} of ${verdict.passed + verdict.failed} checks pass (${verdict.percent.toFixed(1)}%).`;
}
const sideText = (result) => `${checks_markdown/* VERDICT_LABEL */.j[result.verdict]} · ${(0,checks_markdown/* runsText */.W2)(result)}`;
/** `0.42`, or that the answer did not change. */
const similarityText = (check) => check.unchanged ? 'answer unchanged' : formatRatio(check.similarity);
/** The change, and that an advisory check's change never fails the step: `🔴 regressed · advisory`. */
const changeLabel = (check) => `${CHANGE_LABEL[check.change]}${check.after.advisory ? ' · advisory' : ''}`;
const JUDGE_CELL = 120;
/** The judge's scores before and after, and its reason after: `0.20 → 0.85 · gives the 14 days`. */
function comparedJudgeCell(check) {
    const score = (result) => (result.judge ? (0,judge_flow/* scoreText */.QO)(result.judge.score) : '–');
    const reason = check.after.judge ? ` · ${check.after.judge.reason}` : '';
    return (0,markdown/* inlineFlowText */.je)((0,markdown/* shortLine */.tl)(`${score(check.before)} → ${score(check.after)}${reason}`, JUDGE_CELL));
}
/** One row per check: check, question, change, before, after, (the judge's grades,) similarity of the two answers. */
function renderComparedTable(compared) {
    const judged = (0,checks_markdown/* anyJudged */.KU)(compared.flatMap((check) => [check.before, check.after]));
    return (0,markdown/* table */.tp)(['Check', 'Question', 'Change', 'Before', 'After', ...(judged ? ['Judge'] : []), 'Similarity'], compared.map((check) => [
        (0,markdown/* inline */.mG)((0,markdown/* shortLine */.tl)(check.name, 80)),
        (0,markdown/* inline */.mG)((0,markdown/* shortLine */.tl)(check.question, QUESTION_CELL)),
        changeLabel(check),
        sideText(check.before),
        sideText(check.after),
        ...(judged ? [comparedJudgeCell(check)] : []),
        similarityText(check),
    ]));
}
/** Runs of both flows together (the verdict of each side is in the table). */
function bothSidesRunsLine(compared) {
    const all = (0,checks_verdict/* suiteVerdict */._2)(compared.flatMap((check) => [check.before, check.after]), 0);
    return (0,checks_markdown/* runsLine */.jp)(all).replace(/ made\b/, ' made on both flows');
}
const blockTitle = (check) => `${(0,markdown/* inlineHtml */.l0)((0,markdown/* shortLine */.tl)(check.name, 80))} — ${changeLabel(check)}`;
function failures(result) {
    if (result.failed.length === 0)
        return '';
    const lines = result.failed
        .slice(0, LISTED_ASSERTIONS)
        .map((failure) => `- ${(0,markdown/* inlineFlowText */.je)((0,markdown/* shortLine */.tl)(failure, ASSERTION_LINE))}`);
    if (result.failed.length > LISTED_ASSERTIONS)
        lines.push(`- _and ${result.failed.length - LISTED_ASSERTIONS} more; the results file lists all_`);
    return `\n\n${lines.join('\n')}`;
}
/** An answer's quote as shown, or that there was none. */
const answerPart = (answer, shown) => (answer === '' ? '_No answer._' : shown);
// The summary and the comment render the same checks: each diff is worked out once (tens of
// milliseconds for two long answers in different words).
const diffs = new WeakMap();
/** The diff shown for a check: none when its answer did not change (the block says so in one line). */
function diffOf(check) {
    if (check.unchanged)
        return undefined;
    const diff = diffs.get(check) ?? wordDiffOf((0,log/* sanitize */.aj)(check.before.answer), (0,log/* sanitize */.aj)(check.after.answer));
    diffs.set(check, diff);
    return diff;
}
/**
 * One check collapsed: the question, then the word-level diff (or why there is none) and the two answers,
 * or the one answer when it did not change. Within `room` bytes, or its smallest form (`room` 0). The
 * question and the answers are quotes (quotedWithin), cut to their share.
 */
function comparedBlock(check, diff, room) {
    const build = (question, diffSection, before, after) => {
        const sides = check.unchanged
            ? `_The answer did not change._\n\n**Answer** (before and after)\n\n${answerPart(check.after.answer, after)}`
            : `${diffSection}\n\n**Before** — ${sideText(check.before)}\n\n${answerPart(check.before.answer, before)}` +
                `${failures(check.before)}\n\n**After** — ${sideText(check.after)}\n\n${answerPart(check.after.answer, after)}`;
        // The after side's failed assertions close the block, under its answer.
        return (0,markdown/* details */.zH)(blockTitle(check), `**Question**\n\n${question}\n\n${sides}${failures(check.after)}`);
    };
    // The smallest diff section: one line (why there is none, or that it was left out).
    const diffFloor = diff ? wordDiffSection(diff, 0) : '';
    // The question gets what it needs up to a quarter; the diff and the answers share the rest.
    const textRoom = Math.max(0, room - (0,markdown/* sizeOf */.$d)(build('', diffFloor, '', '')));
    const question = (0,checks_markdown/* quotedWithin */.gI)(check.question, Math.floor(textRoom / 4));
    let answersRoom = textRoom - (0,markdown/* sizeOf */.$d)(question);
    if (!diff)
        return build(question, '', '', (0,checks_markdown/* quotedWithin */.gI)(check.after.answer, answersRoom));
    // Room split: the diff (it holds the words of both answers) gets up to half, the two answers the
    // rest; what one does not need goes to the other. The diff comes first, so it is what a reader sees.
    const diffNeed = (0,markdown/* sizeOf */.$d)(wordDiffSection(diff, Infinity)) - (0,markdown/* sizeOf */.$d)(diffFloor);
    const beforeNeed = (0,checks_markdown/* quoteNeed */.dT)(check.before.answer, answersRoom);
    const afterNeed = (0,checks_markdown/* quoteNeed */.dT)(check.after.answer, answersRoom);
    const diffRoom = Math.min(diffNeed, Math.max(Math.floor(answersRoom / 2), answersRoom - beforeNeed.need - afterNeed.need));
    const diffSection = wordDiffSection(diff, (0,markdown/* sizeOf */.$d)(diffFloor) + Math.max(0, diffRoom));
    answersRoom -= (0,markdown/* sizeOf */.$d)(diffSection) - (0,markdown/* sizeOf */.$d)(diffFloor);
    const half = Math.floor(answersRoom / 2);
    // What one answer does not need goes to the other.
    const before = (0,checks_markdown/* quotedWithin */.gI)(check.before.answer, Math.min(beforeNeed.need, Math.max(half, answersRoom - afterNeed.need)), beforeNeed);
    const after = (0,checks_markdown/* quotedWithin */.gI)(check.after.answer, answersRoom - (0,markdown/* sizeOf */.$d)(before), afterNeed);
    return build(question, diffSection, before, after);
}
/** A block's smallest size with the room to show a cut question and cut answers. */
const emptyBlockSize = (check, diff) => (0,markdown/* sizeOf */.$d)(comparedBlock(check, diff, 0)) + 2 * checks_markdown/* MIN_CUT_BYTES */.Mr;
/**
 * The whole comparison within `options.limit` bytes: the lead, the table (rows in reading order), then the
 * answers (cut first).
 */
function renderComparedReport(compared, verdict, failOn, options) {
    const errors = (0,checks_markdown/* errorsOf */.Bp)(compared.map((check) => check.after));
    const after = failOn === 'threshold' ? (0,checks_markdown/* markdownVerdictLine */.Ty)(verdict, errors) : afterText(verdict, failOn);
    const head = `${options.heading}\n\n**${leadLine(compared)}**\n\n` +
        `After: ${after}\n\n${(0,checks_markdown/* markdownAdvisoryLine */.ZM)(verdict)}${bothSidesRunsLine(compared)}\n`;
    return (0,checks_markdown/* layoutReport */.DP)(inReadingOrder(compared), head, {
        table: renderComparedTable,
        prepare: (check) => {
            const diff = diffOf(check);
            return { prepared: diff, empty: emptyBlockSize(check, diff) };
        },
        block: (check, diff, room) => comparedBlock(check, diff, room - 2 * checks_markdown/* MIN_CUT_BYTES */.Mr),
    }, options);
}
function renderComparedSummary(compared, verdict, failOn) {
    return renderComparedReport(compared, verdict, failOn, {
        heading: '### Flow checks: before and after',
        limit: checks_markdown/* SUMMARY_LIMIT */.Jt,
        fullResultsAt: 'the file named by the `results-file` output',
    });
}

;// CONCATENATED MODULE: ./src/checks/advisory.ts
/** The entries of the input: trimmed, empty ones dropped. */
function advisoryEntries(value) {
    return value
        .split(/[\n,]/)
        .map((entry) => entry.trim())
        .filter((entry) => entry !== '');
}
/** `*` matches any run of characters (none included); every other character is itself. */
function matcherOf(entry) {
    if (!entry.includes('*'))
        return (name) => name === entry;
    const source = entry
        .split('*')
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*');
    const pattern = new RegExp(`^${source}$`, 's');
    return (name) => pattern.test(name);
}
/**
 * The checks with `advisory` set for those the entries name, and the entries that name no check (a
 * mistyped name would otherwise leave a check blocking without a word).
 */
function markAdvisory(checks, entries) {
    const matchers = entries.map((entry) => ({ entry, matches: matcherOf(entry) }));
    const unmatched = matchers.filter(({ matches }) => !checks.some((check) => matches(check.name)));
    return {
        checks: checks.map((check) => !check.advisory && matchers.some(({ matches }) => matches(check.name))
            ? { ...check, advisory: true }
            : check),
        unmatched: unmatched.map(({ entry }) => entry),
    };
}

;// CONCATENATED MODULE: ./src/checks/repeats.ts
/**
 * A check that sets its own `repeat` is judged on its own terms (its `min-pass`, else all its runs);
 * the suite's `min-pass` applies to the checks that take the suite's `repeat`.
 */
function repeatsOf(check, suite) {
    const repeat = check.repeat ?? suite.repeat;
    const minPass = check.minPass ?? (check.repeat !== undefined ? check.repeat : (suite.minPass ?? repeat));
    return { repeat, minPass };
}
/** Every run the suite would start, repeats included, and with a judge flow one judge run per run of a check with a rubric. */
function plannedRuns(checks, suite, judged = false) {
    return checks.reduce((total, check) => total + repeatsOf(check, suite).repeat * (judged && check.rubric !== undefined ? 2 : 1), 0);
}
/**
 * Checks whose own `min-pass` exceeds the suite's `repeat` they take, each naming the check and the field
 * (a check's `min-pass` above its own `repeat` is refused by the schema, the suite's inputs by the config).
 */
function repeatProblems(checks, suite) {
    return checks.flatMap((check, index) => {
        const { repeat, minPass } = repeatsOf(check, suite);
        if (check.minPass === undefined || minPass <= repeat)
            return [];
        return [
            `check "${check.name}" (#${index + 1}), field "min-pass": ${minPass} is more than the ${repeat} run(s) ` +
                "the check gets from the repeat input; set the check's repeat too",
        ];
    });
}

// EXTERNAL MODULE: ./node_modules/zod/v4/classic/schemas.js + 11 modules
var schemas = __webpack_require__(92857);
// EXTERNAL MODULE: ./node_modules/zod/v4/core/core.js
var core = __webpack_require__(88532);
// EXTERNAL MODULE: ./src/flow/expect.ts
var expect = __webpack_require__(98723);
// EXTERNAL MODULE: ./node_modules/ajv/dist/ajv.js
var ajv = __webpack_require__(42463);
// EXTERNAL MODULE: ./node_modules/ajv/dist/2019.js
var _2019 = __webpack_require__(60878);
// EXTERNAL MODULE: ./node_modules/ajv/dist/2020.js
var _2020 = __webpack_require__(52210);
// EXTERNAL MODULE: ./node_modules/ajv-formats/dist/index.js
var dist = __webpack_require__(82815);
var dist_default = /*#__PURE__*/__webpack_require__.n(dist);
// EXTERNAL MODULE: ./node_modules/re2js/build/index.js
var build = __webpack_require__(2856);
// EXTERNAL MODULE: ./node_modules/yaml/dist/index.js
var yaml_dist = __webpack_require__(38815);
// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(73024);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(76760);
var external_node_path_default = /*#__PURE__*/__webpack_require__.n(external_node_path_);
;// CONCATENATED MODULE: ./src/checks/source.ts
// Where the checks come from: the `checks` input is either a file in the repository or the checks text
// itself. A single line that does not start like YAML/JSON content is taken as a path.


// A checks file (or a JSON Schema it names) is a few kilobytes; anything near this is a mistake (a
// wrong path), not a suite.
const MAX_CHECKS_FILE_BYTES = 1024 * 1024;
function looksInline(value) {
    return value.includes('\n') || /^[[{-]/.test(value);
}
/**
 * The text of the file `value` names, or why it cannot be read. The action keeps a path inside
 * `workspace` (it runs on a repository's files), links resolved; `anywhere` (the CLI, run by a person on
 * their own machine) reads any path, relative ones from `workspace`.
 */
function readWorkspaceFile(value, workspace, options = {}) {
    if ((0,external_node_path_.isAbsolute)(value) && !options.anywhere)
        return { problem: `must be a path relative to the workspace (got "${value}")` };
    const path = (0,external_node_path_.resolve)(workspace, value);
    let real;
    try {
        real = (0,external_node_fs_.realpathSync)(path);
    }
    catch {
        return {
            problem: options.anywhere
                ? `names the file "${value}", which does not exist`
                : `names the file "${value}", which does not exist in the workspace ${workspace}: did the job run ` +
                    'actions/checkout before this step? (The workspace is empty until it does.)',
        };
    }
    if (!options.anywhere) {
        const inside = (0,external_node_path_.relative)((0,external_node_fs_.realpathSync)(workspace), real);
        if (inside === '' || inside.startsWith('..') || (0,external_node_path_.isAbsolute)(inside))
            return { problem: `names "${value}", which is outside the workspace` };
    }
    const stat = (0,external_node_fs_.statSync)(real);
    if (!stat.isFile())
        return { problem: `names "${value}", which is not a regular file` };
    if (stat.size > MAX_CHECKS_FILE_BYTES)
        return { problem: `names "${value}", which is larger than 1 MiB` };
    return { text: (0,external_node_fs_.readFileSync)(real, 'utf8') };
}
/** The checks text and where it came from, or why it cannot be read (see readWorkspaceFile). */
function readChecksSource(value, workspace, options = {}) {
    if (looksInline(value))
        return { text: value, origin: 'inline' };
    if ((0,external_node_path_.isAbsolute)(value) && !options.anywhere)
        return { problem: `must be a path relative to the workspace or inline checks (got "${value}")` };
    const file = readWorkspaceFile(value, workspace, options);
    return 'problem' in file ? file : { text: file.text, origin: value };
}

;// CONCATENATED MODULE: ./src/checks/json-assertions.ts
// `is-json` and `json-schema`: an output read as JSON, and a JSON Schema compiled with Ajv. Schemas are
// compiled once, when the checks are read, in Ajv's strict mode: a misspelt keyword (`requried`) or a
// `format` ajv-formats does not know is an error before any run, never a schema that silently accepts
// everything. The schema's `pattern` and `patternProperties` are matched by RE2, as `expect` is: in time
// linear in the answer, where the JavaScript engine's backtracking could hang the step on `^(a+)+$`.








// How many schema errors one failure lists; the rest are counted.
const SHOWN_ERRORS = 5;
// How much of a JSON.parse message (which quotes the text) a failure keeps.
const PARSE_MESSAGE_CHARS = 200;
const CUT_MARK = '…[cut by kb-sync';
// `yaml`'s default: how many alias nodes a document may resolve, counted with what each expands to.
const MAX_ALIAS_COUNT = 100;
// A pattern RE2 cannot compile (lookaround, backreferences) fails the schema's compilation, so the check
// is refused before any run, naming the pattern.
const re2Engine = Object.assign((pattern) => {
    let compiled;
    try {
        compiled = build/* RE2JS */.L3.compile(pattern);
    }
    catch (error) {
        if (!(error instanceof build/* RE2JSException */.o_))
            throw error;
        throw new Error(`pattern ${JSON.stringify(pattern)} is not a regular expression in RE2 syntax (no lookaround or backreferences): ${error.message}`, { cause: error });
    }
    // Ajv keeps one compiled pattern per text, keyed by toString().
    // A match too costly to run throws out of the validation: that run's error, with the reason.
    const matcher = { test: (text) => (0,expect/* findBounded */.n_)(compiled, text) };
    return Object.assign(matcher, { toString: () => pattern });
}, { code: 'RE2JS' });
// Every error, not the first only; Ajv's own warnings would go to the console, around the step's logger.
// allowMatchingProperties: strict mode would otherwise test each patternProperties pattern against the
// schema's own property names with JavaScript's backtracking RegExp, the one place RE2 does not reach.
const OPTIONS = {
    allErrors: true,
    logger: false,
    code: { regExp: re2Engine },
    allowMatchingProperties: true,
};
// The formats of the JSON Schema specification (email, date-time, uri, uuid, …), checked in full mode.
// The package is CommonJS: its plugin function carries itself as `.default`, which both Node's and the
// bundler's interop reach.
const withFormats = (ajv) => {
    dist_default()["default"](ajv);
    return ajv;
};
// A new Ajv per schema: two checks' schemas with the same $id must not collide in one instance's cache.
const DRAFTS = [
    { marker: '2020-12', create: () => withFormats(new _2020.Ajv2020(OPTIONS)) },
    { marker: '2019-09', create: () => withFormats(new _2019.Ajv2019(OPTIONS)) },
    { marker: 'draft-07', create: () => withFormats(new ajv.Ajv(OPTIONS)) },
];
/** The schema compiled by the Ajv of its `$schema` draft (draft-07 when it names none), or why not. */
function compileJsonSchema(schema) {
    if (schema === null || typeof schema !== 'object' || Array.isArray(schema))
        return { problem: 'must be a JSON Schema (a mapping) or the path of a schema file in the workspace' };
    const declared = schema.$schema ?? 'draft-07';
    const draft = DRAFTS.find((known) => typeof declared === 'string' && declared.includes(known.marker));
    if (!draft)
        return {
            problem: `the schema's $schema ${JSON.stringify(declared)} is not a draft Ajv checks here (draft-07, 2019-09, 2020-12)`,
        };
    try {
        return { validate: draft.create().compile(schema) };
    }
    catch (error) {
        return {
            problem: `the schema does not compile: ${error instanceof Error ? error.message : String(error)}`,
        };
    }
}
/**
 * A YAML (or JSON) text as a value, or the first line of each problem. Aliases that would expand past
 * `yaml`'s own bound (an alias bomb: a few lines that would fill the memory) are one of the problems,
 * not an error thrown past the caller that names the input.
 */
function readYaml(text) {
    const document = (0,yaml_dist.parseDocument)(text, { prettyErrors: true, uniqueKeys: true });
    if (document.errors.length > 0)
        return { problems: document.errors.map((error) => error.message.split('\n')[0]) };
    try {
        return { value: document.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) };
    }
    catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return { problems: [`its aliases (*name) expand too much to be read (${message})`] };
    }
}
/** The schema of a check's `json-schema` field: inline (a mapping) or a file (YAML or JSON) in the workspace. */
function loadJsonSchema(value, workspace) {
    if (typeof value !== 'string') {
        const compiled = compileJsonSchema(value);
        return 'problem' in compiled ? compiled : { validate: compiled.validate };
    }
    const file = readWorkspaceFile(value, workspace);
    if ('problem' in file)
        return file;
    const read = readYaml(file.text);
    if ('problems' in read)
        return { problem: `"${value}" is not valid JSON or YAML: ${read.problems[0]}` };
    const compiled = compileJsonSchema(read.value);
    if ('problem' in compiled)
        return { problem: `"${value}": ${compiled.problem}` };
    return { validate: compiled.validate, file: value };
}
/**
 * The output as JSON: a string is parsed (strictly: no code fences, no text around it), any other
 * value already is JSON from the answer.
 */
function jsonOf(value) {
    if (typeof value !== 'string')
        return { json: value };
    try {
        return { json: JSON.parse(value) };
    }
    catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const shown = message.length <= PARSE_MESSAGE_CHARS ? message : `${message.slice(0, PARSE_MESSAGE_CHARS)}…`;
        const cut = value.includes(CUT_MARK) ? '; the output was cut to fit a step output' : '';
        return { problem: `not JSON (${shown}${cut})` };
    }
}
function describeError(error) {
    return `${error.instancePath === '' ? '(root)' : error.instancePath} ${error.message ?? error.keyword}`;
}
/** Why the value does not match the schema (its first errors, by JSON pointer), or undefined when it does. */
function schemaMismatch(validate, value) {
    if (validate(value))
        return undefined;
    const errors = validate.errors ?? [];
    const shown = errors.slice(0, SHOWN_ERRORS).map(describeError);
    if (errors.length > SHOWN_ERRORS)
        shown.push(`and ${errors.length - SHOWN_ERRORS} more`);
    return shown.join('; ');
}

;// CONCATENATED MODULE: ./src/likely-name.ts
// The name someone most likely meant when they wrote one that is not known: "did you mean `contains`?".

/** Case, `_` for `-` and camelCase are how names are mistyped most, not typos: they cost nothing. */
function comparable(name) {
    return name
        .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
        .toLowerCase()
        .replace(/_/g, '-');
}
/**
 * The one known name closest to `written`, when it is close enough to be a typo of it: at most one
 * edit per three characters (one for short names). Undefined when nothing is that close, or when two
 * names are equally close (a guess between them would mislead as often as help).
 */
function likelyName(written, known) {
    const typed = comparable(written);
    const allowed = Math.max(1, Math.floor(typed.length / 3));
    let best;
    let bestDistance = Number.POSITIVE_INFINITY;
    let tied = false;
    for (const name of known) {
        const d = (0,mod/* distance */.Io)(typed, comparable(name));
        if (d < bestDistance) {
            best = name;
            bestDistance = d;
            tied = false;
        }
        else if (d === bestDistance)
            tied = true;
    }
    return best !== undefined && bestDistance <= allowed && !tied ? best : undefined;
}
/** ` (did you mean `contains`?)`, or '' when no known name is close enough. */
function didYouMean(written, known) {
    const likely = likelyName(written, known);
    return likely === undefined ? '' : ` (did you mean \`${likely}\`?)`;
}

;// CONCATENATED MODULE: ./src/checks/schema.ts
// The checks file: YAML (JSON is YAML too) listing named checks of a flow. Parsed with `yaml`, validated
// with a zod schema; every problem names the check and the field, and all are reported at once.





/** The fields a check may have, as the unknown-field message lists them. */
const CHECK_FIELDS = [
    'name',
    'inputs',
    'output',
    'expect',
    'contains',
    'contains-any',
    'not-contains',
    'equals',
    'starts-with',
    'case-insensitive',
    'min-length',
    'max-length',
    'is-json',
    'json-schema',
    'on',
    'similar',
    'max-seconds',
    'cites',
    'repeat',
    'min-pass',
    'rubric',
    'advisory',
];
const SIMILAR_FIELDS = ['reference', 'min-similarity'];
// Bounds the Levenshtein work with MAX_COMPARED_PAIRS (similarity.ts): every answer of up to twice the
// longest reference is compared in full.
const MAX_REFERENCE_CHARS = 10_000;
const strings = schemas/* union */.KCZ([schemas/* string */.YjP(), schemas/* array */.YOg(schemas/* string */.YjP())]).transform((v) => (Array.isArray(v) ? v : [v]));
// A check runs at most 10 times: past it, a flaky flow is better fixed than averaged.
const runCount = schemas/* number */.aig().int('must be a whole number').min(1, 'must be 1 to 10').max(10, 'must be 1 to 10');
const nonEmptyStrings = strings.refine((list) => list.length > 0 && list.every((item) => item !== ''), 'must be a non-empty string or a list of them');
const similarSchema = schemas/* object */.Ikc({
    reference: schemas/* string */.YjP()
        .refine((text) => text.trim() !== '', 'must be a non-empty string (the expected answer)')
        .refine((text) => text.length <= MAX_REFERENCE_CHARS, `must be at most ${(0,units/* formatCount */.B4)(MAX_REFERENCE_CHARS)} characters`),
    'min-similarity': schemas/* number */.aig({ error: 'must be a number from 0 to 1, e.g. 0.8' })
        .min(0, 'must be a number from 0 to 1, e.g. 0.8')
        .max(1, 'must be a number from 0 to 1, e.g. 0.8'),
}, { error: 'must be a mapping with reference and min-similarity' })
    .strict();
function checkSchemaFor(workspace) {
    return schemas/* object */.Ikc({
        name: schemas/* string */.YjP().trim().min(1, 'must be a non-empty string'),
        inputs: schemas/* record */.g1P(schemas/* string */.YjP(), schemas/* string */.YjP())
            .refine((inputs) => Object.keys(inputs).length > 0, 'must name at least one input, e.g. in-0'),
        output: schemas/* string */.YjP().trim().min(1, 'must be a non-empty string').default('out-0'),
        expect: schemas/* string */.YjP().optional(),
        contains: strings.optional(),
        'contains-any': schemas/* array */.YOg(schemas/* string */.YjP(), { error: 'must be a list of strings, at least one of which must appear' })
            .min(1, 'must list at least one string')
            .optional(),
        'not-contains': strings.optional(),
        equals: schemas/* string */.YjP().optional(),
        'starts-with': schemas/* string */.YjP().min(1, 'must be a non-empty string').optional(),
        'case-insensitive': schemas/* boolean */.zMY().default(false),
        'min-length': schemas/* number */.aig().int().nonnegative().optional(),
        'max-length': schemas/* number */.aig().int().nonnegative().optional(),
        'is-json': schemas/* boolean */.zMY().default(false),
        'json-schema': schemas/* union */.KCZ([schemas/* string */.YjP().trim().min(1), schemas/* record */.g1P(schemas/* string */.YjP(), schemas/* unknown */.L5J())], {
            error: 'must be a JSON Schema (a mapping) or the path of a schema file in the workspace',
        })
            .transform((value, context) => {
            const loaded = loadJsonSchema(value, workspace);
            if ('problem' in loaded) {
                context.addIssue({ code: 'custom', message: loaded.problem });
                return core/* NEVER */.tm;
            }
            return loaded;
        })
            .optional(),
        on: schemas/* enum */.k5n(['output', 'outputs'], {
            error: 'must be "output" (the named output, the default) or "outputs" (the whole outputs map)',
        })
            .default('output'),
        similar: similarSchema.optional(),
        'max-seconds': schemas/* number */.aig().positive('must be a positive number of seconds').optional(),
        cites: nonEmptyStrings.optional(),
        repeat: runCount.optional(),
        'min-pass': runCount.optional(),
        rubric: schemas/* string */.YjP({ error: 'must be a text saying what a good answer says' })
            .refine((text) => text.trim() !== '', 'must be a non-empty text saying what a good answer says')
            .refine((text) => text.length <= MAX_REFERENCE_CHARS, `must be at most ${(0,units/* formatCount */.B4)(MAX_REFERENCE_CHARS)} characters`)
            .optional(),
        advisory: schemas/* boolean */.zMY({ error: 'must be true or false' }).default(false),
    })
        .strict()
        .superRefine((check, context) => {
        if (check.expect !== undefined) {
            const compiled = (0,expect/* compileExpectation */.mU)(check.expect);
            if ('problem' in compiled)
                context.addIssue({
                    code: 'custom',
                    path: ['expect'],
                    message: `must be a regular expression in RE2 syntax (no lookaround or backreferences): ${compiled.problem}`,
                });
        }
        const min = check['min-length'];
        const max = check['max-length'];
        if (min !== undefined && max !== undefined && min > max)
            context.addIssue({
                code: 'custom',
                path: ['max-length'],
                message: `must not be less than min-length (${min})`,
            });
        if (check.on === 'outputs' && !check['is-json'] && check['json-schema'] === undefined)
            context.addIssue({
                code: 'custom',
                path: ['on'],
                message: 'applies to is-json and json-schema only: add one of them, or remove "on"',
            });
        const repeat = check.repeat;
        const minPass = check['min-pass'];
        if (repeat !== undefined && minPass !== undefined && minPass > repeat)
            context.addIssue({
                code: 'custom',
                path: ['min-pass'],
                message: `must not be more than the check's repeat (${repeat}): ${minPass} of ${repeat} runs can never pass`,
            });
    });
}
const suiteSchema = schemas/* union */.KCZ([schemas/* array */.YOg(schemas/* unknown */.L5J()), schemas/* object */.Ikc({ checks: schemas/* array */.YOg(schemas/* unknown */.L5J()) }).strict()]);
/** What is wrong with the checks, each naming the check (by name when it has one) and the field. */
class ChecksError extends Error {
    problems;
    constructor(problems) {
        super(problems.join('\n'));
        this.problems = problems;
        this.name = 'ChecksError';
    }
}
function whichCheck(raw, index) {
    const name = raw !== null && typeof raw === 'object' ? raw.name : undefined;
    return typeof name === 'string' && name.trim() !== ''
        ? `check "${name.trim()}" (#${index + 1})`
        : `check #${index + 1}`;
}
function fieldOf(path) {
    return path
        .map((part) => (typeof part === 'number' ? `[${part}]` : String(part)))
        .join('.')
        .replace(/\.\[/g, '[');
}
/** Each unknown field with the known one it most likely means, then every known field. */
function unknownFields(where, path, keys) {
    const known = path.length === 0 ? CHECK_FIELDS : SIMILAR_FIELDS;
    const listed = keys.map((k) => `"${k}"${didYouMean(k, known)}`).join(', ');
    const field = path.length === 0 ? '' : `, field "${fieldOf(path)}"`;
    return `${where}${field}: unknown field(s) ${listed} (known: ${known.join(', ')})`;
}
/** Parses and validates the checks text. Throws a ChecksError listing every problem. */
function parseChecks(text, options = {}) {
    const workspace = options.workspace ?? (process.env.GITHUB_WORKSPACE || process.cwd());
    const checkSchema = checkSchemaFor(workspace);
    const read = readYaml(text);
    if ('problems' in read)
        throw new ChecksError(read.problems.map((problem) => `not valid YAML or JSON: ${problem}`));
    const suite = suiteSchema.safeParse(read.value);
    if (!suite.success)
        throw new ChecksError([
            'must be a list of checks, or a mapping with one key "checks" holding that list (each check has a name and inputs)',
        ]);
    const raws = Array.isArray(suite.data) ? suite.data : suite.data.checks;
    if (raws.length === 0)
        throw new ChecksError(['lists no checks']);
    const problems = [];
    const checks = [];
    const seen = new Map();
    raws.forEach((raw, index) => {
        const parsed = checkSchema.safeParse(raw);
        const where = whichCheck(raw, index);
        if (!parsed.success) {
            for (const issue of parsed.error.issues) {
                if (issue.code === 'unrecognized_keys')
                    problems.push(unknownFields(where, issue.path, issue.keys));
                else if (issue.path.length === 0)
                    problems.push(`${where}: must be a mapping of fields (name, inputs, …)`);
                else
                    problems.push(`${where}, field "${fieldOf(issue.path)}": ${issue.message}`);
            }
            return;
        }
        const check = parsed.data;
        const earlier = seen.get(check.name);
        if (earlier !== undefined)
            problems.push(`${where}, field "name": the name is already used by check #${earlier + 1}; names must be unique`);
        seen.set(check.name, index);
        const compiled = check.expect === undefined ? undefined : (0,expect/* compileExpectation */.mU)(check.expect);
        checks.push({
            name: check.name,
            inputs: check.inputs,
            output: check.output,
            expect: compiled && 'pattern' in compiled ? compiled.pattern : undefined,
            contains: check.contains ?? [],
            containsAny: check['contains-any'] ?? [],
            notContains: check['not-contains'] ?? [],
            equals: check.equals,
            startsWith: check['starts-with'],
            caseInsensitive: check['case-insensitive'],
            minLength: check['min-length'],
            maxLength: check['max-length'],
            isJson: check['is-json'],
            jsonSchema: check['json-schema'],
            on: check.on,
            similar: check.similar && {
                reference: check.similar.reference,
                minSimilarity: check.similar['min-similarity'],
            },
            maxSeconds: check['max-seconds'],
            cites: check.cites ?? [],
            repeat: check.repeat,
            minPass: check['min-pass'],
            ...(check.rubric !== undefined ? { rubric: check.rubric } : {}),
            advisory: check.advisory,
        });
    });
    if (problems.length > 0)
        throw new ChecksError(problems);
    return checks;
}

// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(77598);
;// CONCATENATED MODULE: ./src/checks/skip-rule.ts
// Skip when irrelevant: in a pull_request event whose pull request changes none of the selected documents
// (the index step's `pull-request-changed` output, given as `documents-changed`) and none of the files the
// checks read (the checks file, the JSON Schema files its checks name), a new run would measure what the
// last one measured, so the flow is not run again. Pure: the caller finds the facts (the files' changes
// from change detection) and acts on the decision.

/** Only a pull_request event whose pull request changes no selected document may skip. */
function documentsAllowSkip(eventName, documentsChanged) {
    return eventName === 'pull_request' && documentsChanged === 0;
}
/** A file as change detection names it: relative to the workspace, `/`-separated, no `./`. */
function workspaceName(file) {
    return external_node_path_default().posix.normalize(file.replace(/\\/g, '/')).replace(/^(\.\/)+/, '');
}
/**
 * The files the checks read, as the inputs name them: the checks file (absent for inline checks), then
 * each JSON Schema file a check names, once each.
 */
function checksFiles(checksFile, checks = []) {
    const files = new Map();
    for (const file of [checksFile, ...checks.map((check) => check.jsonSchema?.file)])
        if (file !== undefined && !files.has(workspaceName(file)))
            files.set(workspaceName(file), file);
    return [...files.values()];
}
/** Which of `files` a change set holds (a folder whose changes are unknown above one counts as holding it). */
function checksFilesChange(decision, files) {
    if (decision.kind === 'all')
        return { known: false, why: decision.reason };
    if (decision.kind === 'none')
        return { known: true, changed: [] };
    const named = new Set([...decision.added, ...decision.modified, ...decision.removed]);
    const changed = files.filter((file) => {
        const name = workspaceName(file);
        return named.has(name) || (decision.everythingUnder ?? []).some((folder) => name.startsWith(`${folder}/`));
    });
    return { known: true, changed };
}
/** `a`, `a or b`, `a, b or c` (or the same with `and`). */
function listed(files, joiner) {
    return files.length <= 1
        ? (files[0] ?? '')
        : `${files.slice(0, -1).join(', ')} ${joiner} ${files[files.length - 1]}`;
}
/**
 * The rule once the documents allow a skip (documentsAllowSkip): skip unless one of the checks' files
 * changed; when whether they changed is unknown, run, with a warning. `what` names the step's work ("Flow
 * checks").
 */
function decideSkip(what, files = [], change) {
    const skip = (nor) => ({
        skip: true,
        reason: `${what} skipped: this pull request changes none of the selected documents${nor}; the last result ` +
            'still holds for the documents it measured.',
    });
    if (files.length === 0)
        return skip('');
    if (change === undefined || !change.known)
        return {
            skip: false,
            unknown: true,
            why: `${what} not skipped: this pull request changes none of the selected documents, but whether it ` +
                `changes ${listed(files, 'or')} is unknown (${change?.why ?? 'not looked up'}).`,
        };
    if (change.changed.length === 0)
        return skip(` nor ${listed(files, 'or')}`);
    return {
        skip: false,
        why: `${what} not skipped: this pull request changes none of the selected documents, but it changes ${listed(change.changed, 'and')}.`,
    };
}

;// CONCATENATED MODULE: ./src/checks/suite-digest.ts
// What the stored baseline's key says of the checks (#36 §5): one digest of the checks text and of every
// JSON Schema file a check names, so that a change to either is a new key and the baseline runs again.



/**
 * The checks' digest (sha256, hex): the checks text (a file's content, or the inline text), then each JSON
 * Schema file a check names with its content. A schema file that cannot be read (the checks were parsed
 * from it a moment ago, so only a race) is digested as unreadable: the key differs, the baseline runs live.
 */
function checksDigest(text, checks, workspace, options = {}) {
    const schemas = checksFiles(undefined, checks).map((file) => {
        const read = readWorkspaceFile(file, workspace, options);
        return [file, 'text' in read ? read.text : null];
    });
    return (0,external_node_crypto_.createHash)('sha256')
        .update(JSON.stringify([text, schemas]))
        .digest('hex');
}

// EXTERNAL MODULE: ./src/config/shared-inputs.ts + 1 modules
var shared_inputs = __webpack_require__(15774);
// EXTERNAL MODULE: ./src/config/run-inputs.ts
var run_inputs = __webpack_require__(37837);
// EXTERNAL MODULE: ./src/config/comment.ts
var comment = __webpack_require__(39043);
// EXTERNAL MODULE: ./src/config/errors.ts
var errors = __webpack_require__(37827);
;// CONCATENATED MODULE: ./src/config/check-names.ts


const SHOWN_NAMES = 10;
/** `"refunds", "shipping time", …`: the first check names, quoted. */
function shownCheckNames(checks) {
    const shown = checks.slice(0, SHOWN_NAMES).map((check) => (0,errors/* quoted */.TL)(check.name));
    return `${shown.join(', ')}${checks.length > SHOWN_NAMES ? ', …' : ''}`;
}
/**
 * ` Did you mean "refunds"?` for a written name close to a check's; with several written names, each guess
 * names its entry. '' when none is close; a `*` pattern gets no guess.
 */
function nearestCheckNames(written, checks) {
    const names = checks.map((check) => check.name);
    const guesses = written
        .filter((entry) => !entry.includes('*'))
        .map((entry) => ({ entry, likely: likelyName(entry, names) }))
        .filter((guess) => guess.likely !== undefined);
    if (guesses.length === 0)
        return '';
    if (written.length === 1)
        return ` Did you mean ${(0,errors/* quoted */.TL)(guesses[0].likely)}?`;
    return guesses.map(({ entry, likely }) => ` For ${(0,errors/* quoted */.TL)(entry)}, did you mean ${(0,errors/* quoted */.TL)(likely)}?`).join('');
}

// EXTERNAL MODULE: ./src/config/fields.ts
var config_fields = __webpack_require__(90081);
// EXTERNAL MODULE: ./src/temp-folder.ts
var temp_folder = __webpack_require__(24658);
;// CONCATENATED MODULE: ./src/config/junit-file.ts
// The `junit-file` input (#36 §3): where the checks suite's JUnit XML report goes. `true` makes a new file
// in RUNNER_TEMP; a path names the file (relative to the workspace), its folders made when missing. A test
// reporter's pattern looks for `.xml`, so a path must end in it: a mistyped `yes` is refused, not written.





const INPUT = 'junit-file';
function statOf(path) {
    try {
        return (0,external_node_fs_.statSync)(path, { throwIfNoEntry: false });
    }
    catch (error) {
        // A path through a file: Node 20 throws ENOTDIR where Node 24 answers "no entry"; the walk up then
        // names the file in the way, on both.
        if (error.code === 'ENOTDIR')
            return undefined;
        return { problem: (0,temp_folder/* reasonOf */.A3)(error) };
    }
}
/** Why the file cannot be written there, or undefined: checked before any run is paid for. */
function pathProblem(path) {
    const stats = statOf(path);
    if (stats && 'problem' in stats)
        return stats.problem;
    if (stats?.isDirectory())
        return 'it is a folder';
    // The folders that do not exist yet are made: the nearest one that does must be a folder.
    let folder = (0,external_node_path_.dirname)(path);
    for (;;) {
        const found = statOf(folder);
        if (found && 'problem' in found)
            return found.problem;
        if (found) {
            if (!found.isDirectory())
                return `${folder} is not a folder`;
            break;
        }
        if ((0,external_node_path_.dirname)(folder) === folder)
            break;
        folder = (0,external_node_path_.dirname)(folder);
    }
    try {
        (0,external_node_fs_.accessSync)(stats ? path : folder, external_node_fs_.constants.W_OK);
    }
    catch (error) {
        return (0,temp_folder/* reasonOf */.A3)(error);
    }
    return undefined;
}
/** The report's absolute path, or undefined when none is asked (empty or `false`). */
function readJUnitFile(fields, workspace, env = process.env) {
    const value = fields.raw(INPUT);
    if (value === '' || /^false$/i.test(value))
        return undefined;
    const names = fields.names;
    if (fields.raw('checks') === '') {
        fields.problem(INPUT, `${names.subject(INPUT)} applies to ${names.ref('checks')} only: it reports a suite of checks.`);
        return undefined;
    }
    if (/^true$/i.test(value))
        return (0,external_node_path_.join)((0,temp_folder/* tempFolder */.vg)(env).path, `kb-sync-junit-${(0,external_node_crypto_.randomUUID)()}.xml`);
    if (!/\.xml$/i.test(value) || value.includes('\0')) {
        fields.problem(INPUT, `${names.subject(INPUT)} must be true (a new file in RUNNER_TEMP), false, or the path of a .xml file ` +
            `to write, such as reports/kb-checks.xml (got ${(0,errors/* quoted */.TL)(value)}).`);
        return undefined;
    }
    const path = (0,external_node_path_.resolve)(workspace, value);
    const problem = pathProblem(path);
    if (problem)
        fields.problem(INPUT, `${names.subject(INPUT)}: cannot write ${path} (${problem}).`);
    return path;
}

;// CONCATENATED MODULE: ./src/config/run.ts
// The run-flow action's inputs (and `kb-sync run`), in a module of their own: the checks schema (zod,
// yaml) and the RE2 engine load only where a flow is asked, not in the index action.














function readExpect(fields) {
    const source = fields.raw('expect');
    if (source === '')
        return undefined;
    const compiled = (0,expect/* compileExpectation */.mU)(source);
    if ('pattern' in compiled)
        return compiled.pattern;
    fields.problem('expect', `${fields.names.subject('expect')} must be a regular expression in RE2 syntax (no lookaround or backreferences): ${compiled.problem}.`);
    return undefined;
}
function readThreshold(fields) {
    const value = fields.raw('threshold');
    const percent = (0,units/* parseThreshold */.B7)(value);
    if (percent !== undefined)
        return percent;
    fields.problem('threshold', `${fields.names.subject('threshold')} must be a percentage from 0% to 100%, such as 90% (got ${(0,errors/* quoted */.TL)(value)}).`);
    return 100;
}
// A check runs at most this often: past it, a flaky flow is better fixed than averaged.
const MAX_REPEAT = 10;
// Far more runs than any suite needs; the bound is against a mistyped number, not a budget.
const MAX_RUNS_LIMIT = 10_000;
function readRepeats(fields) {
    const repeat = fields.integer('repeat', 1, MAX_REPEAT);
    if (fields.raw('min-pass') === '')
        return { repeat };
    const minPass = fields.integer('min-pass', 1, MAX_REPEAT);
    if (minPass > repeat)
        fields.problem('min-pass', `${fields.names.subject('min-pass')} must not be more than ${fields.names.ref('repeat')} (${repeat}): ` +
            `${minPass} of ${repeat} runs can never pass (got ${(0,errors/* quoted */.TL)(fields.raw('min-pass'))}).`);
    return { repeat, minPass };
}
/**
 * No `<whose>-flow-id`: the other flow is not set, and a `<whose>-org-id` alone is a problem (it names that
 * flow's organization).
 */
function orgWithoutFlow(fields, whose) {
    const [flow, org] = [`${whose}-flow-id`, `${whose}-org-id`];
    if (fields.raw(flow) !== '')
        return false;
    if (fields.raw(org) !== '')
        fields.problem(org, `${fields.names.subject(org)} needs ${fields.names.ref(flow)}: it names the ${whose} flow's organization.`);
    return true;
}
/** `baseline-flow-id` and `baseline-org-id` (the run's org by default); undefined when no baseline is set. */
function readBaseline(fields, orgId) {
    if (orgWithoutFlow(fields, 'baseline'))
        return undefined;
    const names = fields.names;
    const flowId = fields.id('baseline-flow-id');
    const baseline = {
        orgId: fields.raw('baseline-org-id') === '' ? orgId : fields.id('baseline-org-id'),
        flowId,
    };
    if (baseline.orgId === orgId && flowId === fields.raw('flow-id'))
        fields.problem('baseline-flow-id', `${names.subject('baseline-flow-id')} names the flow of ${names.ref('flow-id')} itself: compare with another flow ` +
            '(e.g. production, while flow-id is the staging flow).');
    return baseline;
}
/** `fail-on`: `regression` (the default with a baseline) or `threshold` (the default without one). */
function readFailOn(fields, baseline) {
    const value = fields.raw('fail-on');
    if (value === '')
        return baseline ? 'regression' : 'threshold';
    if (!run_inputs/* FAIL_ON */.d$.includes(value)) {
        fields.problem('fail-on', `${fields.names.subject('fail-on')} must be "regression" or "threshold" (got ${(0,errors/* quoted */.TL)(value)}).`);
        return 'threshold';
    }
    if (value === 'regression' && !baseline)
        fields.problem('fail-on', `${fields.names.subject('fail-on')} "regression" needs ${fields.names.ref('baseline-flow-id')}: without a baseline no check can regress.`);
    return value;
}
/** `judge-min-score`: a number from 0 to 1. */
function readMinScore(fields) {
    const value = fields.raw('judge-min-score');
    const score = /^(0|1|0?\.\d+|1\.0*)$/.test(value) ? Number(value) : NaN;
    if (score >= 0 && score <= 1)
        return score;
    fields.problem('judge-min-score', `${fields.names.subject('judge-min-score')} must be a number from 0 to 1, such as 0.7 (got ${(0,errors/* quoted */.TL)(value)}).`);
    return 1;
}
/** `judge-flow-id`, `judge-org-id` (the run's org by default) and `judge-min-score`; undefined without a judge flow. */
function readJudge(fields, target) {
    const minScore = readMinScore(fields);
    if (orgWithoutFlow(fields, 'judge'))
        return undefined;
    const names = fields.names;
    const judge = {
        target: {
            orgId: fields.raw('judge-org-id') === '' ? target.orgId : fields.id('judge-org-id'),
            flowId: fields.id('judge-flow-id'),
        },
        minScore,
    };
    if (judge.target.orgId === target.orgId && judge.target.flowId === target.flowId)
        fields.problem('judge-flow-id', `${names.subject('judge-flow-id')} names the flow of ${names.ref('flow-id')} itself: a judge flow is a flow of its ` +
            'own that grades answers (see the README, "Judge flow").');
    return judge;
}
/** Checks with a rubric need a judge flow; `advisory-checks` marks the checks it names advisory. */
function applySuiteSettings(fields, config, checks) {
    const names = fields.names;
    const graded = checks
        .filter((check) => check.rubric !== undefined)
        .map((check) => JSON.stringify(check.name));
    if (graded.length > 0 && !config.judge)
        fields.problem('judge-flow-id', `${names.subject('judge-flow-id')} is required: ${graded.length === 1 ? 'check' : 'checks'} ` +
            `${graded.slice(0, 5).join(', ')}${graded.length > 5 ? ` and ${graded.length - 5} more` : ''} ` +
            `${graded.length === 1 ? 'has a rubric' : 'have a rubric'}, which a judge flow grades.`);
    const marked = markAdvisory(checks, advisoryEntries(fields.raw('advisory-checks')));
    if (marked.unmatched.length > 0)
        fields.problem('advisory-checks', `${names.subject('advisory-checks')} names no check with ${marked.unmatched.map((entry) => (0,errors/* quoted */.TL)(entry)).join(', ')} ` +
            `(check names: ${shownCheckNames(checks)}; "*" matches any characters).` +
            nearestCheckNames(marked.unmatched, checks));
    return marked.checks;
}
/** Every check's `min-pass` against the runs it gets, and the suite's runs against `max-runs`. */
function checkRunCounts(fields, config, checks) {
    const names = fields.names;
    for (const problem of repeatProblems(checks, config.repeats))
        fields.problem('checks', `${names.subject('checks')}: ${problem}.`);
    // With a baseline every run is made on both flows; with a judge flow each answer of a check with a
    // rubric costs one judge run more.
    const judged = config.judge !== undefined && checks.some((check) => check.rubric !== undefined);
    const runs = plannedRuns(checks, config.repeats, judged) * (config.baseline ? 2 : 1);
    const parts = [
        'repeats',
        ...(judged ? ['judge runs'] : []),
        ...(config.baseline ? ['the baseline flow'] : []),
    ];
    const counted = `${parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}` : parts[0]} included`;
    if (runs > config.maxRuns)
        fields.problem('max-runs', `The checks would start ${runs} runs (${checks.length} ${checks.length === 1 ? 'check' : 'checks'}, ${counted}), more than ` +
            `${names.ref('max-runs')} allows (${config.maxRuns}); no run was started. Raise ${names.ref('max-runs')}, ` +
            `or lower ${names.ref('repeat')} (or a check's repeat) or the number of checks.`);
}
/** `documents-changed`: empty (unknown) or a whole number; the index step's `pull-request-changed`. */
function readDocumentsChanged(fields) {
    const value = fields.raw('documents-changed');
    if (value === '')
        return undefined;
    if (/^\d+$/.test(value) && Number.isSafeInteger(Number(value)))
        return Number(value);
    fields.problem('documents-changed', `${fields.names.subject('documents-changed')} must be empty (unknown) or a whole number of 0 or more, ` +
        `such as the index step's "pull-request-changed" output (got ${(0,errors/* quoted */.TL)(value)}).`);
    return undefined;
}
function readChecks(fields, value, event) {
    const source = readChecksSource(value, event.workspace ?? process.cwd(), { anywhere: event.checksAnywhere });
    const checks = fields.names.subject('checks');
    if ('problem' in source) {
        fields.problem('checks', `${checks} ${source.problem}.`);
        return {};
    }
    const file = source.origin === 'inline' ? undefined : source.origin;
    try {
        const workspace = event.workspace ?? process.cwd();
        const parsed = parseChecks(source.text, { workspace });
        const digest = checksDigest(source.text, parsed, workspace, { anywhere: event.checksAnywhere });
        return { checks: parsed, file, digest };
    }
    catch (error) {
        if (!(error instanceof ChecksError))
            throw error;
        const where = file === undefined ? checks : `${checks} (${file})`;
        for (const problem of error.problems)
            fields.problem('checks', `${where}: ${problem}.`);
        return { file };
    }
}
/** Reads the run-flow action's inputs. Throws a ConfigError listing every problem. */
function readRunConfig(read, event) {
    const fields = new config_fields/* InputFields */.a(read, run_inputs/* RUN_DEFAULTS */.fv, event.names);
    const names = fields.names;
    const target = { orgId: fields.id('org-id'), flowId: fields.id('flow-id') };
    const baseline = readBaseline(fields, target.orgId);
    const judge = readJudge(fields, target);
    const config = {
        baseUrl: fields.baseUrl('base-url'),
        target,
        publicKey: fields.key('public-key'),
        inputs: Object.create(null),
        outputKey: fields.raw('output-key'),
        expect: readExpect(fields),
        retry: (0,shared_inputs/* readRetry */.Hp)(fields),
        comment: (0,comment/* readCommentSettings */.H)(fields, event.eventName, fields.token('github-token')),
        retryOnServerError: fields.boolean('retry-on-server-error'),
        // A GitHub job runs at most 6 hours.
        runTimeoutMs: fields.duration('run-timeout', 1000, 6 * 3_600_000),
        concurrency: fields.integer('concurrency', 1, 8),
        repeats: readRepeats(fields),
        maxRuns: fields.integer('max-runs', 1, MAX_RUNS_LIMIT),
        threshold: readThreshold(fields),
        ...(baseline ? { baseline } : {}),
        baselineSource: fields.oneOf('baseline', run_inputs/* BASELINE_SOURCES */.B9),
        failOn: readFailOn(fields, baseline !== undefined),
        ...(judge ? { judge } : {}),
        documentsChanged: readDocumentsChanged(fields),
        outputsBudget: (0,shared_inputs/* readOutputsBudget */.g7)(fields),
        names: fields.names,
        settleMs: 0,
    };
    const inputs = fields.raw('inputs');
    const checks = fields.raw('checks');
    const suiteOnly = {
        'baseline-flow-id': 'a suite is compared, not one question',
        'fail-on': 'a suite is compared, not one question',
        'judge-flow-id': "it grades the checks' rubrics",
        'advisory-checks': 'it names checks',
    };
    for (const [name, why] of Object.entries(suiteOnly))
        if (checks === '' && fields.raw(name) !== '')
            fields.problem(name, `${names.subject(name)} applies to ${names.ref('checks')} only: ${why}.`);
    if (checks !== '') {
        const suite = readChecks(fields, checks, event);
        config.checks = suite.checks && applySuiteSettings(fields, config, suite.checks);
        if (suite.file !== undefined)
            config.checksFile = suite.file;
        if (suite.digest !== undefined)
            config.checksDigest = suite.digest;
        if (config.checks)
            checkRunCounts(fields, config, config.checks);
        if (inputs !== '')
            fields.problem('inputs', `${names.pair('inputs', 'checks')} are exclusive: give one question or a suite of checks.`);
        if (config.expect)
            fields.problem('expect', `${names.subject('expect')} applies to ${names.ref('inputs')} only: put the pattern in a check ("expect" field).`);
    }
    else if (inputs === '')
        fields.problem('inputs', `${names.subject('inputs')} is required (a JSON object such as {"in-0": "..."}) unless ${names.ref('checks')} is set.`);
    else
        config.inputs = (0,shared_inputs/* readFlowInputs */.A1)(fields, inputs, 'inputs');
    if (config.publicKey === '') {
        if (shared_inputs/* PULL_REQUEST_EVENTS */.m_.has(event.eventName))
            config.skip =
                'No public key in this pull request: forks and Dependabot do not get secrets; the flow run is skipped.';
        else
            fields.problem('public-key', `${names.subject('public-key')} is required.`);
    }
    readSettle(fields, config);
    const junitFile = readJUnitFile(fields, event.workspace ?? process.cwd());
    if (junitFile !== undefined)
        config.junitFile = junitFile;
    fields.throwIfAny();
    return config;
}
// ── settle (#36 §4) ──
// A GitHub job runs at most 6 hours; an hour of waiting is already far past any indexing worth waiting for.
const MAX_SETTLE_MS = 3_600_000;
/** `settle` and `settle-check`: how long to wait for the sync, and the check that tells it arrived. */
function readSettle(fields, config) {
    const names = fields.names;
    config.settleMs = fields.duration('settle', 0, MAX_SETTLE_MS);
    if (config.settleMs > 0 && !fields.raw('checks'))
        fields.problem('settle', `${names.subject('settle')} applies to ${names.ref('checks')} only: it waits for the sync before a suite runs.`);
    const name = fields.raw('settle-check');
    if (name === '')
        return;
    if (!fields.raw('checks')) {
        fields.problem('settle-check', `${names.subject('settle-check')} names a check of ${names.ref('checks')}, which is empty.`);
        return;
    }
    if (config.settleMs === 0)
        fields.problem('settle-check', `${names.subject('settle-check')} needs ${names.ref('settle')} above 0: the longest time the check is run ` +
            'until it passes (e.g. 300).');
    if (!config.checks)
        return;
    if (!config.checks.some((check) => check.name === name)) {
        fields.problem('settle-check', `${names.subject('settle-check')} names no check of ${names.ref('checks')} (got ${(0,errors/* quoted */.TL)(name)}; the ` +
            `checks are ${shownCheckNames(config.checks)}).${nearestCheckNames([name], config.checks)}`);
        return;
    }
    // Every poll is a billed run: the suite's own runs are reserved, the polls use what max-runs leaves.
    const suiteRuns = plannedRuns(config.checks, config.repeats) * (config.baseline ? 2 : 1);
    if (suiteRuns < config.maxRuns)
        config.settleCheck = name;
    else if (suiteRuns === config.maxRuns)
        fields.problem('settle-check', `${names.subject('settle-check')} needs runs of its own, but the checks' ${suiteRuns} runs take all of ` +
            `${names.ref('max-runs')} (${config.maxRuns}); raise ${names.ref('max-runs')}: each run of the settle check counts in it.`);
}
/**
 * The comment's settings read on their own, for a run whose other inputs were refused; undefined when
 * these are themselves invalid (then no comment can be told apart safely).
 */
function readCommentTarget(read, event) {
    const fields = new InputFields(read, RUN_DEFAULTS, event.names);
    const target = {
        comment: readCommentSettings(fields, event.eventName, fields.token('github-token')),
        flowId: fields.id('flow-id'),
        heading: fields.raw('checks') === '' ? '### Flow check' : '### Flow checks',
    };
    return fields.problems.length === 0 ? target : undefined;
}
/** How a run of the run-flow action (or `kb-sync run`) is retried and bounded, from its inputs. */
function flowRunOptions(config, log, signal) {
    return {
        log,
        retry: (0,shared_inputs/* retryPolicyOf */.aB)(config),
        retryOnServerError: config.retryOnServerError,
        timeoutMs: config.runTimeoutMs,
        signal,
        names: config.names,
    };
}

// EXTERNAL MODULE: ./src/flow/answer.ts
var answer = __webpack_require__(1500);
// EXTERNAL MODULE: ./src/flow/run.ts + 1 modules
var flow_run = __webpack_require__(67139);
// EXTERNAL MODULE: ./src/service/errors.ts
var service_errors = __webpack_require__(5756);
;// CONCATENATED MODULE: ./src/checks/citations.ts
// `cites`: the documents an answer cites. The emulator (and, as far as is known, the service) puts them
// next to the outputs as `citations: [{document, heading}]`; a plain string is taken as a document name.
// What the service does not send cannot be judged, so an answer without the list fails `cites` saying so.
/** The names of the documents the answer cites, or undefined when it carries no `citations` list. */
function citedDocuments(response) {
    if (response === null || typeof response !== 'object')
        return undefined;
    const citations = response.citations;
    if (!Array.isArray(citations))
        return undefined;
    const names = citations.flatMap((citation) => {
        if (typeof citation === 'string')
            return [citation];
        if (citation !== null && typeof citation === 'object') {
            const document = citation.document;
            if (typeof document === 'string')
                return [document];
        }
        return [];
    });
    return [...new Set(names)];
}
/**
 * Whether `wanted` is among the cited names: the same name, or a name ending in `/` + `wanted`, so that
 * `billing.md` is cited by `docs/billing.md` (documents are named by their path in the workspace).
 */
function isCited(wanted, cited) {
    return cited.some((name) => name === wanted || name.endsWith(`/${wanted}`));
}

;// CONCATENATED MODULE: ./src/checks/judge.ts
// The assertions of one check against one run of the flow. Each failed assertion is one sentence that
// starts with the assertion as the check wrote it.





// How much of the answer a failure of equals / starts-with quotes; the answer itself is shown apart.
const QUOTED_ANSWER_CHARS = 100;
const quoted = (text) => JSON.stringify(text);
function quotedStart(text, chars = QUOTED_ANSWER_CHARS) {
    return text.length <= chars ? quoted(text) : `${quoted(text.slice(0, chars))}…`;
}
function similarityShown(judged, reference) {
    switch (judged.kind) {
        case 'exact':
            return `similarity ${formatRatio(judged.score)}`;
        case 'at-most':
            // A bound from the lengths: shown rounded up, so it is never below the ratio it bounds.
            return (`similarity at most ${(Math.ceil(judged.score * 100 - 1e-9) / 100).toFixed(2)} (the answer has ` +
                `${(0,units/* formatCount */.B4)(judged.length)} characters, the reference ${(0,units/* formatCount */.B4)(reference.trim().length)})`);
        case 'at-least':
            return (`similarity at least ${formatRatio(judged.score)} (only the answer's first ${(0,units/* formatCount */.B4)(judged.compared)} ` +
                `of ${(0,units/* formatCount */.B4)(judged.length)} characters were compared, the rest counted as changed)`);
    }
}
function textFailures(check, answer) {
    const failed = [];
    // A match too costly to run throws: the run's judging boundary makes it an error, not a failure.
    if (check.expect && !(0,expect/* findBounded */.n_)(check.expect, answer))
        failed.push(`expect ${quoted(check.expect.pattern())}: no match`);
    const fold = (text) => (check.caseInsensitive ? text.toLocaleLowerCase('en-US') : text);
    const haystack = fold(answer);
    for (const needle of check.contains)
        if (!haystack.includes(fold(needle)))
            failed.push(`contains ${quoted(needle)}: not found`);
    if (check.containsAny.length > 0 && !check.containsAny.some((needle) => haystack.includes(fold(needle))))
        failed.push(`contains-any [${check.containsAny.map(quoted).join(', ')}]: none found`);
    for (const needle of check.notContains)
        if (haystack.includes(fold(needle)))
            failed.push(`not-contains ${quoted(needle)}: found`);
    if (check.equals !== undefined && fold(answer.trim()) !== fold(check.equals.trim()))
        failed.push(`equals ${quoted(check.equals)}: the answer is ${quotedStart(answer.trim())}`);
    if (check.startsWith !== undefined) {
        const start = answer.trimStart();
        if (!fold(start).startsWith(fold(check.startsWith)))
            failed.push(`starts-with ${quoted(check.startsWith)}: the answer starts with ` +
                quotedStart(start, check.startsWith.length + 20));
    }
    if (check.minLength !== undefined && answer.length < check.minLength)
        failed.push(`min-length ${check.minLength}: the answer has ${answer.length} characters`);
    if (check.maxLength !== undefined && answer.length > check.maxLength)
        failed.push(`max-length ${check.maxLength}: the answer has ${answer.length} characters`);
    if (check.similar) {
        const { reference, minSimilarity } = check.similar;
        const judged = similarityJudged(fold(answer), fold(reference), minSimilarity);
        const shownMinimum = Number(minSimilarity.toFixed(2)) === minSimilarity ? minSimilarity.toFixed(2) : String(minSimilarity);
        if (judged.score < minSimilarity)
            failed.push(`similar ${shownMinimum}: ${similarityShown(judged, reference)}`);
    }
    return failed;
}
function jsonFailures(check, value, subject) {
    if (!check.isJson && !check.jsonSchema)
        return [];
    const parsed = jsonOf(value);
    if ('problem' in parsed)
        return [`${check.isJson ? 'is-json' : jsonSchemaLabel(check)}: ${subject} is ${parsed.problem}`];
    if (!check.jsonSchema)
        return [];
    const mismatch = schemaMismatch(check.jsonSchema.validate, parsed.json);
    return mismatch === undefined ? [] : [`${jsonSchemaLabel(check)}: ${subject} does not match: ${mismatch}`];
}
function jsonSchemaLabel(check) {
    return check.jsonSchema?.file === undefined ? 'json-schema' : `json-schema ${quoted(check.jsonSchema.file)}`;
}
function citationFailures(check, response) {
    if (check.cites.length === 0)
        return [];
    const cited = citedDocuments(response);
    const wanted = check.cites.map(quoted).join(', ');
    if (cited === undefined)
        return [`cites ${wanted}: the answer carries no citations`];
    if (cited.length === 0)
        return [`cites ${wanted}: the answer cites no documents`];
    return check.cites
        .filter((name) => !isCited(name, cited))
        .map((name) => `cites ${quoted(name)}: not cited (cited: ${cited.map(quoted).join(', ')})`);
}
function failedAssertions(check, run) {
    const failed = [];
    if (Object.hasOwn(run.outputs, check.output)) {
        failed.push(...textFailures(check, run.answer));
        if (check.on === 'output')
            failed.push(...jsonFailures(check, run.outputs[check.output], `output ${quoted(check.output)}`));
    }
    else {
        const available = Object.keys(run.outputs).map(quoted).join(', ') || 'none';
        failed.push(`output ${quoted(check.output)}: the answer has no such output (outputs: ${available})`);
    }
    if (check.on === 'outputs')
        failed.push(...jsonFailures(check, run.outputs, 'the outputs map'));
    if (check.maxSeconds !== undefined && run.seconds > check.maxSeconds)
        failed.push(`max-seconds ${check.maxSeconds}: the run took ${run.seconds} s`);
    failed.push(...citationFailures(check, run.response));
    return failed;
}

;// CONCATENATED MODULE: ./src/checks/judge-grade.ts
// The grade in a judge flow's answer, parsed strictly: anything out of shape is a problem naming the field,
// never a pass. Apart from judge-flow.ts so that what only formats a grade (the reports, in every bundle)
// does not load zod at every start (bench/README.md).


const MAX_REASON_CHARS = 2_000;
const gradeSchema = schemas/* object */.Ikc({
    verdict: schemas/* enum */.k5n(['pass', 'fail'], { error: '"verdict" must be "pass" or "fail"' }),
    score: schemas/* number */.aig({ error: '"score" must be a number from 0 to 1' })
        .min(0, '"score" must be a number from 0 to 1')
        .max(1, '"score" must be a number from 0 to 1'),
    reason: schemas/* string */.YjP({ error: '"reason" must be a string' })
        .refine((text) => text.trim() !== '', '"reason" must be a non-empty string')
        .refine((text) => text.length <= MAX_REASON_CHARS, `"reason" must be at most ${MAX_REASON_CHARS} characters`),
})
    .strict();
// One enclosing code fence is the only thing tolerated around the object: models add it unasked.
const FENCED = /^```[a-zA-Z]*\n([\s\S]*)\n```$/;
/** The grade in the judge flow's answer, or why the answer is out of shape. */
function parseGrade(text) {
    const trimmed = text.trim();
    const body = FENCED.exec(trimmed)?.[1] ?? trimmed;
    let value;
    try {
        value = JSON.parse(body);
    }
    catch {
        const start = trimmed.length > 80 ? `${JSON.stringify(trimmed.slice(0, 80))}…` : JSON.stringify(trimmed);
        return { problem: `its ${judge_flow/* JUDGE_OUTPUT */.iW} is not a JSON object (it starts ${start})` };
    }
    const parsed = gradeSchema.safeParse(value);
    if (!parsed.success) {
        const issues = parsed.error.issues.map((issue) => issue.code === 'unrecognized_keys'
            ? `unknown field(s) ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}`
            : issue.path.length === 0
                ? 'not a JSON object'
                : issue.message);
        return { problem: `its ${judge_flow/* JUDGE_OUTPUT */.iW} is out of shape: ${issues.join('; ')}` };
    }
    return { grade: { ...parsed.data, reason: oneLine(parsed.data.reason) } };
}
/** The reason on one line (the table's cell and the log line). */
const oneLine = (text) => text.trim().replace(/\s*[\r\n]+\s*/g, ' ');

;// CONCATENATED MODULE: ./src/checks/run.ts
// Runs a suite of checks with bounded concurrency (each run costs the user money), each repeat one run
// under the no-double-run rule of the flow run, and judges each answer.









function runIdOf(response) {
    if (response === null || typeof response !== 'object')
        return undefined;
    const id = response.run_id;
    return typeof id === 'string' ? id : undefined;
}
const notRun = (run, why) => ({
    run,
    verdict: 'error',
    failed: [`not run: ${why}`],
    answer: '',
    seconds: 0,
    started: false,
});
const messageOf = (error) => (0,service_errors/* excerpt */.Kb)(error instanceof Error ? error.message : String(error));
/**
 * One run of a check, judged. This is the boundary of one run: whatever its run or its judging throws
 * (an answer nested too deep for a schema's recursion, a library's own limit) is that run's error, and
 * every other run is still made, judged and reported.
 */
async function runCheck(client, target, check, run, options) {
    const started = external_node_perf_hooks_.performance.now();
    // The run's time ends when its answer is in: judging (its own, or another check's on the same thread)
    // is never counted against max-seconds.
    const secondsTo = (end) => Math.round((end - started) / 100) / 10;
    let report;
    try {
        report = await (0,flow_run.runFlow)(client, { target, inputs: check.inputs, outputKey: check.output }, options);
    }
    catch (error) {
        const seconds = secondsTo(external_node_perf_hooks_.performance.now());
        const failed = error instanceof flow_run/* FlowRunError */.wf ? error.message : `the run failed: ${messageOf(error)}`;
        return {
            result: {
                run,
                verdict: 'error',
                failed: [failed],
                answer: '',
                runId: error instanceof flow_run/* FlowRunError */.wf ? runIdOf(error.response) : undefined,
                seconds,
                started: true,
            },
            othersCannotRun: error instanceof flow_run/* FlowRunError */.wf ? error.othersCannotRun : undefined,
        };
    }
    const seconds = secondsTo(external_node_perf_hooks_.performance.now());
    const answered = { answer: report.result, runId: runIdOf(report.response), seconds, started: true };
    let failed;
    try {
        failed = failedAssertions(check, {
            answer: report.result,
            outputs: (0,answer/* outputsOf */.Y)(report.response),
            seconds,
            response: report.response,
        });
    }
    catch (error) {
        return {
            result: {
                run,
                verdict: 'error',
                failed: [`the answer could not be judged: ${messageOf(error)}`],
                ...answered,
            },
        };
    }
    if (check.rubric === undefined || options.judge === undefined)
        return { result: { run, verdict: failed.length === 0 ? 'passed' : 'failed', failed, ...answered } };
    const graded = await gradeAnswer(client, check, report.result, options.judge, options);
    const judged = { ...answered, judgeSent: true, ...(graded.grade ? { judge: graded.grade } : {}) };
    if (graded.error !== undefined)
        return {
            result: { run, verdict: 'error', failed: [...failed, graded.error], ...judged },
            ...(graded.othersCannotRun !== undefined ? { othersCannotRun: graded.othersCannotRun } : {}),
        };
    const rubric = (0,judge_flow/* rubricFailure */.oY)(graded.grade, options.judge.minScore, minScoreName(options));
    if (rubric !== undefined)
        failed.push(rubric);
    return { result: { run, verdict: failed.length === 0 ? 'passed' : 'failed', failed, ...judged } };
}
const minScoreName = (options) => options.names?.ref('judge-min-score') ?? '"judge-min-score"';
/**
 * The judge flow's grade of one answer: a run of the judge flow under the same retries and bounds as the
 * check's own run. A failed judge run, or an answer out of shape, is an error naming the judge flow.
 */
async function gradeAnswer(client, check, answer, judge, options) {
    const name = (0,judge_flow/* judgeFlowName */.xf)(judge.target);
    let report;
    try {
        report = await (0,flow_run.runFlow)(client, {
            target: judge.target,
            inputs: (0,judge_flow/* judgeInputs */.dG)(check, (0,flow_run/* questionOf */.YH)(check.inputs), answer),
            outputKey: judge_flow/* JUDGE_OUTPUT */.iW,
        }, options);
    }
    catch (error) {
        const message = error instanceof flow_run/* FlowRunError */.wf ? error.message : `the run failed: ${messageOf(error)}`;
        const othersCannotRun = error instanceof flow_run/* FlowRunError */.wf ? error.othersCannotRun : undefined;
        return { error: `${name}: ${message}`, ...(othersCannotRun !== undefined ? { othersCannotRun } : {}) };
    }
    const parsed = parseGrade(report.result);
    if ('problem' in parsed)
        return { error: `${name} answered out of shape: ${parsed.problem}; a judge flow answers ${judge_flow/* GRADE_SHAPE */.Of}` };
    const runId = runIdOf(report.response);
    return { grade: { ...parsed.grade, ...(runId !== undefined ? { runId } : {}) } };
}
/**
 * Results in the order of the checks, each with its runs in order; at most `concurrency` runs in flight.
 * A key the service refused is refused for every run, and a service on this machine that refused the
 * connection is not there for any: no further run is sent after the first.
 */
async function runChecks(client, target, checks, options) {
    const [outcome] = await runChecksOn(client, [{ target, label: '' }], checks, options);
    return outcome;
}
/**
 * The suite on every side, the runs of all sides sharing one pool of `concurrency` runs in flight (each
 * check's runs on every side before the next check's), one outcome per side in the order given.
 */
async function runChecksOn(client, sides, checks, options) {
    const suite = options.repeats ?? { repeat: 1 };
    const plans = checks.map((check) => repeatsOf(check, suite));
    const work = checks.flatMap((check, index) => Array.from({ length: plans[index].repeat }, (_, run) => sides.map((_, side) => ({ side, index, run: run + 1 }))).flat());
    const runs = sides.map(() => checks.map((_, index) => new Array(plans[index].repeat)));
    let stopped;
    let stoppedWhy = '';
    let next = 0;
    const worker = async () => {
        while (next < work.length) {
            const { side, index, run } = work[next++];
            const check = checks[index];
            let result;
            if (options.signal?.aborted)
                result = notRun(run, 'the step was cancelled');
            else if (stopped !== undefined)
                result = notRun(run, stoppedWhy);
            else {
                const made = await runCheck(client, sides[side].target, check, run, options);
                result = made.result;
                if (made.othersCannotRun && stopped === undefined) {
                    stopped = result.failed[0];
                    stoppedWhy = made.othersCannotRun;
                }
            }
            runs[side][index][run - 1] = result;
            if (result.started)
                options.log.info(`Check "${check.name}"${sides[side].label}${plans[index].repeat > 1 ? ` run ${run}` : ''}: ` +
                    `${result.verdict} (${result.seconds} s${result.judge ? `; judge score ${(0,judge_flow/* scoreText */.QO)(result.judge.score)}` : ''})`);
        }
    };
    const workers = Math.max(1, Math.min(options.concurrency, work.length));
    await Promise.all(Array.from({ length: workers }, worker));
    return sides.map((side, sideIndex) => {
        const results = checks.map((check, index) => {
            const result = (0,checks_verdict/* checkResultOf */.t$)({
                name: check.name,
                question: (0,flow_run/* questionOf */.YH)(check.inputs),
                minPass: plans[index].minPass,
                advisory: check.advisory,
            }, runs[sideIndex][index]);
            if (plans[index].repeat > 1)
                options.log.info(`Check "${check.name}"${side.label}: ${result.verdict} (${(0,checks_verdict/* runsPassed */.x5)(result)} of ${(0,checks_verdict/* runsMade */.oo)(result)} ` +
                    `runs passed, ${result.minPass} needed)`);
            return result;
        });
        return { results, ...(stopped !== undefined ? { stopped } : {}) };
    });
}

// EXTERNAL MODULE: ./src/service/retry.ts
var retry = __webpack_require__(75585);
;// CONCATENATED MODULE: ./src/checks/settle.ts


/** The settle settings of the run-flow inputs; the settle check's runs are what the suite leaves of max-runs. */
function settleSettingsOf(config, checks) {
    const suiteRuns = plannedRuns(checks, config.repeats) * (config.baseline ? 2 : 1);
    return {
        settleMs: config.settleMs,
        ...(config.settleCheck !== undefined ? { settleCheck: config.settleCheck } : {}),
        runs: Math.max(0, config.maxRuns - suiteRuns),
    };
}
// The first poll is at once; then 2, 4, 8, 16 s apart, and every 30 s after: a sync that indexes in
// seconds is seen in seconds, and a ten-minute wait costs about 25 runs, not hundreds.
const FIRST_POLL_GAP_MS = 2_000;
const LONGEST_POLL_GAP_MS = 30_000;
const secondsOf = (ms) => Math.round(ms / 100) / 10;
async function settle(checks, settings, poll, options, clock = retry/* systemClock */.ml) {
    if (settings.settleMs <= 0)
        return undefined;
    const { log, signal } = options;
    const started = clock.now();
    const deadline = started + settings.settleMs;
    const elapsed = () => secondsOf(clock.now() - started);
    if (settings.settleCheck === undefined) {
        log.info(`Settle: waiting ${secondsOf(settings.settleMs)} s for the knowledge base to take the sync.`);
        await clock.sleep(settings.settleMs, signal);
        const cancelled = signal?.aborted === true;
        return {
            note: cancelled
                ? `The wait for the knowledge base (settle) was cancelled after ${elapsed()} s.`
                : `Waited ${elapsed()} s (settle) for the knowledge base to take the sync; nothing tells whether it did.`,
            unsettled: cancelled,
            polls: 0,
            seconds: elapsed(),
        };
    }
    const name = settings.settleCheck;
    const found = checks.find((check) => check.name === name);
    if (!found)
        throw new Error(`settle-check ${JSON.stringify(name)} is not a check of the suite`);
    // One run per poll, judged by every assertion: the check's own repeat and min-pass are for the suite.
    const check = { ...found, repeat: undefined, minPass: undefined };
    let polls = 0;
    let gap = FIRST_POLL_GAP_MS;
    const ended = (why, unsettled) => ({
        note: why,
        unsettled,
        polls,
        seconds: elapsed(),
    });
    const runs = (n) => `${n} ${n === 1 ? 'run' : 'runs'}`;
    for (;;) {
        if (signal?.aborted)
            return ended(`The settle check "${name}" was cancelled after ${runs(polls)}.`, true);
        if (polls >= settings.runs)
            return ended(`The settle check "${name}" did not pass in ${runs(polls)}, all that max-runs leaves after the checks ` +
                `(${elapsed()} s): the checks may still see the old documents.`, true);
        polls++;
        // A poll still running at the deadline is stopped there: the deadline bounds the whole wait.
        const cut = AbortSignal.timeout(Math.max(1, deadline - clock.now()));
        const outcome = await poll(check, polls, signal ? AbortSignal.any([signal, cut]) : cut);
        const { result } = outcome;
        if (result.verdict === 'passed')
            return ended(`The settle check "${name}" passed after ${elapsed()} s (${runs(polls)}): the knowledge base answers ` +
                'from the sync, as far as that check can tell.', false);
        if (outcome.stopped !== undefined)
            return ended(`The settle check "${name}" stopped: ${outcome.stopped}`, true);
        const left = deadline - clock.now();
        if (left <= 0)
            return ended(`The settle check "${name}" did not pass within settle (${secondsOf(settings.settleMs)} s, ` +
                `${runs(polls)}): the checks may still see the old documents.`, true);
        log.info(`Settle: "${name}" ${result.verdict} (${result.runs[0]?.failed.join('; ') || 'no answer'}); next run in ` +
            `${secondsOf(Math.min(gap, left))} s.`);
        await clock.sleep(Math.min(gap, left), signal);
        gap = Math.min(gap * 2, LONGEST_POLL_GAP_MS);
    }
}
/**
 * With a baseline: a settle check that passes on the baseline flow too tells nothing about the sync (it
 * passed on the old documents as well), so its passing may have come before the sync was answerable.
 */
function settleCaveat(settleCheck, before) {
    if (settleCheck === undefined || !before)
        return undefined;
    const baseline = before.find((result) => result.name === settleCheck);
    if (baseline?.verdict !== 'passed')
        return undefined;
    return (`The settle check "${settleCheck}" passes on the baseline flow too: its passing cannot tell the new ` +
        'documents from the old, so the checks may have run before the sync was answerable. Name a check this ' +
        'change makes pass.');
}

// EXTERNAL MODULE: ./src/service/client.ts + 3 modules
var service_client = __webpack_require__(2581);
;// CONCATENATED MODULE: ./src/jobs/checks-suite.ts
// The checks suite of the run-flow action and of `kb-sync run`: the client, the checks on the flow (and
// on the baseline flow), the verdict by `threshold`.





/**
 * The run-flow inputs' suite against the service: `concurrency` runs in flight, judged by `threshold`.
 * `storedBefore`: the baseline flow's results kept from an earlier run (#36 §5); the baseline flow is then
 * not run, and they are the `before` side.
 */
async function runCheckSuite(config, checks, log, signal, { storedBefore } = {}) {
    const client = new service_client/* ServiceClient */.Nl({
        baseUrl: config.baseUrl,
        publicKey: config.publicKey,
        connections: config.concurrency,
    });
    try {
        const sides = [{ target: config.target, label: '' }];
        if (config.baseline && !storedBefore)
            sides.push({ target: config.baseline, label: ' (before)' });
        const options = {
            ...flowRunOptions(config, log, signal),
            concurrency: config.concurrency,
            repeats: config.repeats,
            ...(config.judge ? { judge: config.judge } : {}),
        };
        // The flow answers from the sync before its answers are measured (`settle`, `settle-check`).
        const settled = await settle(checks, settleSettingsOf(config, checks), async (check, run, stop) => {
            const side = { target: config.target, label: ` (settle run ${run})` };
            const [outcome] = await runChecksOn(client, [side], [check], {
                ...options,
                signal: stop,
                repeats: { repeat: 1 },
            });
            return {
                result: outcome.results[0],
                ...(outcome.stopped !== undefined ? { stopped: outcome.stopped } : {}),
            };
        }, options);
        const [outcome, baseline] = await runChecksOn(client, sides, checks, options);
        return {
            ...outcome,
            ...(settled ? { settled } : {}),
            verdict: (0,checks_verdict/* suiteVerdict */._2)(outcome.results, config.threshold),
            ...(baseline ? { before: baseline.results } : storedBefore ? { before: storedBefore } : {}),
        };
    }
    finally {
        await client.close();
    }
}

;// CONCATENATED MODULE: ./src/jobs/flow-run.ts
// The single flow run of the run-flow action and of `kb-sync run`: the client, one run of the flow
// (flow/run.ts), the `expect` judgement.




/**
 * The single flow run of the run-flow action and of `kb-sync run`: the client, the run with its retries
 * and bounds, the `expect` judgement, the client closed. The front ends differ only in what they show:
 * `answerShown` when the front end shows the answer itself (the CLI), so a missed `expect` does not quote it.
 */
async function runFlowJob(config, log, signal, { answerShown = false } = {}) {
    const client = new service_client/* ServiceClient */.Nl({ baseUrl: config.baseUrl, publicKey: config.publicKey, connections: 1 });
    try {
        const report = await (0,flow_run.runFlow)(client, { target: config.target, inputs: config.inputs, outputKey: config.outputKey }, flowRunOptions(config, log, signal));
        const wording = { input: config.names.ref('expect'), answerShown };
        return { ok: true, report, problem: (0,expect/* expectationProblem */.iA)(report.result, config.expect, wording) };
    }
    catch (error) {
        if (error instanceof flow_run/* FlowRunError */.wf)
            return { ok: false, error };
        throw error;
    }
    finally {
        await client.close();
    }
}

// EXTERNAL MODULE: ./src/report/flow-section.ts
var flow_section = __webpack_require__(49046);
// EXTERNAL MODULE: ./src/report/index-outputs.ts
var index_outputs = __webpack_require__(45521);
// EXTERNAL MODULE: ./src/report/report-file.ts
var report_file = __webpack_require__(66757);
// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(51455);
;// CONCATENATED MODULE: ./src/report/xml.ts
// A small XML writer (the JUnit report's): elements, attributes and text, every value escaped. Answers and
// check names can hold any character; XML 1.0 cannot carry some (control characters, lone surrogates,
// U+FFFE/U+FFFF) even escaped, so those are dropped — a file a reader refuses is worse than a lost byte.
// Everything outside XML 1.0's Char production; with the u flag a lone surrogate is one code point here.
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
/** The text without the characters XML 1.0 cannot carry. */
const xmlChars = (text) => text.replace(NOT_XML_CHAR, '');
const TEXT_ESCAPES = {
    '&': '&amp;',
    '<': '&lt;',
    '>': '&gt;',
    '\r': '&#13;',
};
// In an attribute a parser turns a raw newline or tab into a space: as references they survive.
const ATTRIBUTE_ESCAPES = {
    ...TEXT_ESCAPES,
    '"': '&quot;',
    '\n': '&#10;',
    '\t': '&#9;',
};
const escapeText = (text) => xmlChars(text).replace(/[&<>\r]/g, (c) => TEXT_ESCAPES[c]);
const escapeAttribute = (text) => xmlChars(text).replace(/[&<>"\r\n\t]/g, (c) => ATTRIBUTE_ESCAPES[c]);
function renderElement(element, indent, out) {
    const attributes = Object.entries(element.attributes ?? {})
        .filter((entry) => entry[1] !== undefined)
        .map(([name, value]) => ` ${name}="${escapeAttribute(String(value))}"`)
        .join('');
    const children = element.children ?? [];
    if (element.text !== undefined && element.text !== '') {
        out.push(`${indent}<${element.name}${attributes}>${escapeText(element.text)}</${element.name}>`);
        return;
    }
    if (children.length === 0) {
        out.push(`${indent}<${element.name}${attributes}/>`);
        return;
    }
    out.push(`${indent}<${element.name}${attributes}>`);
    for (const child of children)
        renderElement(child, `${indent}  `, out);
    out.push(`${indent}</${element.name}>`);
}
/** A whole document: the UTF-8 declaration, then the root element, indented by two spaces a level. */
function renderXmlDocument(root) {
    const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
    renderElement(root, '', out);
    return `${out.join('\n')}\n`;
}

;// CONCATENATED MODULE: ./src/report/checks-junit.ts



// An answer's beginning in a test case's output; the results file holds every answer whole.
const ANSWER_CHARS = 2000;
// A failure's one-line message; the element's text holds every failed assertion.
const MESSAGE_CHARS = 500;
const SUITES_NAME = 'kb-sync checks';
const CHANGE_WORDS = {
    fixed: 'fixed (failed on the baseline flow, passes on this one)',
    regressed: 'regressed (passed on the baseline flow, fails on this one)',
    'still-passing': 'still passing (passes on both flows)',
    'still-failing': 'still failing (fails on both flows)',
    error: 'not compared (a run failed on one side)',
};
const changeShort = (change) => change === 'error' ? 'not compared' : change.replace('-', ' ');
const seconds = (value) => value.toFixed(3);
const checks_junit_oneLine = (text, chars = MESSAGE_CHARS) => {
    const line = text.replace(/\s+/g, ' ').trim();
    return line.length <= chars ? line : `${line.slice(0, chars - 1)}…`;
};
const flowName = (target) => `${target.orgId}/${target.flowId}`;
/** The time the check's runs took (judging apart), each run sent counted. */
const checkSeconds = (result) => result.runs.filter((run) => run.started).reduce((sum, run) => sum + run.seconds, 0);
const repeated = (result) => result.runs.length > 1;
const runsLine = (result) => `${(0,checks_verdict/* runsPassed */.x5)(result)} of ${(0,checks_verdict/* runsMade */.oo)(result)} runs passed, ${result.minPass} needed`;
function judgeText(judge) {
    return `judge ${judge.verdict}, score ${(0,judge_flow/* scoreText */.QO)(judge.score)}: ${judge.reason}`;
}
function runLine(run) {
    const parts = [`${run.verdict}, ${run.seconds} s`];
    if (run.runId)
        parts.push(`run id ${run.runId}`);
    if (run.judge)
        parts.push(judgeText(run.judge));
    const failed = run.failed.length > 0 ? `: ${run.failed.join('; ')}` : '';
    return `Run ${run.run}: ${parts.join('; ')}${failed}`;
}
function answerText(answer) {
    if (answer.length <= ANSWER_CHARS)
        return answer;
    return `${answer.slice(0, ANSWER_CHARS)}… (cut; the results file holds the whole answer)`;
}
/** What the test case's output tells: the question, the runs, the change, the answer shown. */
function caseOutput(result, compared) {
    const lines = [`Question: ${result.question}`];
    if (repeated(result))
        lines.push(`Runs: ${runsLine(result)}.`);
    if (result.advisory)
        lines.push('Advisory: reported, never failing the step nor the threshold.');
    if (compared) {
        lines.push(`Change: ${CHANGE_WORDS[compared.change]}.`);
        const before = compared.before;
        lines.push(`Baseline flow: ${before.verdict}, ${runsLine(before)}.`);
    }
    if (result.judge)
        lines.push(`Judge: ${judgeText(result.judge)}`);
    lines.push(...result.runs.filter((run) => run.started).map(runLine));
    if ((0,checks_verdict/* runsMade */.oo)(result) > 0)
        lines.push(`Answer${repeated(result) ? ' shown' : ''}:`, answerText(result.answer));
    return lines.join('\n');
}
/** The failure's message: the change, the runs that passed, the first failed assertion. */
function problemMessage(result, compared) {
    const parts = [];
    if (compared)
        parts.push(changeShort(compared.change));
    if (repeated(result))
        parts.push(runsLine(result));
    const first = result.failed[0] ?? result.verdict;
    const more = result.failed.length > 1 ? ` (and ${result.failed.length - 1} more)` : '';
    return checks_junit_oneLine(`${parts.length > 0 ? `${parts.join('; ')}: ` : ''}${first}${more}`);
}
/** Why no run of the check was sent (the step was cancelled, or stopped on a refused key). */
function notRunReason(result) {
    const first = result.runs[0]?.failed[0] ?? 'not run';
    return first.replace(/^not run: /, 'Not run: ');
}
function testCase(result, classname, compared) {
    const output = { name: 'system-out', text: caseOutput(result, compared) };
    const attributes = { name: result.name, classname, time: seconds(checkSeconds(result)) };
    const details = result.failed.join('\n');
    let outcome;
    if ((0,checks_verdict/* runsMade */.oo)(result) === 0)
        outcome = { name: 'skipped', text: notRunReason(result) };
    else if (result.verdict !== 'passed' && result.advisory)
        outcome = {
            name: 'skipped',
            text: `Advisory check ${result.verdict === 'error' ? 'errored' : 'failed'} (never fails the step): ${problemMessage(result, compared)}`,
        };
    else if (result.verdict === 'failed')
        outcome = {
            name: 'failure',
            attributes: { message: problemMessage(result, compared), type: compared?.change ?? 'assertion' },
            text: details,
        };
    else if (result.verdict === 'error')
        outcome = {
            name: 'error',
            attributes: { message: problemMessage(result, compared), type: 'error' },
            text: details,
        };
    return { name: 'testcase', attributes, children: outcome ? [outcome, output] : [output] };
}
const countOf = (cases, child) => cases.filter((element) => element.children?.some((c) => c.name === child)).length;
/** ISO 8601 to the second, as JUnit readers parse it. */
const timestampOf = (date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');
function checks_junit_document(cases, properties, flow, startedAt, time) {
    const counts = {
        tests: cases.length,
        failures: countOf(cases, 'failure'),
        errors: countOf(cases, 'error'),
    };
    const listed = properties
        .filter((entry) => entry[1] !== undefined)
        .map(([name, value]) => ({ name: 'property', attributes: { name, value } }));
    const suite = {
        name: 'testsuite',
        attributes: {
            name: `Flow checks on ${flowName(flow)}`,
            ...counts,
            skipped: countOf(cases, 'skipped'),
            time: seconds(time),
            timestamp: timestampOf(startedAt),
        },
        children: [...(listed.length > 0 ? [{ name: 'properties', children: listed }] : []), ...cases],
    };
    return renderXmlDocument({
        name: 'testsuites',
        attributes: { name: SUITES_NAME, ...counts, time: seconds(time) },
        children: [suite],
    });
}
const classnameOf = (checksFile) => checksFile ?? 'inline checks';
/**
 * The suite's JUnit XML. The suite's time is the sum of its cases' (runs in parallel overlap, so it can
 * exceed the time the step took); each case's is the sum of its runs' (judging apart).
 */
function renderChecksJUnit(input) {
    const classname = classnameOf(input.checksFile);
    const cases = input.results.map((result, index) => testCase(result, classname, input.compared?.[index]));
    const time = input.results.reduce((sum, result) => sum + checkSeconds(result), 0);
    return checks_junit_document(cases, [
        ['flow', flowName(input.flow)],
        ['baseline-flow', input.baseline && flowName(input.baseline)],
        ['judge-flow', input.judge && flowName(input.judge)],
        ['checks', classname],
        ['verdict', input.verdictLine],
    ], input.flow, input.startedAt, time);
}
/** The JUnit XML of a suite the skip rule did not run: every check skipped, with the reason. */
function renderSkippedJUnit(input) {
    const classname = classnameOf(input.checksFile);
    const cases = input.names.map((name) => ({
        name: 'testcase',
        attributes: { name, classname, time: seconds(0) },
        children: [{ name: 'skipped', text: input.reason }],
    }));
    return checks_junit_document(cases, [
        ['flow', flowName(input.flow)],
        ['checks', classname],
        ['verdict', input.reason],
    ], input.flow, input.startedAt, 0);
}

// EXTERNAL MODULE: ./src/report/redact.ts
var redact = __webpack_require__(20649);
;// CONCATENATED MODULE: ./src/report/junit-file.ts
// Writes the JUnit report (`junit-file`): the XML rendered from the results with the keys masked first
// (rendering escapes text, after which a key would no longer be found), then masked again whole.






/** Writes the report to `path` (its folders made); throws a ReportFileError naming the file. */
async function writeJUnitFile(path, report, secrets) {
    const xml = report.kind === 'checks'
        ? renderChecksJUnit((0,redact/* redactDeep */.K)(report.input, secrets))
        : renderSkippedJUnit((0,redact/* redactDeep */.K)(report.input, secrets));
    try {
        await (0,promises_.mkdir)((0,external_node_path_.dirname)(path), { recursive: true });
        await (0,promises_.writeFile)(path, secrets.redact(xml));
    }
    catch (error) {
        throw new report_file/* ReportFileError */.tG(path, (0,temp_folder/* reasonOf */.A3)(error));
    }
}
/** What the report names of the run's settings: the flow, the baseline and judge flows, the checks file. */
function junitTargetsOf(config) {
    return {
        flow: config.target,
        ...(config.baseline ? { baseline: config.baseline } : {}),
        ...(config.judge ? { judge: config.judge.target } : {}),
        ...(config.checksFile !== undefined ? { checksFile: config.checksFile } : {}),
    };
}

;// CONCATENATED MODULE: ./src/cli/checks-text.ts
// What `kb-sync run --checks` prints on stdout: the checks table (the one the summary and the comment
// show), then each check that did not pass with its question, failed assertions and the beginning of its
// answer (what a person needs to see why), then the verdict and the runs, worded as everywhere else.







const indented = (text) => text.replace(/\n/g, '\n    ');
// The diff's beginning printed, like the answers' excerpts: enough to see the change in a terminal.
const DIFF_EXCERPT_CHARS = 1_000;
const MARK = { same: ['', ''], removed: ['[-', '-]'], added: ['{+', '+}'] };
/** `within [-30-]{+14+} days` (wdiff's marks), its beginning, each mark closed. */
function plainDiff(parts) {
    let text = '';
    for (const part of parts) {
        const [open, close] = MARK[part.change];
        const room = DIFF_EXCERPT_CHARS - text.length;
        if (part.text.length > room)
            return `${text}${open}${part.text.slice(0, Math.max(0, room))}…${close}`;
        text += `${open}${part.text}${close}`;
    }
    return text;
}
/** The word-level diff lines of a changed answer (none when one side has no answer: its line says so). */
function diffLines(check) {
    const diff = wordDiffOf((0,log/* sanitize */.aj)(check.before.answer), (0,log/* sanitize */.aj)(check.after.answer));
    if (diff.kind === 'no-answer')
        return [];
    if (diff.kind === 'same-words')
        return [
            diff.partial
                ? `  No word differs in the first ${(0,units/* formatCount */.B4)(DIFF_CHARS)} characters of the answers.`
                : '  The answers have the same words; only white space differs.',
        ];
    if (diff.kind === 'dissimilar')
        return [
            `  No word-level diff: the answers have less than ${MIN_SHARED_WORDS * 100}% of their words in common.`,
        ];
    return [`  Diff ([-before-]{+after+}, excerpt):\n    ${indented(plainDiff(diff.parts).trimEnd())}`];
}
function checksText(results, verdict) {
    const entries = checksResultEntries(results);
    const notPassed = results.flatMap((result, index) => {
        if (result.verdict === 'passed' && result.failed.length === 0)
            return [];
        const runs = `${(0,checks_verdict/* runsPassed */.x5)(result)} of ${(0,checks_verdict/* runsMade */.oo)(result)} ${(0,checks_verdict/* runsMade */.oo)(result) === 1 ? 'run' : 'runs'} passed`;
        const lines = [
            `Check "${(0,log/* displayName */.QC)(result.name)}" ${result.verdict}${result.advisory ? ' (advisory)' : ''} (${runs}):`,
        ];
        lines.push(`  Question: ${indented((0,log/* sanitize */.aj)(result.question).trimEnd())}`);
        lines.push('  Failed assertions:');
        for (const failure of result.failed)
            lines.push(`  - ${(0,log/* displayName */.QC)(failure)}`);
        // The answer is the flow's text: control characters and escape sequences removed, line breaks kept.
        const answer = String(entries[index].excerpt);
        lines.push(answer === '' ? '  No answer.' : `  Answer (excerpt):\n    ${indented((0,log/* sanitize */.aj)(answer).trimEnd())}`);
        return [lines.join('\n')];
    });
    return [
        (0,checks_markdown/* renderChecksTable */.mI)(results).trimEnd(),
        ...notPassed,
        (0,checks_markdown/* verdictLine */.MT)(verdict),
        ...((0,checks_markdown/* advisoryLine */.QR)(verdict) ? [(0,checks_markdown/* advisoryLine */.QR)(verdict)] : []),
        (0,checks_markdown/* runsLine */.jp)(verdict),
    ].join('\n\n');
}
/**
 * `kb-sync run --baseline-flow-id`: the change first, the table the summary shows, then each check whose
 * verdict changed or that does not pass, with the beginning of the word-level diff and of both answers, and
 * the after side's verdict.
 */
function comparedText(compared, verdict, failOn) {
    const entries = comparedResultEntries(compared);
    const excerptOf = (entry) => (0,log/* sanitize */.aj)(String(entry?.excerpt ?? '')).trimEnd();
    const answer = (label, text) => text === '' ? `  ${label}: no answer.` : `  ${label} (excerpt):\n    ${indented(text)}`;
    const notable = compared.flatMap((check, index) => {
        if (check.change === 'still-passing')
            return [];
        const entry = entries[index];
        const lines = [`Check "${(0,log/* displayName */.QC)(check.name)}": ${changeLabel(check)}`];
        lines.push(`  Question: ${indented((0,log/* sanitize */.aj)(check.question).trimEnd())}`);
        for (const failure of check.after.failed)
            lines.push(`  - after: ${(0,log/* displayName */.QC)(failure)}`);
        if (check.unchanged)
            lines.push(answer('Answer, unchanged', excerptOf(entry.after)));
        else {
            lines.push(...diffLines(check));
            lines.push(answer('Before', excerptOf(entry.before)));
            lines.push(answer('After', excerptOf(entry.after)));
        }
        return [lines.join('\n')];
    });
    return [
        leadLine(compared),
        renderComparedTable(compared).trimEnd(),
        ...notable,
        `After: ${failOn === 'threshold' ? (0,checks_markdown/* verdictLine */.MT)(verdict) : afterText(verdict, failOn)}`,
        ...((0,checks_markdown/* advisoryLine */.QR)(verdict) ? [(0,checks_markdown/* advisoryLine */.QR)(verdict)] : []),
    ].join('\n\n');
}

// EXTERNAL MODULE: ./src/cli/console.ts
var console = __webpack_require__(81783);
// EXTERNAL MODULE: ./src/cli/errors.ts
var cli_errors = __webpack_require__(76675);
// EXTERNAL MODULE: ./src/cli/inputs.ts
var inputs = __webpack_require__(78885);
// EXTERNAL MODULE: ./src/cli/commands.ts + 44 modules
var commands = __webpack_require__(81776);
;// CONCATENATED MODULE: ./src/cli/run-command.ts
// `kb-sync run`: one flow run or a checks suite, as the run-flow action (its own module: `index` does not
// load the checks' schemas, YAML, ajv, re2js and the word diff at each start).






















async function runCommand(flags) {
    const log = (0,console/* commandLogger */.Ay)(flags);
    const signal = (0,runner/* cancellationSignal */.w6)(log);
    try {
        if (typeof flags.question === 'string' && typeof flags.inputs === 'string')
            throw new cli_errors/* UsageError */.eb(`--question and --inputs are exclusive: --question TEXT is the short form of --inputs '{"${inputs/* QUESTION_INPUT */.AY}": TEXT}'.`);
        const config = readRunConfig((0,inputs/* inputReader */.cN)(flags), {
            ...(0,commands.cliContext)(flags),
            workspace: process.cwd(),
            checksAnywhere: true,
        });
        (0,commands.checkPaths)(flags);
        if (config.checks)
            return await checksCommand(config, config.checks, flags, log, signal);
        const started = external_node_perf_hooks_.performance.now();
        // The answer is printed on stdout: a missed --expect names the pattern without quoting it again.
        const run = await runFlowJob(config, log, signal, { answerShown: true });
        if (!run.ok)
            throw run.error;
        const { report, problem } = run;
        const { verdict } = (0,checks_verdict/* singleQuestionResult */.Cw)({
            question: report.question,
            answer: report.result,
            problem,
            seconds: (external_node_perf_hooks_.performance.now() - started) / 1000,
        });
        (0,console/* printResult */.RS)(log, flags.json
            ? JSON.stringify({
                result: report.result,
                response: report.response,
                outputs: (0,answer/* outputsOf */.Y)(report.response),
            })
            : report.result);
        (0,commands.writeSummaryFile)(log, flags, () => (0,flow_section/* flowSection */.Ap)((0,redact/* redactDeep */.K)(report, log.secrets), verdict, problem ? [log.secrets.redact(problem)] : []));
        await (0,commands.writeReportFileFlag)(log, flags, (0,index_outputs/* flowOutputSpecs */.wL)(report), 'the flow run completed');
        if (problem) {
            log.error(problem);
            process.exitCode = cli_errors/* EXIT_FAILURE */.w5;
        }
    }
    catch (error) {
        (0,console/* reportError */.N7)(log, error);
    }
}
async function checksCommand(config, checks, flags, log, signal) {
    const startedAt = new Date();
    const { results, verdict, stopped, before } = await runCheckSuite(config, checks, log, signal);
    const compared = before ? compareResults(before, results) : undefined;
    if (compared)
        await comparedChecksOutcome(compared, verdict, stopped, flags, log, signal, config.failOn);
    else {
        (0,console/* printResult */.RS)(log, flags.json ? checksResultsJson(results) : checksText(results, verdict));
        (0,commands.writeSummaryFile)(log, flags, () => (0,checks_markdown/* renderChecksSummary */.EX)((0,redact/* redactDeep */.K)(results, log.secrets), (0,redact/* redactDeep */.K)(verdict, log.secrets)));
        await (0,commands.writeReportFileFlag)(log, flags, checksOutputSpecs(results, verdict), (0,checks_markdown/* verdictText */.nt)(verdict));
        settleSuiteExit(log, signal, stopped, {
            failed: !verdict.ok,
            anyCheckFailed: verdict.failed > 0,
            line: `Flow checks: ${(0,checks_markdown/* verdictText */.nt)(verdict)}`,
        });
    }
    // After the results are out: a report that cannot be written does not hide them.
    await writeJUnitFlag(config, log, flags, {
        ...junitTargetsOf(config),
        results,
        ...(compared ? { compared } : {}),
        verdictLine: compared
            ? `${changeSentence(changeSummary(compared))} After: ${afterText(verdict, config.failOn)}`
            : (0,checks_markdown/* verdictText */.nt)(verdict),
        startedAt,
    });
}
/** `--junit-file`: the suite as a JUnit XML report; a failure names the flag and the file. */
async function writeJUnitFlag(config, log, flags, input) {
    if (config.junitFile === undefined)
        return;
    try {
        await writeJUnitFile(config.junitFile, { kind: 'checks', input }, log.secrets);
    }
    catch (error) {
        if (!(error instanceof report_file/* ReportFileError */.tG))
            throw error;
        throw new Error(`--junit-file: ${error.message} The checks ran: ${input.verdictLine}`, { cause: error });
    }
    // `true` names no file: the one made in the temporary folder is said.
    if (typeof flags.junitFile === 'string' && /^true$/i.test(flags.junitFile.trim()))
        log.notice(`JUnit report: ${config.junitFile}`);
    else
        log.info(`JUnit report: ${config.junitFile}`);
}
/**
 * The exit status of a suite, as the action's step ends: cancelled, stopped early, failed; or passed,
 * with a warning when some checks failed (the step passes, and the checks that failed are not silent).
 */
function settleSuiteExit(log, signal, stopped, outcome) {
    const cancelled = (0,cancellation/* cancellationOf */.zg)(signal);
    if (cancelled) {
        log.error(`${cancelled.message}: checks that had not answered are reported as errors.`);
        process.exitCode = (0,cancellation/* cancelledExitStatus */.i$)(cancelled);
    }
    else if (stopped) {
        log.error(`${stopped} No further run of the suite was sent.`);
        process.exitCode = cli_errors/* EXIT_FAILURE */.w5;
    }
    else if (outcome.failed) {
        log.error(outcome.line);
        process.exitCode = cli_errors/* EXIT_FAILURE */.w5;
    }
    else if (outcome.anyCheckFailed)
        log.warning(outcome.line);
}
/** A suite compared with its baseline flow: printed, summarised and judged like the action's step. */
async function comparedChecksOutcome(compared, verdict, stopped, flags, log, signal, failOn) {
    const change = changeSummary(compared);
    (0,console/* printResult */.RS)(log, flags.json ? comparedResultsJson(compared) : comparedText(compared, verdict, failOn));
    (0,commands.writeSummaryFile)(log, flags, () => renderComparedSummary((0,redact/* redactDeep */.K)(compared, log.secrets), (0,redact/* redactDeep */.K)(verdict, log.secrets), failOn));
    await (0,commands.writeReportFileFlag)(log, flags, comparedOutputSpecs(compared, verdict), changeSentence(change));
    settleSuiteExit(log, signal, stopped, {
        failed: failOn === 'regression' ? blockingRegressions(change) > 0 : !verdict.ok,
        anyCheckFailed: verdict.failed > 0,
        line: `Flow checks: ${changeSentence(change)} After: ${afterText(verdict, failOn)}`,
    });
}


/***/ }),

/***/ 98723:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   iA: () => (/* binding */ expectationProblem),
/* harmony export */   mU: () => (/* binding */ compileExpectation),
/* harmony export */   n_: () => (/* binding */ findBounded)
/* harmony export */ });
/* unused harmony exports MAX_MATCH_WORK, MatchTooCostlyError */
/* harmony import */ var re2js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(2856);
/* harmony import */ var _units_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(61996);
// The `expect` check of a flow's answer, with RE2 syntax (re2js): matching takes time linear in the
// answer, so no pattern can hang the step the way a backtracking engine can on `(a+)+$`.


/**
 * The most work one match may take, as RE2's program size × the text's length. RE2 is linear in the text,
 * but its automaton may walk its whole program per character: `(\w|\s){1000}\d` (a program of 3,003)
 * against 90,000 characters takes seconds, ~20–25 ns per unit at worst (`npm run bench -- matching`,
 * bench/README.md). 40 million units is at most ~1 s of a blocked thread; common patterns
 * (`(?i)refund.*30 days`: 17) stay far below it even against a 900 KiB answer.
 */
const MAX_MATCH_WORK = 40_000_000;
/** A match refused before it starts, because it could hold the thread for seconds. */
class MatchTooCostlyError extends Error {
    constructor(pattern, length) {
        super(`the pattern ${JSON.stringify(pattern.pattern())} (an RE2 program of ${(0,_units_js__WEBPACK_IMPORTED_MODULE_0__/* .formatCount */ .B4)(pattern.programSize())}) ` +
            `against ${(0,_units_js__WEBPACK_IMPORTED_MODULE_0__/* .formatCount */ .B4)(length)} characters is more work than one match may take ` +
            `(${(0,_units_js__WEBPACK_IMPORTED_MODULE_0__/* .formatCount */ .B4)(MAX_MATCH_WORK)} program steps × characters); use a shorter pattern (fewer repeats)`);
        this.name = 'MatchTooCostlyError';
    }
}
/** Whether `pattern` matches somewhere in `text`; throws MatchTooCostlyError instead of a long match. */
function findBounded(pattern, text) {
    if (pattern.programSize() * text.length > MAX_MATCH_WORK)
        throw new MatchTooCostlyError(pattern, text.length);
    return pattern.matcher(text).find();
}
// How much of a non-matching answer the failure quotes; the whole (cut) answer is the `result` output.
const QUOTED_CHARS = 2000;
/** The compiled pattern, or why it is not a valid RE2 pattern. */
function compileExpectation(source) {
    try {
        return { pattern: re2js__WEBPACK_IMPORTED_MODULE_1__/* .RE2JS */ .L3.compile(source) };
    }
    catch (error) {
        if (!(error instanceof re2js__WEBPACK_IMPORTED_MODULE_1__/* .RE2JSException */ .o_))
            throw error;
        return { problem: error.message };
    }
}
/**
 * Why the answer fails `expect` (quoting its beginning, unless it is shown already), or undefined when it
 * matches or nothing is expected.
 */
function expectationProblem(answer, expect, { input = '"expect"', answerShown = false } = {}) {
    if (!expect)
        return undefined;
    try {
        if (findBounded(expect, answer))
            return undefined;
    }
    catch (error) {
        if (!(error instanceof MatchTooCostlyError))
            throw error;
        return `The flow's answer could not be matched against ${input}: ${error.message}.`;
    }
    if (answerShown)
        return `The flow's answer (printed on stdout) does not match ${input} (${expect.pattern()}).`;
    const quoted = answer.length <= QUOTED_CHARS ? answer : answer.slice(0, QUOTED_CHARS);
    const rest = answer.length <= QUOTED_CHARS
        ? ''
        : `\n…[${(0,_units_js__WEBPACK_IMPORTED_MODULE_0__/* .formatCount */ .B4)(answer.length - QUOTED_CHARS)} more characters in the "result" output]`;
    return `The flow's answer does not match ${input} (${expect.pattern()}). The answer begins:\n${quoted}${rest}`;
}


/***/ }),

/***/ 67139:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  wf: () => (/* binding */ FlowRunError),
  YH: () => (/* binding */ questionOf),
  runFlow: () => (/* binding */ runFlow)
});

// UNUSED EXPORTS: expectationProblem

// EXTERNAL MODULE: ./src/setting-names.ts
var setting_names = __webpack_require__(81018);
// EXTERNAL MODULE: ./src/flow/answer.ts
var flow_answer = __webpack_require__(1500);
// EXTERNAL MODULE: ./src/service/cut.ts
var cut = __webpack_require__(44395);
// EXTERNAL MODULE: ./src/service/errors.ts
var errors = __webpack_require__(5756);
// EXTERNAL MODULE: ./src/service/retry.ts
var retry = __webpack_require__(75585);
;// CONCATENATED MODULE: ./src/flow/run-retry.ts
// When a flow run may be sent again. A run costs money and may have side effects, so unlike indexing
// it is retried only when it provably did not start: the `flowRun` column of RETRY_RULES.


function runMayBeRetried(failure, options) {
    if (!(failure instanceof errors/* ServiceError */._7))
        return false;
    switch ((0,retry/* retryRuleOf */.mF)(failure)?.flowRun) {
        case 'retried':
            return true;
        case 'with-retry-on-server-error':
            return options.retryOnServerError;
        case 'before-body-sent':
            // A 2xx whose body stalls, or a sent request that got no answer, may have started a run.
            return failure.status === undefined && !failure.bodySent;
        default:
            return false;
    }
}
/** Why a failure that indexing would retry was not retried here, for the error message. */
function whyNotRetried(failure, options) {
    if (!(failure instanceof errors/* ServiceError */._7) || !failure.retryable || runMayBeRetried(failure, options))
        return undefined;
    if (failure.status !== undefined)
        return `not retried: a flow run is not idempotent and HTTP ${failure.status} does not prove it did not start (set "retry-on-server-error" to retry ${serverErrorStatuses()})`;
    return 'not retried: a flow run is not idempotent and the request may have reached the service';
}
function serverErrorStatuses() {
    const statuses = Object.entries(retry/* RETRY_RULES */.r9.statuses)
        .filter(([, rule]) => rule.flowRun === 'with-retry-on-server-error')
        .map(([status]) => status);
    return `${statuses.slice(0, -1).join(', ')} and ${statuses.at(-1)}`;
}

// EXTERNAL MODULE: ./src/service/client.ts + 3 modules
var service_client = __webpack_require__(2581);
// EXTERNAL MODULE: ./src/flow/expect.ts
var expect = __webpack_require__(98723);
// EXTERNAL MODULE: ./src/units.ts
var units = __webpack_require__(61996);
;// CONCATENATED MODULE: ./src/flow/run.ts
// One run of the flow: retried only when it provably did not start, bounded by a deadline for the whole
// run, judged by the answer's own state, and cut to what a step output can hold.










/**
 * A run that failed; `response` is the (cut) answer when the service gave one. `othersCannotRun`: why no
 * other run can succeed either (the service answered 401/403 to the key, or nothing listens at a base
 * URL on this machine), in the words a run left unsent is reported with.
 */
class FlowRunError extends Error {
    response;
    othersCannotRun;
    constructor(message, response, othersCannotRun) {
        super(message);
        this.response = response;
        this.othersCannotRun = othersCannotRun;
        this.name = 'FlowRunError';
    }
}
/** The question shown in the summary: `in-0` when present, else every input. */
function questionOf(inputs) {
    return (inputs['in-0'] ??
        Object.entries(inputs)
            .map(([k, v]) => `${k}: ${v}`)
            .join('\n'));
}
async function runFlow(client, request, options) {
    const { log } = options;
    if (!Object.keys(request.inputs).some((key) => /^in-\d+$/.test(key))) {
        log.warning('None of the flow inputs is named like "in-<n>" (e.g. "in-0"); sending them as given.');
    }
    const retryOptions = { retryOnServerError: options.retryOnServerError ?? false };
    const names = options.names ?? setting_names/* ACTION_INPUT_NAMES */.f;
    const deadline = options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs);
    const signals = [options.signal, deadline].filter((s) => s !== undefined);
    const signal = signals.length > 0 ? AbortSignal.any(signals) : undefined;
    const noOneListens = (failure) => failure instanceof service_client/* ServiceError */._7 && !options.retry.retryLocalRefusal
        ? (0,errors/* nothingListening */.bW)(failure, names)
        : undefined;
    const startedAt = Date.now();
    let refusalExplained = false;
    let answer;
    try {
        answer = await (0,retry/* callWithRetry */.ZG)((s) => client.runFlow(request.target, request.inputs, { signal: s, outputKey: request.outputKey }), {
            policy: options.retry,
            signal,
            retryable: (failure) => !noOneListens(failure) && runMayBeRetried(failure, retryOptions),
            onRetry: (failure, attempt, delayMs) => {
                if (!refusalExplained && failure instanceof service_client/* ServiceError */._7 && failure.code === 'ECONNREFUSED') {
                    refusalExplained = true;
                    log.warning((0,errors/* refusedConnectionNotice */.Lc)(failure, names, retryBound(startedAt, options)));
                }
                log.warning(`Flow run attempt ${attempt} did not start (${failure instanceof Error ? failure.message : String(failure)}); ` +
                    `trying again in ${(delayMs / 1000).toFixed(1)} s.`);
            },
        });
    }
    catch (error) {
        const unreachable = noOneListens(error);
        const keyRefused = error instanceof service_client/* ServiceError */._7 && (error.status === 401 || error.status === 403);
        throw new FlowRunError(unreachable ??
            explainFailure(error, {
                ...retryOptions,
                cancelled: options.signal?.aborted === true,
                timedOut: deadline?.aborted === true,
                timeoutMs: options.timeoutMs,
                names,
            }), undefined, unreachable
            ? 'nothing listens at the base URL (an earlier run was refused the connection)'
            : keyRefused
                ? 'the service refused the key of an earlier run'
                : undefined);
    }
    const response = (0,cut/* cutJson */.xQ)(answer);
    if (response.cutStrings > 0 || response.cutChars > 0)
        log.warning(`The output "response" was cut to stay under GitHub's 1 MiB limit: ${response.cutStrings} string value(s) ` +
            `shortened, ${(0,units/* formatCount */.B4)(response.cutChars)} characters removed (each cut is marked in place).`);
    const failure = (0,flow_answer/* runFailure */.A)(answer);
    if (failure)
        throw new FlowRunError(failure, response.value);
    let named;
    try {
        named = (0,service_client/* namedOutput */.XQ)(answer, request.outputKey);
    }
    catch (error) {
        throw new FlowRunError(error instanceof Error ? error.message : String(error), response.value);
    }
    const result = (0,cut/* cutText */.IN)(named, cut/* OUTPUT_LIMIT_BYTES */._G);
    if (result.cutBytes > 0)
        log.warning(`The output "result" (${request.outputKey}) was cut to stay under GitHub's 1 MiB limit: the last ` +
            `${(0,units/* formatCount */.B4)(result.cutBytes)} of ${(0,units/* formatCount */.B4)(result.totalBytes)} bytes were removed.`);
    return {
        question: questionOf(request.inputs),
        result: result.text,
        ...(result.cutBytes > 0 ? { resultBytes: result.totalBytes } : {}),
        response: response.value,
    };
}
/** Until when a run that did not start is retried: retry-deadline, or run-timeout when it ends first. */
function retryBound(startedAt, options) {
    const what = 'The flow run is retried while it provably did not start,';
    const timeoutFirst = options.timeoutMs !== undefined && options.timeoutMs < options.retry.deadlineMs;
    return timeoutFirst
        ? { what, until: startedAt + options.timeoutMs, bound: 'run-timeout', boundMs: options.timeoutMs }
        : {
            what,
            until: startedAt + options.retry.deadlineMs,
            bound: 'retry-deadline',
            boundMs: options.retry.deadlineMs,
        };
}
function explainFailure(error, context) {
    const { ref } = context.names;
    const message = error instanceof Error ? error.message : String(error);
    if (context.cancelled) {
        const sent = error instanceof service_client/* ServiceError */._7 && error.bodySent;
        return ('The flow run was cancelled before a complete answer came' +
            (sent ? '; the request had been sent, so the run may still complete on the service.' : '.'));
    }
    if (context.timedOut) {
        const sent = error instanceof service_client/* ServiceError */._7 && error.bodySent;
        return (`The flow run got no complete answer within ${ref('run-timeout')} (${(context.timeoutMs ?? 0) / 1000} s) and was stopped` +
            (sent ? '; the request had been sent, so the run may still complete on the service.' : '.'));
    }
    if (error instanceof service_client/* ServiceError */._7 && (error.status === 401 || error.status === 403)) {
        return (`The service refused the key of the flow run (HTTP ${error.status}): check ${context.names.the('public-key')} — a ` +
            `flow run needs the flow's public key, not the private indexing key. ${message}`);
    }
    if (error instanceof service_client/* ServiceError */._7 && error.status === 404) {
        return (`The service has no flow at ${error.path} (HTTP 404): check ${ref('org-id')} and ${ref('flow-id')} ` +
            `(the run path names the organization first), and ${ref('base-url')}. ${message}`);
    }
    const note = whyNotRetried(error, context);
    return note ? `${message} (${note})` : message;
}


/***/ })

};
