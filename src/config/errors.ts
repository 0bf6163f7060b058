// One error for every bad input at once: fixing a workflow one failed run at a time is slow.

export interface InputProblem {
  /** The input (action input name, CLI flag without `--`) the problem is about. */
  input: string
  /** A full sentence naming the input and what was expected; never a key's value. */
  message: string
}

export class ConfigError extends Error {
  readonly problems: InputProblem[]

  constructor(problems: InputProblem[]) {
    super(
      problems.length === 1
        ? problems[0].message
        : `${problems.length} inputs are invalid:\n${problems.map((p) => `- ${p.message}`).join('\n')}`,
    )
    this.name = 'ConfigError'
    this.problems = problems
  }
}

const SHOWN_LENGTH = 120

/** A user's value quoted for an error message: one line, control characters escaped, long values cut. */
export function quoted(value: string): string {
  const cut = value.length > SHOWN_LENGTH ? `${value.slice(0, SHOWN_LENGTH)}…` : value
  // JSON string escaping makes every control character visible; the C1 range and the Unicode line
  // separators are escaped by hand because JSON leaves them raw.
  return JSON.stringify(cut).replace(
    /[\u007f-\u009f\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}

/**
 * A URL as it may be shown in an error: any `user:password@` removed (it could be a credential). A text
 * the URL parser refuses loses everything up to its last `@`, since where its user info ends is unknown.
 */
export function withoutUserInfo(value: string): string {
  try {
    const url = new URL(value)
    if (url.username === '' && url.password === '') return value
    url.username = ''
    url.password = ''
    return url.href
  } catch {
    return value.replace(/^([a-z][a-z0-9+.-]*:\/*)?.*@/is, '$1')
  }
}
