import { ConfigError } from '../../src/config/errors.js'

/** The problems a read of the inputs reports; a read that succeeds fails the test. */
export function configProblems(readInputs: () => unknown): ConfigError['problems'] {
  try {
    readInputs()
  } catch (error) {
    if (error instanceof ConfigError) return error.problems
    throw error
  }
  throw new Error('expected a ConfigError')
}
