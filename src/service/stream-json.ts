// Reads a JSON answer as it arrives and builds the value JSON.parse would, except that every string longer
// than a cap keeps only its beginning (a CutString that knows its full length). Memory then depends on the
// cap, not on how long the answer's strings are, and the cut notes can still say how much was removed.
import { formatCount } from '../units.js'

const count = formatCount

/** A string of the answer kept only in part: its first characters and the length of the whole. */
export class CutString {
  constructor(
    /** The first characters (UTF-16 code units) of the string. */
    readonly head: string,
    /** The whole string's length in UTF-16 code units (what String#length would say). */
    readonly length: number,
    /** The whole string's length in UTF-8 bytes. */
    readonly bytes: number,
  ) {}

  /** The kept beginning with a note of what was removed (also what JSON.stringify writes). */
  toString(): string {
    return `${this.head}…[cut by kb-sync: ${count(this.length - this.head.length)} of ${count(this.length)} characters removed]`
  }

  toJSON(): string {
    return this.toString()
  }
}

/** The answer is not valid JSON (or nests deeper than allowed). */
export class JsonSyntaxError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'JsonSyntaxError'
  }
}

/** The answer holds more than the reader keeps: too many values, or too much text in its keys. */
export class JsonLimitError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'JsonLimitError'
  }
}

export interface StreamJsonOptions {
  /** Strings longer than this (in UTF-16 code units) become CutStrings; keys are cut with a note. */
  maxStringChars: number
  /**
   * Characters kept over all strings, and again over all keys (default: no limit). Once spent, strings
   * keep nothing but their length, and a key that does not fit fails the reading.
   */
  maxKeptChars?: number
  /** Values (of any kind, containers included) accepted before the reading fails; default: no limit. */
  maxValues?: number
  /** The string at this path of object keys (e.g. ['outputs', 'out-0']) is kept up to maxStringChars, budget or not. */
  priorityPath?: string[]
  /**
   * Strings under this member of the root object (e.g. 'outputs') have a budget of their own, so that
   * they cannot starve the rest of the answer (its state, its error).
   */
  ownBudgetUnder?: string
  /** Deepest nesting of arrays and objects accepted; default 512. */
  maxDepth?: number
  /** Names the input in errors; default "the answer". */
  label?: string
}

type Container = { array: unknown[] } | { object: Record<string, unknown>; key?: string }

// Where the reader is between values.
type Expecting = 'value' | 'value-or-close' | 'comma-or-close' | 'key' | 'key-or-close' | 'colon' | 'end'

interface StringToken {
  kind: 'string'
  parts: string[]
  kept: number
  length: number
  bytes: number
  /** Which budget the string draws on; 'free' for the priority path. */
  pool: Pool
  /** A member of the root object: its first ROOT_FREE_CHARS characters are kept whatever the budget. */
  rootMember: boolean
  /** The last code unit was a high surrogate from an escape (a following escaped low one makes a pair). */
  highSurrogate: boolean
  /** Inside an escape: '' after the backslash, or the hex digits of \u so far. */
  escape: string | undefined
}

type Pool = 'free' | 'key' | 'under' | 'other'

// A short string of the root object (a run's state, its id) is always kept whole.
const ROOT_FREE_CHARS = 1024

type Token =
  | StringToken
  | { kind: 'number'; text: string }
  | { kind: 'literal'; text: string; expected: string; value: unknown }

const LITERALS: Record<string, { text: string; value: unknown }> = {
  t: { text: 'true', value: true },
  f: { text: 'false', value: false },
  n: { text: 'null', value: null },
}
const SIMPLE_ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
}
const NUMBER_PATTERN = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/
const NUMBER_CHARS = /[0-9+\-.eE]/
// A number longer than this cannot be one a flow means; refusing it keeps memory bounded.
const MAX_NUMBER_CHARS = 4096
// Where plain string content stops: the closing quote, an escape, or a control character (invalid).
// eslint-disable-next-line no-control-regex
const SPECIAL_IN_STRING = /["\\\u0000-\u001f]/g

function isWhitespace(c: string): boolean {
  return c === ' ' || c === '\n' || c === '\r' || c === '\t'
}

/** Feed it the answer's bytes with write(), then end() gives the value. */
export class StreamJsonReader {
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true })
  private readonly maxChars: number
  private readonly maxDepth: number
  private readonly maxValues: number
  private readonly priorityPath: string[] | undefined
  private readonly label: string
  private readonly ownBudgetUnder: string | undefined
  private readonly budgets: Record<Exclude<Pool, 'free'>, number>
  private values = 0
  private readonly stack: Container[] = []
  private expecting: Expecting = 'value'
  private token: Token | undefined
  private root: unknown
  /** Characters read so far, for error positions. */
  private position = 0

  constructor(options: StreamJsonOptions) {
    this.maxChars = options.maxStringChars
    this.maxDepth = options.maxDepth ?? 512
    this.maxValues = options.maxValues ?? Infinity
    const budget = options.maxKeptChars ?? Infinity
    this.budgets = { key: budget, under: budget, other: budget }
    this.ownBudgetUnder = options.ownBudgetUnder
    this.priorityPath = options.priorityPath
    this.label = options.label ?? 'the answer'
  }

  write(chunk: Uint8Array): void {
    this.read(this.decoder.decode(chunk, { stream: true }))
  }

  end(): unknown {
    this.read(this.decoder.decode())
    const token = this.token
    if (token?.kind === 'number') {
      this.token = undefined
      this.finishNumber(token.text)
    }
    if (this.expecting !== 'end' || this.token !== undefined) {
      throw this.error(
        this.position === 0 && this.expecting === 'value'
          ? 'it is empty'
          : 'it ends before the JSON is complete',
      )
    }
    return this.root
  }

  private error(what: string): JsonSyntaxError {
    return new JsonSyntaxError(`${this.label} is not valid JSON: ${what}`)
  }

  private unexpected(c: string, at: number): JsonSyntaxError {
    const shown =
      c < ' ' ? `U+${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}` : JSON.stringify(c)
    return this.error(`unexpected character ${shown} at position ${count(this.position + at)}`)
  }

  private read(text: string): void {
    let i = 0
    while (i < text.length) {
      const token = this.token
      if (token?.kind === 'string') {
        i = this.readString(token, text, i)
        continue
      }
      const c = text[i]
      if (token?.kind === 'number') {
        if (NUMBER_CHARS.test(c)) {
          token.text += c
          if (token.text.length > MAX_NUMBER_CHARS)
            throw this.error(`a number longer than ${count(MAX_NUMBER_CHARS)} characters`)
          i++
          continue
        }
        this.token = undefined
        this.finishNumber(token.text)
        continue
      }
      if (token?.kind === 'literal') {
        if (c !== token.expected[token.text.length]) throw this.unexpected(c, i)
        token.text += c
        i++
        if (token.text === token.expected) {
          this.token = undefined
          this.finishValue(token.value)
        }
        continue
      }
      i++
      if (isWhitespace(c)) continue
      switch (this.expecting) {
        case 'value':
        case 'value-or-close':
          if (c === ']' && this.expecting === 'value-or-close') this.close(c, i - 1)
          else this.startValue(c, i - 1)
          break
        case 'key':
        case 'key-or-close':
          if (c === '"') this.token = this.newString()
          else if (c === '}' && this.expecting === 'key-or-close') this.close(c, i - 1)
          else throw this.unexpected(c, i - 1)
          break
        case 'colon':
          if (c !== ':') throw this.unexpected(c, i - 1)
          this.expecting = 'value'
          break
        case 'comma-or-close': {
          const top = this.stack[this.stack.length - 1]
          if (c === ',') this.expecting = 'array' in top ? 'value' : 'key'
          else if (c === ']' || c === '}') this.close(c, i - 1)
          else throw this.unexpected(c, i - 1)
          break
        }
        case 'end':
          throw this.unexpected(c, i - 1)
      }
    }
    this.position += text.length
  }

  private startValue(c: string, at: number): void {
    if (c === '"') this.token = this.newString()
    else if (c === '-' || (c >= '0' && c <= '9')) this.token = { kind: 'number', text: c }
    else if (c in LITERALS)
      this.token = { kind: 'literal', text: c, expected: LITERALS[c].text, value: LITERALS[c].value }
    else if (c === '[' || c === '{') {
      if (this.stack.length >= this.maxDepth) throw this.error(`it nests deeper than ${this.maxDepth} levels`)
      const open: Container = c === '[' ? { array: [] } : { object: {} }
      this.attach('array' in open ? open.array : open.object)
      this.stack.push(open)
      this.expecting = c === '[' ? 'value-or-close' : 'key-or-close'
    } else throw this.unexpected(c, at)
  }

  private close(c: string, at: number): void {
    const top = this.stack[this.stack.length - 1]
    if ((c === ']') !== 'array' in top) throw this.unexpected(c, at)
    this.stack.pop()
    this.expecting = this.stack.length === 0 ? 'end' : 'comma-or-close'
  }

  /** Places a value in its container (or as the root); containers are placed when they open. */
  private attach(value: unknown): void {
    if (++this.values > this.maxValues)
      throw new JsonLimitError(
        `${this.label} holds more than ${count(this.maxValues)} values, more than kb-sync reads`,
      )
    const top = this.stack[this.stack.length - 1]
    if (top === undefined) this.root = value
    else if ('array' in top) top.array.push(value)
    else {
      const key = top.key as string
      // An own "__proto__" property, as JSON.parse makes, not a new prototype.
      if (key === '__proto__')
        Object.defineProperty(top.object, key, {
          value,
          writable: true,
          enumerable: true,
          configurable: true,
        })
      else top.object[key] = value
    }
  }

  private finishValue(value: unknown): void {
    this.attach(value)
    this.expecting = this.stack.length === 0 ? 'end' : 'comma-or-close'
  }

  private finishNumber(text: string): void {
    if (!NUMBER_PATTERN.test(text)) throw this.error(`${JSON.stringify(text)} is not a number`)
    this.finishValue(Number(text))
  }

  private newString(): StringToken {
    return {
      kind: 'string',
      parts: [],
      kept: 0,
      length: 0,
      bytes: 0,
      pool: this.poolOfNewString(),
      rootMember: this.stack.length === 1 && 'object' in this.stack[0] && !this.readingKey(),
      highSurrogate: false,
      escape: undefined,
    }
  }

  private readingKey(): boolean {
    return this.expecting === 'key' || this.expecting === 'key-or-close'
  }

  private poolOfNewString(): Pool {
    if (this.readingKey()) return 'key'
    const first = this.stack[0]
    const under = first !== undefined && 'object' in first && first.key === this.ownBudgetUnder
    const path = this.priorityPath
    if (
      path &&
      this.stack.length === path.length &&
      this.stack.every((open, depth) => 'object' in open && open.key === path[depth])
    )
      return 'free'
    return under ? 'under' : 'other'
  }

  private keep(token: StringToken, text: string): void {
    token.length += text.length
    const wanted = Math.min(this.maxChars - token.kept, text.length)
    if (wanted <= 0) return
    const pool = token.pool
    let room = wanted
    if (pool === 'key') {
      if (wanted > this.budgets.key)
        throw new JsonLimitError(`${this.label} has more text in its keys than kb-sync reads`)
      this.budgets.key -= wanted
    } else if (pool !== 'free' && !(token.rootMember && token.kept + wanted <= ROOT_FREE_CHARS)) {
      room = Math.min(wanted, this.budgets[pool])
      this.budgets[pool] -= room
    }
    if (room <= 0) return
    token.parts.push(room === text.length ? text : text.slice(0, room))
    token.kept += room
  }

  /** Reads string content from `text[i]` on; returns where it stopped. */
  private readString(token: StringToken, text: string, i: number): number {
    while (i < text.length) {
      if (token.escape !== undefined) {
        i = this.readEscape(token, text, i)
        continue
      }
      SPECIAL_IN_STRING.lastIndex = i
      const found = SPECIAL_IN_STRING.exec(text)
      const stop = found ? found.index : text.length
      if (stop > i) {
        const plain = text.slice(i, stop)
        this.keep(token, plain)
        token.bytes += Buffer.byteLength(plain, 'utf8')
        token.highSurrogate = false
      }
      if (!found) return text.length
      const c = found[0]
      if (c === '"') {
        this.token = undefined
        this.finishString(token)
        return stop + 1
      }
      if (c === '\\') {
        token.escape = ''
        i = stop + 1
        continue
      }
      throw this.unexpected(c, stop)
    }
    return i
  }

  private readEscape(token: StringToken, text: string, i: number): number {
    const c = text[i]
    if (token.escape === '') {
      if (c === 'u') {
        token.escape = 'u'
        return i + 1
      }
      const simple = SIMPLE_ESCAPES[c]
      if (simple === undefined) throw this.unexpected(c, i)
      token.escape = undefined
      this.keep(token, simple)
      token.bytes += 1
      token.highSurrogate = false
      return i + 1
    }
    if (!/[0-9a-fA-F]/.test(c)) throw this.unexpected(c, i)
    token.escape += c
    if (token.escape!.length < 5) return i + 1
    const unit = parseInt(token.escape!.slice(1), 16)
    token.escape = undefined
    this.keep(token, String.fromCharCode(unit))
    const high = unit >= 0xd800 && unit <= 0xdbff
    const low = unit >= 0xdc00 && unit <= 0xdfff
    // UTF-8: a pair is 4 bytes, a lone surrogate becomes U+FFFD (3 bytes); the high one counted 3 already.
    if (low && token.highSurrogate) token.bytes += 1
    else token.bytes += unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3
    token.highSurrogate = high
    return i + 1
  }

  private finishString(token: StringToken): void {
    const head = token.parts.join('')
    if (this.expecting === 'key' || this.expecting === 'key-or-close') {
      const top = this.stack[this.stack.length - 1] as { key?: string }
      top.key =
        head.length === token.length ? head : new CutString(head, token.length, token.bytes).toString()
      this.expecting = 'colon'
      return
    }
    this.finishValue(head.length === token.length ? head : new CutString(head, token.length, token.bytes))
  }
}

/** Parses a whole JSON text with the reader (mainly for tests and small inputs). */
export function parseJsonCapped(text: string | Uint8Array, options: StreamJsonOptions): unknown {
  const reader = new StreamJsonReader(options)
  reader.write(typeof text === 'string' ? Buffer.from(text, 'utf8') : text)
  return reader.end()
}
