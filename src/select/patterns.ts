// The `files` patterns: refused when they could reach outside the workspace, and rooted at the
// workspace before @actions/glob sees them (it would resolve a relative pattern against process.cwd()).

interface ParsedPattern {
  negate: boolean
  /** The pattern after its `!` prefixes, without `./` or `.` segments. Empty means the workspace itself. */
  body: string
}

function parse(pattern: string): ParsedPattern {
  let rest = pattern.trim()
  let negate = false
  // @actions/glob trims again after every `!`, so `! /etc` is the absolute pattern `/etc`.
  while (rest.startsWith('!')) {
    negate = !negate
    rest = rest.slice(1).trim()
  }
  const body = rest
    .split('/')
    .filter((segment, index, all) => segment !== '.' && (segment !== '' || index === all.length - 1))
    .join('/')
  return { negate, body: body === '/' ? '' : body }
}

/** A segment as the file system would see it: backslash escapes and one-character sets like `[.]` undone. */
function literalSegment(segment: string): string {
  return segment.replace(/\[(.)\]/g, '$1').replace(/\\(.)/g, '$1')
}

/**
 * Why a `files` pattern is refused, or undefined when it is fine: it must stay relative to the workspace.
 * The caller turns the reason into an error that names the `files` input.
 */
export function patternProblem(pattern: string): string | undefined {
  if (pattern.includes('\0')) return 'contains a NUL character'
  if (/[\r\n]/.test(pattern)) return 'contains a line break'
  let rest = pattern.trim()
  while (rest.startsWith('!')) rest = rest.slice(1).trim()
  if (rest === '') return 'is empty'
  if (rest.startsWith('/') || rest.startsWith('\\') || /^[A-Za-z]:/.test(rest))
    return 'is an absolute path (patterns are relative to the workspace)'
  if (rest.startsWith('~')) return 'starts with `~` (patterns are relative to the workspace)'
  if (rest.split('/').some((segment) => literalSegment(segment) === '..'))
    return 'has a `..` segment (patterns must stay inside the workspace)'
  return undefined
}

/** Whether a `files` pattern excludes (its `!` prefixes, each trimmed after as @actions/glob does, are odd). */
export function isNegatedPattern(pattern: string): boolean {
  return parse(pattern).negate
}

/** Escapes glob characters in a literal path, the way @actions/glob does for its own roots. */
export function globEscape(literal: string): string {
  return literal
    .replace(/\\/g, '\\\\')
    .replace(/(\[)(?=[^/]+\])/g, '[[]')
    .replace(/\?/g, '[?]')
    .replace(/\*/g, '[*]')
}

/** The pattern rooted at the (real, absolute) workspace, keeping its `!`. Call only when patternProblem is undefined. */
export function rootedPattern(root: string, pattern: string): string {
  const { negate, body } = parse(pattern)
  const base = globEscape(root.endsWith('/') ? root.slice(0, -1) : root)
  return `${negate ? '!' : ''}${base}/${body === '' ? '**' : body}`
}

function hasGlobCharacters(body: string): boolean {
  return /[*?[\\]/.test(body)
}

/** The leading segments of a pattern that hold no glob characters: the folder its search starts in. */
export function literalPrefix(pattern: string): string[] {
  const { body } = parse(pattern)
  const segments = body.split('/').filter((segment) => segment !== '')
  const firstGlob = segments.findIndex(hasGlobCharacters)
  return firstGlob === -1 ? segments : segments.slice(0, firstGlob)
}

/**
 * Names that an include pattern spells out literally (no glob characters): the user asked for exactly
 * that file, which is what lets a well-known secret file through.
 */
export function literalNames(patterns: string[]): Set<string> {
  const names = new Set<string>()
  for (const pattern of patterns) {
    const { negate, body } = parse(pattern)
    if (!negate && body !== '' && !body.endsWith('/') && !hasGlobCharacters(body)) names.add(body)
  }
  return names
}
