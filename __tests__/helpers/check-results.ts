// Check results as the suite runner makes them, for rendering and verdict tests: one run per check
// unless `runs` says otherwise.
import {
  checkResultOf,
  type CheckResult,
  type CheckVerdict,
  type RunResult,
} from '../../src/checks/verdict.js'

export interface ResultSketch {
  name: string
  question?: string
  /** One run with this verdict, when `runs` is not given. */
  verdict?: CheckVerdict
  failed?: string[]
  answer?: string
  runId?: string
  seconds?: number
  /** Each run's verdict (failed runs fail `contains "x"`, errors say "HTTP 500"). */
  runs?: CheckVerdict[]
  minPass?: number
}

/** A check result judged by the real rule (checkResultOf) from a sketch of its runs. */
export function checkResult(sketch: ResultSketch): CheckResult {
  const verdicts = sketch.runs ?? [sketch.verdict ?? 'passed']
  const runs: RunResult[] = verdicts.map((verdict, index) => ({
    run: index + 1,
    verdict,
    failed:
      verdict === 'passed'
        ? []
        : (sketch.failed ?? [verdict === 'error' ? 'HTTP 500 from the service' : 'contains "x": not found']),
    answer: verdict === 'error' ? '' : (sketch.answer ?? `answer of ${sketch.name}`),
    runId: sketch.runId,
    seconds: sketch.seconds ?? 1,
    started: true,
  }))
  return checkResultOf(
    {
      name: sketch.name,
      question: sketch.question ?? `question of ${sketch.name}`,
      minPass: sketch.minPass ?? verdicts.length,
    },
    runs,
  )
}
