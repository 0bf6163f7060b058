import { describe, expect, it } from '@jest/globals'
import { displayName, Logger, sanitize, Secrets, type LogSink } from '../src/log.js'

function memorySink(): LogSink & { lines: string[]; masks: string[] } {
  const lines: string[] = []
  const masks: string[] = []
  const push = (m: string) => void lines.push(m)
  return {
    lines,
    masks,
    info: push,
    debug: push,
    notice: push,
    warning: push,
    error: push,
    startGroup: push,
    endGroup: () => undefined,
    mask: (s) => void masks.push(s),
  }
}

describe('sanitize', () => {
  it('breaks workflow commands at a line start and the legacy ##[ form anywhere', () => {
    const out = sanitize('ok\n  ::add-mask::x\n::error::boom\r\nfile ##[error]pwned')
    for (const line of out.split('\n')) {
      expect(line.trimStart().startsWith('::')).toBe(false)
      expect(line.includes('##[')).toBe(false)
    }
    expect(out).toContain('ok')
    expect(out).toContain('add-mask')
  })

  it('leaves ordinary text alone', () => {
    expect(sanitize('docs/a::b.md # heading [x]')).toBe('docs/a::b.md # heading [x]')
  })

  it('removes terminal escape sequences and control characters, keeping tabs and lines', () => {
    const text =
      '\u001b[31mred\u001b[0m \u001b]0;title\u0007\u001b]8;;https://x\u001b\\link\u001b]8;;\u001b\\' +
      ' \u009b2Jgone\u0007bell\u0000nul\u007fdel\tTab\nline\u001bc'
    expect(sanitize(text)).toBe('red link gonebellnuldel\tTab\nline')
  })

  it('neutralises a command that removing control characters would form', () => {
    const out = sanitize(':\u0007:error::x\n#\u001b[0m#[warning]y')
    for (const line of out.split('\n')) {
      expect(line.trimStart().startsWith('::')).toBe(false)
      expect(line.includes('##[')).toBe(false)
    }
  })
})

describe('displayName', () => {
  it('shows control characters as escapes on one line', () => {
    expect(displayName('a"\r\nX-Injected: 1.md')).toBe('a"\\x0d\\x0aX-Injected: 1.md')
  })
})

describe('Logger', () => {
  it('redacts every form of a key and registers the masks', () => {
    const sink = memorySink()
    const log = new Logger(sink, new Secrets())
    log.addSecret('s3cr/t+key')
    log.info('raw s3cr/t+key encoded s3cr%2Ft%2Bkey b64 ' + Buffer.from('s3cr/t+key').toString('base64'))
    expect(sink.lines[0]).toBe('raw *** encoded *** b64 ***')
    expect(sink.masks).toContain('s3cr/t+key')
  })
})

describe('Secrets: the forms a key can be echoed in', () => {
  const KEY = 'sk-live-0123456789abcdef'

  it('inside a JSON string (quote and backslash escaped) and as base64 of the whole Bearer header', () => {
    const secrets = new Secrets()
    secrets.add('ab"cd\\ef12')
    expect(secrets.redact(JSON.stringify({ detail: 'token ab"cd\\ef12' }))).toBe('{"detail":"token ***"}')
    const header = Buffer.from(`Bearer ${KEY}`).toString('base64')
    secrets.add(KEY)
    expect(secrets.redact(`echo: ${header}.`)).toBe('echo: ***.')
  })

  it('the beginning of a key where a cut left `…` (maybe with the note on the next line)', () => {
    const secrets = new Secrets()
    secrets.add(KEY)
    expect(secrets.redact(`detail: token ${KEY.slice(0, 11)}…`)).toBe('detail: token ***…')
    // Shorter than the key itself, yet its beginning.
    expect(secrets.redact(`${KEY.slice(0, 11)}…`)).toBe('***…')
    expect(secrets.redact(KEY)).toBe('***')
    expect(secrets.redact(`begins:\n${KEY.slice(0, 9)}\n…[12 more characters]`)).toBe(
      'begins:\n***\n…[12 more characters]',
    )
    // Three characters are too common before an ellipsis to hide, and give little away.
    expect(secrets.redact('ask-…')).toBe('ask-…')
    expect(secrets.redact(`${KEY.slice(0, 3)}… and so on`)).toBe(`${KEY.slice(0, 3)}… and so on`)
    // Not at a cut: only whole keys.
    expect(secrets.redact(`${KEY.slice(0, 11)} and more`)).toBe(`${KEY.slice(0, 11)} and more`)
  })

  it('a key with control characters inserted is masked once they are removed', () => {
    const sink = memorySink()
    const log = new Logger(sink, new Secrets())
    log.addSecret(KEY)
    log.error(`HTTP 401: {"detail":"token ${KEY.slice(0, 5)}\u0000${KEY.slice(5, 9)}\u0007${KEY.slice(9)}"}`)
    expect(sink.lines[0]).toBe('HTTP 401: {"detail":"token ***"}')
  })
})

describe('Logger.held', () => {
  it('keeps lines until released, then writes them in order and lets later ones through, cleaned alike', () => {
    const sink = memorySink()
    const log = new Logger(sink)
    log.addSecret('s3cret-key-value')
    const held = log.held()
    held.log.info('first, with s3cret-key-value')
    log.info('the plan')
    held.log.warning('second')
    held.log.addSecret('another-secret-1')
    // A secret reaches the runner at once, before any line that could hold it.
    expect(sink.masks).toContain('another-secret-1')
    expect(sink.lines).toEqual(['the plan'])
    held.release()
    held.log.info('third, after another-secret-1')
    expect(sink.lines).toEqual(['the plan', 'first, with ***', 'second', 'third, after ***'])
  })
})
