import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import FormData from 'form-data'
import { displayName, sanitize, Secrets } from '../src/log.js'
import { binaryUnit } from './helpers/string-units.js'

// Pieces that workflow commands and line handling are made of, mixed with arbitrary text, so that the
// interesting shapes (`  ::add-mask::`, `x##[error]`, `\r::`) come up often.
const tricky = fc.constantFrom(
  '::',
  ':',
  '#',
  '##[',
  '[',
  '\n',
  '\r',
  '\r\n',
  ' ',
  '\t',
  '\v',
  '\f',
  '\u00a0',
  '\u0085',
  '\u1680',
  '\u2000',
  '\u2028',
  '\u2029',
  '\u202f',
  '\u3000',
  '\ufeff',
  '\u200b',
  'error',
  'add-mask',
  'stop-commands',
)
const anyText = fc.string({ unit: binaryUnit })
const hostileText = fc.array(fc.oneof(tricky, anyText), { maxLength: 30 }).map((parts) => parts.join(''))

// The runner reads lines the way .NET's ReadLine splits them (CR, LF, CRLF) and trims with .NET's notion
// of white space: JavaScript's trim plus NEL (U+0085).
const runnerLines = (text: string) => text.split(/\r\n|\r|\n/)
const runnerTrimStart = (line: string) => line.replace(/^[\s\u0085]+/, '')
const isCommandLine = (line: string) => runnerTrimStart(line).startsWith('::') || line.includes('##[')

describe('sanitize (property)', () => {
  it('leaves no control character but tab and line feed, and no escape sequence', () => {
    const escapes = fc.constantFrom(
      '\u001b[31m',
      '\u001b[2J',
      '\u001b]0;title\u0007',
      '\u001b]8;;http://x\u001b\\',
      '\u009b1m',
      '\u001bc',
    )
    const text = fc
      .array(fc.oneof(tricky, anyText, escapes), { maxLength: 30 })
      .map((parts) => parts.join(''))
    fc.assert(
      fc.property(text, (value) => {
        // eslint-disable-next-line no-control-regex
        expect(sanitize(value)).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/)
      }),
      { numRuns: 2000 },
    )
  })

  it('leaves no line the runner would take as a workflow command', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        expect(runnerLines(sanitize(text)).filter(isCommandLine)).toEqual([])
      }),
      { numRuns: 2000 },
    )
  })

  it('changes nothing in text without commands or control characters (tab and line feed aside)', () => {
    const harmless = hostileText.filter(
      (text) =>
        // eslint-disable-next-line no-control-regex
        !/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(text) && !runnerLines(text).some(isCommandLine),
    )
    fc.assert(
      fc.property(harmless, (text) => {
        expect(sanitize(text)).toBe(text)
      }),
      { numRuns: 2000 },
    )
  })
})

// Characters that break a name's line or reorder how it is shown: C0/C1 controls, DEL, the Unicode line
// and paragraph separators, and bidirectional overrides.
const unsafeForDisplay = /[\p{Cc}\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u

describe('displayName (property)', () => {
  it('never contains a control character', () => {
    fc.assert(
      fc.property(fc.oneof(hostileText, fc.string({ unit: binaryUnit })), (name) => {
        expect(displayName(name)).not.toMatch(unsafeForDisplay)
      }),
      { numRuns: 2000 },
    )
  })

  it('leaves ordinary names alone', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme' }).filter((name) => !unsafeForDisplay.test(name)),
        (name) => {
          expect(displayName(name)).toBe(name)
        },
      ),
    )
  })
})

describe('Secrets.redact (property)', () => {
  const secret = fc.string({ unit: binaryUnit, minLength: 1, maxLength: 40 })
  const asciiKey = fc.string({
    unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
    minLength: 1,
    maxLength: 40,
  })

  it('never leaves a key in any of its forms, whatever surrounds it', () => {
    fc.assert(
      fc.property(
        fc.oneof(secret, asciiKey),
        fc.array(fc.oneof(anyText, fc.constantFrom('*', '**', '%', '=', '+/')), { maxLength: 6 }),
        (key, around) => {
          const forms = [key, encodeURIComponent(key), Buffer.from(key).toString('base64')]
          const text = around.flatMap((piece, i) => [piece, forms[i % forms.length]]).join('')
          const secrets = new Secrets()
          secrets.add(key)
          const out = secrets.redact(text + key)
          expect(forms.filter((form) => out.includes(form))).toEqual([])
        },
      ),
      { numRuns: 2000 },
    )
  })

  it('leaves text without the key alone', () => {
    fc.assert(
      fc.property(asciiKey, anyText, (key, text) => {
        fc.pre(
          ![key, encodeURIComponent(key), Buffer.from(key).toString('base64')].some((f) => text.includes(f)),
        )
        const secrets = new Secrets()
        secrets.add(key)
        expect(secrets.redact(text)).toBe(text)
      }),
    )
  })
})

/** The header block of the first part of a form-data body. */
function firstPartHeaders(form: FormData): string {
  const body = form.getBuffer().toString('utf8')
  const start = body.indexOf('\r\n') + 2
  return body.slice(start, body.indexOf('\r\n\r\n', start))
}

describe('multipart filename escaping (form-data, property)', () => {
  const filename = fc
    .array(
      fc.oneof(fc.constantFrom('"', '\r', '\n', '\r\n', '\\', '%', ';', 'X-Injected: 1', '/'), anyText),
      {
        minLength: 1,
        maxLength: 12,
      },
    )
    .map((parts) => parts.join(''))
    .filter((name) => name.replace(/\//g, '') !== '' && !name.includes('\0'))

  it('keeps the filename inside one quoted header parameter', () => {
    fc.assert(
      fc.property(filename, (name) => {
        const form = new FormData()
        form.append('files', Buffer.from('x'), { filepath: name, contentType: 'application/octet-stream' })
        const lines = firstPartHeaders(form).split('\r\n')
        expect(lines).toHaveLength(2)
        expect(lines[0]).not.toMatch(/[\r\n]/)
        const match = /^Content-Disposition: form-data; name="files"; filename="([^"]*)"$/.exec(lines[0])
        expect(match).not.toBeNull()
        expect(lines[1]).toBe('Content-Type: application/octet-stream')
      }),
      { numRuns: 1000 },
    )
  })

  it('can be read back: CR, LF and quote percent-encoded, the rest as sent', () => {
    const withoutPercent = filename.filter(
      (name) => !name.includes('%') && !/(^|\/)\.{0,2}(\/|$)|\/\//.test(name),
    )
    fc.assert(
      fc.property(withoutPercent, (name) => {
        const form = new FormData()
        form.append('files', Buffer.from('x'), { filepath: name, contentType: 'application/octet-stream' })
        const quoted = /filename="([^"]*)"/.exec(firstPartHeaders(form))?.[1] ?? ''
        const decoded = quoted.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%22/g, '"')
        expect(decoded).toBe(name.replace(/\\/g, '/'))
      }),
      { numRuns: 1000 },
    )
  })
})
