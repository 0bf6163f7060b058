// A small XML writer (the JUnit report's): elements, attributes and text, every value escaped. Answers and
// check names can hold any character; XML 1.0 cannot carry some (control characters, lone surrogates,
// U+FFFE/U+FFFF) even escaped, so those are dropped — a file a reader refuses is worse than a lost byte.

/** An element: attributes in the order given (undefined ones left out), then its elements or its text. */
export interface XmlElement {
  name: string
  attributes?: Readonly<Record<string, string | number | undefined>>
  children?: readonly XmlElement[]
  /** Text content, kept as given (no indentation added); an element has children or text, not both. */
  text?: string
}

// Everything outside XML 1.0's Char production; with the u flag a lone surrogate is one code point here.
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu

/** The text without the characters XML 1.0 cannot carry. */
export const xmlChars = (text: string): string => text.replace(NOT_XML_CHAR, '')

const TEXT_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '\r': '&#13;',
}

// In an attribute a parser turns a raw newline or tab into a space: as references they survive.
const ATTRIBUTE_ESCAPES: Readonly<Record<string, string>> = {
  ...TEXT_ESCAPES,
  '"': '&quot;',
  '\n': '&#10;',
  '\t': '&#9;',
}

export const escapeText = (text: string): string => xmlChars(text).replace(/[&<>\r]/g, (c) => TEXT_ESCAPES[c])

export const escapeAttribute = (text: string): string =>
  xmlChars(text).replace(/[&<>"\r\n\t]/g, (c) => ATTRIBUTE_ESCAPES[c])

function renderElement(element: XmlElement, indent: string, out: string[]): void {
  const attributes = Object.entries(element.attributes ?? {})
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([name, value]) => ` ${name}="${escapeAttribute(String(value))}"`)
    .join('')
  const children = element.children ?? []
  if (element.text !== undefined && element.text !== '') {
    out.push(`${indent}<${element.name}${attributes}>${escapeText(element.text)}</${element.name}>`)
    return
  }
  if (children.length === 0) {
    out.push(`${indent}<${element.name}${attributes}/>`)
    return
  }
  out.push(`${indent}<${element.name}${attributes}>`)
  for (const child of children) renderElement(child, `${indent}  `, out)
  out.push(`${indent}</${element.name}>`)
}

/** A whole document: the UTF-8 declaration, then the root element, indented by two spaces a level. */
export function renderXmlDocument(root: XmlElement): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>']
  renderElement(root, '', out)
  return `${out.join('\n')}\n`
}
