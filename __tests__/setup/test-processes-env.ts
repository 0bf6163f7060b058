// Jest's globalSetup: the environment every worker, and every process a test starts, inherits.
export default function setup(): void {
  // This machine names a CA bundle here, and Node 20 reads it at every start: ~40 ms of CPU for each of the
  // ~450 bundles the suite starts (CONTRIBUTING, "Where the suite's time goes"). The tests talk to servers
  // on 127.0.0.1 over plain HTTP, and the runner sets no such variable.
  delete process.env.NODE_EXTRA_CA_CERTS
}
