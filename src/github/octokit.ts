// The one way this project reaches GitHub's REST API: @actions/github's octokit, pointed at the
// runner's GITHUB_API_URL (GitHub Enterprise Server, or a local test server).
import { getOctokit as actionsOctokit } from '@actions/github'

export type Octokit = ReturnType<typeof actionsOctokit>

export const DEFAULT_API_URL = 'https://api.github.com'

export function getOctokit(token: string, apiUrl?: string): Octokit {
  return actionsOctokit(token, { baseUrl: apiUrl || process.env.GITHUB_API_URL || DEFAULT_API_URL })
}
