// The one way to reach GitHub's REST API: @actions/github's octokit at GITHUB_API_URL (GitHub
// Enterprise Server, or a local server in tests), read when called rather than when first imported.
import { getOctokit as actionsOctokit } from '@actions/github'

export type Octokit = ReturnType<typeof actionsOctokit>

export const DEFAULT_API_URL = 'https://api.github.com'

export function getOctokit(token: string, apiUrl = process.env.GITHUB_API_URL || DEFAULT_API_URL): Octokit {
  return actionsOctokit(token, { baseUrl: apiUrl })
}
