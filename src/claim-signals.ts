// The first import of every entry: SIGINT and SIGTERM are claimed before anything else of the bundle
// runs, so a cancellation that comes early still ends with outputs and a summary (see cancellation.ts).
import { claimCancellationSignals } from './cancellation.js'

claimCancellationSignals()
