// The one way to print. Every message goes through `sanitize` (untrusted text must not become a
// workflow command) and `redact` (keys never reach a log, even where the runner does not mask: the CLI).
import * as core from '@actions/core'

export interface LogSink {
  info(message: string): void
  debug(message: string): void
  notice(message: string): void
  warning(message: string): void
  error(message: string): void
  startGroup(name: string): void
  endGroup(): void
  /** Tell the runner to mask a value (no-op outside the runner). */
  mask(secret: string): void
}

// Terminal escape sequences (CSI `ESC [ … final`, OSC `ESC ] … BEL|ST`, other two-character `ESC x`, and
// the one-byte C1 CSI) would recolour, hide or rewrite what a reader sees in the log.
const ESCAPE_SEQUENCE =
  // eslint-disable-next-line no-control-regex
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[ -~]?|\u009b[0-?]*[ -/]*[@-~]/g
// Every other control character but tab and line feed (CR is turned into LF first).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g

/**
 * Makes untrusted text (service errors, the flow's answer, file names in messages) safe to print:
 * terminal escape sequences and control characters are removed, and workflow commands are neutralised.
 * The runner acts on `::command::` at the start of a line (after white space) and on the legacy
 * `##[command]` anywhere in a line; a zero-width space keeps the text readable while the runner no longer
 * matches it.
 */
export function sanitize(text: string): string {
  // Lines are what the runner splits on (CR, LF), not what a JavaScript `^` with the m flag sees
  // (U+2028/U+2029 too); the white space it trims first is .NET's: JavaScript's `\s` plus NEL.
  return text
    .replace(/\r\n?/g, '\n')
    .replace(ESCAPE_SEQUENCE, '')
    .replace(CONTROL, '')
    .replace(/(^|\n)((?:[^\S\n]|\u0085)*):(?=:)/g, '$1$2:\u200b')
    .replace(/#(?=#\[)/g, '#\u200b')
}

// C0 and C1 controls and DEL, the Unicode line and paragraph separators, and the bidirectional marks
// and overrides that can make a name display as something else.
// eslint-disable-next-line no-control-regex
const UNDISPLAYABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g

/** A name shown on one line: control characters (CR, LF, ESC, …) made visible as escapes. */
export function displayName(name: string): string {
  return name.replace(UNDISPLAYABLE, (c) => {
    const code = c.charCodeAt(0)
    return code <= 0xff
      ? `\\x${code.toString(16).padStart(2, '0')}`
      : `\\u${code.toString(16).padStart(4, '0')}`
  })
}

/** `*` unless a key contains it; then the first character from a fixed list that no key contains. */
function maskCharacter(forms: string[]): string {
  const used = (c: string) => forms.some((form) => form.includes(c))
  for (const candidate of ['*', '\u2022', '#', '~']) if (!used(candidate)) return candidate
  let code = 0x2580
  while (used(String.fromCharCode(code))) code += 1
  return String.fromCharCode(code)
}

/**
 * Where kb-sync shortens a text (an excerpt, a quoted answer, a cut output), the kept part ends in `…`,
 * maybe followed by a note on the next line. A key cut there leaves only its beginning, which a
 * search for the whole key does not find.
 */
const CUT_MARK = '\u2026'
// Shorter key beginnings before a `…` are too common in ordinary text to mask, and give little away.
const MIN_CUT_HEAD = 4

/** The stretches just before a `…` (and one line break) that are the beginning of a key. */
function cutKeyHeads(text: string, forms: readonly string[]): [number, number][] {
  const heads: [number, number][] = []
  for (let mark = text.indexOf(CUT_MARK); mark >= 0; mark = text.indexOf(CUT_MARK, mark + 1)) {
    const end = text[mark - 1] === '\n' ? mark - 1 : mark
    for (const form of forms) {
      for (let length = Math.min(form.length - 1, end); length >= MIN_CUT_HEAD; length--) {
        if (text.startsWith(form.slice(0, length), end - length)) {
          heads.push([end - length, end])
          break
        }
      }
    }
  }
  return heads
}

export class Secrets {
  // Distinct, in the order added; redact() runs for every string of a report, so no copy per call.
  private readonly forms: string[] = []
  /** The length of the shortest form: no shorter text holds one whole. */
  private shortest = Infinity

  /**
   * Registers a secret in every form it could be printed in: raw, URL-encoded, inside a JSON string
   * (`"` and `\` escaped), base64, and base64 of the whole `Bearer` header value.
   */
  add(secret: string | undefined): void {
    if (!secret) return
    const forms = [
      secret,
      encodeURIComponent(secret),
      JSON.stringify(secret).slice(1, -1),
      Buffer.from(secret).toString('base64'),
      Buffer.from(`Bearer ${secret}`).toString('base64'),
    ]
    for (const form of forms) if (form.length > 0 && !this.forms.includes(form)) this.forms.push(form)
    this.shortest = Math.min(...this.forms.map((form) => form.length))
  }

  values(): string[] {
    return [...this.forms]
  }

  /**
   * Replaces every stretch of text covered by an occurrence of a key (overlapping ones merged) with a
   * mask. The mask uses a character found in no key, so it cannot combine with the text around it into
   * a key again (a key `x*` masked with `***` after an `x` would reappear).
   */
  redact(text: string): string {
    const forms = this.forms
    // Most strings of a report (kinds, outcomes, short names) are shorter than every key.
    if (forms.length === 0 || (text.length < this.shortest && !text.includes(CUT_MARK))) return text
    const covered: [number, number][] = []
    for (const form of forms) {
      for (let at = text.indexOf(form); at >= 0; at = text.indexOf(form, at + 1))
        covered.push([at, at + form.length])
    }
    if (text.includes(CUT_MARK)) covered.push(...cutKeyHeads(text, forms))
    if (covered.length === 0) return text
    covered.sort((a, b) => a[0] - b[0])
    const mask = maskCharacter(forms).repeat(3)
    let out = ''
    let done = 0
    let index = 0
    while (index < covered.length) {
      const start = covered[index][0]
      let end = covered[index][1]
      for (index += 1; index < covered.length && covered[index][0] < end; index += 1)
        end = Math.max(end, covered[index][1])
      out += text.slice(done, start) + mask
      done = end
    }
    return out + text.slice(done)
  }
}

export class Logger {
  constructor(
    private readonly sink: LogSink,
    readonly secrets: Secrets = new Secrets(),
  ) {}

  /** Registers a key with the runner and with our own redaction. Call before anything else is printed. */
  addSecret(secret: string | undefined): void {
    if (!secret) return
    const known = new Set(this.secrets.values())
    this.secrets.add(secret)
    for (const form of this.secrets.values()) if (!known.has(form)) this.sink.mask(form)
  }

  /**
   * Text safe to print, write to a summary or put in an error message. Redacted again once sanitized:
   * removing a control character from inside an echoed key would join it back together.
   */
  clean(text: string): string {
    return this.secrets.redact(sanitize(this.secrets.redact(text)))
  }

  info(message: string): void {
    this.sink.info(this.clean(message))
  }
  debug(message: string): void {
    this.sink.debug(this.clean(message))
  }
  notice(message: string): void {
    this.sink.notice(this.clean(message))
  }
  warning(message: string): void {
    this.sink.warning(this.clean(message))
  }
  error(message: string): void {
    this.sink.error(this.clean(message))
  }

  /**
   * A logger whose lines wait until `release`, then follow in order (and later ones go straight through):
   * for work that starts before what the log shows ahead of it has been printed.
   */
  held(): { log: Logger; release: () => void } {
    const waiting: (() => void)[] = []
    let released = false
    const hold = (write: () => void) => (released ? write() : void waiting.push(write))
    const sink = this.sink
    const heldSink: LogSink = {
      info: (m) => hold(() => sink.info(m)),
      debug: (m) => hold(() => sink.debug(m)),
      notice: (m) => hold(() => sink.notice(m)),
      warning: (m) => hold(() => sink.warning(m)),
      error: (m) => hold(() => sink.error(m)),
      startGroup: (n) => hold(() => sink.startGroup(n)),
      endGroup: () => hold(() => sink.endGroup()),
      // The runner must know a secret before any line that could hold it.
      mask: (secret) => sink.mask(secret),
    }
    return {
      log: new Logger(heldSink, this.secrets),
      release: () => {
        released = true
        for (const write of waiting.splice(0)) write()
      },
    }
  }

  async group<T>(name: string, work: () => Promise<T>): Promise<T> {
    this.sink.startGroup(this.clean(name))
    try {
      return await work()
    } finally {
      this.sink.endGroup()
    }
  }
}

/** On the runner: through @actions/core, which emits annotations and groups. */
export const actionsSink: LogSink = {
  info: (m) => core.info(m),
  debug: (m) => core.debug(m),
  notice: (m) => core.notice(m),
  warning: (m) => core.warning(m),
  error: (m) => core.error(m),
  startGroup: (n) => core.startGroup(n),
  endGroup: () => core.endGroup(),
  mask: (s) => core.setSecret(s),
}

/** For the CLI: plain lines; diagnostics on stderr so stdout stays for results. */
export function consoleSink(options: { verbose?: boolean } = {}): LogSink {
  return {
    info: (m) => process.stderr.write(`${m}\n`),
    debug: (m) => {
      if (options.verbose) process.stderr.write(`debug: ${m}\n`)
    },
    notice: (m) => process.stderr.write(`notice: ${m}\n`),
    warning: (m) => process.stderr.write(`warning: ${m}\n`),
    error: (m) => process.stderr.write(`error: ${m}\n`),
    startGroup: (n) => process.stderr.write(`== ${n}\n`),
    endGroup: () => undefined,
    mask: () => undefined,
  }
}
