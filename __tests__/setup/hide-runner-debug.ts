// Libraries print through @actions/core (@actions/glob logs every search option as a `::debug::` line).
// The runner hides those lines unless RUNNER_DEBUG is set; the test output does the same, so `npm test`
// shows the results. Child processes (the e2e runs of dist/) are not affected.
const write = process.stdout.write.bind(process.stdout)
if (process.env.RUNNER_DEBUG !== '1') {
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString()
    if (text.startsWith('::debug::')) return true
    return write(chunk, ...rest)
  }) as typeof process.stdout.write
}
