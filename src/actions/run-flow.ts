import { runFlowAction } from './run-flow-action.js'

await runFlowAction()
