// Well-known files that hold credentials. Indexing a file publishes it to anyone with the flow's public
// key, so these are skipped unless a pattern names the exact file.
const SECRET_FILE_NAMES: RegExp[] = [
  /^\.env/i, // .env, .env.local, .envrc
  /\.pem$/i,
  /\.key$/i,
  /\.p12$/i,
  /\.pfx$/i,
  /^id_(rsa|dsa|ecdsa|ed25519)/i,
  /^\.npmrc$/i,
  /^\.pypirc$/i,
  /^\.netrc$/i,
  /^\.git-credentials$/i,
]

/** True when the last segment of a name is a well-known secret file. */
export function isSecretFile(name: string): boolean {
  const base = name.slice(name.lastIndexOf('/') + 1)
  return SECRET_FILE_NAMES.some((rule) => rule.test(base))
}
