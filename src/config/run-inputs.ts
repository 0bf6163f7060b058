// The run-flow action's inputs (and `kb-sync run`'s flags): their names, defaults and allowed words, apart
// from run.ts, which reads them with the checks' schema and the expectation's regular expressions: what
// only names the inputs (the CLI's program, its `--help`) loads none of that at start-up.
import { DEFAULT_OUTPUTS_BUDGET } from './outputs-budget.js'

export const FAIL_ON = ['regression', 'threshold'] as const
export type FailOn = (typeof FAIL_ON)[number]
export const BASELINE_SOURCES = ['stored', 'live'] as const
export type BaselineSource = (typeof BASELINE_SOURCES)[number]

export const RUN_DEFAULTS: Readonly<Record<string, string>> = Object.freeze({
  'base-url': 'https://api.stack-ai.com',
  'output-key': 'out-0',
  retries: '10',
  'retry-deadline': '120',
  'retry-on-server-error': 'false',
  'run-timeout': '600',
  concurrency: '2',
  repeat: '1',
  'max-runs': '1000',
  threshold: '100%',
  'judge-min-score': '0.5',
  baseline: 'stored',
  'outputs-budget': String(DEFAULT_OUTPUTS_BUDGET),
  // settle (#36 §4)
  settle: '0',
})

/** Every input readRunConfig reads, in run-flow/action.yml order. */
export const RUN_INPUTS: readonly string[] = Object.freeze([
  'base-url',
  'org-id',
  'flow-id',
  'public-key',
  'inputs',
  'output-key',
  'expect',
  'retries',
  'retry-deadline',
  'comment',
  'comment-key',
  'github-token',
  'retry-on-server-error',
  'run-timeout',
  'checks',
  'concurrency',
  'repeat',
  'min-pass',
  'max-runs',
  'threshold',
  'baseline-flow-id',
  'baseline-org-id',
  'baseline',
  'fail-on',
  'judge-flow-id',
  'judge-org-id',
  'judge-min-score',
  'advisory-checks',
  'documents-changed',
  'outputs-budget',
  // settle (#36 §4)
  'settle',
  'settle-check',
  // junit-file (#36 §3)
  'junit-file',
])
