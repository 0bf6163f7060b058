// Checks of request bodies, answering FastAPI-style 422 details ({"loc": [...], "msg": ..., "type": ...})
// as the real service's validation errors look.
import type { ReceivedPart } from './multipart.js'

export interface ValidationIssue {
  loc: (string | number)[]
  msg: string
  type: string
}

export type Checked<T> = { ok: true; value: T } | { ok: false; issues: ValidationIssue[] }

const ok = <T>(value: T): Checked<T> => ({ ok: true, value })
const fail = (...issues: ValidationIssue[]): Checked<never> => ({ ok: false, issues })

/** The media type of a Content-Type header, lower-cased, without parameters. */
export function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0].trim().toLowerCase()
}

export function checkJsonContentType(header: string | undefined): ValidationIssue | undefined {
  if (mediaType(header) === 'application/json') return undefined
  return {
    loc: ['header', 'content-type'],
    msg: `Content-Type must be application/json (got ${header ? JSON.stringify(header) : 'none'})`,
    type: 'content_type',
  }
}

export function checkMultipartContentType(header: string | undefined): ValidationIssue | undefined {
  if (mediaType(header) === 'multipart/form-data' && /;\s*boundary=/i.test(header ?? '')) return undefined
  return {
    loc: ['header', 'content-type'],
    msg: `Content-Type must be multipart/form-data with a boundary (got ${header ? JSON.stringify(header) : 'none'})`,
    type: 'content_type',
  }
}

export function parseJson(text: string): Checked<unknown> {
  try {
    return ok(JSON.parse(text) as unknown)
  } catch (error) {
    return fail({
      loc: ['body'],
      msg: `JSON decode error: ${(error as Error).message}`,
      type: 'json_invalid',
    })
  }
}

function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false
  const { protocol, hostname } = new URL(value)
  return (protocol === 'http:' || protocol === 'https:') && hostname.length > 0
}

/** A URL body: a non-empty JSON array of distinct http(s) URL strings. */
export function checkUrlList(body: unknown): Checked<string[]> {
  if (!Array.isArray(body))
    return fail({ loc: ['body'], msg: 'Input should be a valid list', type: 'list_type' })
  if (body.length === 0)
    return fail({
      loc: ['body'],
      msg: 'List should have at least 1 item after validation, not 0',
      type: 'too_short',
    })
  const issues: ValidationIssue[] = []
  const seen = new Set<string>()
  body.forEach((item: unknown, index) => {
    if (typeof item !== 'string') {
      issues.push({ loc: ['body', index], msg: 'Input should be a valid string', type: 'string_type' })
    } else if (!isHttpUrl(item)) {
      issues.push({
        loc: ['body', index],
        msg: 'Input should be a valid URL with the scheme http or https',
        type: 'url_parsing',
      })
    } else if (seen.has(item)) {
      issues.push({ loc: ['body', index], msg: 'Duplicate URL in one request', type: 'value_error' })
    }
    if (typeof item === 'string') seen.add(item)
  })
  return issues.length > 0 ? fail(...issues) : ok(body as string[])
}

/** A run body: a JSON object whose values are all strings. */
export function checkRunInputs(body: unknown): Checked<Record<string, string>> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return fail({ loc: ['body'], msg: 'Input should be a valid dictionary', type: 'dict_type' })
  const issues: ValidationIssue[] = Object.entries(body)
    .filter(([, value]) => typeof value !== 'string')
    .map(([key]) => ({ loc: ['body', key], msg: 'Input should be a valid string', type: 'string_type' }))
  return issues.length > 0 ? fail(...issues) : ok(body as Record<string, string>)
}

export type DocumentMode = 'create' | 'update'

/**
 * The file parts of a document request. Upload (POST): every part is named `files`. Update (PATCH):
 * parts are named `file1`, `file2`, … in order. Every part has a filename; names are distinct.
 */
export function checkDocumentParts(
  parts: ReceivedPart[],
  mode: DocumentMode,
  rejectDocument?: (name: string) => string | undefined,
): ValidationIssue[] {
  const expectedField = mode === 'create' ? 'files' : 'file1'
  if (parts.length === 0)
    return [
      { loc: ['body', expectedField], msg: 'Field required: no file part in the body', type: 'missing' },
    ]
  const issues: ValidationIssue[] = []
  const seen = new Set<string>()
  parts.forEach((part, index) => {
    const expected = mode === 'create' ? 'files' : `file${index + 1}`
    if (part.field !== expected) {
      issues.push({
        loc: ['body', part.field],
        msg:
          mode === 'create'
            ? `Unexpected part "${part.field}": every upload part must be named "files"`
            : `Unexpected part "${part.field}" at position ${index + 1}: update parts must be named file1..fileN in order (expected "${expected}")`,
        type: 'value_error',
      })
    }
    if (part.filename === undefined) {
      issues.push({
        loc: ['body', part.field],
        msg: "Value error, Expected UploadFile, received: <class 'str'> (the part has no filename)",
        type: 'value_error',
      })
      return
    }
    if (seen.has(part.filename)) {
      issues.push({
        loc: ['body', part.field],
        msg: `Duplicate document name ${JSON.stringify(part.filename)} in one request`,
        type: 'value_error',
      })
    }
    seen.add(part.filename)
    const rejection = rejectDocument?.(part.filename)
    if (rejection !== undefined)
      issues.push({ loc: ['body', part.field], msg: rejection, type: 'value_error' })
  })
  return issues
}
