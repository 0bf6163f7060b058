/**
 * `npm test`: every test but the heavy ones (`*.heavy.test.ts`, run by `npm run test:heavy`).
 * Three workers on a two-core machine: most of the suite's time is spent in child processes (the bundles,
 * git) and waiting on sockets, so a third file in flight fills the cores the other two leave idle (quiet
 * machine, Node 20: 186 s with two workers, 144 s with three). No test relies on having a core to itself
 * (its time bounds are deadlines the code under test enforces).
 * @type {import('jest').Config}
 */
export const base = {
  testEnvironment: 'node',
  roots: ['<rootDir>/__tests__'],
  globalSetup: '<rootDir>/__tests__/setup/test-processes-env.ts',
  globalTeardown: '<rootDir>/__tests__/setup/test-processes-teardown.ts',
  setupFiles: ['<rootDir>/__tests__/setup/hide-runner-debug.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  // Types are stripped file by file (tsconfig sets isolatedModules); `npm run build` type-checks.
  transform: { '^.+\\.ts$': '<rootDir>/__tests__/setup/esbuild-transform.js' },
  testTimeout: 60000,
}

export default {
  ...base,
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '\\.heavy\\.test\\.ts$'],
  maxWorkers: 3,
}
