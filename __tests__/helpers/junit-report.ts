// The JUnit report as test reporters read it: validated against the JUnit schema with libxml2's
// validator (xmllint-wasm), and parsed into test cases for the assertions (no string matching).
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { XMLParser } from 'fast-xml-parser'
import { validateXML } from 'xmllint-wasm'

const SCHEMA = readFileSync(
  join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'junit', 'junit.xsd'),
  'utf8',
)

/** libxml2's verdict on the document against the schema: its errors, [] when valid. */
export async function junitSchemaErrors(xml: string): Promise<string[]> {
  const result = await validateXML({
    xml: [{ fileName: 'report.xml', contents: xml }],
    schema: [{ fileName: 'junit.xsd', contents: SCHEMA }],
  })
  return result.valid ? [] : result.errors.map((error) => error.rawMessage)
}

/**
 * The document as a conforming parser reads it (libxml2's canonical XML): attribute values after the
 * normalization every such parser applies (a raw line break in an attribute becomes a space).
 */
export async function canonicalXml(xml: string): Promise<string> {
  const result = await validateXML({
    xml: [{ fileName: 'report.xml', contents: xml }],
    normalization: 'c14n',
  })
  return result.normalized
}

export interface ParsedCase {
  name: string
  classname?: string
  time: number
  outcome: 'passed' | 'failure' | 'error' | 'skipped'
  message?: string
  type?: string
  /** The text of the failure, error or skipped element. */
  text?: string
  output: string
}

export interface ParsedReport {
  suites: Record<string, string>
  suite: Record<string, string>
  properties: Record<string, string>
  cases: ParsedCase[]
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  textNodeName: '#text',
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: false,
  // Character references (&#10; in an attribute) read as the characters they stand for.
  htmlEntities: true,
  isArray: (name) => ['testsuite', 'testcase', 'property'].includes(name),
})

type Node = Record<string, unknown>

const textOf = (node: unknown): string | undefined =>
  node === undefined
    ? undefined
    : typeof node === 'string'
      ? node
      : (((node as Node)['#text'] as string) ?? '')

/** The report's suites, the one suite, its properties and its test cases. */
export function parseJUnit(xml: string): ParsedReport {
  const root = (parser.parse(xml) as Node).testsuites as Node
  const suite = (root.testsuite as Node[])[0]
  const attributes = (node: Node) =>
    Object.fromEntries(Object.entries(node).filter(([, value]) => typeof value === 'string')) as Record<
      string,
      string
    >
  const properties = Object.fromEntries(
    (((suite.properties as Node | undefined)?.property as Node[] | undefined) ?? []).map((p) => [
      p.name as string,
      p.value as string,
    ]),
  )
  const cases = ((suite.testcase as Node[] | undefined) ?? []).map((node): ParsedCase => {
    const outcome = (['failure', 'error', 'skipped'] as const).find((name) => name in node) ?? 'passed'
    const element = outcome === 'passed' ? undefined : (node[outcome] as Node | string)
    return {
      name: node.name as string,
      classname: node.classname as string | undefined,
      time: Number(node.time),
      outcome,
      ...(typeof element === 'object' && element.message !== undefined
        ? { message: element.message as string }
        : {}),
      ...(typeof element === 'object' && element.type !== undefined ? { type: element.type as string } : {}),
      ...(element !== undefined ? { text: textOf(element) } : {}),
      output: textOf(node['system-out']) ?? '',
    }
  })
  return { suites: attributes(root), suite: attributes(suite), properties, cases }
}
