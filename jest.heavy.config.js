/**
 * `npm run test:heavy`: the tests that move hundreds of megabytes or measure a process's peak memory.
 * One file at a time, so each measurement has the machine's memory to itself.
 * @type {import('jest').Config}
 */
import { base } from './jest.config.js'

export default {
  ...base,
  testMatch: ['**/*.heavy.test.ts'],
  maxWorkers: 1,
  testTimeout: 300000,
}
