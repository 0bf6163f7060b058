// Entry of the index action (action.yml → dist/index.js). The signals are claimed first (cancellation.ts).
import './claim-signals.js'
import { runIndexAction } from './index-action.js'
import { exitWhenFlushed, isMainModule } from './main-module.js'

export const run = runIndexAction

if (isMainModule(import.meta.url)) {
  await run()
  await exitWhenFlushed()
}
