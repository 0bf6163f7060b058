import { runIndexAction } from './index-action.js'

await runIndexAction()
