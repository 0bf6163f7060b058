// The first import of both action entries: SIGINT and SIGTERM are claimed before any other module of
// the bundle is evaluated (see cancellation.ts). The debug line (shown with step debug logging) marks
// the moment: a step cancelled with no outputs and without this line was cancelled while Node started.
import { claimCancellationSignals } from '../cancellation.js'

claimCancellationSignals()
process.stdout.write('::debug::kb-sync: SIGINT and SIGTERM are handled from here on\n')
