// The word `--since` takes for "the last successful run of this workflow". Its own module: the CLI reads
// it at every start, and change-base.ts (octokit, the compare API) loads only when a run needs a base.
export const LAST_SUCCESS = 'last-success'
