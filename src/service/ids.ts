// Path ids (flow, org, node). The contract shows no format, so we accept the URL-safe "unreserved"
// characters only: nothing that a URL parser would reinterpret (`/`, `%`, `?`, `#`) and no dot segments.
const ID_PATTERN = /^[A-Za-z0-9._~-]{1,128}$/

/** Why `value` is not a usable path id, or undefined when it is. */
export function idProblem(value: string): string | undefined {
  if (value.length === 0) return 'must not be empty'
  if (value === '.' || value === '..') return 'must not be "." or ".."'
  if (value.length > 128) return 'must be at most 128 characters'
  if (!ID_PATTERN.test(value)) return 'may contain only letters, digits, ".", "_", "~" and "-"'
  return undefined
}

export function isValidId(value: string): boolean {
  return idProblem(value) === undefined
}
