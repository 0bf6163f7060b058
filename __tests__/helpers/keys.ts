// The made-up keys and token of the tests: distinctive, so a search of a log or an output for one finds
// only a leak of it. Tests of how unusual keys are handled (characters a URL or a mask cares about) keep
// their own values next to the test.
export const PRIVATE_KEY = 'sk-test-private-0123456789'
export const PUBLIC_KEY = 'pk-test-public-0123456789'
export const GITHUB_TOKEN = 'ghs_testToken0123456789abcdef'

/** The same keys as the CLI reads them from its environment. */
export const CLI_KEYS = { KB_SYNC_PRIVATE_KEY: PRIVATE_KEY, KB_SYNC_PUBLIC_KEY: PUBLIC_KEY }
