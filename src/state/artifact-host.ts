// Whether GitHub's artifact storage exists where the run is: @actions/artifact (v2 and later) refuses a
// GITHUB_SERVER_URL whose host is not github.com, *.ghe.com or *.localhost. Kept apart from the client so
// that the action can tell without loading it.

/** Why the artifact service cannot be used from here, before any request; undefined when it can. */
export function artifactHostProblem(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const server = env.GITHUB_SERVER_URL || 'https://github.com'
  let host: string
  try {
    host = new URL(server).hostname.toLowerCase()
  } catch {
    return `GITHUB_SERVER_URL (${server}) is not a URL`
  }
  if (host === 'github.com' || host.endsWith('.ghe.com') || host.endsWith('.localhost')) return undefined
  return (
    `GitHub Enterprise Server (${host}) has no artifact storage that @actions/artifact v2 and later can use ` +
    '(github.com and GHE.com only)'
  )
}
