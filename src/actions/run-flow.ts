// Entry of the run-flow action (run-flow/action.yml → dist/run-flow/index.js). The signals are claimed
// first (cancellation.ts).
import './claim-signals.js'
import { runFlowAction } from './run-flow-action.js'
import { exitWhenFlushed, isMainModule } from './main-module.js'

export const run = runFlowAction

if (isMainModule(import.meta.url)) {
  await run()
  await exitWhenFlushed()
}
