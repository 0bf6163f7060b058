// Jest's globalSetup: the environment every worker, and every process a test starts, inherits.
export default function setup(): void {
  // This machine names a CA bundle here, and Node 20 reads it at every start: ~40 ms of CPU for each jest
  // worker and each CLI the tests start with the inherited environment (the action bundles get the
  // runner's variables only). The tests talk to servers on 127.0.0.1 over plain HTTP, and the runner sets
  // no such variable.
  delete process.env.NODE_EXTRA_CA_CERTS
}
