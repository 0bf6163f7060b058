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

/**
 * Neutralises workflow commands in untrusted text: the runner acts on `::command::` at the start of
 * a line (after white space) and on the legacy `##[command]` anywhere in a line. A zero-width space
 * keeps the text readable while the runner no longer matches it.
 */
export function sanitize(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/^([ \t\f\v\u00a0\ufeff]*):(?=:)/gm, '$1:\u200b')
    .replace(/#(?=#\[)/g, '#\u200b')
}

/** A name shown on one line: control characters (CR, LF, ESC, …) made visible as escapes. */
export function displayName(name: string): string {
  // eslint-disable-next-line no-control-regex
  return name.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
}

export class Secrets {
  private readonly forms = new Set<string>()

  /** Registers a secret in every form it could be printed in (raw, URL-encoded, base64). */
  add(secret: string | undefined): void {
    if (!secret) return
    for (const form of [secret, encodeURIComponent(secret), Buffer.from(secret).toString('base64')]) {
      if (form.length > 0) this.forms.add(form)
    }
  }

  values(): string[] {
    return [...this.forms]
  }

  redact(text: string): string {
    let out = text
    // Longest first, so a key that contains another key is replaced whole.
    for (const form of [...this.forms].sort((a, b) => b.length - a.length)) out = out.split(form).join('***')
    return out
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
    this.secrets.add(secret)
    for (const form of this.secrets.values()) this.sink.mask(form)
  }

  /** Text safe to print, write to a summary or put in an error message. */
  clean(text: string): string {
    return sanitize(this.secrets.redact(text))
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
