// The `outputs-budget` input's numbers, with the inputs; the report fits the outputs into them.

/** Default budget for all outputs of one step, in UTF-16 code units (two kb-sync steps fit in a job). */
export const DEFAULT_OUTPUTS_BUDGET = 256_000
/** The `outputs-budget` input's range: room for the counts and the notes, below the job's limit. */
export const OUTPUTS_BUDGET_MIN = 10_000
export const OUTPUTS_BUDGET_MAX = 500_000
